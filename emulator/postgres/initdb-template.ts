/**
 * initdb for the emulator's clusters (pg-cluster.ts), and a template of its
 * result that many clusters copy.
 *
 * Why a template: every test file starts its own cluster, and initdb is the
 * costly part of a start (about 0.75 s of CPU, bootstrapping the catalogs
 * in single-user mode) while a copy of its ~40 MB result costs about 0.3 s.
 * When {@link TEMPLATE_ENV} names a folder (jest's globalSetup makes one for
 * `npm test` and its teardown removes it), the first cluster of each kind
 * (programs, server user, superuser, auth method, initdb flags) runs initdb
 * into a template there, and every cluster of that kind copies it. The
 * template is never started, so each copy is what initdb would have made,
 * with the template's superuser password. Without the variable (the demo,
 * `npm run emulator`, the benchmarks) each cluster runs initdb itself.
 */
import { randomBytes, createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chown, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PostgresStartError, spawnWatched } from '../child.js'
import type { PostgresBinaries } from './pg-binaries.js'

/** The variable naming a folder for initdb templates (set by `__tests__/global-setup.js`). */
export const TEMPLATE_ENV = 'PREVIEW_PG_TEMPLATE_DIR'

/** What initdb is run with. */
export interface InitdbOptions {
  /** The bootstrap superuser and its password. */
  user: string
  password: string
  /** initdb's `--auth`, e.g. `scram-sha-256`. */
  authMethod: string
  initdbFlags: string[]
  /** Receives initdb's output as it comes. */
  onLog: (text: string) => void
}

/** initdb's or postgres's own reason, from its output: the last error line, or else the last line. */
export function reasonOf(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  return [...lines].reverse().find((l) => /\b(FATAL|PANIC|ERROR|error):/.test(l)) ?? lines.at(-1) ?? 'no output'
}

/** The uid and gid the server's programs run as (none when they run as us). */
export function idsOf(binaries: PostgresBinaries): { uid?: number; gid?: number } {
  const u = binaries.runAs
  return u ? { uid: u.uid, gid: u.gid } : {}
}

/** ` as the user "postgres"` when the programs run as another user, else ''. */
export function asWhom(binaries: PostgresBinaries): string {
  return binaries.runAs ? ` as the user "${binaries.runAs.name}"` : ''
}

/** Gives `file` to the server's user (when we are root), so the server can read it. */
export async function chownToServer(binaries: PostgresBinaries, file: string): Promise<void> {
  const u = binaries.runAs
  if (u) await chown(file, u.uid, u.gid)
}

/**
 * Runs initdb into `<runDir>/data` (`runDir` exists and belongs to the server's user).
 * @throws PostgresStartError when initdb cannot be run or fails (its own reason).
 */
export async function initdb(binaries: PostgresBinaries, runDir: string, o: InitdbOptions): Promise<void> {
  const pwfile = path.join(runDir, 'pwfile')
  await writeFile(pwfile, `${o.password}\n`, { mode: 0o600 })
  await chownToServer(binaries, pwfile)
  const program = path.join(binaries.bin, 'initdb')
  let output = ''
  const { child, exited } = spawnWatched(
    program,
    [`--pgdata=${path.join(runDir, 'data')}`, `--auth=${o.authMethod}`, `--username=${o.user}`, `--pwfile=${pwfile}`, ...o.initdbFlags],
    { ...idsOf(binaries), cwd: runDir, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  const collect = (d: Buffer): void => {
    output += d.toString()
    o.onLog(d.toString())
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const r = await exited
  await rm(pwfile, { force: true })
  if (r.errorCode) {
    throw new PostgresStartError(
      `cannot run ${program}${asWhom(binaries)} (${r.errorCode})`,
      `make ${binaries.bin} readable and executable for that user, or run npm ci again`
    )
  }
  if (r.code !== 0) {
    throw new PostgresStartError(
      `initdb failed in ${runDir} (${r.signal ?? `exit ${r.code}`}: ${reasonOf(output)})`,
      'free space in the temp folder, or set TMPDIR to another folder'
    )
  }
}

/**
 * The template for clusters like `o` under `base`: `<base>/initdb-<key>/data`
 * and its superuser's password, made once by initdb. Safe under
 * concurrency (jest's workers): each maker runs initdb in its own folder
 * and renames it into place (atomic); the loser of the race removes its own.
 * @throws PostgresStartError when initdb fails (its own reason)
 */
export async function initdbTemplate(
  base: string,
  binaries: PostgresBinaries,
  o: InitdbOptions
): Promise<{ dataDir: string; password: string }> {
  const key = createHash('sha256')
    .update(JSON.stringify([binaries.bin, binaries.runAs?.uid ?? null, o.user, o.authMethod, o.initdbFlags]))
    .digest('hex')
    .slice(0, 16)
  const target = path.join(base, `initdb-${key}`)
  if (!existsSync(target)) {
    const temp = await mkdtemp(path.join(base, `.initdb-${key}-`))
    try {
      await chownToServer(binaries, temp)
      const password = `admin_${randomBytes(12).toString('hex')}`
      await initdb(binaries, temp, { ...o, password })
      await writeFile(path.join(temp, 'password'), password, { mode: 0o600 })
      await rename(temp, target)
    } catch (err) {
      await rm(temp, { recursive: true, force: true })
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err
    }
  }
  return { dataDir: path.join(target, 'data'), password: await readFile(path.join(target, 'password'), 'utf8') }
}

/**
 * Copies a template's data folder to `dataDir` (which must not exist) as the
 * server's user, modes kept (`cp -a`), so the copy belongs to that user.
 * @throws PostgresStartError when the copy fails
 */
export async function copyDataDir(template: string, dataDir: string, binaries: PostgresBinaries): Promise<void> {
  let output = ''
  const { child, exited } = spawnWatched('cp', ['-a', template, dataDir], { ...idsOf(binaries), stdio: ['ignore', 'ignore', 'pipe'] })
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const r = await exited
  if (r.errorCode || r.code !== 0) {
    throw new PostgresStartError(
      `could not copy the initdb template ${template}${asWhom(binaries)} (${r.errorCode ?? reasonOf(output)})`,
      'free space in the temp folder, or set TMPDIR to another folder'
    )
  }
}

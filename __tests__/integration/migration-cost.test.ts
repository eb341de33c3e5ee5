/**
 * src/migration-cost against a real PostgreSQL 17 (the emulator's): a user
 * command (psql, as `seed-command` runs it) on a database holding a
 * 300,000-row table, measured: rewrites from the tables' storage before and
 * after, lock holds from the watcher's samples, the report and its lines.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { type Connection, describeConnection } from '../../src/connection.js'
import { endSessions } from '../../src/pg-sessions.js'
import { measureCommand } from '../../src/migration-cost/measure.js'
import { COMMAND_APPLICATION_NAME, WATCHER_APPLICATION_NAME } from '../../src/migration-cost/watcher.js'
import { ADMIN_USER, PostgresServer } from '../../emulator/postgres/postgres.js'

const ROWS = 300_000
/** A value no report may contain: the report holds names, counts and sizes only. */
const ROW_VALUE = 'row-value-never-reported'

let server: PostgresServer
let n = 0

beforeAll(async () => {
  server = await PostgresServer.start({ hostPattern: 'localhost' })
  await server.createDatabase('big_tpl', ADMIN_USER)
  await server.query(
    'big_tpl',
    `CREATE TABLE orders (id int PRIMARY KEY, amount int NOT NULL, note text);
     INSERT INTO orders SELECT g, g % 1000, '${ROW_VALUE}' FROM generate_series(1, ${ROWS}) g;
     ANALYZE orders;
     CREATE TABLE events (id int, kind text) WITH (autovacuum_enabled = false);
     INSERT INTO events SELECT g, 'k' || (g % 7) FROM generate_series(1, 12345) g;
     CREATE TABLE lookup (id int PRIMARY KEY, label text);
     INSERT INTO lookup SELECT g, 'l' || g FROM generate_series(1, 50) g;`
  )
}, 120_000)

afterAll(async () => {
  await endSessions()
  await server?.stop()
})

/** A fresh copy of the template database, and its connection as the emulator's superuser (no TLS: this process trusts no test CA). */
async function database(): Promise<Connection> {
  const name = `cost_${++n}`
  await server.createDatabase(name, ADMIN_USER, { template: 'big_tpl' })
  const url = `postgresql://${ADMIN_USER}:${encodeURIComponent(server.adminPassword)}@127.0.0.1:${server.port}/${name}?sslmode=disable`
  return describeConnection(url, url)
}

/** Runs `sql` with psql as `seed-command` would (libpq's variables, plus `env`); resolves with psql's exit code. */
function psql(c: Connection, sql: string): (env: Record<string, string>) => Promise<number> {
  return (env) =>
    new Promise((resolve, reject) => {
      const child = spawn('psql', ['-X', '-q', '-o', '/dev/null', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
        env: {
          PATH: process.env.PATH ?? '',
          PGHOST: c.directHost,
          PGPORT: c.port,
          PGUSER: c.user,
          PGPASSWORD: c.password,
          PGDATABASE: c.database,
          PGSSLMODE: 'disable',
          ...env
        },
        stdio: ['ignore', 'inherit', 'inherit']
      })
      child.on('error', reject)
      child.on('exit', (code) => resolve(code ?? -1))
    })
}

async function measured(sql: string): Promise<NonNullable<Awaited<ReturnType<typeof measureCommand>>['measured']>> {
  const c = await database()
  const { result, measured } = await measureCommand(c, true, psql(c, sql))
  expect(result).toBe(0)
  expect(measured).toBeDefined()
  return measured!
}

describe('measureCommand', () => {
  it('ALTER COLUMN … TYPE bigint on a 300,000-row table: a rewrite with its rows, and its ACCESS EXCLUSIVE hold', async () => {
    const m = await measured('ALTER TABLE orders ALTER COLUMN amount TYPE bigint')
    expect(m.cost.rewrites).toHaveLength(1)
    const [r] = m.cost.rewrites
    expect(r.table).toBe('public.orders')
    expect(Math.abs(r.rows - ROWS)).toBeLessThan(ROWS * 0.01)
    expect(r.bytes).toBeGreaterThan(10 * 1024 * 1024)
    const ae = m.cost.locks.find((l) => l.relation === 'public.orders' && l.mode === 'AccessExclusiveLock')
    expect(ae).toBeDefined()
    expect(ae!.heldMs).toBeGreaterThan(100)
    expect(m.lines).toHaveLength(1)
    expect(m.lines[0]).toMatch(
      /^- `public\.orders` \(300,000 rows, \d+ MB\): \*\*rewritten\*\*, under an ACCESS EXCLUSIVE lock seen held [\d.]+ (ms|s)/
    )
    expect(m.lines[0]).toContain('add a new column, backfill it in batches')
    const file = readFileSync(m.file, 'utf8')
    expect(JSON.parse(file)).toEqual(m.cost)
    expect(file).not.toContain(ROW_VALUE)
  })

  it('adding a nullable column rewrites nothing and lists nothing', async () => {
    const m = await measured('ALTER TABLE orders ADD COLUMN shipped_at timestamptz')
    expect(m.cost.rewrites).toEqual([])
    expect(m.cost.truncations).toEqual([])
    expect(m.lines).toEqual([])
    // its ACCESS EXCLUSIVE lock is brief (shorter than a sample, mostly unseen)
    expect(m.cost.locks.find((l) => l.relation === 'public.orders' && l.mode === 'AccessExclusiveLock')?.heldMs ?? 0).toBeLessThan(100)
  })

  it('CREATE INDEX without CONCURRENTLY on a large table shows its SHARE lock, and says CONCURRENTLY', async () => {
    const m = await measured('CREATE INDEX orders_amount ON orders (amount, note)')
    expect(m.cost.rewrites).toEqual([])
    const share = m.cost.locks.find((l) => l.relation === 'public.orders' && l.mode === 'ShareLock')
    expect(share).toBeDefined()
    expect(share!.heldMs).toBeGreaterThan(100)
    expect(m.lines).toEqual([
      expect.stringMatching(/^- `public\.orders` \(300,000 rows, .*\*\*SHARE lock\*\* seen held .*CREATE INDEX CONCURRENTLY/)
    ])
  })

  it('TRUNCATE is not a rewrite: its table is listed as emptied, with its rows before', async () => {
    const m = await measured('TRUNCATE events')
    expect(m.cost.rewrites).toEqual([])
    expect(m.cost.truncations).toEqual([{ table: 'public.events', rows: 12345, bytes: expect.any(Number) }])
    expect(m.lines).toEqual([expect.stringContaining('`public.events` (12,345 rows, ') as unknown as string])
    expect(m.lines[0]).toContain('emptied by TRUNCATE')
  })

  it('new and temporary tables are not rewrites; a small rewrite is counted, not detailed; an unanalyzed table is counted exactly', async () => {
    const m = await measured(
      'CREATE TABLE fresh AS SELECT * FROM lookup; CREATE TEMP TABLE scratch AS SELECT * FROM orders LIMIT 10; ' +
        'ALTER TABLE lookup ALTER COLUMN id TYPE bigint; ALTER TABLE events ALTER COLUMN id TYPE bigint'
    )
    expect(m.cost.rewrites.map((r) => [r.table, r.rows])).toEqual([
      ['public.events', 12345],
      ['public.lookup', 50]
    ])
    expect(m.lines).toHaveLength(2)
    expect(m.lines[0]).toMatch(/^- `public\.events` \(12,345 rows/)
    expect(m.lines[1]).toBe('- 1 more rewrite of table of 10,000 rows or fewer (listed in the `migration-report` file).')
  })

  it("attributes the command's sessions by application_name, or by role after the watcher connected; never a session from before", async () => {
    const c = await database()
    // A client of the same role, connected before the command (say, the application), holding a lock throughout.
    const app = new pg.Client({ connectionString: c.directUrl, application_name: 'app' })
    await app.connect()
    await app.query('BEGIN; LOCK TABLE lookup IN SHARE MODE')
    try {
      // The command: psql (PGAPPNAME), then a client that names itself (JDBC-like) and locks events.
      const both = psql(c, 'LOCK TABLE orders IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(0.6)')
      const { measured } = await measureCommand(c, true, async (env) => {
        expect(env.PGAPPNAME).toBe(COMMAND_APPLICATION_NAME)
        expect(await both(env)).toBe(0)
        const named = new pg.Client({ connectionString: c.directUrl, application_name: 'Flyway' })
        await named.connect()
        await named.query('BEGIN; LOCK TABLE events IN EXCLUSIVE MODE; SELECT pg_sleep(0.4); COMMIT')
        await named.end()
      })
      // Both command sessions' locks are attributed and seen held across samples. How much of the hold the samples
      // see depends on how often a loaded machine lets the watcher run, so the held times are not compared to the sleeps.
      const locks = measured!.cost.locks
      expect(locks.find((l) => l.relation === 'public.orders' && l.mode === 'AccessExclusiveLock')?.heldMs).toBeGreaterThan(0)
      expect(locks.find((l) => l.relation === 'public.events' && l.mode === 'ExclusiveLock')?.heldMs).toBeGreaterThan(0)
      expect(locks.filter((l) => l.relation === 'public.lookup')).toEqual([])
    } finally {
      await app.query('COMMIT')
      await app.end()
    }
  })

  it('samples at least every 20 ms: a lock held 60 ms is seen for at least 20 ms of it', async () => {
    const m = await measured('BEGIN; LOCK TABLE lookup IN SHARE ROW EXCLUSIVE MODE; SELECT pg_sleep(0.06); COMMIT')
    expect(m.cost.locks.find((l) => l.relation === 'public.lookup' && l.mode === 'ShareRowExclusiveLock')?.heldMs).toBeGreaterThanOrEqual(
      20
    )
    expect(m.lines).toEqual([]) // a small table
  })

  it("the watcher's loop ends with its connection: no session of it is left on the server", async () => {
    const m = await measured('SELECT pg_sleep(0.1)')
    expect(m.cost).toEqual({ rewrites: [], locks: [], truncations: [] })
    const left = async (): Promise<number> =>
      Number(
        (
          await server.query('postgres', 'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [
            WATCHER_APPLICATION_NAME
          ])
        )[0].n
      )
    for (let i = 0; i < 20 && (await left()) > 0; i++) await new Promise((r) => setTimeout(r, 100))
    expect(await left()).toBe(0)
  })

  it('a watcher whose connection ends during the command is a warning; rewrites are still reported', async () => {
    const c = await database()
    const written: string[] = []
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk))
      return true
    })
    try {
      const { result, measured } = await measureCommand(
        c,
        true,
        psql(
          c,
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${WATCHER_APPLICATION_NAME}'; ALTER TABLE events ALTER COLUMN id TYPE bigint`
        )
      )
      expect(result).toBe(0)
      expect(measured!.cost.rewrites).toEqual([{ table: 'public.events', rows: 12345, bytes: expect.any(Number) }])
      expect(measured!.cost.locksUnavailable).toMatch(/terminat/)
      expect(written.join('')).toMatch(/::warning::The lock watcher stopped early \(.*terminat.*\): lock times may be missing/)
    } finally {
      write.mockRestore()
    }
  })

  it('a statement_timeout the command set on the database does not stop the snapshot after it', async () => {
    const c = await database()
    const { measured } = await measureCommand(
      c,
      true,
      psql(c, `ALTER TABLE events ALTER COLUMN id TYPE bigint; ALTER DATABASE ${c.database} SET statement_timeout = 1`)
    )
    expect(measured!.cost.rewrites.map((r) => r.table)).toEqual(['public.events'])
  })

  it('a watcher that cannot connect is a warning; the command runs unmeasured', async () => {
    const c = await database()
    const refused = describeConnection(c.directUrl.replace(`:${server.port}/`, ':1/'))
    const written: string[] = []
    const warn = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk))
      return true
    })
    try {
      const ran: Record<string, string>[] = []
      const { result, measured } = await measureCommand(refused, true, async (env) => {
        ran.push(env)
        return 'ran'
      })
      expect(result).toBe('ran')
      expect(measured).toBeUndefined()
      expect(ran).toEqual([{ PGAPPNAME: COMMAND_APPLICATION_NAME }])
      expect(written.join('')).toMatch(
        /::warning::Could not watch the command's locks \(connect ECONNREFUSED [^)]*\): its migration cost is not measured/
      )
    } finally {
      warn.mockRestore()
    }
  })

  it('unmeasured (a database without data): no connection at all', async () => {
    const c = await database()
    const count = async (): Promise<number> =>
      Number((await server.query('postgres', 'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [c.database]))[0].n)
    const { result, measured } = await measureCommand(c, false, async () => count())
    expect(measured).toBeUndefined()
    expect(result).toBe(0)
  })
})

/**
 * What measuring a migration's cost (src/migration-cost) adds: the same
 * migration, run by psql as `seed-command` runs it, on fresh copies of a
 * database holding a BENCH_ROWS-row table (default 300,000), once measured
 * (the lock watcher and both storage snapshots) and once not, in alternating
 * order so the two sides of a pair see the same machine load. PostgreSQL 17
 * is reached through emulator/delay-proxy.ts, BENCH_DELAY_MS each way
 * (default 10: a 20 ms round trip; 0 for loopback), by psql and by the
 * action's code alike. Prints each pair, the medians of the whole measured
 * call and of the migration alone, their ratios, and the server CPU time of
 * the watcher's backend (from /proc; the server is local). Not a test.
 *
 *   npm run bench:migration-cost -- [rounds]   (rounds default 5)
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { ADMIN_USER, PostgresServer } from '../emulator/postgres/postgres.js'
import { startDelayProxy } from '../emulator/delay-proxy.js'
import { describeConnection } from '../src/connection.js'
import { endSessions } from '../src/pg-sessions.js'
import { measureCommand } from '../src/migration-cost/measure.js'
import { WATCHER_APPLICATION_NAME } from '../src/migration-cost/watcher.js'
import { median, loadAverage } from './stats.js'

const rounds = Number(process.argv[2] ?? 5)
const rows = Number(process.env.BENCH_ROWS ?? 300_000)
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 10)
const MIGRATION =
  'ALTER TABLE orders ALTER COLUMN amount TYPE bigint; CREATE INDEX orders_note ON orders (note); ALTER TABLE orders ADD COLUMN shipped_at timestamptz'
/** utime + stime of a process, in milliseconds (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const server = await PostgresServer.start({ hostPattern: 'localhost' })
const proxy = await startDelayProxy(server.port, delayMs)
await server.createDatabase('bench_tpl', ADMIN_USER)
await server.query(
  'bench_tpl',
  `CREATE TABLE orders (id int PRIMARY KEY, amount int NOT NULL, note text);
   INSERT INTO orders SELECT g, g % 1000, md5(g::text) FROM generate_series(1, ${rows}) g;
   ANALYZE orders;`
)
let n = 0
const side = { measured: { total: [] as number[], migration: [] as number[] }, plain: { total: [] as number[], migration: [] as number[] } }
/** Measured runs: time from the call to the command's start, and from its exit to the call's return (ms). */
const around = { before: [] as number[], after: [] as number[] }
const watcherCpu: number[] = []
try {
  console.log(
    `${rows.toLocaleString('en-US')}-row table; ${delayMs} ms each way (${2 * delayMs} ms RTT); ${rounds} round(s); load average ${loadAverage()}\nmigration: ${MIGRATION}`
  )
  for (let i = 0; i < rounds; i++) {
    const pair: Record<string, { total: number; migration: number }> = {}
    for (const measured of i % 2 ? [false, true] : [true, false]) {
      const db = `bench_${++n}`
      await server.createDatabase(db, ADMIN_USER, { template: 'bench_tpl' })
      const url = `postgresql://${ADMIN_USER}:${encodeURIComponent(server.adminPassword)}@127.0.0.1:${proxy.port}/${db}?sslmode=disable`
      const c = describeConnection(url, url)
      let migration = 0
      let ended = 0
      const started = performance.now()
      await measureCommand(c, measured, async (env) => {
        const t = performance.now()
        if (measured) around.before.push(t - started)
        const code = await new Promise<number | null>((resolve, reject) => {
          const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', MIGRATION], {
            env: {
              ...process.env,
              PGHOST: '127.0.0.1',
              PGPORT: String(proxy.port),
              PGUSER: ADMIN_USER,
              PGPASSWORD: server.adminPassword,
              PGDATABASE: db,
              PGSSLMODE: 'disable',
              ...env
            },
            stdio: ['ignore', 'inherit', 'inherit']
          })
          child.on('error', reject)
          child.on('exit', resolve)
        })
        migration = performance.now() - t
        if (code !== 0) throw new Error(`psql exited with ${code}`)
        if (measured) {
          const [w] = await server.query('postgres', 'SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
            WATCHER_APPLICATION_NAME
          ])
          if (w) watcherCpu.push(cpuMs(Number(w.pid)) / (migration / 1000))
        }
        ended = performance.now()
      })
      const total = performance.now() - started
      if (measured) around.after.push(performance.now() - ended)
      await endSessions()
      const s = side[measured ? 'measured' : 'plain']
      s.total.push(total)
      s.migration.push(migration)
      pair[measured ? 'measured' : 'plain'] = { total, migration }
      await server.dropDatabase(db)
    }
    const f = (x: { total: number; migration: number }): string => `${Math.round(x.total)} ms (migration ${Math.round(x.migration)} ms)`
    console.log(`  round ${i + 1}: measured ${f(pair.measured)}, not measured ${f(pair.plain)}`)
  }
  const [mt, pt, mm, pm] = [
    median(side.measured.total),
    median(side.plain.total),
    median(side.measured.migration),
    median(side.plain.migration)
  ]
  console.log(
    `medians: whole call measured ${Math.round(mt)} ms, not measured ${Math.round(pt)} ms: ratio ${(mt / pt).toFixed(3)}, +${Math.round(mt - pt)} ms; ` +
      `the migration alone ${Math.round(mm)} ms vs ${Math.round(pm)} ms: ratio ${(mm / pm).toFixed(3)}; ` +
      `measuring adds ${Math.round(median(around.before))} ms before the command (watcher's connection, "before" query) and ${Math.round(median(around.after))} ms after it ` +
      `(last report, closing, "after" query on a new session); watcher backend CPU ${median(watcherCpu).toFixed(0)} ms per second watched; load average ${loadAverage()}`
  )
} finally {
  await endSessions()
  await proxy.close()
  await server.stop()
}

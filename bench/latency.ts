/**
 * The cost of a whole run over a real link: a TCP proxy on
 * loopback (emulator/delay-proxy.ts) adds BENCH_DELAY_MS milliseconds each way
 * (default 10, so a 20 ms round trip, as between a runner and a database in
 * another region) between the emulator's PostgreSQL 17 and both clients: the
 * action, run as the runner runs it (dist/index.js on Node 24, instant mode,
 * `comment: false`, otherwise defaults; the instant service hands out
 * connection strings with the proxy's port), and `psql -X -q -v
 * ON_ERROR_STOP=1 -1 -f`. Each load runs `rounds` times with each client,
 * alternating, each into a fresh database (its own login role, as the
 * instant service makes them). Prints per load: psql's wall time, the
 * action's main step (Node's start to its exit), main + post step, its seed
 * phase (the loader's own "Seeded … in X s": connect to COMMIT), the main
 * step without its provisioning phase (the instant service's create: here
 * the emulator's CREATE DATABASE, whose time varies with the cluster, and
 * which psql, loading into a database that exists, does not pay), the ratios
 * to psql, and the PostgreSQL connections each opened (counted at the
 * proxy). Then the same with a `seed-command` that runs one migration with
 * psql (its own connection is counted too); psql's side is then the load
 * plus that migration run by psql alone. The instant service's HTTP API is
 * not delayed unless BENCH_API_DELAY_MS says so; BENCH_INPUTS (JSON) adds
 * inputs to every run, e.g. `{"compare-schema": "false"}`. Not a test: it
 * prints figures.
 *
 *   npm run bench:latency -- [rounds] [folder ...]   (rounds default 3)
 *
 * Loads: the generated pg_dump (__tests__/fixtures/generate.ts, about
 * BENCH_LATENCY_MB MiB, default 6); a small one (scale BENCH_SMALL_SCALE,
 * default 200: about 3,400 rows); the small one dumped with --inserts (one
 * round trip a row for psql: at 20 ms RTT about a minute, so psql runs it
 * BENCH_INSERTS_PSQL_ROUNDS times, default 1); a dump of few statements (one
 * table of 8,800 rows, the shape of a small catalog dump: a dozen SET and DDL
 * statements and one COPY, where psql's round trips are few and the action's
 * fixed cost shows most); then each folder given (the
 * files its LOAD file lists, else its *.sql sorted). Dumps are made with
 * `--no-owner --no-privileges`, since psql, unlike the action, stops at an
 * OWNER TO naming a role the database lacks. Bounded: every psql is killed
 * after BENCH_PSQL_TIMEOUT_S seconds (default 300), every run after 120 s.
 * BENCH_ONLY (a regular expression) keeps the loads whose names match it;
 * BENCH_NODE_OPTIONS is the action's NODE_OPTIONS (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` to see where its CPU time goes).
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { folderFiles } from './folder-files.js'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { DNS_SHIM } from '../emulator/runner/runner.js'
import { InstantService } from '../emulator/instant/instant.js'
import { generateDump, generateDumpOfSize } from '../__tests__/fixtures/generate.js'
import { DumpSource } from '../__tests__/pg-dump-source.js'
import { startDelayProxy, throughProxy } from '../emulator/delay-proxy.js'
import { median, loadAverage } from './stats.js'

const args = process.argv.slice(2)
const rounds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 3
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 10)
const apiDelayMs = Number(process.env.BENCH_API_DELAY_MS ?? 0)
const seedMiB = Number(process.env.BENCH_LATENCY_MB ?? 6)
const smallScale = Number(process.env.BENCH_SMALL_SCALE ?? 200)
const insertsPsqlRounds = Number(process.env.BENCH_INSERTS_PSQL_ROUNDS ?? 1)
const psqlTimeoutMs = Number(process.env.BENCH_PSQL_TIMEOUT_S ?? 300) * 1000
/** More inputs for every run of the action, e.g. `{"compare-schema": "false"}`. */
const extraInputs = JSON.parse(process.env.BENCH_INPUTS ?? '{}') as Record<string, string>
const only = new RegExp(process.env.BENCH_ONLY ?? '')
/** One table of `rows` rows: a dozen statements and one COPY once dumped. */
const fewStatementsSql = (rows: number): string =>
  'CREATE TABLE titles (id text PRIMARY KEY, kind text NOT NULL, title text NOT NULL, director text, cast_list text, ' +
  'country text, added date, release_year int, rating text, duration text, genres text, description text);\n' +
  `INSERT INTO titles SELECT 's' || i, CASE WHEN i % 3 = 0 THEN 'TV Show' ELSE 'Movie' END, 'Title number ' || i, ` +
  `'Director ' || (i % 997), 'Actor ' || (i % 101) || ', Actor ' || (i % 103) || ', Actor ' || (i % 107), 'Country ' || (i % 50), ` +
  `date '2015-01-01' + (i % 2500), 1950 + i % 72, 'TV-' || (i % 5), (60 + i % 90) || ' min', 'Dramas, International', ` +
  `repeat('A story of ' || i || '. ', 6) FROM generate_series(1, ${rows}) i;\n`

interface Load {
  name: string
  files: string[]
  psqlRounds: number
  /** psql's median for this load, once measured. */
  psqlMs?: number
}

const emu = await startEmulator()
const pgProxy = await startDelayProxy(emu.pg.port, delayMs)
// The instant service as the action sees it: the same PostgreSQL, reached through the proxy.
const instant = new InstantService(throughProxy(emu.pg, pgProxy.port))
await instant.server.listen()
const apiProxy = apiDelayMs > 0 ? await startDelayProxy(Number(new URL(instant.url).port), apiDelayMs) : undefined
const instantUrl = apiProxy ? `http://127.0.0.1:${apiProxy.port}` : instant.url
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-latency-'))
const migration = path.join(work, 'migration.sql')
writeFileSync(
  migration,
  'CREATE TABLE bench_migration (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text NOT NULL);\n' +
    'CREATE INDEX bench_migration_note ON bench_migration (note);\n'
)
const seedCommand = `PGHOSTADDR=127.0.0.1 psql -X -q -v ON_ERROR_STOP=1 -1 -f '${migration}'`
let pr = 1000
let n = 0

/** A fresh database with its own login role, as the instant service makes them; its URL through the proxy. */
async function freshDatabase(): Promise<{ url: string; database: string }> {
  const database = `bench_psql_${++n}`
  const role = `bench_role_${n}`
  const password = `pw_${n}_${Date.now()}`
  await emu.pg.createRole(role, password)
  await emu.pg.createDatabase(database, role)
  return { url: `postgresql://${role}:${password}@127.0.0.1:${pgProxy.port}/${database}?sslmode=require&channel_binding=require`, database }
}

/** Drops every database the instant service made so far (the cluster stays small). */
async function dropInstantDatabases(): Promise<void> {
  for (const [id, r] of instant.databases) {
    await emu.pg.admin.query(`DROP DATABASE IF EXISTS "${r.database}" WITH (FORCE)`)
    instant.databases.delete(id)
  }
}

/** Runs psql over the proxy on `files` in one transaction. @returns wall ms and the connections it opened. */
async function psql(files: string[]): Promise<{ ms: number; connections: number }> {
  const { url, database } = await freshDatabase()
  await emu.pg.admin.query('CHECKPOINT')
  const before = pgProxy.accepted
  const started = process.hrtime.bigint()
  const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-1', ...files.flatMap((f) => ['-f', f]), url], {
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), psqlTimeoutMs)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(timer)
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  await emu.pg.admin.query(`DROP DATABASE "${database}" WITH (FORCE)`)
  if (code !== 0) throw new Error(`psql failed (${code}): ${stderr.slice(0, 500)}`)
  return { ms, connections: pgProxy.accepted - before }
}

interface Run {
  /** The main step, spawn to exit; main + post; the seed phase; all ms. */
  mainMs: number
  totalMs: number
  seedMs: number
  connections: number
  statements: string
  /** The run's phase trace as its log printed it (src/phases.ts). */
  trace: string
  /** The trace's provisioning phase (the service's create, the emulator's CREATE DATABASE), ms. */
  provisioningMs: number
}

/** Runs the bundled action once (a new PR, so a new database). */
async function action(files: string[], withCommand: boolean): Promise<Run> {
  await emu.pg.admin.query('CHECKPOINT')
  const before = pgProxy.accepted
  const started = Date.now()
  const r = await emu.run({
    inputs: {
      'instant-url': instantUrl,
      'github-token': APP_TOKEN,
      comment: 'false',
      seed: files.join('\n'),
      ...(withCommand ? { 'seed-command': seedCommand } : {}),
      ...extraInputs
    },
    pr: { number: ++pr },
    cwd: work,
    ...(process.env.BENCH_NODE_OPTIONS ? { env: { NODE_OPTIONS: `--import=${DNS_SHIM} ${process.env.BENCH_NODE_OPTIONS}` } } : {})
  })
  const totalMs = Date.now() - started
  const connections = pgProxy.accepted - before
  await dropInstantDatabases()
  if (r.code !== 0) throw new Error(`the action failed: ${r.errors.join('; ')}\n${r.stdout.slice(-2000)}`)
  const seeded = /Seeded \d+ file\(s\): (\d+ statement\(s\), \d+ COPY row\(s\)) in ([\d.]+) s\./.exec(r.stdout)
  if (!seeded) throw new Error(`no "Seeded" line in the action's log:\n${r.stdout.slice(-2000)}`)
  const trace = /Where the time went:\n((?:.*: \d+ ms, .*\n?)+)/.exec(r.stdout)?.[1].trimEnd() ?? '(no trace in the log)'
  const provisioningMs = Number(/^provisioning: (\d+) ms/m.exec(trace)?.[1] ?? 0)
  return { mainMs: r.durationMs, totalMs, seedMs: Number(seeded[2]) * 1000, connections, statements: seeded[1], trace, provisioningMs }
}

const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
const rows: string[] = []

/** Runs one load with both clients, alternating, and prints its figures; `migrationMs` is psql's median for the migration alone. */
async function measure(load: Load, withCommand: boolean, migrationMs: number): Promise<void> {
  const ours: Run[] = []
  const theirs: { ms: number; connections: number }[] = []
  for (let i = 0; i < rounds; i++) {
    const psqlTurn = i < load.psqlRounds
    if (i % 2 === 0) ours.push(await action(load.files, withCommand))
    if (psqlTurn && !withCommand) theirs.push(await psql(load.files))
    if (i % 2 === 1) ours.push(await action(load.files, withCommand))
  }
  const label = `${load.name}${withCommand ? ' + seed-command (one migration)' : ''}`
  const psqlMs = withCommand ? load.psqlMs! + migrationMs : median(theirs.map((t) => t.ms))
  if (!withCommand) load.psqlMs = psqlMs
  const main = median(ours.map((o) => o.mainMs))
  const total = median(ours.map((o) => o.totalMs))
  const seed = median(ours.map((o) => o.seedMs))
  const own = median(ours.map((o) => o.mainMs - o.provisioningMs))
  const conns = [...new Set(ours.map((o) => o.connections))].join('/')
  console.log(`${label}: ${ours[0].statements}`)
  console.log(
    `  psql ${s(psqlMs)}${withCommand ? ` (load ${s(load.psqlMs!)} + migration ${s(migrationMs)})` : ` (${theirs.map((t) => s(t.ms)).join(', ')})`}, ` +
      `${withCommand ? 2 : theirs[0].connections} connection(s)`
  )
  console.log(
    `  action: main step ${s(main)} (${ours.map((o) => s(o.mainMs)).join(', ')}) = ${(main / psqlMs).toFixed(2)}× psql; ` +
      `main + post ${s(total)} = ${(total / psqlMs).toFixed(2)}×; main step without provisioning ${s(own)} = ${(own / psqlMs).toFixed(2)}× ` +
      `(provisioning ${ours.map((o) => s(o.provisioningMs)).join(', ')}); seed phase ${s(seed)} = ${(seed / psqlMs).toFixed(2)}×; ` +
      `${conns} connection(s) to PostgreSQL${withCommand ? " (seed-command's psql included)" : ''}; load average ${loadAverage()}`
  )
  const typical = [...ours].sort((a, b) => a.mainMs - b.mainMs)[Math.floor(ours.length / 2)]
  console.log(`  where the time went (the median run):\n${typical.trace.replace(/^/gm, '    ')}`)
  rows.push(
    `| ${label} | ${s(psqlMs)} | ${s(main)} (${(main / psqlMs).toFixed(2)}×) | ${s(total)} (${(total / psqlMs).toFixed(2)}×) | ${s(own)} (${(own / psqlMs).toFixed(2)}×) | ${s(seed)} (${(seed / psqlMs).toFixed(2)}×) | ${conns} | ${loadAverage()} |`
  )
}

try {
  const source = await DumpSource.start()
  const plain = ['--no-owner', '--no-privileges']
  const loads: Load[] = []
  try {
    const generated = path.join(work, 'generated.sql')
    const small = path.join(work, 'small.sql')
    const inserts = path.join(work, 'small-inserts.sql')
    if (seedMiB > 0) {
      generateDumpOfSize(source, 'bench', seedMiB, generated)
      source.dump('bench', generated, plain)
      loads.push({
        name: `generated pg_dump, ${(statSync(generated).size / 1048576).toFixed(1)} MiB`,
        files: [generated],
        psqlRounds: rounds
      })
    }
    generateDump(source, 'small', smallScale, small, plain)
    loads.push({ name: `small pg_dump, ${(statSync(small).size / 1024).toFixed(0)} KiB`, files: [small], psqlRounds: rounds })
    source.dump('small', inserts, [...plain, '--inserts'])
    loads.push({
      name: `small pg_dump --inserts, ${(statSync(inserts).size / 1024).toFixed(0)} KiB`,
      files: [inserts],
      psqlRounds: Math.min(rounds, insertsPsqlRounds)
    })
    const few = path.join(work, 'few-statements.sql')
    const fewSql = path.join(work, 'few-statements-source.sql')
    writeFileSync(fewSql, fewStatementsSql(8800))
    source.createDatabase('few')
    source.psqlFiles('few', [fewSql])
    source.dump('few', few, plain)
    loads.push({
      name: `few statements, one COPY of 8,800 rows, ${(statSync(few).size / 1024).toFixed(0)} KiB`,
      files: [few],
      psqlRounds: rounds
    })
  } finally {
    await source.stop()
  }
  for (const dir of args) loads.push({ name: `given: ${dir}`, files: folderFiles(dir), psqlRounds: rounds })
  console.log(
    `${delayMs} ms each way (${2 * delayMs} ms RTT) between PostgreSQL 17 and both clients; instant API delay ${apiDelayMs} ms; ` +
      `${rounds} round(s), alternating; inputs ${JSON.stringify({ comment: 'false', ...extraInputs })}; ${execFileSync('psql', ['--version']).toString().trim()}; the bundle on Node 24; load average ${loadAverage()}`
  )
  const migrations: number[] = []
  for (let i = 0; i < rounds; i++) migrations.push((await psql([migration])).ms)
  const migrationMs = median(migrations)
  console.log(`psql alone, the migration: ${s(migrationMs)} (${migrations.map(s).join(', ')})`)
  const chosen = loads.filter((l) => only.test(l.name))
  for (const load of chosen) await measure(load, false, migrationMs)
  for (const load of chosen) await measure(load, true, migrationMs)
  console.log(`\nload average at the end: ${loadAverage()}`)
  console.log(
    '\n| load | psql | action, main step | main + post | main step without provisioning | seed phase | connections | load average |\n| --- | --- | --- | --- | --- | --- | --- | --- |'
  )
  for (const r of rows) console.log(r)
} finally {
  await instant.server.close()
  await apiProxy?.close()
  await pgProxy.close()
  await emu.stop()
  rmSync(work, { recursive: true, force: true })
}

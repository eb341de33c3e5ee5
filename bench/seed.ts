/**
 * Seed-loader benchmark: loads a dump that this machine's pg_dump
 * makes of data we generate (__tests__/fixtures/generate.ts: every common
 * column type, 7 COPY blocks, owners, grants, functions, views; about
 * BENCH_SEED_MB MiB, default 6, which is pagila's size) into fresh databases
 * of the emulator's PostgreSQL 17, with our loader and with `psql -X -v
 * ON_ERROR_STOP=1 -1 -f`, alternating (and swapping which goes first each
 * round), and prints the median wall time of each in milliseconds, the
 * ratio, rows per second, client CPU seconds and peak RSS (median of the
 * rounds, each round's listed), with the load average at each round's start; then the same for
 * a generated one-table dump of BENCH_BIG_MB MiB (default 200;
 * BENCH_BIG_ROUNDS rounds, default 5) to show memory stays flat. Not a test:
 * it prints figures. The generated dump is loaded twice: as pg_dump writes
 * it (COPY blocks) and dumped with --inserts (one statement a row, so every
 * byte goes through the lexer). It reads nothing outside the repository
 * unless given files to compare as well.
 *
 *   npx tsx bench/seed.ts [rounds] [file|folder ...]   (rounds default 9)
 *
 * Files or folders given after the rounds are loaded as one more seed, in
 * the order given (a folder: the files its LOAD file lists, else its *.sql
 * files sorted), e.g. a local copy of a sample database.
 *
 * This machine's speed drifts (a fixed CPU loop varies by half from one run
 * to the next), so besides the ratio of medians it prints the median of the
 * per-round ratios: each round's two loads ran back to back, so drift
 * between rounds cancels out of them.
 *
 * Both load as the emulator's superuser over TLS, into a cluster that has the
 * roles the generated dump names (`postgres`, `app_owner`, `reporting`), so
 * psql can run its OWNER TO and GRANT statements too. A
 * CHECKPOINT before every load keeps one load's dirty pages from being
 * written during the next. Our loader runs as the action runs it: bundled
 * by ncc (bench/load-child.ts, into a temporary folder) on Node 24 (the
 * runtime action.yml names). Its times are measured inside that child:
 * `checkSeed` (the check pass, which the action runs while it looks up the
 * PR comment, before the database exists) and `loadSeed` (connect included;
 * Node's start not: the action is already running when it seeds). psql's is
 * the whole process. Both ratios are printed: load alone, and check + load.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { exitOnStartError, runSync } from '../emulator/child.js'
import { ADMIN_USER, PostgresServer } from '../emulator/postgres/postgres.js'
import { NODE_24, ROOT } from '../emulator/runner/runner.js'
import { generateDumpOfSize } from '../__tests__/fixtures/generate.js'
import { DumpSource } from '../__tests__/pg-dump-source.js'
import { folderFiles } from './folder-files.js'
import { median } from './stats.js'

const args = process.argv.slice(2)
const rounds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 9
const seedMiB = Number(process.env.BENCH_SEED_MB ?? 6)
const bigMiB = Number(process.env.BENCH_BIG_MB ?? 200)
const bigRounds = Number(process.env.BENCH_BIG_ROUNDS ?? 5)
/** The extra seed given on the command line: files in order, a folder as its LOAD file lists or its *.sql sorted. */
const extra = args.flatMap((arg) => folderFiles(arg))

const bundle = mkdtempSync(path.join(os.tmpdir(), 'bench-loader-'))
execFileSync(
  path.join(ROOT, 'node_modules', '.bin', 'ncc'),
  ['build', path.join(ROOT, 'bench', 'load-child.ts'), '-o', bundle, '--quiet'],
  { stdio: 'inherit' }
)
// the grammar's WebAssembly goes next to the bundle, as `npm run package` puts it next to dist/index.js
copyFileSync(path.join(ROOT, 'node_modules', 'libpg-query', 'wasm', 'libpg-query.wasm'), path.join(bundle, 'libpg-query.wasm'))
const server = await PostgresServer.start({ hostPattern: '*.us-east-2.localhost' }).catch(exitOnStartError)
let n = 0
async function freshDatabase(): Promise<string> {
  const name = `bench_${++n}`
  await server.admin.query(`CREATE DATABASE ${name}`)
  return name
}
const url = (db: string): string =>
  `postgresql://${ADMIN_USER}:${encodeURIComponent(server.adminPassword)}@127.0.0.1:${server.port}/${db}?sslmode=require`

interface Load {
  /** Wall time, milliseconds: psql's whole process; our load pass (the database is ready, the check is done). */
  ms: number
  /** Ours only: the check pass before it, milliseconds (in the action it runs while the PR comment is looked up). */
  checkMs?: number
  /** User + system CPU of the client process, seconds. */
  cpuS: number
  maxRssMiB: number
  /** Ours only: peak RSS when the check pass ended, MiB. */
  checkMaxRssMiB?: number
  rows?: number
}

function ours(db: string, files: string[]): Load {
  const out = execFileSync(NODE_24, [path.join(bundle, 'index.js'), url(db), ...files], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certificates.caCert },
    maxBuffer: 1 << 20
  })
  const r = JSON.parse(out.toString().trim().split('\n').at(-1)!)
  return { ms: r.loadMs, checkMs: r.checkMs, cpuS: r.cpuS, maxRssMiB: r.maxRssMiB, checkMaxRssMiB: r.checkMaxRssMiB, rows: r.rows }
}

function psql(db: string, files: string[]): Load {
  const started = process.hrtime.bigint()
  const r = runSync(
    '/usr/bin/time',
    ['-f', '%U %S %M', 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-1', ...files.flatMap((f) => ['-f', f]), url(db)],
    {
      stdio: ['ignore', 'ignore', 'pipe']
    }
  )
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.errorCode) throw new Error(`cannot run /usr/bin/time (${r.errorCode}): install GNU time (apt-get install time)`)
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr.slice(0, 500)}`)
  const [user, system, maxRssKiB] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
  return { ms, cpuS: user + system, maxRssMiB: maxRssKiB / 1024 }
}

async function bigDump(mib: number): Promise<{ file: string; rows: number }> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-dump-')), 'big.sql')
  const out = createWriteStream(file)
  out.write('CREATE TABLE big (id bigint, name text, note text, amount numeric);\nCOPY big (id, name, note, amount) FROM stdin;\n')
  const line = (i: number): string =>
    `${i}\tname ${i}\tsome note text with a \\t tab and a \\\\ backslash ${i % 997}\t${(i % 10000) / 100}\n`
  let rows = 0
  let bytes = 0
  while (bytes < mib * 1024 * 1024) {
    const l = line(++rows)
    bytes += l.length
    if (!out.write(l)) await once(out, 'drain')
  }
  out.end('\\.\nCREATE INDEX big_id ON big (id);\n')
  await once(out, 'finish')
  return { file, rows }
}

/**
 * Loads `files` `times` times with each loader, alternating and swapping which
 * goes first, each into a fresh database (dropped afterwards) after a
 * CHECKPOINT, and prints medians (milliseconds), rows per second, client CPU
 * (seconds), peak RSS (MiB) and the ratios ours/psql: of our load pass (what
 * the action waits for once the database is ready) and of check + load.
 */
async function compare(files: string[], times: number): Promise<void> {
  const runs = { ours: [] as Load[], psql: [] as Load[] }
  const load = async (who: 'ours' | 'psql'): Promise<void> => {
    const db = await freshDatabase()
    await server.admin.query('CHECKPOINT')
    runs[who].push(who === 'ours' ? ours(db, files) : psql(db, files))
    await server.admin.query(`DROP DATABASE ${db}`)
  }
  const loads: string[] = []
  for (let i = 0; i < times; i++) {
    loads.push(os.loadavg()[0].toFixed(1))
    for (const who of i % 2 === 0 ? (['ours', 'psql'] as const) : (['psql', 'ours'] as const)) await load(who)
  }
  console.log(`  load average (1 min) at each round's start: ${loads.join(', ')}`)
  const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ')
  const resources = (xs: Load[]): string => {
    const rss = xs.map((r) => r.maxRssMiB)
    return `client CPU median ${median(xs.map((r) => r.cpuS)).toFixed(2)} s, peak RSS median ${median(rss).toFixed(0)} MiB (${list(rss)})`
  }
  const loadMs = runs.ours.map((r) => r.ms)
  const withCheck = runs.ours.map((r) => r.ms + r.checkMs!)
  const psqlMs = runs.psql.map((r) => r.ms)
  const rows = runs.ours[0].rows!
  console.log(`  ours: load median ${median(loadMs).toFixed(0)} ms (${list(loadMs)}), ${Math.round(rows / (median(loadMs) / 1000))} rows/s`)
  console.log(
    `        check pass median ${median(runs.ours.map((r) => r.checkMs!)).toFixed(0)} ms; check + load median ${median(withCheck).toFixed(0)} ms (${list(withCheck)}); ${resources(runs.ours)}; ` +
      `peak RSS by the check pass's end median ${median(runs.ours.map((r) => r.checkMaxRssMiB!)).toFixed(0)} MiB`
  )
  console.log(`  psql: median ${median(psqlMs).toFixed(0)} ms (${list(psqlMs)}), ${resources(runs.psql)}`)
  const ratios = (xs: number[]): string => {
    const paired = xs.map((x, i) => x / psqlMs[i])
    return `${(median(xs) / median(psqlMs)).toFixed(2)} (of medians), ${median(paired).toFixed(2)} (median of per-round ratios: ${paired.map((x) => x.toFixed(2)).join(', ')})`
  }
  console.log(`  ratio ours/psql, load: ${ratios(loadMs)}`)
  console.log(`  ratio ours/psql, check + load: ${ratios(withCheck)}`)
}

try {
  for (const role of ['postgres', 'app_owner', 'reporting']) await server.admin.query(`CREATE ROLE ${role} NOLOGIN`)
  const node = execFileSync(NODE_24, ['--version']).toString().trim()
  const psqlVersion = execFileSync('psql', ['--version']).toString().trim()
  if (seedMiB > 0) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-generated-'))
    const file = path.join(dir, 'generated.sql')
    const inserts = path.join(dir, 'generated-inserts.sql')
    const source = await DumpSource.start()
    let generated: { bytes: number; scale: number }
    try {
      generated = generateDumpOfSize(source, 'bench', seedMiB, file)
      source.dump('bench', inserts, ['--inserts'])
    } finally {
      await source.stop()
    }
    console.log(
      `generated pg_dump: ${(generated.bytes / 1048576).toFixed(1)} MiB (scale ${generated.scale}, 7 COPY blocks); ${rounds} rounds, alternating; ` +
        `${psqlVersion}, server PostgreSQL 17, our loader bundled, Node ${node}`
    )
    await compare([file], rounds)
    // the same data as one INSERT statement a row: every byte goes through the lexer
    console.log(`the same, dumped with --inserts: ${(statSync(inserts).size / 1048576).toFixed(1)} MiB; ${rounds} rounds, alternating`)
    await compare([inserts], rounds)
    rmSync(dir, { recursive: true, force: true })
  }
  if (extra.length) {
    console.log(`given files (${extra.map((f) => path.basename(f)).join(', ')}): ${rounds} rounds, alternating`)
    await compare(extra, rounds)
  }
  if (bigMiB > 0) {
    const big = await bigDump(bigMiB)
    console.log(
      `generated dump: ${(statSync(big.file).size / 1048576).toFixed(0)} MiB, ${big.rows} rows in one COPY block; ${bigRounds} rounds, alternating`
    )
    await compare([big.file], bigRounds)
    rmSync(path.dirname(big.file), { recursive: true, force: true })
  }
} finally {
  await server.stop()
  rmSync(bundle, { recursive: true, force: true })
}

/**
 * Seed-loader benchmark (issue 4): loads pagila (schema, then 21 COPY blocks,
 * 49,636 rows) into fresh databases of the emulator's PostgreSQL 17, with our
 * loader and with `psql -X -v ON_ERROR_STOP=1 -1 -f`, alternating, and prints
 * the median wall time of each, the ratio, rows per second and our peak RSS;
 * then the same for a generated dump of BENCH_BIG_MB MiB (default 200;
 * BENCH_BIG_ROUNDS rounds, default 3) to show memory stays flat. Not a test: it prints figures.
 *
 *   npx tsx bench/seed.ts [rounds]
 *
 * Both load as the emulator's superuser over TLS, into a cluster that has a
 * `postgres` role, so psql can run the dump's OWNER TO statements too.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { ADMIN_USER, PostgresServer } from '../emulator/postgres.js'
import { ROOT } from '../emulator/runner.js'

const rounds = Number(process.argv[2] ?? 5)
const bigMiB = Number(process.env.BENCH_BIG_MB ?? 200)
const bigRounds = Number(process.env.BENCH_BIG_ROUNDS ?? 3)
const pagila = ['pagila-schema.sql', 'pagila-data.sql'].map((f) => path.resolve(ROOT, '..', 'shared', 'fixtures', 'pagila', f))
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const server = await PostgresServer.start({ hostPattern: '*.us-east-2.localhost' })
let n = 0
async function freshDatabase(): Promise<string> {
  const name = `bench_${++n}`
  await server.admin.query(`CREATE DATABASE ${name}`)
  return name
}
const url = (db: string): string =>
  `postgresql://${ADMIN_USER}:${encodeURIComponent(server.adminPassword)}@127.0.0.1:${server.port}/${db}?sslmode=require`

function ours(db: string, files: string[]): { ms: number; maxRssMiB: number; rows: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'load-child.ts'), url(db), ...files], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certificates.caCert },
    maxBuffer: 1 << 20
  })
  return JSON.parse(out.toString().trim().split('\n').at(-1)!)
}

function psql(db: string, files: string[]): { ms: number; maxRssMiB: number } {
  const started = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-1', ...files.flatMap((f) => ['-f', f]), url(db)], {
    stdio: ['ignore', 'ignore', 'pipe']
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr.toString().slice(0, 500)}`)
  return { ms, maxRssMiB: Number(r.stderr.toString().trim().split('\n').at(-1)) / 1024 }
}

async function bigDump(mib: number): Promise<{ file: string; rows: number }> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-dump-')), 'big.sql')
  const out = createWriteStream(file)
  out.write('CREATE TABLE big (id bigint, name text, note text, amount numeric);\nCOPY big (id, name, note, amount) FROM stdin;\n')
  const line = (i: number): string => `${i}\tname ${i}\tsome note text with a \\t tab and a \\\\ backslash ${i % 997}\t${(i % 10000) / 100}\n`
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
 * Loads `files` `times` times with each loader, alternating, each into a fresh
 * database (dropped afterwards), and prints medians (milliseconds), rows per
 * second, peak RSS (MiB) and the ratio ours/psql.
 */
async function compare(files: string[], times: number): Promise<void> {
  const ourMs: number[] = []
  const psqlMs: number[] = []
  let rss = 0
  let psqlRss = 0
  let rows = 0
  for (let i = 0; i < times; i++) {
    const dbA = await freshDatabase()
    const a = ours(dbA, files)
    await server.admin.query(`DROP DATABASE ${dbA}`)
    ourMs.push(a.ms)
    rss = Math.max(rss, a.maxRssMiB)
    rows = a.rows
    const dbB = await freshDatabase()
    const b = psql(dbB, files)
    await server.admin.query(`DROP DATABASE ${dbB}`)
    psqlMs.push(b.ms)
    psqlRss = Math.max(psqlRss, b.maxRssMiB)
  }
  const m = median(ourMs)
  const p = median(psqlMs)
  const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ')
  console.log(`  ours: median ${m.toFixed(0)} ms (${list(ourMs)}), ${Math.round(rows / (m / 1000))} rows/s, peak RSS ${rss.toFixed(0)} MiB`)
  console.log(`  psql: median ${p.toFixed(0)} ms (${list(psqlMs)}), peak RSS ${psqlRss.toFixed(0)} MiB`)
  console.log(`  ratio ours/psql: ${(m / p).toFixed(2)}`)
}

try {
  await server.admin.query('CREATE ROLE postgres NOLOGIN')
  console.log(`pagila: ${rounds} rounds, alternating; psql ${execFileSync('psql', ['--version']).toString().trim()}, server PostgreSQL 17, Node ${process.version}`)
  await compare(pagila, rounds)
  if (bigMiB > 0) {
    const big = await bigDump(bigMiB)
    console.log(`generated dump: ${(statSync(big.file).size / 1048576).toFixed(0)} MiB, ${big.rows} rows in one COPY block; ${bigRounds} rounds, alternating`)
    await compare([big.file], bigRounds)
    rmSync(path.dirname(big.file), { recursive: true, force: true })
  }
} finally {
  await server.stop()
}

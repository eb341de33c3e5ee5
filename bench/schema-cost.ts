/**
 * What `compare-schema` (on by default) adds to an instant-mode run with a
 * `seed-command` (it should be nearly free): the bundled action, a seed
 * (the files of the folder given; by default a schema of 11 tables it
 * generates, with keys, foreign keys and indexes, as large as the quartz
 * scheduler's: nothing outside the repository is read unless given)
 * and a one-migration `seed-command` run by psql, each round once with the
 * default and once with `compare-schema: false`, in alternating order, so the
 * two sides of a pair see the same machine load. PostgreSQL 17 is reached
 * through emulator/delay-proxy.ts, BENCH_DELAY_MS each way (default 10: a
 * 20 ms round trip; 0 for loopback). BENCH_MODE=branch runs branch mode
 * instead, against the emulator's platform on loopback (no proxy), with its
 * compare_schema, and the seed only (`seed-command` makes no difference to
 * what branch mode reads). Prints each pair, the medians, the
 * median of the pairs' differences (ms) and the load average. Not a test.
 *
 *   npm run bench:schema-cost -- [rounds] [folder]   (rounds default 5)
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { InstantService } from '../emulator/instant/instant.js'
import { branchInputs } from '../__tests__/fixtures/preview.js'
import { startDelayProxy, throughProxy } from '../emulator/delay-proxy.js'
import { median, loadAverage } from './stats.js'

const args = process.argv.slice(2)
const rounds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 5
const branchMode = process.env.BENCH_MODE === 'branch'
/** BENCH_LOG=1 also prints each run's schema lines and its phase trace from the action's log. */
const showLog = process.env.BENCH_LOG === '1'
const delayMs = branchMode ? 0 : Number(process.env.BENCH_DELAY_MS ?? 10)

/** Writes a seed of 11 related tables into `work`/generated and returns that folder. */
function generatedSchema(root: string): string {
  const folder = path.join(root, 'generated')
  const tables = Array.from({ length: 11 }, (_, i) => {
    const parent = i > 0 ? `,\n  parent_id bigint REFERENCES bench_t${i - 1} (id) ON DELETE CASCADE` : ''
    return (
      `CREATE TABLE bench_t${i} (\n  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n  name varchar(200) NOT NULL,\n` +
      `  state varchar(16) NOT NULL DEFAULT 'WAITING' CHECK (state IN ('WAITING', 'RUNNING', 'DONE')),\n  fired_at timestamptz,\n  data bytea${parent}\n);\n` +
      `CREATE INDEX bench_t${i}_state ON bench_t${i} (state, fired_at);\n`
    )
  })
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder)
  writeFileSync(path.join(folder, 'schema.sql'), tables.join('\n'))
  return folder
}

const emu = await startEmulator()
const proxy = delayMs > 0 ? await startDelayProxy(emu.pg.port, delayMs) : undefined
const instant = new InstantService(proxy ? throughProxy(emu.pg, proxy.port) : emu.pg)
await instant.server.listen()
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-schema-cost-'))
const migration = path.join(work, 'migration.sql')
writeFileSync(
  migration,
  'CREATE TABLE bench_migration (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text NOT NULL);\nCREATE INDEX bench_migration_note ON bench_migration (note);\n'
)
const dir = args[0] ? path.resolve(args[0]) : generatedSchema(work)
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.sql'))
  .sort()
  .map((f) => path.join(dir, f))
const project = branchMode ? await emu.platform.createProject() : undefined
const modeInputs = (): Record<string, string> =>
  project
    ? branchInputs(emu, project)
    : { 'instant-url': instant.url, 'seed-command': `PGHOSTADDR=127.0.0.1 psql -X -q -v ON_ERROR_STOP=1 -1 -f '${migration}'` }
let pr = 5000
const runs = { on: [] as number[], off: [] as number[] }
try {
  console.log(
    `${branchMode ? 'branch mode, loopback' : `instant mode, ${delayMs} ms each way (${2 * delayMs} ms RTT)`}; seed ${dir} (${files.length} file(s))` +
      `${branchMode ? '' : ' + one migration by psql'}; ${rounds} round(s); load average ${loadAverage()}`
  )
  for (let i = 0; i < rounds; i++) {
    const pair: Record<string, number> = {}
    for (const side of i % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const r = await emu.run({
        inputs: {
          ...modeInputs(),
          'github-token': APP_TOKEN,
          comment: 'false',
          seed: files.join('\n'),
          'compare-schema': side === 'on' ? 'true' : 'false'
        },
        pr: { number: ++pr },
        cwd: work
      })
      if (r.code !== 0) throw new Error(`the action failed: ${r.errors.join('; ')}\n${r.stdout.slice(-2000)}`)
      runs[side].push(r.durationMs)
      pair[side] = r.durationMs
      if (showLog)
        console.log(
          r.stdout
            .split('\n')
            .filter((l) =>
              /TIMING|Inspected the schema|Schema change:|^(connect|schema diff|seed-command|seed) .*: \d+ ms|: \d+ ms, \d+ PostgreSQL/.test(
                l
              )
            )
            .map((l) => `    ${side}: ${l.trim()}`)
            .join('\n')
        )
    }
    console.log(`  round ${i + 1}: default ${pair.on} ms, compare-schema: false ${pair.off} ms, difference ${pair.on - pair.off} ms`)
  }
  const diffs = runs.on.map((v, i) => v - runs.off[i])
  console.log(
    `main step, medians: default ${median(runs.on)} ms, false ${median(runs.off)} ms; median difference of the pairs ${median(diffs)} ms; load average ${loadAverage()}`
  )
} finally {
  await instant.server.close()
  await proxy?.close()
  await emu.stop()
  rmSync(work, { recursive: true, force: true })
}

/**
 * The migration cost through the bundled action, against the emulator and a
 * real PostgreSQL 17: branch mode, whose parent holds a 300,000-row table, and
 * a `seed-command` that runs a migration with psql (as the branch's own role,
 * not a superuser). What it rewrote and which locks it held reach the
 * `migration-report` output, the PR comment and the job summary; a
 * migration that rewrites nothing lists nothing; a database without data is
 * not measured.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync, rmSync } from 'node:fs'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { REPO, branchInputs, instantInputs, mainBranch, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { APP_TOKEN } from '../../emulator/index.js'
import { leakForms, leaks, publicText } from '../helpers.js'

const ROWS = 300_000
/** A value of the parent's rows, which nothing the action hands out may contain. */
const ROW_VALUE = 'parent-row-value-never-reported'

let emu: Emulator
let work: string
let project: Project
const newPr = pullRequests(() => emu, 3200)

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('migration-cost-test-'))
  project = await emu.platform.createProject()
  const main = mainBranch(project)
  await emu.pg.query(
    main.database,
    `CREATE TABLE orders (id int PRIMARY KEY, amount int NOT NULL, note text);
     INSERT INTO orders SELECT g, g % 1000, '${ROW_VALUE}' FROM generate_series(1, ${ROWS}) g;
     ANALYZE orders;
     ALTER TABLE orders OWNER TO "${project.role}";`
  )
}, 180_000)

afterAll(async () => {
  await emu?.stop()
  rmSync(work, { recursive: true, force: true })
})

/** A `seed-command` running `sql` with psql on the variables the action gives it (the host name resolves to loopback only in Node). */
const psql = (sql: string): string => `PGHOSTADDR=127.0.0.1 psql -X -q -v ON_ERROR_STOP=1 -c ${JSON.stringify(sql)}`

async function branchRun(sql: string, pr: number): Promise<RunResult> {
  const r = await runAction(emu, work, { ...branchInputs(emu, project), 'github-token': APP_TOKEN, 'seed-command': psql(sql) }, { pr: { number: pr } })
  expect(r.errors).toEqual([])
  expect(r.warnings.filter((w) => !w.startsWith('Destructive schema change'))).toEqual([]) // the schema diff's own (a type change)
  expect(r.code).toBe(0)
  return r
}

interface Cost {
  rewrites: { table: string; rows: number; bytes: number }[]
  locks: { relation: string; mode: string; heldMs: number }[]
  truncations: unknown[]
}
const report = (r: RunResult): Cost => JSON.parse(readFileSync(r.outputs['migration-report'], 'utf8')) as Cost
const comment = (pr: number): string => emu.github.comments(REPO, pr).at(-1)?.body ?? ''
/** Everything the run hands out: its public text (log, outputs, summary, comments) and the report file. */
const handedOut = (r: RunResult): Record<string, string> => ({ ...publicText(emu, r), report: readFileSync(r.outputs['migration-report'], 'utf8') })

describe('migration cost, branch mode (the parent holds 300,000 rows)', () => {
  it('ALTER COLUMN … TYPE bigint: a rewrite with its rows and size, and its ACCESS EXCLUSIVE hold, in the report, the comment and the summary', async () => {
    const pr = newPr()
    const r = await branchRun('ALTER TABLE orders ALTER COLUMN amount TYPE bigint', pr)
    const cost = report(r)
    expect(cost.rewrites).toEqual([{ table: 'public.orders', rows: expect.any(Number), bytes: expect.any(Number) }])
    expect(Math.abs(cost.rewrites[0].rows - ROWS)).toBeLessThan(ROWS * 0.01)
    expect(cost.rewrites[0].bytes).toBeGreaterThan(10 * 1024 * 1024)
    const ae = cost.locks.find((l) => l.relation === 'public.orders' && l.mode === 'AccessExclusiveLock')
    expect(ae?.heldMs).toBeGreaterThan(100)
    const line = /^- `public\.orders` \(300,000 rows, \d+ MB\): \*\*rewritten\*\*, under an ACCESS EXCLUSIVE lock seen held [\d.]+ (ms|s) \(reads and writes wait\)\. Instead: .*add a new column, backfill it in batches/m
    for (const text of [comment(pr), r.summary]) {
      expect(text).toContain('#### Migration cost')
      expect(text).toContain("Measured on this preview's data while `seed-command` ran:")
      expect(text).toMatch(line)
    }
    expect(leaks(handedOut(r), [ROW_VALUE])).toEqual([])
    expect(leaks(handedOut(r), [project.apiKey, project.password].flatMap(leakForms))).toEqual([])
  })

  it('adding a nullable column rewrites nothing and lists nothing', async () => {
    const pr = newPr()
    const r = await branchRun('ALTER TABLE orders ADD COLUMN shipped_at timestamptz', pr)
    const cost = report(r)
    expect(cost.rewrites).toEqual([])
    expect(cost.truncations).toEqual([])
    expect(comment(pr)).not.toContain('Migration cost')
    expect(r.summary).not.toContain('Migration cost')
  })

  it('CREATE INDEX without CONCURRENTLY shows its SHARE lock, and the comment says CREATE INDEX CONCURRENTLY', async () => {
    const pr = newPr()
    const r = await branchRun('CREATE INDEX orders_note ON orders (note, amount)', pr)
    const cost = report(r)
    expect(cost.rewrites).toEqual([])
    expect(cost.locks.find((l) => l.relation === 'public.orders' && l.mode === 'ShareLock')?.heldMs).toBeGreaterThan(100)
    expect(comment(pr)).toMatch(/^- `public\.orders` \(300,000 rows, \d+ MB\): \*\*SHARE lock\*\* seen held [\d.]+ (ms|s) \(writes wait\)\. Instead: .*`CREATE INDEX CONCURRENTLY`/m)
  })
})

describe('migration cost: a database without data is not measured', () => {
  it('instant mode (a new, empty database): no migration-report, no section', async () => {
    const pr = newPr()
    const r = await runAction(
      emu,
      work,
      { ...instantInputs(emu), 'github-token': APP_TOKEN, 'seed-command': psql('CREATE TABLE t (id int); ALTER TABLE t ALTER COLUMN id TYPE bigint') },
      { pr: { number: pr } }
    )
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['migration-report']).toBe('')
    expect(comment(pr)).not.toContain('Migration cost')
  })
})

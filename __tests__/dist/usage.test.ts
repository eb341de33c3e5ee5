/**
 * What a preview costs, through the bundle (Node 24) against the emulator:
 * the PR comment and job summary of a branch-mode preview show its compute
 * time in CU-hours and its data size from the branch object the run reads,
 * the final comment of `command: delete` what it used in all, the outputs
 * carry the counters, the sweep's job summary lists each swept preview's
 * compute time and the total and the previews that stay; a branch object
 * without the counters (an older API answer) shows no figure and no error;
 * instant mode shows none. And the emulator's own counting: compute time is
 * active time × the compute's CU, and the logical size is the database's.
 */
import { describe, expect, it } from '@jest/globals'
import { APP_TOKEN } from '../../emulator/index.js'
import type { Counter } from '../../emulator/neon/platform-usage.js'
import { REPO, instantInputs, runAction } from '../fixtures/preview.js'
import { branchSuite } from '../fixtures/branch-suite.js'

const suite = branchSuite({
  prefix: 'usage-test-',
  firstPr: 6600,
  projectPerTest: true,
  files: { 'seed.sql': 'CREATE TABLE items (id int);\nINSERT INTO items SELECT generate_series(1, 1000);\n' }
})
const { newPr, run } = suite

const USAGE_OUTPUTS = ['compute-time-seconds', 'active-time-seconds', 'logical-size', 'written-data-bytes', 'data-transfer-bytes']

/** Sets counters of the branch a run handed out (emulator/neon/platform-usage.ts). */
const setCounters = (branchId: string, counters: Partial<Record<Counter, number | null>>): void =>
  suite.emu.platform.usage.set(suite.project.branches.get(branchId)!, counters)

const commentOf = (pr: number): string => suite.emu.github.comments(REPO, pr)[0].body

describe('a preview that has used 5,400 compute seconds', () => {
  it('shows 1.5 CU-hours in its comment and summary after the next push and a reset, and in the final comment after command: delete', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(created.errors).toEqual([])
    const id = created.outputs['branch-id']
    setCounters(id, { compute_time_seconds: 5400, active_time_seconds: 21600, data_transfer_bytes: 3 * 1024 * 1024 })
    const pushed = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(pushed.errors).toEqual([])
    expect(pushed.outputs.created).toBe('false')
    const size = Number(pushed.outputs['logical-size'])
    expect(size).toBeGreaterThan(0)
    const mib = `${(size / 1024 / 1024).toFixed(1)} MiB of data`
    for (const text of [commentOf(pr), pushed.summary]) {
      expect(text).toContain(`| Used so far | 1.5 CU-hours of compute (6.0 hours active), ${mib}, 3.0 MiB sent to clients, by Neon's count this billing period`)
    }
    expect(pushed.outputs).toMatchObject({ 'compute-time-seconds': '5400', 'active-time-seconds': '21600', 'data-transfer-bytes': String(3 * 1024 * 1024), 'written-data-bytes': '0' })

    const reset = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(reset.errors).toEqual([])
    expect(commentOf(pr)).toContain('| Used so far | 1.5 CU-hours of compute (6.0 hours active)')
    expect(reset.outputs['compute-time-seconds']).toBe('5400')

    const deleted = await run({ command: 'delete' }, { pr: { number: pr } })
    expect(deleted.errors).toEqual([])
    expect(suite.project.branches.has(id)).toBe(false)
    const final = commentOf(pr)
    expect(final).toContain('deleted: the pull request closed')
    expect(final).toMatch(/\| Used in all \| 1\.5 CU-hours of compute \(6\.0 hours active\), \d+\.\d MiB of data when deleted, 3\.0 MiB sent to clients/)
    expect(deleted.outputs['compute-time-seconds']).toBe('5400')
    suite.expectNoLeak(deleted)
  })
})

describe('a branch object without the counters (an older API answer)', () => {
  it('shows no figure, sets the outputs empty, and the run succeeds without a warning', async () => {
    const pr = newPr()
    const created = await run({}, { pr: { number: pr } })
    const nothing = Object.fromEntries(
      (['compute_time_seconds', 'active_time_seconds', 'cpu_used_sec', 'written_data_bytes', 'data_transfer_bytes', 'logical_size'] as const).map((k) => [k, null])
    )
    setCounters(created.outputs['branch-id'], nothing)
    const pushed = await run({}, { pr: { number: pr } })
    expect(pushed.code).toBe(0)
    expect(pushed.errors).toEqual([])
    expect(pushed.warnings).toEqual([])
    // the emulator left the fields out of the answer the run read
    const listed = JSON.parse(suite.emu.platform.server.requests('GET', /\/branches$/).at(-1)!.responseText!) as {
      branches: Record<string, unknown>[]
    }
    const preview = listed.branches.find((b) => b.id === created.outputs['branch-id'])!
    expect(Object.keys(preview).filter((k) => Object.keys(nothing).includes(k))).toEqual([])
    for (const text of [commentOf(pr), pushed.summary]) {
      expect(text).toContain('reused from an earlier run')
      expect(text).not.toMatch(/Used so far|CU-hours|MiB of data/)
    }
    for (const name of USAGE_OUTPUTS) expect(pushed.outputs[name]).toBe('')
    const deleted = await run({ command: 'delete' }, { pr: { number: pr } })
    expect(deleted.code).toBe(0)
    expect(commentOf(pr)).not.toMatch(/Used in all|CU-hours/)
    for (const name of USAGE_OUTPUTS) expect(deleted.outputs[name] ?? '').toBe('')
  })
})

describe('instant mode', () => {
  it('says nothing of cost and sets the usage outputs empty', async () => {
    const pr = newPr()
    const r = await runAction(suite.emu, suite.work, { ...instantInputs(suite.emu), 'github-token': APP_TOKEN }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.outputs.mode).toBe('instant')
    for (const text of [commentOf(pr), r.summary]) expect(text).not.toMatch(/Used so far|CU-hours|pricing/)
    for (const name of USAGE_OUTPUTS) expect(r.outputs[name]).toBe('')
  })
})

describe('the emulator counts as Neon does', () => {
  it('compute time is the active seconds × the compute size in CU; the logical size is the database size', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql', 'min-cu': '2', 'max-cu': '2' }, { pr: { number: pr } })
    expect(created.errors).toEqual([])
    const pushed = await run({ 'min-cu': '2', 'max-cu': '2' }, { pr: { number: pr } })
    const active = Number(pushed.outputs['active-time-seconds'])
    // the compute ran from the end of the first run's start_compute to the second run's lookup: at least a second
    expect(active).toBeGreaterThanOrEqual(1)
    expect(Number(pushed.outputs['compute-time-seconds'])).toBe(active * 2)
    const b = suite.project.branches.get(pushed.outputs['branch-id'])!
    const [{ size }] = await suite.emu.pg.query<{ size: string }>('postgres', 'SELECT pg_database_size($1)::text AS size', [b.database])
    // the same database measured again (autovacuum may have added a page or a fork since)
    expect(Math.abs(Number(pushed.outputs['logical-size']) - Number(size))).toBeLessThan(1024 * 1024)
    // a suspended compute counts no more time
    b.endpoint!.suspended = true
    const before = await branchJson(b.id)
    await new Promise((r) => setTimeout(r, 1500))
    const after = await branchJson(b.id)
    expect(after.active_time_seconds).toBe(before.active_time_seconds)
    expect(after.compute_time_seconds).toBe(before.compute_time_seconds)
  })
})

/** The branch as Get branch answers it. */
async function branchJson(id: string): Promise<Record<string, number>> {
  const res = await fetch(`${suite.emu.platform.url}/projects/${suite.project.id}/branches/${id}`, {
    headers: { authorization: `Bearer ${suite.project.apiKey}` }
  })
  return ((await res.json()) as { branch: Record<string, number> }).branch
}

describe('command: cleanup', () => {
  it("lists each swept preview's compute time and the total, and the previews that stay (a dry run: those it would sweep)", async () => {
    const closedA = newPr()
    const a = await run({}, { pr: { number: closedA } })
    const closedB = newPr()
    const b = await run({}, { pr: { number: closedB } })
    const closedC = newPr()
    const c = await run({}, { pr: { number: closedC } })
    const open = newPr()
    const kept = await run({}, { pr: { number: open } })
    setCounters(c.outputs['branch-id'], { compute_time_seconds: null, logical_size: null })
    setCounters(a.outputs['branch-id'], { compute_time_seconds: 5400 })
    setCounters(b.outputs['branch-id'], { compute_time_seconds: 1800 })
    setCounters(kept.outputs['branch-id'], { compute_time_seconds: 3600 })
    suite.emu.pulls.close(REPO, closedA, true)
    suite.emu.pulls.close(REPO, closedB)
    suite.emu.pulls.close(REPO, closedC)
    const dry = await run({ command: 'cleanup', 'dry-run': 'true' }, { eventName: 'schedule', event: {} })
    expect(dry.summary).toContain('Would sweep 3 previews:')
    expect(dry.summary).toMatch(/\| \*\*Total\*\* \(1 without a compute figure\) \| \| \*\*2\.0 CU-hours\*\* \|/)
    expect(dry.summary).toContain('Kept 1 preview: 1.0 CU-hours of compute this billing period')
    const r = await run({ command: 'cleanup' }, { eventName: 'schedule', event: {} })
    expect(r.errors).toEqual([])
    expect(suite.project.branches.has(a.outputs['branch-id'])).toBe(false)
    expect(r.summary).toContain('#### What the previews used')
    expect(r.summary).toContain('Swept 3 previews:')
    // a branch object without the counters: its row has no figure, and the total says so
    expect(r.summary).toContain(`| \`${c.outputs['branch-name']}\` | #${closedC} |  |  |`)
    expect(r.summary).toMatch(new RegExp(`\\| \`${a.outputs['branch-name']}\` \\| #${closedA} \\| 1\\.5 CU-hours \\| \\d+\\.\\d MiB \\|`))
    expect(r.summary).toMatch(new RegExp(`\\| \`${b.outputs['branch-name']}\` \\| #${closedB} \\| 0\\.5 CU-hours \\| \\d+\\.\\d MiB \\|`))
    expect(r.summary).toMatch(/\| \*\*Total\*\* \(1 without a compute figure\) \| \| \*\*2\.0 CU-hours\*\* \| \*\*\d+\.\d MiB\*\* \|/)
    expect(r.summary).toMatch(
      new RegExp(`Kept 1 preview: 1\\.0 CU-hours of compute this billing period, \\d+\\.\\d MiB of data\\. The oldest: \`${kept.outputs['branch-name']}\` \\(#${open}\\), made \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.`)
    )
    // each swept PR's final comment says what its preview used in all, where Neon gave a figure
    expect(commentOf(closedA)).toMatch(/\| Used in all \| 1\.5 CU-hours of compute \(\d+\.\d hours active\), \d+\.\d MiB of data when deleted/)
    expect(commentOf(closedB)).toMatch(/\| Used in all \| 0\.5 CU-hours of compute/)
    expect(commentOf(closedC)).not.toContain('CU-hours')
    suite.expectNoLeak(r)
  })
})

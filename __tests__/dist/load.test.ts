/**
 * Many runs in one project, through the bundle: branch-mode runs of many PRs
 * started at the same moment against one project whose operations take about
 * as long as Neon's, with Neon's API rate limit on (emulator/neon/neon-limits.ts).
 * Heavy (twenty processes at once): seeds are one tiny table.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { NEON_TIMING } from '../../emulator/neon/neon-limits.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { REPO, freshProject, previewBranches, pullRequests, startTestEmulator } from '../fixtures/preview.js'
import { runLoad } from '../../bench/load-run.js'

let emu: Emulator
let work: string
const newPr = pullRequests(() => emu, 3000)
const openPrs = (n: number): number[] => Array.from({ length: n }, newPr)

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('load-test-', {
    'seed.sql': 'CREATE TABLE items (id int PRIMARY KEY);\nINSERT INTO items VALUES (1), (2), (3);\n'
  }))
  emu.platform.limitRate()
})

afterAll(async () => {
  await emu?.stop()
})

/** Every run succeeded with its own seeded branch under its PR's name, and its PR has one comment. */
async function expectSeededEach(project: Project, prs: number[], runs: RunResult[]): Promise<void> {
  expect(runs.map((r) => r.errors)).toEqual(runs.map(() => []))
  expect(runs.map((r) => r.code)).toEqual(runs.map(() => 0))
  expect(new Set(runs.map((r) => r.outputs['branch-id'])).size).toBe(runs.length)
  for (const [i, r] of runs.entries()) {
    const b = project.branches.get(r.outputs['branch-id'])!
    expect(b.name).toBe(`preview/pr-${prs[i]}-feature-${prs[i]}`)
    expect(await emu.pg.query(b.database, 'SELECT count(*)::int AS n FROM items')).toEqual([{ n: 3 }])
    expect(emu.github.comments(REPO, prs[i])).toHaveLength(1)
  }
  expect(previewBranches(project).filter((b) => b.name.endsWith('~seeding'))).toEqual([])
}

describe('many runs in one project (Neon-like durations, rate limit on)', () => {
  it('20 runs of 20 PRs at once all succeed, each seeded, nothing left over, one comment per PR', async () => {
    const project = await freshProject(emu, { ...NEON_TIMING })
    const prs = openPrs(20)
    const { runs, figures } = await runLoad(emu, { project, prs, work, inputs: { 'poll-interval': '1' } })
    await expectSeededEach(project, prs, runs)
    expect(previewBranches(project)).toHaveLength(20)
    expect(figures.locked).toBeGreaterThan(0) // they did meet the lock
    expect(figures.peakPerMinute).toBeLessThanOrEqual(700)
    // A run that waited for the project says for what, and the job summary says how long.
    const waited = runs.filter((r) => /Waiting for the project to be free/.test(r.stdout))
    expect(waited.length).toBeGreaterThan(0)
    for (const r of waited) {
      expect(r.stdout).toMatch(/with \d+ operation\(s\): (Create branch|Start compute) on branch br-/)
      expect(r.summary).toMatch(/\| Waited for the project \| \d+\.\d s, for \d+ operations? of other runs or of Neon \|/)
    }
  }, 900_000)

  it('10 PR runs and a cleanup sweep deleting 10 branches at the same time all succeed', async () => {
    const project = await freshProject(emu, { ...NEON_TIMING })
    const old = openPrs(10)
    const made = await runLoad(emu, { project, prs: old, work, inputs: { 'poll-interval': '1' } })
    await expectSeededEach(project, old, made.runs)
    for (const pr of old) emu.pulls.close(REPO, pr)
    const prs = openPrs(10)
    const { runs, sweep } = await runLoad(emu, {
      project,
      prs,
      work,
      inputs: { 'poll-interval': '1' },
      sweep: {}
    })
    expect(sweep!.errors).toEqual([])
    expect(sweep!.code).toBe(0)
    for (const r of made.runs) expect(project.branches.has(r.outputs['branch-id'])).toBe(false)
    await expectSeededEach(project, prs, runs)
    expect(previewBranches(project)).toHaveLength(10)
  }, 900_000)
})

/**
 * A run when the token's GitHub budget is nearly spent (emulator/github/github-rate.ts:
 * `x-ratelimit-*` headers, 403 "API rate limit exceeded" at 0), through the
 * bundle (Node 24): the database is handed out, no lock reaction or
 * placeholder is left behind, and the rate limit is reported as one, never
 * as a missing permission. The hour's reserve (comment/lock/budget.ts: a
 * quarter of the limit, left to the repository's pull requests) holds for
 * the waits for another run's lock, which slow down to the window's reset
 * instead of spending it, and for the sweep's reads of git branches.
 */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { APP_TOKEN } from '../../emulator/github/github.js'
import { GitBranches } from '../../emulator/github/github-branches.js'
import { limitGitHub } from '../../emulator/github/github-rate.js'
import type { RunOptions } from '../../emulator/runner/runner.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { REPO } from '../fixtures/preview.js'
import { until } from '../helpers.js'

const suite = branchSuite({
  prefix: 'github-budget-test-',
  firstPr: 5600,
  projectPerTest: true,
  files: { 'seed.sql': 'CREATE TABLE IF NOT EXISTS items (id int PRIMARY KEY);\n', 'slow.sql': 'SELECT pg_sleep(8);\n' }
})
let emu: Emulator
let gitBranches: GitBranches
beforeAll(() => {
  emu = suite.emu
  gitBranches = new GitBranches(emu.github)
})
/** The reserve of a 1,000-request hour (comment/lock/budget.ts: RESERVE_SHARE of the limit). */
const RESERVE = 250
afterEach(() => {
  emu.github.server.admit = undefined
  emu.github.server.headersFor = undefined
})

describe('a run with few GitHub requests left', () => {
  for (const left of [3, 1, 0]) {
    it(`${left} left: the database is handed out, the comment skipped with a warning naming the rate limit, no lock left`, async () => {
      const pr = suite.newPr()
      const budget = limitGitHub(emu.github, APP_TOKEN, { limit: 1000, remaining: left })
      const r = await suite.run({}, { pr: { number: pr } })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(suite.project.branches.has(r.outputs['branch-id'])).toBe(true)
      expect(r.outputs['database-url']).toMatch(/^postgres/)
      expect(r.warnings.join('\n')).toMatch(/rate limit/)
      expect(r.stdout).not.toMatch(/grant the workflow `permissions: deployments: write`/)
      expect(emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).toEqual([])
      expect(emu.github.comments(REPO, pr).filter((c) => /being provisioned/.test(c.body))).toEqual([])
      expect(budget.used).toBeLessThanOrEqual(1000)
      // The lock was never taken: too few requests left to release it (GET /rate_limit, free, said so).
      const lockTakes = emu.github.server.requests('POST', new RegExp(`/issues/${pr}/reactions$`)).filter((q) => q.at >= r.startedAt)
      expect(lockTakes).toEqual([])
      expect(emu.github.server.requests('GET', /^\/rate_limit$/).filter((q) => q.at >= r.startedAt).length).toBeGreaterThan(0)
      if (left === 0) expect(budget.refused).toBeGreaterThan(0)
      // The post step finds nothing to release.
      expect(r.post?.code ?? 0).toBe(0)
    })
  }
})

describe("the hour's reserve", () => {
  it('runs waiting for a lock stop looking at it at the reserve until the window resets: one fails at wait-timeout saying so, one takes the lock after the reset', async () => {
    const pr = suite.newPr()
    limitGitHub(emu.github, APP_TOKEN, { limit: 1000 }) // a full hour for the holder, whatever the tests before left
    const start = Date.now()
    const holder = suite.run({ seed: 'slow.sql' }, { pr: { number: pr } })
    await until(() => (emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).length > 0, 'the holder takes the lock')
    // The hour is down to a few requests above the reserve as the waiters start: their first requests (the take,
    // a look or two) reach it, whatever the machine's pace, long before the short one's wait-timeout.
    const margin = 5
    const budget = limitGitHub(emu.github, APP_TOKEN, { limit: 1000, remaining: RESERVE + margin, resetInSeconds: 30 })
    const { resetAt } = budget
    const [short, patient] = await Promise.all([
      suite.run({ seed: 'seed.sql', 'wait-timeout': '4' }, { pr: { number: pr } }),
      suite.run({ seed: 'seed.sql' }, { pr: { number: pr } })
    ])
    const held = await holder
    expect(held.errors).toEqual([])
    expect(budget.refused).toBe(0)
    // The holder released the lock well before the reset; the waiters' looks (a listing of the lock reactions and a read of
    // the marker each) before the reset fit in the margin above the reserve, and none came between the release and the reset.
    const released = emu.github.server.requests('DELETE', new RegExp(`/issues/${pr}/reactions/\\d+$`)).filter((q) => q.at >= start)
    expect(released[0].at).toBeLessThan(resetAt)
    const looks = emu.github.server.requests('GET', new RegExp(`/issues/${pr}/reactions$`)).filter((q) => q.at >= start)
    expect(looks.filter((q) => q.at < resetAt).length).toBeLessThanOrEqual(margin / 2)
    expect(looks.filter((q) => q.at >= released[0].at && q.at < resetAt)).toEqual([])

    expect(short.code).toBe(1)
    expect(short.errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Another run of PR #${pr} holds its lock, and GitHub's rate limit is low \\(\\d+ of 1000 requests left, resetting at \\d\\d:\\d\\d UTC\\): the wait for the lock leaves the last ${RESERVE} requests of the hour to the repository's pull requests, as the cleanup does\\. It could not look at the lock again before wait-timeout: re-run after \\d\\d:\\d\\d UTC, or once the other run is done\\.$`
        )
      )
    ])

    expect(patient.errors).toEqual([])
    expect(patient.stdout).toMatch(new RegExp(`the wait for the lock leaves the last ${RESERVE} requests .* It looks at the lock again at \\d\\d:\\d\\d UTC\\.`))
    expect(patient.outputs['branch-id']).toBe(held.outputs['branch-id'])
    // It took the lock once the window had reset.
    const takes = emu.github.server.requests('POST', new RegExp(`/issues/${pr}/reactions$`)).filter((q) => q.at >= start && q.status === 201)
    expect(takes).toHaveLength(2)
    expect(takes[1].at).toBeGreaterThanOrEqual(resetAt)
    expect(emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).toEqual([])
  })

  it("the sweep reads git branches only above the reserve: the others are left for the next run, which deletes them", async () => {
    const names = ['feature/budget-a', 'feature/budget-b', 'feature/budget-c']
    for (const [i, name] of names.entries()) expect((await suite.run({}, pushRun(name, String(i + 1).repeat(40)))).errors).toEqual([])
    for (const name of names) gitBranches.delete(REPO, name)
    const reads = gitBranches.requests()
    const budget = limitGitHub(emu.github, APP_TOKEN, { limit: 1000, remaining: RESERVE + 1 })
    const first = await suite.run({ command: 'cleanup' }, { eventName: 'schedule', event: {} })
    expect(first.errors).toEqual([])
    expect(gitBranches.requests() - reads).toBe(1)
    expect(budget.used).toBe(1000 - RESERVE)
    expect(budget.refused).toBe(0)
    expect(suite.previewBranches()).toHaveLength(2)
    expect(first.summary.match(/\| left for the next run \| git branch `feature\/budget-.` not read: the sweep leaves GitHub's last 250 requests/g)).toHaveLength(2)
    expect(first.stdout).toMatch(/::notice::The cleanup stopped at the 250 GitHub requests .*: 2 branches left for the next run/)

    limitGitHub(emu.github, APP_TOKEN, { limit: 1000 })
    const next = await suite.run({ command: 'cleanup' }, { eventName: 'schedule', event: {} })
    expect(next.errors).toEqual([])
    expect(gitBranches.requests() - reads).toBe(3)
    expect(suite.previewBranches()).toHaveLength(0)
  })
})

/** A `push` of `sha` to git branch `branch` (GitHub webhook events, push), which exists on GitHub from now on. */
function pushRun(branch: string, sha: string): Partial<RunOptions> {
  gitBranches.push(REPO, branch, sha)
  const repository = { name: 'shop', full_name: REPO, owner: { login: 'acme' } }
  return {
    eventName: 'push',
    event: { ref: `refs/heads/${branch}`, after: sha, deleted: false, created: false, repository },
    env: { GITHUB_SHA: sha, GITHUB_REF: `refs/heads/${branch}` }
  }
}

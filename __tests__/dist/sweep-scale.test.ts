/**
 * `command: cleanup` through the bundle (Node 24) at a team's scale and
 * shape: named previews of a closed PR, a token that cannot write, and
 * backlogs of closed PRs' previews (each with its comment and deployment)
 * under GitHub's hourly budget of a `GITHUB_TOKEN` (emulator/github/github-rate.ts:
 * `x-ratelimit-limit` requests, then 403 with `x-ratelimit-remaining: 0`), of
 * which the sweep leaves a quarter to the repository's pull requests: 300
 * in one hour of 1,000 requests (a `GITHUB_TOKEN`'s), and a backlog of more
 * than three hours' budget in four runs. The budget and the reserve scale
 * with the limit the header gives, so the backlog is proven at a limit of
 * 250 (260 previews, about 80 swept an hour) rather than 1,000 (1,200
 * previews): the same rule, with a quarter of the Neon deletes and of the
 * wait on the sweep's own pace of 600 Neon requests a minute.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { APP_TOKEN, READ_ONLY_TOKEN } from '../../emulator/github/github.js'
import { limitGitHub, unlimitGitHub } from '../../emulator/github/github-rate.js'
import { type PlantedPreview, plantPreviews } from '../fixtures/planted-previews.js'
import { ANNOTATION } from '../../src/platform/annotations.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { REPO } from '../fixtures/preview.js'

const suite = branchSuite({ prefix: 'sweep-scale-test-', firstPr: 5200, projectPerTest: true })
const { newPr, run } = suite
let emu: Emulator
let project: Project
beforeAll(() => {
  emu = suite.emu
})
beforeEach(() => {
  project = suite.project
})
afterEach(() => {
  unlimitGitHub(emu.github)
})

const sweep = (inputs: Record<string, string> = {}, token = APP_TOKEN, timeoutMs = 120_000): Promise<RunResult> =>
  run({ command: 'cleanup', 'github-token': token, ...inputs }, { eventName: 'schedule', event: {}, timeoutMs })
/** The most requests within any 60 s of `times` (milliseconds, ascending). */
const busiestMinute = (times: number[]): number => {
  let most = 0
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= 60_000) i++
    most = Math.max(most, j - i + 1)
  }
  return most
}
const issueReactions = (pr: number) => emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []
const commentReactions = (pr: number) => emu.github.comments(REPO, pr).flatMap((c) => emu.github.commentReactions(c.id))

describe('named previews of a closed PR', () => {
  it('each preview takes its own lock, updates its own comment and sets its own deployment inactive; no new comment', async () => {
    const pr = newPr()
    const api = await run({ 'preview-name': 'api' }, { pr: { number: pr } })
    const web = await run({ 'preview-name': 'web' }, { pr: { number: pr } })
    expect([api.errors, web.errors]).toEqual([[], []])
    const before = emu.github.comments(REPO, pr).map((c) => c.id)
    expect(before).toHaveLength(2)
    // A run of `web` is in flight: its comment shows a claim, so the sweep takes web's own lock (🚀 or another content, never 👀).
    const webComment = emu.github.comments(REPO, pr).find((c) => c.body.includes('"preview":"web"'))!
    webComment.body = webComment.body.replace(/"mode":"branch"/, '"mode":"branch","reaction":1,"heartbeatAt":"2020-01-01T00:00:00Z"')
    emu.pulls.close(REPO, pr, true)
    const r = await sweep()
    expect(r.errors).toEqual([])
    expect(project.branches.has(api.outputs['branch-id'])).toBe(false)
    expect(project.branches.has(web.outputs['branch-id'])).toBe(false)
    const after = emu.github.comments(REPO, pr)
    expect(after.map((c) => c.id)).toEqual(before)
    for (const name of ['api', 'web']) {
      const c = after.find((x) => x.body.includes(`"preview":"${name}"`))!
      expect(c.body).toContain('deleted by the scheduled cleanup')
      // the reason is rendered inert: `#` escaped, a zero-width space after it
      expect(c.body).toMatch(new RegExp(`pull request \\\\#\u200b${pr} is merged`))
      const deployments = emu.deployments.of(REPO, `preview-postgres/pr-${pr}-${name}`)
      expect(deployments.length).toBeGreaterThan(0)
      for (const d of deployments) expect(emu.deployments.statusesOf(d.id).at(-1)!.state).toBe('inactive')
    }
    // web's lock was taken with web's reaction (not the unnamed preview's 👀), and released.
    const takes = emu.github.server.requests('POST', new RegExp(`/issues/${pr}/reactions$`)).filter((q) => q.at > r.startedAt)
    expect(takes.map((q) => JSON.parse(q.requestText).content)).toContain('eyes') // the write check
    expect(takes.some((q) => JSON.parse(q.requestText).content !== 'eyes')).toBe(true)
    expect(issueReactions(pr)).toEqual([])
    expect(commentReactions(pr)).toEqual([])
    expect(emu.github.comments(REPO, pr).some((c) => c.body.includes('being swept'))).toBe(false)
  })
})

describe('what a run records for the sweep', () => {
  it("the branch a run creates records its comment's and deployment's ids; the sweep writes to them, and to a reuse's deployment, without listing", async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    const again = await run({}, { pr: { number: pr } })
    expect([first.errors, again.errors]).toEqual([[], []])
    expect(again.outputs.created).toBe('false')
    const comment = emu.github.comments(REPO, pr)[0]
    const deployments = emu.deployments.of(REPO, `preview-postgres/pr-${pr}`)
    expect(deployments.map((d) => String(d.id))).toEqual([first.outputs['deployment-id'], again.outputs['deployment-id']])
    expect(project.branches.get(first.outputs['branch-id'])!.annotations).toMatchObject({
      [ANNOTATION.comment]: String(comment.id),
      [ANNOTATION.deployment]: first.outputs['deployment-id']
    })
    emu.pulls.close(REPO, pr)
    const r = await sweep()
    expect(r.errors).toEqual([])
    expect(project.branches.has(first.outputs['branch-id'])).toBe(false)
    expect(emu.github.comments(REPO, pr).map((c) => c.id)).toEqual([comment.id])
    expect(comment.body).toContain('deleted by the scheduled cleanup')
    for (const d of deployments) expect(emu.deployments.statusesOf(d.id).at(-1)!.state).toBe('inactive')
    const sent = emu.github.server.log.filter((q) => q.at >= r.startedAt)
    expect(sent.filter((q) => q.method === 'GET' && new RegExp(`/issues/${pr}/comments$`).test(q.path))).toEqual([])
    expect(sent.filter((q) => q.method === 'GET' && /\/statuses$/.test(q.path))).toEqual([])
    expect(issueReactions(pr)).toEqual([])
  })
})

describe('permissions', () => {
  it('a token that cannot write fails before deleting anything, naming the permission', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    emu.pulls.close(REPO, pr)
    const r = await sweep({}, READ_ONLY_TOKEN)
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/needs a token that may write to pull requests.*`permissions: pull-requests: write`.*Nothing was deleted/)
    expect(project.branches.has(first.outputs['branch-id'])).toBe(true)
    expect(emu.platform.server.requests('DELETE').filter((q) => q.at > r.startedAt)).toHaveLength(0)
  })
})

describe('a backlog under the repository\'s GitHub budget, each preview with its comment and deployment', () => {
  /** Sweeps under a new hour's budget of `limit` requests; returns the run, the budget and what it deleted and sent. */
  const sweepHour = async (planted: PlantedPreview[], limit = 1000) => {
    const reserve = limit / 4
    const budget = limitGitHub(emu.github, APP_TOKEN, { limit })
    const before = planted.filter((p) => project.branches.has(p.branchId)).length
    const neonBefore = emu.platform.server.log.length
    const r = await sweep({ 'poll-interval': '0.2' }, APP_TOKEN, 600_000)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const left = planted.filter((p) => project.branches.has(p.branchId)).length
    const neon = emu.platform.server.log.slice(neonBefore)
    const deleted = before - left
    const figures =
      `deleted ${deleted}, GitHub requests ${budget.used} (${(budget.used / Math.max(deleted, 1)).toFixed(2)} per swept preview, ${limit - budget.used} left, ${budget.refused} refused), ` +
      `Neon requests ${neon.length} (at most ${busiestMinute(neon.map((q) => q.at))} in a minute), ${((r.endedAt - r.startedAt) / 1000).toFixed(1)} s`
    expect(budget.refused).toBe(0)
    // The reserve: a quarter of the hour's limit is never spent by the sweep.
    expect(budget.used).toBeLessThanOrEqual(limit - reserve)
    expect(busiestMinute(neon.map((q) => q.at))).toBeLessThanOrEqual(700)
    if (left)
      expect(r.stdout).toMatch(
        new RegExp(`::notice::The cleanup stopped at the ${Math.ceil(reserve)} GitHub requests it leaves to the repository's pull requests this hour .*: ${left} branches left for the next run`)
      )
    expect(r.stdout.length).toBeLessThan(2_000_000)
    return { r, budget, left, figures }
  }
  const expectSwept = (planted: PlantedPreview[]): void => {
    for (const p of planted) {
      const comments = emu.github.comments(REPO, p.pr)
      expect(comments.map((c) => c.id)).toEqual([p.commentId])
      expect(comments[0].body).toContain('deleted by the scheduled cleanup')
      expect(emu.deployments.statusesOf(p.deploymentId).at(-1)!.state).toBe('inactive')
      expect(issueReactions(p.pr)).toEqual([])
    }
  }
  const plant = (n: number, recorded: boolean): PlantedPreview[] => {
    emu.platform.timing = { ...emu.platform.timing, deleteMs: 10 }
    return plantPreviews(emu, project, REPO, Array.from({ length: n }, () => newPr()), { recorded })
  }

  it('300 closed PRs\' previews with 1,000 requests an hour: all deleted in one run, each comment edited and deployment set inactive without listing, at least 250 left', async () => {
    const planted = plant(300, true)
    const { r, budget, left, figures } = await sweepHour(planted)
    console.log(`300 previews: ${figures}`)
    expect(left).toBe(0)
    expect(1000 - budget.used).toBeGreaterThanOrEqual(250)
    // At most 2.5 requests per swept preview: its two writes, and a share of the bulk reads.
    expect(budget.used / 300).toBeLessThanOrEqual(2.5)
    expectSwept(planted)
    const sent = emu.github.server.log.filter((q) => q.at >= r.startedAt)
    expect(sent.filter((q) => q.method === 'GET' && /\/issues\/\d+\/comments$/.test(q.path))).toEqual([])
    expect(sent.filter((q) => q.method === 'GET' && /\/deployments\/\d+\/statuses$/.test(q.path))).toEqual([])
  })

  it('260 with 250 requests an hour (more than three hours\' budget): all deleted within four runs, none leaving less than the reserve; ten made before the ids were recorded are swept by listing', async () => {
    const planted = [...plant(10, false), ...plant(250, true)]
    const counts: string[] = []
    let runs = 0
    for (let left = planted.length; left && runs < 4; runs++) {
      const hour = await sweepHour(planted, 250)
      // More than one run's worth: every run but the last stops at the reserve.
      if (runs < 2) expect(hour.left).toBeGreaterThan(0)
      expect(hour.left).toBeLessThan(left)
      left = hour.left
      counts.push(`run ${runs + 1}: ${hour.figures}`)
    }
    console.log(`260 previews at 250 an hour:\n${counts.join('\n')}`)
    expect(planted.filter((p) => project.branches.has(p.branchId))).toEqual([])
    expectSwept(planted)
  }, 600_000)
})

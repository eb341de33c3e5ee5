/**
 * `command: cleanup` through the bundle (Node 24) at a team's scale and
 * shape: named previews of a closed PR, a token that cannot write, and a
 * backlog of 1,200 closed PRs' branches under GitHub's hourly budget of a
 * `GITHUB_TOKEN` (emulator/github/github-rate.ts: 1,000 requests, then 403 with
 * `x-ratelimit-remaining: 0`).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { APP_TOKEN, READ_ONLY_TOKEN } from '../../emulator/github/github.js'
import { limitGitHub } from '../../emulator/github/github-rate.js'
import { ANNOTATION } from '../../src/platform/annotations.js'
import { COMMENT_HEADING } from '../../src/comment/comment.js'
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
  emu.github.server.admit = undefined
  emu.github.server.headersFor = undefined
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

describe('a backlog under GitHub rate limit', () => {
  it('1,200 closed PRs\' branches with 1,000 requests an hour: all deleted within two runs, nothing left behind', async () => {
    const total = 1200
    emu.platform.timing = { ...emu.platform.timing, deleteMs: 10 }
    const prs: number[] = []
    for (let i = 0; i < total; i++) {
      const pr = newPr()
      prs.push(pr)
      const b = emu.platform.newBranch(project, `preview/pr-${pr}-feature-login`, [...project.branches.values()].find((x) => x.default)!.id)
      b.annotations = { [ANNOTATION.repository]: REPO, [ANNOTATION.pr]: String(pr), [ANNOTATION.headSha]: 'a1b2c3d4e5f6', [ANNOTATION.version]: '1.0.0' }
      emu.pulls.close(REPO, pr, i % 2 === 0)
    }
    // Ten of them have a preview comment from an earlier run.
    for (const pr of prs.slice(0, 10)) emu.github.addComment(REPO, pr, 'github-actions[bot]', `${COMMENT_HEADING}: Postgres branch ready\n\nold report\n\n<!-- preview-postgres:v1 {"mode":"branch"} -->`)
    const ours = () => [...project.branches.values()].filter((b) => b.annotations?.[ANNOTATION.repository] === REPO)
    const counts: string[] = []
    let left = total
    for (const hour of [1, 2]) {
      const budget = limitGitHub(emu.github, APP_TOKEN, { limit: 1000 })
      const neonBefore = emu.platform.server.log.length
      const r = await sweep({ 'poll-interval': '0.2' }, APP_TOKEN, 600_000)
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const deleted = left - ours().length
      left = ours().length
      const neon = emu.platform.server.log.slice(neonBefore)
      const locked = neon.filter((q) => q.method === 'DELETE' && q.status === 423).length
      counts.push(
        `run ${hour}: deleted ${deleted}, GitHub requests ${budget.used} (${(budget.used / Math.max(deleted, 1)).toFixed(2)} per deleted branch, ${budget.refused} refused), ` +
          `Neon requests ${neon.length} (${(neon.length / Math.max(deleted, 1)).toFixed(2)} per deleted branch, at most ${busiestMinute(neon.map((q) => q.at))} in a minute, ` +
          `${locked} DELETEs answered 423), ${((r.endedAt - r.startedAt) / 1000).toFixed(1)} s`
      )
      // The sweep waits out the project's busy time after a DELETE (sweep-pace.ts, SettleTime) instead of meeting 423 on nearly every one.
      expect(locked).toBeLessThan(deleted / 4)
      expect(budget.refused).toBe(0)
      expect(busiestMinute(neon.map((q) => q.at))).toBeLessThanOrEqual(700)
      expect(budget.used).toBeLessThanOrEqual(1000)
      if (left) expect(r.stdout).toMatch(new RegExp(`::notice::The cleanup stopped before GitHub's rate limit ran out .*: ${left} branches left for the next run`))
      expect(r.stdout.length).toBeLessThan(2_000_000)
    }
    console.log(counts.join('\n'))
    expect(left).toBe(0)
    for (const pr of prs) expect(issueReactions(pr)).toEqual([])
    for (const pr of prs.slice(0, 10)) {
      expect(emu.github.comments(REPO, pr)).toHaveLength(1)
      expect(emu.github.comments(REPO, pr)[0].body).toContain('deleted by the scheduled cleanup')
    }
    for (const pr of prs.slice(10, 20)) expect(emu.github.comments(REPO, pr)).toHaveLength(0)
  }, 900_000)
})

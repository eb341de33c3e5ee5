/**
 * Runs that no pull request's comment lock serialises, through the bundled action (Node 24, as action.yml)
 * against the emulated Neon and GitHub, each event built from GitHub's published example payload
 * (fixtures/webhook-events.ts): the jobs of one merge-queue entry (a matrix among them), two pushes of one
 * git branch at once, git branch names that would map to one preview, a tag's delete event and a
 * scheduled run's expiry.
 */
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import { lifecycleSuite, notices, withGitBranches } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'
import { GHES_VERSIONS, exampleEvent } from '../fixtures/webhook-events.js'

const suite = lifecycleSuite('shared-previews-test-', 6200)
const { run, previewBranches, count } = suite
let emu: Emulator
let project: Project
const git = withGitBranches(suite)
beforeAll(() => {
  ;({ emu } = suite)
})
beforeEach(() => {
  project = suite.project
})


/** A job `job` of the merge-queue entry at `sha` (the `merge_group` `checks_requested` example), its post step left to the test. */
const queueJob = (sha: string, job: string): Partial<RunOptions> => ({
  ...exampleEvent('merge_group', { merge_group: { head_sha: sha } }),
  env: { GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/gh-readonly-queue/main/pr-104-929f8209d40f77f4abc622a499c93a83babdbe64', GITHUB_JOB: job },
  deferPost: true
})

const pushRun = (branch: string, sha: string): Partial<RunOptions> => git.events.push(branch, sha)
const deleteEvent = (branch: string): Partial<RunOptions> => git.events.deleted(branch)

describe('merge_group: every job of one entry has a database of its own', () => {
  it('three jobs at once (two of one matrix): after the first post step the others still answer with their seed; nothing is left after the last', async () => {
    const sha = '2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d'
    const jobs = await Promise.all(['test', 'test', 'e2e'].map((job) => run({ seed: 'seed.sql' }, queueJob(sha, job))))
    for (const j of jobs) {
      expect(j.errors).toEqual([])
      expect(j.outputs.created).toBe('true')
      expect(j.outputs['branch-name']).toMatch(/^preview\/queue-2ffea6d-(test|e2e)-[0-9a-f]{6}$/)
    }
    expect(new Set(jobs.map((j) => j.outputs['branch-id'])).size).toBe(3)
    expect(jobs.map((j) => j.outputs['branch-name'].split('-')[2]).sort()).toEqual(['e2e', 'test', 'test'])
    for (const j of jobs) expect(await count(j, 'items')).toBe(5)

    const left: RunResult[] = [...jobs]
    while (left.length) {
      const done = left.shift()!
      const post = await done.runPost!()
      expect(post.code).toBe(0)
      expect(post.warnings).toEqual([])
      expect(project.branches.has(done.outputs['branch-id'])).toBe(false)
      // the other jobs' databases still answer, seeded
      for (const other of left) expect(await count(other, 'items')).toBe(5)
    }
    expect(previewBranches()).toEqual([])
  })
})

describe('push: runs of one git branch wait for each other, without a concurrency group', () => {
  it('two pushes 0.3 s apart both succeed on one preview seeded once; no branch is deleted; the second is handed out after the seed committed', async () => {
    const started = Date.now()
    const first = run({ seed: 'seed.sql' }, { ...pushRun('feature/race', 'a'.repeat(40)), timeOutputs: true })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const second = run({ seed: 'seed.sql' }, { ...pushRun('feature/race', 'b'.repeat(40)), timeOutputs: true })
    const [a, b] = await Promise.all([first, second])
    for (const r of [a, b]) {
      expect(r.errors).toEqual([])
      expect(r.post?.warnings ?? []).toEqual([])
    }
    // which run creates is the race's: the first started may reach Neon second on a loaded runner
    expect([a.outputs.created, b.outputs.created].sort()).toEqual(['false', 'true'])
    const waiter = a.outputs.created === 'true' ? b : a
    expect(b.outputs['branch-id']).toBe(a.outputs['branch-id'])
    expect(previewBranches().map((x) => x.id)).toEqual([a.outputs['branch-id']])
    expect(await count(a, 'items')).toBe(5)
    const requests = emu.platform.server.requests('DELETE', /\/branches\//).filter((q) => q.at >= started)
    expect(requests).toEqual([])
    // the rename to the seeded name (the end of the seed) was answered before the run that waited set its outputs
    const renamed = emu.platform.server
      .requests('PATCH', new RegExp(`/branches/${a.outputs['branch-id']}$`))
      .filter((q) => q.at >= started && q.status === 200 && !JSON.parse(q.requestText).branch?.name?.endsWith('~seeding'))
    expect(renamed.length).toBeGreaterThan(0)
    expect(waiter.outputsAt).toBeGreaterThan(renamed[0].at)
  })
})

describe('git branches whose names map to one preview get one each', () => {
  it('feature/x and feature-x get two previews; each delete event removes only its own', async () => {
    const slash = await run({ seed: 'seed.sql' }, pushRun('feature/x', '1'.repeat(40)))
    const dash = await run({ seed: 'seed.sql' }, pushRun('feature-x', '2'.repeat(40)))
    for (const r of [slash, dash]) expect(r.errors).toEqual([])
    expect(dash.outputs['branch-name']).toBe('preview/feature-x')
    expect(slash.outputs['branch-name']).toMatch(/^preview\/feature-x-[0-9a-f]{8}$/)
    expect(slash.outputs['branch-id']).not.toBe(dash.outputs['branch-id'])

    expect((await run({ command: 'delete' }, deleteEvent('feature/x'))).errors).toEqual([])
    expect(previewBranches().map((b) => b.id)).toEqual([dash.outputs['branch-id']])
    expect((await run({ command: 'delete' }, deleteEvent('feature-x'))).errors).toEqual([])
    expect(previewBranches()).toEqual([])
  })

  it('names of non-ASCII letters only get a preview each, reused by the next push (not one per commit)', async () => {
    const a1 = await run({}, pushRun('функция', '3'.repeat(40)))
    const b1 = await run({}, pushRun('関数', '4'.repeat(40)))
    const a2 = await run({}, pushRun('функция', '5'.repeat(40)))
    for (const r of [a1, b1, a2]) expect(r.errors).toEqual([])
    expect(a1.outputs['branch-name']).toMatch(/^preview\/branch-[0-9a-f]{8}$/)
    expect(b1.outputs['branch-name']).toMatch(/^preview\/branch-[0-9a-f]{8}$/)
    expect(b1.outputs['branch-id']).not.toBe(a1.outputs['branch-id'])
    expect(a2.outputs).toMatchObject({ created: 'false', 'branch-id': a1.outputs['branch-id'] })
  })

  it("a branch under the preview's name that records another git branch is neither reused nor deleted", async () => {
    const made = await run({}, pushRun('feature-q', '6'.repeat(40)))
    expect(made.errors).toEqual([])
    const record = project.branches.get(made.outputs['branch-id'])!
    record.annotations = { ...record.annotations, 'preview-postgres/git-branch': 'feature/q' }
    const reuse = await run({}, pushRun('feature-q', '7'.repeat(40)))
    expect(reuse.errors).toEqual([expect.stringMatching(/has the name of git branch "feature-q"'s preview, but it is the preview of git branch "feature\/q"/)])
    const deleted = await run({ command: 'delete' }, deleteEvent('feature-q'))
    expect(deleted.errors).toEqual([expect.stringMatching(/it is the preview of git branch "feature\/q"/)])
    expect(project.branches.has(made.outputs['branch-id'])).toBe(true)
  })
})

describe('runs with no PR and no git branch', () => {
  it("a tag's delete event deletes nothing and says so", async () => {
    const sha = '0123456789abcdef0123456789abcdef01234567' // the runner's GITHUB_SHA: the delete event's run names this commit's preview
    const scheduled = await run({}, { ...exampleEvent('schedule'), env: { GITHUB_SHA: sha } })
    expect(scheduled.errors).toEqual([])
    const before = emu.platform.server.log.length
    const r = await run({ command: 'delete' }, { ...exampleEvent('delete'), env: { GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/main' } })
    expect(r.code).toBe(0)
    expect(r.errors).toEqual([])
    expect(notices(r.stdout)).toEqual([expect.stringMatching(/^Tag "simple-tag" was deleted: `command: delete` deletes nothing/)])
    expect(emu.platform.server.log.slice(before)).toEqual([])
    expect(project.branches.has(scheduled.outputs['branch-id'])).toBe(true)
  })

  it("a schedule run's preview expires in 24 h by default; `expires-in` still wins", async () => {
    const started = Date.now()
    const r = await run({}, exampleEvent('schedule'))
    expect(r.errors).toEqual([])
    const at = Date.parse(project.branches.get(r.outputs['branch-id'])!.expires_at!)
    expect(at).toBeGreaterThanOrEqual(started + 24 * 3600_000 - 5000)
    expect(at).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 5000)
    expect(r.outputs['expires-at']).toBeTruthy()

    const given = await run({ 'expires-in': '2h', 'branch-name': 'preview/nightly' }, exampleEvent('schedule'))
    expect(given.errors).toEqual([])
    expect(Date.parse(project.branches.get(given.outputs['branch-id'])!.expires_at!)).toBeLessThanOrEqual(Date.now() + 2 * 3600_000 + 5000)
  })
})

describe('every event the action reads, from its example payload', () => {
  /** The expiry of the branch a run handed out, in hours from now (null: none). */
  const expiryHours = (r: RunResult): number | null => {
    const at = project.branches.get(r.outputs['branch-id'])?.expires_at
    return at ? Math.round((Date.parse(at) - Date.now()) / 3600_000) : null
  }
  const sha = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'

  it('pull_request and pull_request_target: the PR owns one preview, no expiry', async () => {
    const pr = suite.newPr()
    const payload = {
      number: pr,
      pull_request: {
        number: pr,
        state: 'open',
        head: { ref: 'feature/login', sha, repo: { full_name: REPO } },
        base: { ref: 'main', repo: { full_name: REPO } }
      }
    }
    const opened = await run({}, exampleEvent('pull_request', payload, (e) => e.action === 'opened'))
    expect(opened.errors).toEqual([])
    expect(opened.outputs['branch-name']).toBe(`preview/pr-${pr}-feature-login`)
    expect(expiryHours(opened)).toBeNull()
    const target = await run({}, { ...exampleEvent('pull_request', payload, (e) => e.action === 'synchronize'), eventName: 'pull_request_target' })
    expect(target.errors).toEqual([])
    expect(target.outputs).toMatchObject({ created: 'false', 'branch-id': opened.outputs['branch-id'] })
  })

  it('workflow_dispatch and create on a git branch: the git branch owns the preview, no expiry', async () => {
    git.branches.push(REPO, 'dispatch-me', sha)
    const dispatched = await run({}, { ...exampleEvent('workflow_dispatch', { ref: 'refs/heads/dispatch-me' }), env: { GITHUB_REF: 'refs/heads/dispatch-me', GITHUB_SHA: sha } })
    expect(dispatched.errors).toEqual([])
    expect(dispatched.outputs['branch-name']).toBe('preview/dispatch-me')
    expect(expiryHours(dispatched)).toBeNull()
    git.branches.push(REPO, 'made-now', sha)
    const created = await run({}, { ...exampleEvent('create', { ref: 'made-now', ref_type: 'branch' }), env: { GITHUB_REF: 'refs/heads/made-now', GITHUB_SHA: sha } })
    expect(created.errors).toEqual([])
    expect(created.outputs['branch-name']).toBe('preview/made-now')
  })

  it("create of a tag, a tag's push and workflow_run: a preview of the commit that expires in 24 h", async () => {
    const tag = await run({}, { ...exampleEvent('create'), env: { GITHUB_REF: 'refs/tags/simple-tag', GITHUB_SHA: sha } })
    expect(tag.errors).toEqual([])
    expect(tag.outputs['branch-name']).toBe('preview/ec26c3e')
    expect(expiryHours(tag)).toBe(24)
    const pushed = await run({}, { ...exampleEvent('push', {}, (e) => String(e.ref).startsWith('refs/tags/')), env: { GITHUB_REF: 'refs/tags/simple-tag', GITHUB_SHA: sha } })
    expect(pushed.errors).toEqual([])
    expect(pushed.outputs).toMatchObject({ created: 'false', 'branch-id': tag.outputs['branch-id'] })
    const other = '380387fbc80638b734a49e1be1c4dfec1c01b33c'
    const completed = await run({}, { ...exampleEvent('workflow_run', {}, (e) => e.action === 'completed'), env: { GITHUB_SHA: other } })
    expect(completed.errors).toEqual([])
    expect(completed.outputs['branch-name']).toBe('preview/380387f')
    expect(expiryHours(completed)).toBe(24)
  })
})

describe("GHES's example payloads", () => {
  it.each(GHES_VERSIONS)('%s: a push makes the git branch its preview and the branch delete event removes it', async (version) => {
    const branch = `ghes/${version}`
    const sha = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
    git.branches.push(REPO, branch, sha)
    const pushed = await run(
      {},
      {
        ...exampleEvent('push', { ref: `refs/heads/${branch}`, after: sha, deleted: false }, () => true, version),
        env: { GITHUB_REF: `refs/heads/${branch}`, GITHUB_SHA: sha }
      }
    )
    expect(pushed.errors).toEqual([])
    expect(pushed.outputs['branch-name']).toMatch(new RegExp(`^preview/ghes-${version}-[0-9a-f]{8}$`))
    git.branches.delete(REPO, branch)
    const deleted = await run(
      { command: 'delete' },
      { ...exampleEvent('delete', { ref: branch, ref_type: 'branch' }, () => true, version), env: { GITHUB_REF: 'refs/heads/main' } }
    )
    expect(deleted.errors).toEqual([])
    expect(project.branches.has(pushed.outputs['branch-id'])).toBe(false)
  })
})

/**
 * Previews no pull request owns, through the bundled action (Node 24, as
 * action.yml) against the emulated Neon and GitHub: a merge queue's job gets
 * a database of its own that its post step deletes (with Neon's `expires_at`
 * behind it, and the sweep behind that), and a pushed git branch gets one
 * preview, reused by the next push and removed with the git branch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { ACTION_YML, type RunOptions } from '../../emulator/runner/runner.js'
import { lifecycleSuite, notices, withGitBranches } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'
import { exampleEvent } from '../fixtures/webhook-events.js'

const suite = lifecycleSuite('queue-push-test-', 5600)
const { newPr, run, previewBranches, expectNoLeak } = suite
let emu: Emulator
let project: Project
const git = withGitBranches(suite)
beforeAll(() => {
  ;({ emu } = suite)
})
beforeEach(() => {
  project = suite.project
})


/** A `merge_group` `checks_requested` run of the queue entry of PR `pr` at `sha` (GitHub's example, with the entry's fields on top). */
const queueRun = (pr: number, sha: string): Partial<RunOptions> => {
  const headRef = `refs/heads/gh-readonly-queue/main/pr-${pr}-${'b'.repeat(40)}`
  return {
    ...exampleEvent('merge_group', { merge_group: { head_sha: sha, head_ref: headRef, base_sha: 'b'.repeat(40), base_ref: 'refs/heads/main' } }),
    env: { GITHUB_SHA: sha, GITHUB_REF: headRef }
  }
}

const pushRun = (branch: string, sha: string): Partial<RunOptions> => git.events.push(branch, sha)
const deleteEvent = (branch: string): Partial<RunOptions> => git.events.deleted(branch)

const madeDirs: string[] = []
afterAll(() => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true })
})

/** An action.yml like ours without `runs.post`: a job whose post step never runs (a killed runner). */
function withoutPost(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'no-post-'))
  madeDirs.push(dir)
  const text = readFileSync(ACTION_YML, 'utf8')
    .replace(/^( {2}main: )dist\/index\.js$/m, `$1${path.join(path.dirname(ACTION_YML), 'dist', 'index.js')}`)
    .replace(/^ {2}post: .*\n/m, '')
  writeFileSync(path.join(dir, 'action.yml'), text)
  return path.join(dir, 'action.yml')
}

describe('merge_group: a database for the job alone', () => {
  it('three queue entries at once each get a seeded database, leave the PR\'s preview alone, and leave no branch after their post steps', async () => {
    const pr = newPr()
    const preview = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(preview.errors).toEqual([])
    const before = { ...project.branches.get(preview.outputs['branch-id'])! }
    const comment = emu.github.comments(REPO, pr)[0].body
    const shas = ['c783e9e1', 'd894fa02', 'e9a50b13'].map((s) => s.padEnd(40, '0'))
    const started = Date.now()
    const runs = await Promise.all(shas.map((sha) => run({ seed: 'seed.sql' }, queueRun(pr, sha))))
    for (const [i, r] of runs.entries()) {
      expect(r.errors).toEqual([])
      expect(r.outputs.created).toBe('true')
      expect(r.outputs['branch-name']).toMatch(new RegExp(`^preview/queue-${shas[i].slice(0, 7)}-[0-9a-f]{6}$`))
      expect(r.outputs['database-url']).toMatch(/^postgres(ql)?:\/\//)
      expect(r.stdout).toMatch(/Seed complete: renamed branch/)
      expect(r.post?.code).toBe(0)
      expect(r.post?.warnings).toEqual([])
      expect(r.post?.stdout).toContain(`Deleted branch "${r.outputs['branch-name']}" (${r.outputs['branch-id']})`)
      expectNoLeak(r)
    }
    // each create carried a backstop expiry about 6 h ahead and the merge group's annotations
    const creates = emu.platform.server
      .requests('POST', /\/branches$/)
      .filter((q) => q.at >= started && q.status === 201)
      .map((q) => JSON.parse(q.requestText))
    expect(creates).toHaveLength(3)
    for (const c of creates) {
      const at = Date.parse(c.branch.expires_at)
      expect(at).toBeGreaterThan(started + 6 * 3600_000 - 5000)
      expect(at).toBeLessThan(Date.now() + 6 * 3600_000 + 5000)
      expect(c.annotation_value).toMatchObject({ 'preview-postgres/kind': 'merge-group', 'preview-postgres/repository': REPO })
      expect(c.annotation_value['preview-postgres/pr']).toBeUndefined()
    }
    expect(previewBranches().map((b) => b.id)).toEqual([preview.outputs['branch-id']])
    expect(project.branches.get(preview.outputs['branch-id'])).toMatchObject({ name: before.name, updated_at: before.updated_at })
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toBe(comment)
  })

  it('a job whose post step never ran leaves a branch with expires_at: Neon deletes it then; without one, the sweep does once the job is over', async () => {
    const noPost = withoutPost()
    const r = await run({}, { ...queueRun(7, 'f0a1b2c3'.padEnd(40, '0')), actionYml: noPost })
    expect(r.errors).toEqual([])
    expect(r.post).toBeUndefined()
    const left = project.branches.get(r.outputs['branch-id'])!
    expect(Date.parse(left.expires_at!)).toBeGreaterThan(Date.now() + 5 * 3600_000)
    const keep = await run({ command: 'cleanup' }, exampleEvent('schedule'))
    expect(keep.errors).toEqual([])
    expect(project.branches.has(left.id)).toBe(true)
    expect(keep.summary).toMatch(/\| keep \| a merge group's branch whose job may still run/)
    // Neon removes a branch at its expires_at (the emulator's background job)
    left.expires_at = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    await run({ command: 'cleanup', 'dry-run': 'true' }, exampleEvent('schedule'))
    expect(project.branches.has(left.id)).toBe(false)

    // a project where the branch carries no expiry (Neon did not keep one): the sweep deletes it once older than the job's 6 h
    const again = await run({}, { ...queueRun(8, 'a0b1c2d3'.padEnd(40, '0')), actionYml: noPost })
    const old = project.branches.get(again.outputs['branch-id'])!
    delete old.expires_at
    old.created_at = new Date(Date.now() - 7 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const githubBefore = emu.github.server.log.length
    const swept = await run({ command: 'cleanup' }, exampleEvent('schedule'))
    expect(swept.errors).toEqual([])
    expect(project.branches.has(old.id)).toBe(false)
    expect(swept.summary).toMatch(/\| deleted \| a merge group's branch older than 6 h: its job is over \|/)
    // no GitHub request for a queue branch: no pull request or git branch read
    expect(emu.github.server.log.slice(githubBefore).filter((q) => /pulls|branches/.test(q.path))).toEqual([])
  })
})

describe('push: one preview per git branch', () => {
  it('two pushes to one branch make one preview, reused; a create on its delete event makes nothing; delete on that event removes it', async () => {
    const first = await run({ seed: 'seed.sql' }, pushRun('feature/reports', '5f120d1'.padEnd(40, 'a')))
    expect(first.errors).toEqual([])
    expect(first.outputs.created).toBe('true')
    expect(first.outputs['branch-name']).toMatch(/^preview\/feature-reports-[0-9a-f]{8}$/)
    const second = await run({ seed: 'seed.sql' }, pushRun('feature/reports', 'c783e9e'.padEnd(40, 'b')))
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', 'branch-id': first.outputs['branch-id'] })
    expect(previewBranches().map((b) => b.name)).toEqual([first.outputs['branch-name']])
    expect(second.post?.stdout ?? '').not.toMatch(/Deleted/)

    const refused = await run({ seed: 'seed.sql' }, deleteEvent('feature/reports'))
    expect(refused.code).toBe(0)
    expect(notices(refused.stdout)).toEqual([expect.stringMatching(/^Git branch "feature\/reports" was deleted: `command: create` provisions nothing/)])
    expect(previewBranches()).toHaveLength(1)
    const deleted = await run({ command: 'delete' }, deleteEvent('feature/reports'))
    expect(deleted.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
  })

  it('the sweep deletes the preview of a git branch gone on GitHub and keeps the others, one GitHub request per git branch', async () => {
    const gone = await run({}, pushRun('feature/old', '1'.repeat(40)))
    const live = await run({}, pushRun('feature/live', '2'.repeat(40)))
    const pr = await run({}, { pr: { number: newPr() } })
    for (const r of [gone, live, pr]) expect(r.errors).toEqual([])
    git.branches.delete(REPO, 'feature/old')
    const before = git.branches.requests()
    const swept = await run({ command: 'cleanup' }, exampleEvent('schedule'))
    expect(swept.errors).toEqual([])
    expect(previewBranches().map((b) => b.id).sort()).toEqual([live.outputs['branch-id'], pr.outputs['branch-id']].sort())
    expect(swept.summary).toMatch(/\| deleted \| git branch `feature\/old` was deleted \|/)
    expect(swept.summary).toMatch(/\| keep \| git branch `feature\/live` exists \|/)
    expect(git.branches.requests() - before).toBe(2)
  })

  it('a 404 that is not `Branch not found` (a token that may not read the repository) keeps the preview', async () => {
    const r = await run({}, pushRun('feature/private', '3'.repeat(40)))
    expect(r.errors).toEqual([])
    emu.github.server.inject({ kind: 'status', method: 'GET', path: /\/branches\/feature/, status: 404, body: { message: 'Not Found' } })
    const swept = await run({ command: 'cleanup' }, exampleEvent('schedule'))
    expect(swept.errors).toEqual([])
    expect(project.branches.has(r.outputs['branch-id'])).toBe(true)
    expect(swept.summary).toMatch(/\| keep \| git branch `feature\/private` could not be read \(HTTP 404/)
  })
})

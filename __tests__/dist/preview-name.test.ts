/**
 * Input `preview-name` through the bundled action (Node 24, as action.yml):
 * two previews of one pull request (an API's database and a web app's), in
 * branch mode against the Neon emulator and in instant mode against
 * neon.new's, one after the other and at the same time. Each name has its own
 * comment, lock, record and reuse; the default branch name gets
 * `-<preview-name>`; two runs with different names never wait on each other.
 */
import { describe, expect, it } from '@jest/globals'
import { APP_TOKEN } from '../../emulator/index.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { REPO, instantInputs, runAction } from '../fixtures/preview.js'
import { lockReactionOf } from '../../src/comment/comment.js'

const s = branchSuite({ prefix: 'preview-name-test-', firstPr: 3400, projectPerTest: true })

const comments = (pr: number) => s.emu.github.comments(REPO, pr)
const markerOf = (body: string): Record<string, unknown> => JSON.parse(/<!-- preview-postgres:v1 (\{.*?\}) -->/.exec(body)![1])
/** No run waited for another's lock. */
const waitedNot = (r: RunResult): void => expect(r.stdout).not.toMatch(/Another run of this PR holds the lock|A racing first run posted/)

describe('two previews of one PR, branch mode', () => {
  it('one after the other: two branches named -api and -web, two comments; each re-run reuses its own', async () => {
    const pr = s.newPr()
    const api = await s.run({ 'preview-name': 'api' }, { pr: { number: pr } })
    const web = await s.run({ 'preview-name': 'web' }, { pr: { number: pr } })
    for (const r of [api, web]) expect(r.errors).toEqual([])
    expect(api.outputs['branch-name']).toBe(`preview/pr-${pr}-feature-login-api`)
    expect(web.outputs['branch-name']).toBe(`preview/pr-${pr}-feature-login-web`)
    expect(s.previewBranches().map((b) => b.name).sort()).toEqual([api.outputs['branch-name'], web.outputs['branch-name']])
    const list = comments(pr)
    expect(list).toHaveLength(2)
    expect(list.map((c) => markerOf(c.body).preview)).toEqual(['api', 'web'])
    expect(list[0].body).toContain('`api`')
    expect(api.outputs['comment-url']).toBe(list[0].html_url)
    expect(web.outputs['comment-url']).toBe(list[1].html_url)

    const again = await s.run({ 'preview-name': 'web' }, { pr: { number: pr } })
    expect(again.outputs).toMatchObject({ created: 'false', 'branch-id': web.outputs['branch-id'] })
    expect(comments(pr)).toHaveLength(2)
    // the unnamed preview is a third one
    const plain = await s.run({}, { pr: { number: pr } })
    expect(plain.outputs).toMatchObject({ created: 'true', 'branch-name': `preview/pr-${pr}-feature-login` })
    expect(comments(pr)).toHaveLength(3)
    // command: delete of one name leaves the other
    const gone = await s.run({ command: 'delete', 'preview-name': 'api' }, { pr: { number: pr } })
    expect(gone.errors).toEqual([])
    expect(s.project.branches.has(api.outputs['branch-id'])).toBe(false)
    expect(s.project.branches.has(web.outputs['branch-id'])).toBe(true)
  })

  it('at the same time: neither waits for the other, each makes its own branch and comment', async () => {
    s.emu.platform.timing = { createBranchMs: 600, startComputeMs: 900, deleteMs: 200 }
    const pr = s.newPr()
    const [api, web] = await Promise.all([
      s.run({ 'preview-name': 'api' }, { pr: { number: pr } }),
      s.run({ 'preview-name': 'web' }, { pr: { number: pr } })
    ])
    for (const r of [api, web]) {
      expect(r.errors).toEqual([])
      expect(r.outputs.created).toBe('true')
      waitedNot(r)
    }
    expect(s.previewBranches()).toHaveLength(2)
    expect(comments(pr).map((c) => markerOf(c.body).preview).sort()).toEqual(['api', 'web'])
  })

  it('two names whose lock is the same reaction (admin and app): one waits for the other, never both hold it', async () => {
    expect(lockReactionOf('admin')).toBe(lockReactionOf('app'))
    s.emu.platform.timing = { createBranchMs: 600, startComputeMs: 900, deleteMs: 200 }
    const pr = s.newPr()
    const [admin, app] = await Promise.all([
      s.run({ 'preview-name': 'admin' }, { pr: { number: pr } }),
      s.run({ 'preview-name': 'app' }, { pr: { number: pr } })
    ])
    for (const r of [admin, app]) {
      expect(r.errors).toEqual([])
      expect(r.outputs.created).toBe('true')
    }
    const waited = [admin, app].filter((r) => /Another run of this PR holds the lock/.test(r.stdout))
    expect(waited).toHaveLength(1)
    expect(waited[0].stdout).not.toMatch(/Taking over the lock/)
    expect(s.previewBranches()).toHaveLength(2)
    expect(comments(pr).map((c) => markerOf(c.body).preview).sort()).toEqual(['admin', 'app'])
  })

  it('refuses a name with characters a branch name or marker cannot carry, before any request', async () => {
    s.emu.platform.server.log.length = 0
    const r = await s.run({ 'preview-name': 'api web' }, { pr: { number: s.newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/Input `preview-name` must be 1 to 40 letters, digits, `-`, `_` or `.`/)
    expect(s.emu.platform.server.log).toEqual([])
  })
})

describe('two previews of one PR, instant mode', () => {
  const instant = (pr: number, name: string): Promise<RunResult> =>
    runAction(s.emu, s.work, { ...instantInputs(s.emu), 'github-token': APP_TOKEN, 'preview-name': name }, { pr: { number: pr } })

  it('one after the other and again: two databases, two comments, each reused by its own name', async () => {
    const pr = s.newPr()
    const api = await instant(pr, 'api')
    const web = await instant(pr, 'web')
    for (const r of [api, web]) expect(r.outputs.created).toBe('true')
    expect(api.outputs['database-id']).not.toBe(web.outputs['database-id'])
    expect(comments(pr)).toHaveLength(2)
    const again = await instant(pr, 'api')
    expect(again.outputs).toMatchObject({ created: 'false', 'database-id': api.outputs['database-id'] })
  })

  it('at the same time: neither waits, two databases', async () => {
    const pr = s.newPr()
    const [api, web] = await Promise.all([instant(pr, 'api'), instant(pr, 'web')])
    for (const r of [api, web]) {
      expect(r.errors).toEqual([])
      expect(r.outputs.created).toBe('true')
      waitedNot(r)
    }
    expect(api.outputs['database-id']).not.toBe(web.outputs['database-id'])
    expect(comments(pr)).toHaveLength(2)
  })
})

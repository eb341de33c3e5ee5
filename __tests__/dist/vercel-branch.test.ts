/**
 * The Vercel wiring through the bundled action in branch mode: a PR whose
 * deployment was built before the run gets the variables and exactly one
 * new deployment; none without a deployment of the commit yet;
 * `command: reset` and a rebuild for a changed seed (the branch restored in
 * place: same connection strings) write and deploy nothing; `command: delete`, the sweep (`command: cleanup`) and
 * `make-room` remove exactly this action's variables of the swept PR's
 * branch, and another PR's, or a variable set by hand, stay; a `failed[]`
 * entry fails the step and keeps the branch; the token appears nowhere.
 */
import { describe, expect, it } from '@jest/globals'
import { VERCEL_TOKEN } from '../../emulator/index.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import type { EmulatedProject } from '../../emulator/vercel/vercel.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { REPO } from '../fixtures/preview.js'
import { leakForms } from '../helpers.js'

const suite = branchSuite({
  prefix: 'vercel-branch-test-',
  firstPr: 4950,
  projectPerTest: true,
  files: { 'v1.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n', 'v2.sql': 'CREATE TABLE items (id int PRIMARY KEY, name text);\n' }
})
const SHA = 'a1b2c3d4e5f6'

let projects = 0
/** A Vercel project of the personal account (no `vercel-team`), linked to the repository. */
const vercelProject = (): EmulatedProject => suite.emu.vercel.addProject(`shop-branch-${++projects}`)

const run = (project: EmulatedProject, pr: number, inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  suite.run(
    { 'vercel-token': VERCEL_TOKEN, 'vercel-project': project.id, 'vercel-api-url': suite.emu.vercel.url, ...inputs },
    { pr: { number: pr, headRef: `feature/pr-${pr}` }, ...extra }
  )
const keysOf = (project: EmulatedProject, branch: string): string[] =>
  project.envs
    .filter((e) => e.gitBranch === branch)
    .map((e) => e.key)
    .sort()
const idle = async (): Promise<void> => {
  while (suite.emu.platform.busy(suite.project)) await new Promise((r) => setTimeout(r, 50))
}

describe('branch mode', () => {
  it('a READY deployment built before the run: the variables and one new deployment that has them (the finished one is left); delete removes them', async () => {
    const project = vercelProject()
    const pr = suite.newPr()
    const branch = `feature/pr-${pr}`
    const stale = suite.emu.vercel.gitPush(project, branch, SHA, 'READY')
    const r = await run(project, pr)
    expect(r.errors).toEqual([])
    const made = suite.emu.vercel.deployments.filter((d) => d.projectId === project.id && d.source === 'api')
    expect(made).toHaveLength(1)
    expect(made[0].env).toEqual({ DATABASE_URL: r.outputs['database-url'], DATABASE_URL_UNPOOLED: r.outputs['database-url-direct'] })
    expect(stale.state).toBe('READY')
    expect(r.outputs['vercel-deployment-url']).toBe(`https://${made[0].url}`)
    // The personal account: no teamId or slug.
    expect(suite.emu.vercel.server.requests('POST', /^\/v13\/deployments$/).at(-1)!.query).toBe('forceNew=1')
    suite.expectNoLeak(r, leakForms(VERCEL_TOKEN))

    // command: reset keeps the connection strings: nothing written, nothing deployed; the comment still links the preview.
    made[0].state = 'READY'
    const writes = (): number => suite.emu.vercel.server.log.filter((q) => q.method !== 'GET').length
    const before = writes()
    const reset = await run(project, pr, { command: 'reset' })
    expect(reset.errors).toEqual([])
    expect(writes()).toBe(before)
    expect(reset.stdout).toContain('already hold this database')
    expect(suite.emu.github.comments(REPO, pr).at(-1)!.body).toContain(`| Vercel preview | https://${made[0].url}/ (ready): reads this database`)

    const closed = { action: 'closed', number: pr, pull_request: { number: pr, head: { ref: branch, sha: SHA } } }
    const d = await run(project, pr, { command: 'delete' }, { event: closed })
    expect(d.errors).toEqual([])
    expect(keysOf(project, branch)).toEqual([])
    suite.expectNoLeak(d, leakForms(VERCEL_TOKEN))
  })

  it('no deployment yet: the variables only; a rebuilt branch (changed seed) keeps its connection strings, so nothing is written or deployed', async () => {
    const project = vercelProject()
    const pr = suite.newPr()
    const branch = `feature/pr-${pr}`
    const first = await run(project, pr, { seed: 'v1.sql' })
    expect(first.errors).toEqual([])
    expect(first.stdout).toContain("No Vercel deployment of a1b2c3d yet: the one Vercel's Git integration builds from now on reads the variables")
    expect(suite.emu.vercel.deployments.filter((d) => d.projectId === project.id)).toEqual([])
    expect(keysOf(project, branch)).toEqual(['DATABASE_URL', 'DATABASE_URL_UNPOOLED'])
    const built = suite.emu.vercel.gitPush(project, branch, SHA, 'READY')
    expect(built.env.DATABASE_URL).toBe(first.outputs['database-url'])
    const writes = (): number => suite.emu.vercel.server.log.filter((q) => q.method !== 'GET').length
    const before = writes()
    // Branch mode rebuilds in place (the branch restored from its parent): the same strings, which the deployment reads live.
    const r = await run(project, pr, { seed: 'v2.sql' })
    expect(r.errors).toEqual([])
    expect(r.outputs.reseeded).toBe('true')
    expect(r.outputs['database-url']).toBe(first.outputs['database-url'])
    expect(writes()).toBe(before)
    expect(r.stdout).toContain('already hold this database')
    expect(r.outputs['vercel-deployment-url']).toBe(`https://${built.url}`)
  })

  it("the sweep removes the closed PR's variables only; an open PR's and a hand-set one stay", async () => {
    const project = vercelProject()
    const closedPr = suite.newPr()
    const openPr = suite.newPr()
    expect((await run(project, closedPr)).errors).toEqual([])
    expect((await run(project, openPr)).errors).toEqual([])
    const now = Date.now()
    project.envs.push({ id: 'by-hand', key: 'FEATURE_FLAG', value: 'on', type: 'encrypted', target: ['preview'], gitBranch: `feature/pr-${closedPr}`, createdAt: now, updatedAt: now })
    suite.emu.pulls.close(REPO, closedPr, true)
    await idle()
    const listedBefore = suite.emu.vercel.server.log.length
    const sweep = await run(project, 0, { command: 'cleanup' }, { pr: undefined, eventName: 'schedule', event: {} })
    expect(sweep.errors).toEqual([])
    expect(sweep.stdout).toContain(`Removed the Vercel variables of PR #${closedPr}: DATABASE_URL (feature/pr-${closedPr}), DATABASE_URL_UNPOOLED (feature/pr-${closedPr})`)
    expect(keysOf(project, `feature/pr-${closedPr}`)).toEqual(['FEATURE_FLAG'])
    expect(keysOf(project, `feature/pr-${openPr}`)).toEqual(['DATABASE_URL', 'DATABASE_URL_UNPOOLED'])
    // One listing of the project's variables for the whole sweep.
    const listings = suite.emu.vercel.server.log.slice(listedBefore).filter((q) => q.method === 'GET' && q.path === `/v10/projects/${project.id}/env`)
    expect(listings).toHaveLength(1)
    suite.expectNoLeak(sweep, leakForms(VERCEL_TOKEN))
  })

  it("make-room removes the variables of the closed PR whose preview it deletes", async () => {
    const project = vercelProject()
    const closedPr = suite.newPr()
    expect((await run(project, closedPr)).errors).toEqual([])
    suite.emu.pulls.close(REPO, closedPr)
    await idle()
    suite.emu.platform.branchRequests.branchCap.set(suite.project.id, suite.project.branches.size)
    const pr = suite.newPr()
    const r = await run(project, pr)
    expect(r.errors).toEqual([])
    expect(r.warnings.join('\n')).toContain(`the least recently used preview of pull request #${closedPr}`)
    expect(keysOf(project, `feature/pr-${closedPr}`)).toEqual([])
    expect(keysOf(project, `feature/pr-${pr}`)).toEqual(['DATABASE_URL', 'DATABASE_URL_UNPOOLED'])
  })

  it('a failed[] entry fails the step; the branch is kept and handed out', async () => {
    const project = vercelProject()
    const pr = suite.newPr()
    suite.emu.vercel.refuse.set('DATABASE_URL', { code: 'ENV_KEY_RESERVED', message: 'The name is reserved' })
    const r = await run(project, pr)
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/Vercel refused 1 of the preview's variables: DATABASE_URL: ENV_KEY_RESERVED: The name is reserved\./)
    expect(suite.project.branches.has(r.outputs['branch-id'])).toBe(true)
    const again = await run(project, pr)
    expect(again.errors).toEqual([])
    expect(again.outputs['branch-id']).toBe(r.outputs['branch-id'])
    expect(keysOf(project, `feature/pr-${pr}`)).toEqual(['DATABASE_URL', 'DATABASE_URL_UNPOOLED'])
  })
})

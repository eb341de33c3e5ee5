/**
 * The Vercel wiring through the bundled action (dist/index.js run as the
 * runner runs it) against the emulator's Vercel REST API, in instant mode:
 * branch-scoped Preview variables for the PR's head branch; exactly one new
 * deployment of the head commit when one was built before them (the stale
 * one cancelled while it builds); none when there is no deployment yet, or
 * when a re-run finds the values there; a rebuilt database updates both and
 * deploys once; `command: delete` removes only this action's variables of the
 * branch; a `failed[]` entry, a 403, a missing project or Git link fail the
 * step and keep the database; a 429 is waited out until its reset; a fork's
 * run skips with one notice; the token appears nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { APP_TOKEN, VERCEL_PERSONAL_TOKEN, VERCEL_TOKEN, type Emulator } from '../../emulator/index.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import type { EmulatedProject, VercelTeam } from '../../emulator/vercel/vercel.js'
import { REPO, instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { leakForms, leaks, publicText } from '../helpers.js'

let emu: Emulator
let work: string
let team: VercelTeam

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('vercel-test-', {
    'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n',
    'schema-v2.sql': 'CREATE TABLE items (id int PRIMARY KEY, name text);\n'
  }))
  team = emu.vercel.addTeam('acme')
})

afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 4900)
const SHA = 'a1b2c3d4e5f6'
const BRANCH = 'feature/login'
const dump = (file: string): string => `node -e 'require("fs").writeFileSync("${file}", JSON.stringify(process.env))'`

const run = (
  project: EmulatedProject | string,
  pr: number,
  inputs: Record<string, string> = {},
  extra: Partial<RunOptions> = {}
): Promise<RunResult> =>
  runAction(
    emu,
    work,
    {
      ...instantInputs(emu),
      'github-token': APP_TOKEN,
      seed: 'schema.sql',
      'vercel-token': VERCEL_TOKEN,
      'vercel-project': typeof project === 'string' ? project : project.name,
      'vercel-team': team.slug,
      'vercel-api-url': emu.vercel.url,
      'wait-timeout': '20',
      ...inputs
    },
    { pr: { number: pr }, ...extra }
  )

/** The project's variables of `branch`, key → the env. */
const varsOf = (project: EmulatedProject, branch = BRANCH) => Object.fromEntries(project.envs.filter((e) => e.gitBranch === branch).map((e) => [e.key, e]))
const apiDeployments = (project: EmulatedProject) => emu.vercel.deployments.filter((d) => d.projectId === project.id && d.source === 'api')
const writes = () => emu.vercel.server.requests('POST').length + emu.vercel.server.requests('DELETE').length + emu.vercel.server.requests('PATCH').length
const commentOf = (pr: number): string => emu.github.comments(REPO, pr).at(-1)?.body ?? ''

describe('instant mode', () => {
  it('a deployment built before the run: the variables, exactly one new deployment that has them, the stale one cancelled; a re-run writes and deploys nothing', async () => {
    const project = emu.vercel.addProject('shop-web', { team })
    const pr = newPr()
    const stale = emu.vercel.gitPush(project, BRANCH, SHA, 'BUILDING')
    expect(stale.env).toEqual({})
    const r = await run(project, pr, { 'seed-command': dump('seed-env.json') })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const vars = varsOf(project)
    expect(vars.DATABASE_URL).toMatchObject({ value: r.outputs['database-url'], type: 'encrypted', target: ['preview'], gitBranch: BRANCH })
    expect(vars.DATABASE_URL_UNPOOLED).toMatchObject({ value: r.outputs['database-url-direct'], type: 'encrypted', target: ['preview'] })
    const made = apiDeployments(project)
    expect(made).toHaveLength(1)
    expect(made[0]).toMatchObject({ sha: SHA, ref: BRANCH })
    expect(made[0].env).toEqual({ DATABASE_URL: r.outputs['database-url'], DATABASE_URL_UNPOOLED: r.outputs['database-url-direct'] })
    expect(stale.state).toBe('CANCELED')
    const url = `https://${made[0].url}`
    expect(r.outputs['vercel-deployment-url']).toBe(url)
    for (const text of [commentOf(pr), r.summary]) expect(text).toContain(`| Vercel preview | ${url}/ (queued): a new deployment of the commit`)
    // The gitSource came from the project's Git link.
    const create = emu.vercel.server.requests('POST', /^\/v13\/deployments$/)
    expect(JSON.parse(create[0].requestText)).toMatchObject({ gitSource: { type: 'github', repoId: project.link!.repoId, ref: BRANCH, sha: SHA } })
    expect(create[0].query).toBe('forceNew=1&slug=acme')

    // The token appears nowhere: log, summary, comments, outputs, the command's environment.
    const places = { ...publicText(emu, r), outputs: JSON.stringify(r.outputs), command: readFileSync(path.join(work, 'seed-env.json'), 'utf8') }
    expect(leaks(places, leakForms(VERCEL_TOKEN))).toEqual([])
    expect(r.masks).toContain(VERCEL_TOKEN)

    // A re-run with the same database: one list of the variables, nothing written, nothing deployed.
    made[0].state = 'READY'
    const before = writes()
    const again = await run(project, pr, { 'seed-command': dump('seed-env.json') })
    expect(again.errors).toEqual([])
    expect(again.outputs.created).toBe('false')
    expect(writes()).toBe(before)
    expect(apiDeployments(project)).toHaveLength(1)
    expect(again.stdout).toContain('already hold this database')
    expect(again.outputs['vercel-deployment-url']).toBe(url)
    expect(commentOf(pr)).toContain(`${url}/ (ready): reads this database`)
  })

  it('no deployment yet: the variables, no deployment, and the log says so', async () => {
    const project = emu.vercel.addProject('shop-nodeploy', { team })
    const pr = newPr()
    const r = await run(project, pr)
    expect(r.errors).toEqual([])
    expect(Object.keys(varsOf(project)).sort()).toEqual(['DATABASE_URL', 'DATABASE_URL_UNPOOLED'])
    expect(emu.vercel.deployments.filter((d) => d.projectId === project.id)).toEqual([])
    expect(emu.vercel.server.requests('POST', /^\/v13\/deployments$/).filter((q) => q.requestText.includes(project.id))).toEqual([])
    expect(r.stdout).toMatch(/No Vercel deployment of a1b2c3d yet: the one Vercel's Git integration builds from now on reads the variables/)
    expect(r.outputs['vercel-deployment-url']).toBe('')
    // What Vercel's Git integration builds next reads them.
    expect(emu.vercel.gitPush(project, BRANCH, SHA).env.DATABASE_URL).toBe(r.outputs['database-url'])
  })

  it('a rebuilt database (changed seed) updates both variables and makes one new deployment', async () => {
    const project = emu.vercel.addProject('shop-reseed', { team })
    const pr = newPr()
    const first = await run(project, pr)
    expect(first.errors).toEqual([])
    const built = emu.vercel.gitPush(project, BRANCH, SHA, 'READY') // the Git integration's build after the first run
    const r = await run(project, pr, { seed: 'schema-v2.sql' })
    expect(r.errors).toEqual([])
    expect(r.outputs.reseeded).toBe('true')
    expect(r.outputs['database-url']).not.toBe(first.outputs['database-url'])
    expect(varsOf(project).DATABASE_URL.value).toBe(r.outputs['database-url'])
    expect(varsOf(project).DATABASE_URL_UNPOOLED.value).toBe(r.outputs['database-url-direct'])
    const made = apiDeployments(project)
    expect(made).toHaveLength(1)
    expect(made[0].env.DATABASE_URL).toBe(r.outputs['database-url'])
    expect(built.state).toBe('READY') // a finished deployment is not cancelled
  })

  it("command: delete removes exactly this action's variables of the branch", async () => {
    const project = emu.vercel.addProject('shop-delete', { team })
    const pr = newPr()
    expect((await run(project, pr)).errors).toEqual([])
    const other = newPr()
    expect((await run(project, other, {}, { pr: { number: other, headRef: 'feature/cart' } })).errors).toEqual([])
    const now = Date.now()
    project.envs.push(
      { id: 'hand1', key: 'STRIPE_KEY', value: 'sk_test', type: 'encrypted', target: ['preview'], gitBranch: BRANCH, createdAt: now, updatedAt: now },
      { id: 'hand2', key: 'DATABASE_URL', value: 'postgres://shared', type: 'encrypted', target: ['preview'], createdAt: now, updatedAt: now }
    )
    const closed = { action: 'closed', number: pr, pull_request: { number: pr, head: { ref: BRANCH, sha: SHA } } }
    const r = await run(project, pr, { command: 'delete' }, { event: closed })
    expect(r.errors).toEqual([])
    expect(r.stdout).toMatch(/Removed DATABASE_URL \(feature\/login\), DATABASE_URL_UNPOOLED \(feature\/login\)/)
    expect(Object.keys(varsOf(project))).toEqual(['STRIPE_KEY'])
    expect(Object.keys(varsOf(project, 'feature/cart')).sort()).toEqual(['DATABASE_URL', 'DATABASE_URL_UNPOOLED'])
    expect(project.envs.find((e) => e.id === 'hand2')).toBeDefined()
  })
})

describe('inputs', () => {
  it('are checked before any request: a token without a project, a malformed project or team, a project without a token', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'vercel-project': '' }, /Input `vercel-token` is set but `vercel-project` is empty/],
      [{ 'vercel-project': 'Shop Web!' }, /Input `vercel-project` must be a Vercel project's id \(prj_…\) or name/],
      [{ 'vercel-team': 'Acme Inc' }, /Input `vercel-team` must be a Vercel team's id \(team_…\) or slug/],
      [{ 'vercel-token': '' }, /Input `vercel-project` is set but `vercel-token` is empty: pass `vercel-token: \$\{\{ secrets.VERCEL_TOKEN \}\}`/],
      [{ 'vercel-api-url': 'ftp://vercel' }, /Input `vercel-api-url` must be an http\(s\) URL/]
    ]
    for (const [inputs, message] of cases) {
      const requests = emu.vercel.server.log.length + emu.instant.server.log.length
      const r = await run('shop-web', newPr(), inputs)
      expect(r.code).toBe(1)
      expect(r.errors.join('\n')).toMatch(message)
      expect(emu.vercel.server.log.length + emu.instant.server.log.length).toBe(requests)
    }
  })
})

describe('failures', () => {
  it("a failed[] entry fails the step naming the key, Vercel's code and message; the database is kept and the next run wires it", async () => {
    const project = emu.vercel.addProject('shop-failed', { team })
    const pr = newPr()
    emu.vercel.refuse.set('DATABASE_URL_UNPOOLED', { code: 'ENV_CONFLICT', message: 'A conflicting variable exists' })
    const r = await run(project, pr)
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/The preview database is ready and kept, but wiring the Vercel preview failed: Vercel refused 1 of the preview's variables: DATABASE_URL_UNPOOLED: ENV_CONFLICT: A conflicting variable exists\./)
    expect(r.outputs['database-url']).toBeTruthy()
    expect(commentOf(pr)).toMatch(/Instant Postgres database created[\s\S]*\| Vercel preview \| not wired/)
    const again = await run(project, pr)
    expect(again.errors).toEqual([])
    expect(again.outputs.created).toBe('false')
    expect(again.outputs['database-url']).toBe(r.outputs['database-url'])
    expect(varsOf(project).DATABASE_URL_UNPOOLED.value).toBe(r.outputs['database-url-direct'])
  })

  it('a 403 names the token, the project and vercel-team; the database is kept', async () => {
    const project = emu.vercel.addProject('shop-403', { team })
    const pr = newPr()
    const r = await run(project, pr, { 'vercel-token': VERCEL_PERSONAL_TOKEN })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/HTTP 403: "You don't have permission to access this team".*The Vercel token has no access to project "shop-403" in team "acme".*set `vercel-team`/)
    expect(r.outputs['database-url']).toBeTruthy()
    expect(leaks(publicText(emu, r), leakForms(VERCEL_PERSONAL_TOKEN))).toEqual([])
    // command: delete deletes the database, then fails saying the variables are left.
    const closed = { action: 'closed', number: pr, pull_request: { number: pr, head: { ref: BRANCH, sha: SHA } } }
    const d = await run(project, pr, { command: 'delete', 'vercel-token': VERCEL_PERSONAL_TOKEN }, { event: closed })
    expect(d.code).toBe(1)
    expect(d.errors.join('\n')).toMatch(/The preview database was deleted, but its Vercel variables could not be removed: .*HTTP 403/)
  })

  it('a missing project, and a project without a Git link when a deployment must be made, are named', async () => {
    const missing = await run('no-such-project', newPr())
    expect(missing.code).toBe(1)
    expect(missing.errors.join('\n')).toMatch(/Vercel project "no-such-project" was not found in team "acme": check `vercel-project`/)
    const unlinked = emu.vercel.addProject('shop-unlinked', { team, link: false })
    emu.vercel.gitPush(unlinked, BRANCH, SHA, 'READY')
    const r = await run(unlinked, newPr())
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/Vercel project "shop-unlinked" has no Git repository linked/)
    expect(varsOf(unlinked).DATABASE_URL.value).toBe(r.outputs['database-url'])
  })

  it('a 429 is waited out until its reset; one that resets after wait-timeout fails saying so', async () => {
    const project = emu.vercel.addProject('shop-429', { team })
    emu.vercel.rateLimit(3, 2)
    const r = await run(project, newPr())
    expect(r.errors).toEqual([])
    const refused = emu.vercel.server.log.filter((q) => q.status === 429)
    expect(refused).toHaveLength(3)
    // The request after the first 429 came once the limit had reset (the answer's `limit.reset`, epoch seconds), not before.
    const reset = (JSON.parse(refused[0].responseText!) as { error: { limit: { reset: number } } }).error.limit.reset * 1000
    const next = emu.vercel.server.log[emu.vercel.server.log.indexOf(refused[0]) + 1]
    expect(next.at).toBeGreaterThanOrEqual(reset - 50)
    expect(varsOf(project).DATABASE_URL.value).toBe(r.outputs['database-url'])

    emu.vercel.rateLimit(1000, 120)
    const late = await run(project, newPr(), { 'wait-timeout': '3' })
    emu.vercel.rateLimit(0, 0)
    expect(late.code).toBe(1)
    expect(late.errors.join('\n')).toMatch(/HTTP 429: "Rate limit exceeded".*resets later than `wait-timeout` allows/)
    expect(late.outputs['database-url']).toBeTruthy()
  })

  it("a fork's PR without the secret skips the wiring with one notice", async () => {
    const project = emu.vercel.addProject('shop-fork', { team })
    const pr = newPr()
    const r = await run(project, pr, { 'vercel-token': '', 'github-token': APP_TOKEN }, { pr: { number: pr, fork: 'mallory/shop' } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.stdout.match(/^::notice::Vercel wiring skipped/gm)).toHaveLength(1)
    expect(project.envs).toEqual([])
  })
})

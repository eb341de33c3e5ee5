/**
 * Branch mode through the bundled action against the platform emulator and
 * a real PostgreSQL 17: operation waiting, 423 retry, reuse, races, delete,
 * and the error cases, every test on Node 24 (action.yml's runtime); the
 * create, 423 retry, reuse, delete and seed-command's environment on the
 * machine's Node too (helpers.ts, on24Only).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { RUNTIMES, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'
import { REPO, branchInputs, mainBranch, previewBranches as previewsOf, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { leakForms, leaks, on24Only, publicText, until } from '../helpers.js'

let emu: Emulator
let work: string
let project: Project

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('branch-test-', {
    'seed.sql': 'CREATE TABLE items (id int PRIMARY KEY);\nINSERT INTO items SELECT generate_series(1, 5);\n',
    'bad.sql': 'CREATE TABLE ok (id int);\n\nINSERT INTO nope VALUES (1);\n'
  }))
})

afterAll(async () => {
  await emu?.stop()
})

beforeEach(async () => {
  project = await emu.platform.createProject({ protectedBranch: 'production' })
  emu.platform.timing = { createBranchMs: 300, startComputeMs: 700, deleteMs: 300 }
  emu.platform.server.clearFaults()
  emu.platform.server.onRequest = undefined
  emu.platform.server.log.length = 0
  emu.platform.scripts.clear()
  // the parent's data, which a new branch must start with
  await emu.pg.query(mainBranch(project).database, 'CREATE TABLE parent_data (v text); INSERT INTO parent_data VALUES ($$from main$$)')
})

const newPr = pullRequests(() => emu, 500)

const secretsOf = (p: Project): string[] => [p.apiKey, p.password, ...[...p.branches.values()].map(() => p.password)].flatMap(leakForms)

/** The waits the action logged for its 423 retries (`retrying in 0.123 s`), in milliseconds, in order. */
const loggedWaits = (stdout: string): number[] =>
  [...stdout.matchAll(/HTTP 423 Locked \(project busy\), attempt \d+ of 5; retrying in ([\d.]+) s/g)].map((m) => Number(m[1]) * 1000)

/**
 * The operations API's 423 retry (Neon operations guide): the action's logged waits are 0.1 s doubling plus
 * a jitter of at most a quarter (exact, from the log), and no attempt reached the emulator before its wait
 * was over. How much later one came is the machine's load (a process waiting for a core), not the action's:
 * `npm run bench:retry-423` prints it.
 */
function expectDoublingGaps(posts: { at: number }[], stdout: string): void {
  const waits = loggedWaits(stdout)
  expect(waits.length).toBeGreaterThanOrEqual(posts.length - 1)
  posts.slice(1).forEach((p, i) => {
    expect(waits[i]).toBeGreaterThanOrEqual(100 * 2 ** i)
    expect(waits[i]).toBeLessThanOrEqual(100 * 2 ** i * 1.25)
    expect(p.at - posts[i].at).toBeGreaterThanOrEqual(waits[i] - 5)
  })
}

/** Branches of the project other than main and production. */
const previewBranches = () => previewsOf(project)

describe.each(RUNTIMES)('branch mode on $name', ({ node }) => {
  const it24 = on24Only(node)
  const run = (inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
    runAction(emu, work, { ...branchInputs(emu, project), 'github-token': APP_TOKEN, ...inputs }, { node, ...extra })
  const rows = async (r: RunResult, table: string): Promise<number> => {
    const b = project.branches.get(r.outputs['branch-id'])!
    return Number((await emu.pg.query(b.database, `SELECT count(*) AS n FROM ${table}`))[0].n)
  }
  const expectNoLeak = (r: RunResult): void => expect(leaks(publicText(emu, r), secretsOf(project))).toEqual([])

  it('creates a branch from the default branch, waits for its operations, seeds, outputs and comments', async () => {
    emu.platform.timing.startComputeMs = 1500
    const pr = newPr()
    const started = Date.now()
    const r = await run({ seed: 'seed.sql' }, { pr: { number: pr, headRef: 'feature/Login Page' } })
    const ended = Date.now()
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ mode: 'branch', created: 'true', 'branch-name': `preview/pr-${pr}-feature-Login-Page`, 'project-id': project.id })
    const branch = project.branches.get(r.outputs['branch-id'])!
    expect(branch.name).toBe(r.outputs['branch-name'])
    expect(r.outputs['database-url']).toContain(`${branch.endpoint!.host.split('.')[0]}-pooler.`)
    expect(r.outputs['database-url-direct']).toContain(`@${branch.endpoint!.host}:`)
    expect(r.masks).toEqual(expect.arrayContaining([r.outputs['database-url'], r.outputs['database-url-direct'], project.password, project.apiKey]))
    // the operations finished before the action did, and it polled until they had
    const ops = emu.platform.operations(project).filter((o) => o.branch_id === branch.id)
    expect(ops.map((o) => [o.action, o.status])).toEqual([['create_branch', 'finished'], ['start_compute', 'finished']])
    for (const op of ops) expect(op.endedAt!).toBeLessThanOrEqual(ended)
    expect(ended - started).toBeGreaterThanOrEqual(1500)
    const polls = emu.platform.server.requests('GET', /\/operations\/[^/]+$/)
    expect(polls.length).toBeGreaterThan(0)
    // One lookup before the create: the first page of List branches held the default branch and every branch, so the PR's
    // branch needed no `search=` of its own.
    const create = emu.platform.server.requests('POST', /\/branches$/).find((q) => q.at >= started)!
    const lookups = emu.platform.server.requests('GET', /\/branches$/).filter((q) => q.at >= started && q.at < create.at)
    expect(lookups.map((q) => new URLSearchParams(q.query).get('search'))).toEqual([null])
    // a copy of the parent's data, plus the seed
    expect(await rows(r, 'parent_data')).toBe(1)
    expect(await rows(r, 'items')).toBe(5)
    const comment = emu.github.comments(REPO, pr)[0].body
    for (const text of [comment, r.summary]) {
      expect(text).toContain(branch.name)
      expect(text).toContain(branch.id)
      expect(text).toContain('`main`')
      expect(text).toContain(branch.endpoint!.host)
      expect(text).toMatch(/\| Create branch \| finished \| \d+\.\d s \|/)
      expect(text).toMatch(/\| Start compute \| finished \| \d+\.\d s \|/)
    }
    expectNoLeak(r)
  })

  it('after a 423 from a system operation, lists the project, waits for the operation instead of the 0.1 s attempt, and creates the branch only once it ended', async () => {
    emu.platform.startSystemOperation(project, { durationMs: 60_000 })
    const running = run({ 'poll-interval': '1' }, { pr: { number: newPr() } })
    const listed = () => emu.platform.server.requests('GET', /\/operations$/).length
    for (const deadline = Date.now() + 30_000; !listed() && Date.now() < deadline; ) await new Promise((res) => setTimeout(res, 20))
    emu.platform.lifecycle.finishSystemOperations(project)
    const r = await running
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/the project is busy \(HTTP 423 on every attempt\) with 1 operation\(s\): Check availability/)
    const posts = emu.platform.server.requests('POST', /\/branches$/)
    expect(posts.map((p) => p.status)).toEqual([423, 201])
    expect(r.stdout).not.toMatch(/HTTP 423 Locked \(project busy\), attempt 1 of 5; retrying/)
    const check = emu.platform.operations(project).find((o) => o.action === 'check_availability')!
    expect(posts.at(-1)!.at).toBeGreaterThanOrEqual(check.endedAt!)
  })

  it24('retries at 100, 200, 400 and 800 ms plus its jitter of at most a quarter (as logged; no attempt early) while no operation is listed, with the schema diff on', async () => {
    emu.platform.server.inject({ method: 'POST', path: /\/branches$/, kind: 'status', status: 423, times: 4 })
    const r = await run({ 'compare-schema': 'true', seed: 'seed.sql' }, { pr: { number: newPr() } })
    expect(r.code).toBe(0)
    const posts = emu.platform.server.requests('POST', /\/branches$/)
    expect(posts.map((p) => p.status)).toEqual([423, 423, 423, 423, 201])
    expectDoublingGaps(posts, r.stdout)
  })

  it24('gives up after exactly five attempts when the 423s have no running operation to wait for', async () => {
    emu.platform.server.inject({ method: 'POST', path: /\/branches$/, kind: 'status', status: 423, times: 5 })
    const r = await run({ comment: 'false' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    const posts = emu.platform.server.requests('POST', /\/branches$/)
    expect(posts).toHaveLength(5)
    expect(posts.every((p) => p.status === 423)).toBe(true)
    expectDoublingGaps(posts, r.stdout)
    // Listed after the first attempt and the fifth: nothing runs either time.
    expect(emu.platform.server.requests('GET', /\/operations$/)).toHaveLength(2)
    expect(r.errors[0]).toMatch(/the project is busy with other operations \(HTTP 423 Locked on all 5 attempts/)
    expect(previewBranches()).toHaveLength(0)
  })

  it24('when the lock outlasts the attempts, waits for the running operation, names it, and fails at wait-timeout naming it', async () => {
    emu.platform.startSystemOperation(project, { durationMs: 60_000 })
    const r = await run({ comment: 'false', 'wait-timeout': '4', 'poll-interval': '0.5' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    const posts = emu.platform.server.requests('POST', /\/branches$/)
    expect(posts).toHaveLength(5)
    expect(r.stdout).toMatch(/the project is busy \(HTTP 423 on every attempt\) with 1 operation\(s\): Check availability on branch br-[\w-]+ \(running\)/)
    expect(r.errors[0]).toMatch(
      /timed out after 4 s \(wait-timeout\) waiting for the project to be free; still running: Check availability on branch br-[\w-]+ \(running\) id [0-9a-f-]{36}\. Nothing was created/
    )
    expect(previewBranches()).toHaveLength(0)
  })

  it('reuses the branch on a re-run: no create, no seed, one comment updated', async () => {
    const pr = newPr()
    const first = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(first.code).toBe(0)
    const second = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', 'branch-id': first.outputs['branch-id'], 'database-url': first.outputs['database-url'] })
    expect(emu.platform.server.requests('POST', /\/branches$/)).toHaveLength(1)
    expect(await rows(second, 'items')).toBe(5)
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toContain('reused')
    expectNoLeak(second)
  })

  it24('reuse: false deletes the branch and creates it again, seeded', async () => {
    const pr = newPr()
    const first = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    const second = await run({ seed: 'seed.sql', reuse: 'false' }, { pr: { number: pr } })
    expect(second.code).toBe(0)
    expect(second.outputs.created).toBe('true')
    expect(second.outputs['branch-id']).not.toBe(first.outputs['branch-id'])
    expect(previewBranches()).toHaveLength(1)
    expect(await rows(second, 'items')).toBe(5)
  })

  it24('two runs for the same PR at once: one branch, one comment, the same outputs', async () => {
    emu.platform.timing = { createBranchMs: 150, startComputeMs: 300, deleteMs: 200 }
    const pr = newPr()
    const [a, b] = await Promise.all([run({ seed: 'seed.sql' }, { pr: { number: pr } }), run({ seed: 'seed.sql' }, { pr: { number: pr } })])
    expect([a.code, b.code]).toEqual([0, 0])
    expect(previewBranches()).toHaveLength(1)
    expect(a.outputs['branch-id']).toBe(b.outputs['branch-id'])
    expect(a.outputs['database-url']).toBe(b.outputs['database-url'])
    expect([a.outputs.created, b.outputs.created].sort()).toEqual(['false', 'true'])
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(await rows(a, 'items')).toBe(5)
  })

  it('command: delete removes the branch, waits, and updates the comment; a second delete is a notice', async () => {
    const pr = newPr()
    const created = await run({}, { pr: { number: pr } })
    const database = project.branches.get(created.outputs['branch-id'])!.database
    const r = await run({ command: 'delete' }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(project.branches.has(created.outputs['branch-id'])).toBe(false)
    expect(await emu.pg.databases()).not.toContain(database)
    expect(emu.github.comments(REPO, pr)[0].body).toContain('deleted')
    const again = await run({ command: 'delete' }, { pr: { number: pr } })
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/::notice::Branch "preview\/pr-\d+-feature-login" does not exist/)
  })

  it24('refuses to delete the default or a protected branch', async () => {
    for (const name of ['main', 'production']) {
      const r = await run({ command: 'delete', 'branch-name': name }, { pr: { number: newPr() } })
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(new RegExp(`Refusing to delete branch "${name}".*(default|protected) branch`))
    }
    expect(project.branches.size).toBe(2)
    expect(emu.platform.server.requests('DELETE')).toHaveLength(0)
  })

  it24('deletes a branch whose seed failed, so nothing unseeded is left', async () => {
    const pr = newPr()
    const r = await run({ seed: 'seed.sql\nbad.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Seed failed at bad\.sql:3:13: relation "nope" does not exist/)
    expect(previewBranches()).toHaveLength(0)
    expect(r.stdout).toMatch(/Deleted branch .* so the next run starts clean/)
    expect(emu.github.comments(REPO, pr)[0].body).toContain('seeding failed')
    expectNoLeak(r)
  })

  it('runs seed-command with the connection in the environment', async () => {
    const out = path.join(work, `env-${Date.now()}.txt`)
    const r = await run({ 'seed-command': `env | grep -E '^(PG|DATABASE_URL|DIRECT_URL)' | sort > ${out}; echo seeded-by-command` }, { pr: { number: newPr() } })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('seeded-by-command')
    const env = Object.fromEntries(readFileSync(out, 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
    expect(env).toMatchObject({
      DATABASE_URL: r.outputs['database-url-direct'],
      DIRECT_URL: r.outputs['database-url-direct'],
      DATABASE_URL_DIRECT: r.outputs['database-url-direct'],
      DATABASE_URL_POOLED: r.outputs['database-url'],
      PGHOST: r.outputs['database-host-direct'],
      PGUSER: r.outputs['database-user'],
      PGPASSWORD: r.outputs['database-password'],
      PGDATABASE: r.outputs['database-name'],
      PGSSLMODE: 'require',
      PGPORT: String(emu.pg.port)
    })
  })

  it24("carries the PR's name only once seeded: created as <name>~seeding, renamed (PATCH) after seed-command", async () => {
    const stamp = path.join(work, `seeded-at-${Date.now()}.txt`)
    const names = new Set<string>()
    let running = true
    const watch = (async () => {
      while (running) {
        for (const b of previewBranches()) names.add(b.name)
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    const r = await run({ 'seed-command': `sleep 0.5; node -e 'console.log(Date.now())' > ${stamp}` }, { pr: { number: newPr() } })
    running = false
    await watch
    for (const b of previewBranches()) names.add(b.name)
    expect(r.code).toBe(0)
    const name = r.outputs['branch-name']
    expect([...names]).toEqual([`${name}~seeding`, name])
    const [patch] = emu.platform.server.requests('PATCH')
    expect(JSON.parse(patch.requestText)).toEqual({ branch: { name } })
    expect(patch.at).toBeGreaterThanOrEqual(Number(readFileSync(stamp, 'utf8')))
    expect(project.branches.get(r.outputs['branch-id'])!.name).toBe(name)
  })

  it24('fails with the exit code of a failing seed-command and deletes the new branch', async () => {
    const r = await run({ 'seed-command': 'echo migrating; exit 7' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/seed-command exited with code 7/)
    expect(previewBranches()).toHaveLength(0)
  })

  it24('accepts parent-branch as a name or an id', async () => {
    const production = [...project.branches.values()].find((b) => b.protected)!
    const byName = await run({ 'parent-branch': 'production', 'branch-name': 'preview/a' })
    const byId = await run({ 'parent-branch': production.id, 'branch-name': 'preview/b' })
    expect([byName.code, byId.code]).toEqual([0, 0])
    for (const r of [byName, byId]) expect(project.branches.get(r.outputs['branch-id'])!.parent_id).toBe(production.id)
    expect(byName.outputs['branch-name']).toBe('preview/a')
  })

  /** Whether the action has polled a `start_compute` operation and been answered `status`. */
  const polledAs = (status: string) => (): boolean =>
    emu.platform.server
      .requests('GET', /\/operations\/[^/]+$/)
      .some((q) => (q.responseText ?? '').includes('"action":"start_compute"') && (q.responseText ?? '').includes(`"status":"${status}"`))
  const startCompute = () => project.operations.find((o) => o.action === 'start_compute')!

  it24('keeps waiting through a failed operation that recovers, reporting failures_count', async () => {
    // failed from 0.3 s until the action has polled it failed (however late a loaded machine lets it poll), then finished
    emu.platform.script('start_compute', [{ at: 0, status: 'scheduling' }, { at: 300, status: 'failed', failures: 1 }, { at: 600_000, status: 'finished', failures: 1 }])
    const running = run({ seed: 'seed.sql' }, { pr: { number: newPr() } })
    await until(polledAs('failed'), 'a poll answered failed')
    startCompute().endNow!()
    const r = await running
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.warnings.join('\n')).toMatch(/"Start compute" .* is failed with 1 failure\(s\) so far/)
  })

  it24('fails on a cancelled operation, naming it, and leaves no branch', async () => {
    emu.platform.script('start_compute', [{ at: 0, status: 'scheduling' }, { at: 300, status: 'cancelled' }])
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Neon cancelled "Start compute"/)
    expect(previewBranches()).toHaveLength(0)
  })

  it24('fails at wait-timeout with a table of what is still pending, and leaves no branch', async () => {
    // pending until the action, past its 1 s wait-timeout, sends the branch's DELETE (answered 423 while the
    // operation runs); it ends then, so the DELETE's retries go through, however slowly a loaded machine runs
    emu.platform.script('start_compute', [{ at: 0, status: 'scheduling' }, { at: 600_000, status: 'finished' }])
    const running = run({ 'wait-timeout': '1' }, { pr: { number: newPr() } })
    await until(() => emu.platform.server.requests('DELETE').length > 0, 'the DELETE after the timeout')
    startCompute().endNow!()
    const r = await running
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Timed out after 1 s \(wait-timeout\).*still pending:\n\s+Start compute\s+scheduling/s)
    expect(previewBranches()).toHaveLength(0)
  })

  it24('keeps polling through 5xx and resets while waiting', async () => {
    emu.platform.server.inject({ method: 'GET', path: /\/operations\//, kind: 'status', status: 503, times: 2 })
    emu.platform.server.inject({ method: 'GET', path: /\/operations\//, kind: 'reset', times: 2 })
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Polling "(Create branch|Start compute)" failed for now/)
  })

  it24.each([
    ['a bad API key', { 'api-key': 'napi_wrong' }, /Neon refused the API key \(HTTP 401: "authentication required"\) \(request_id [0-9a-f-]{36}\)\. Check the `api-key` secret/],
    ['an unknown project', { 'project-id': 'no-such-project' }, /project "no-such-project" was not found \(HTTP 404\) \(request_id [0-9a-f-]{36}\)\. Check `project-id`/],
    ['an unknown parent', { 'parent-branch': 'staging' }, /Parent branch "staging" was not found in the project/]
  ])('fails clearly on %s', async (_what, inputs, message) => {
    const r = await run(inputs, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(message)
    expect(leaks(publicText(emu, r), [...leakForms(project.apiKey), ...leakForms((inputs as Record<string, string>)['api-key'] ?? project.apiKey)])).toEqual([])
  })

  it24('quotes the platform and its request_id on a 5xx from create, does not resend it, and says no branch was made', async () => {
    emu.platform.server.inject({ method: 'POST', kind: 'status', status: 500, body: { code: '', message: 'internal error' } })
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    const [post] = emu.platform.server.requests('POST')
    expect(r.errors[0]).toMatch(/Create branch "preview\/pr-\d+-feature-login~seeding" failed with HTTP 500: "internal error" \(POST \S+, request_id [0-9a-f-]{36}\)\. No branch .* was made\./)
    expect(r.errors[0]).toContain(`request_id ${post.requestId}`)
    expect(emu.platform.server.requests('POST')).toHaveLength(1)
  })
})

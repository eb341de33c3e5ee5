/**
 * The preview lifecycle through the bundled action (Node 24, as action.yml)
 * against the platform emulator (which implements the published spec's
 * fields) and a real PostgreSQL 17: expiry, annotations, endpoint settings,
 * schema-only, the sweep, reset and the post step.
 */
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { NODE_24, type RunResult } from '../../emulator/runner/runner.js'
import { lifecycleSuite } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'

const suite = lifecycleSuite('lifecycle-test-', 1400)
const { newPr, run, previewBranches, expectNoLeak, count } = suite
let emu: Emulator
let work: string
let project: Project
beforeAll(() => {
  ;({ emu, work } = suite)
})
beforeEach(() => {
  project = suite.project
})

describe('expires-in', () => {
  /** Update-branch requests that push the expiry (the other PATCH renames a seeded branch to its final name). */
  const expiryPatches = () => emu.platform.server.requests('PATCH', /\/branches\/[^/]+$/).filter((q) => /expires_at/.test(q.requestText ?? ''))

  it('sends expires_at on create (RFC 3339, whole seconds), outputs it, shows it, and pushes it forward on reuse', async () => {
    const pr = newPr()
    const before = Date.now()
    const first = await run({ 'expires-in': '2h', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(first.errors).toEqual([])
    const branch = project.branches.get(first.outputs['branch-id'])!
    expect(branch.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    const at = Date.parse(branch.expires_at!)
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 7200_000)
    expect(at).toBeLessThanOrEqual(Date.now() + 7200_000)
    expect(first.outputs['expires-at']).toBe(branch.expires_at)
    const shown = branch.expires_at!.replace('T', ' ').replace(/:\d\dZ$/, ' UTC')
    for (const text of [emu.github.comments(REPO, pr)[0].body, first.summary]) expect(text).toContain(`| Expires | ${shown} (in 1 hour`)

    await new Promise((r) => setTimeout(r, 1100))
    const second = await run({ 'expires-in': '3h', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', 'branch-id': branch.id })
    expect(expiryPatches().map((q) => q.status)).toEqual([200])
    expect(Date.parse(branch.expires_at!)).toBeGreaterThan(at + 3600_000)
    expect(second.outputs['expires-at']).toBe(branch.expires_at)
    expect(emu.github.comments(REPO, pr)[0].body).toContain(branch.expires_at!.replace('T', ' ').replace(/:\d\dZ$/, ' UTC'))
    expectNoLeak(second)
  })

  it('sends nothing without expires-in: no expires_at, the reuse records its use without an expiry, an empty expires-at output', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    await new Promise((r) => setTimeout(r, 1100))
    const before = project.branches.get(first.outputs['branch-id'])!.updated_at
    await run({}, { pr: { number: pr } })
    expect(Date.parse(project.branches.get(first.outputs['branch-id'])!.updated_at)).toBeGreaterThan(Date.parse(before))
    expect(project.branches.get(first.outputs['branch-id'])!.expires_at).toBeUndefined()
    expect(first.outputs['expires-at']).toBe('')
    expect(expiryPatches()).toHaveLength(0)
    // The reuse's update records its use (cleanup's max-age reads it): the branch's own name again, no expiry.
    const uses = emu.platform.server.requests('PATCH', new RegExp(`/branches/${first.outputs['branch-id']}$`)).filter((q) => q.at > first.endedAt)
    expect(uses.map((q) => [q.status, JSON.parse(q.requestText)])).toEqual([[200, { branch: { name: first.outputs['branch-name'] } }]])
  })

  it('a platform that refuses expires_at: an error naming expires-in, and no branch', async () => {
    emu.platform.lifecycle.refuseExpiry.add(project.id)
    const r = await run({ 'expires-in': '7d' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/refused the branch expiry that input `expires-in` asks for \(sent as `branch.expires_at`; HTTP 400: "branch expiration \(expires_at\) is not available/)
    expect(r.errors[0]).toMatch(/at most 30 days ahead \(Neon docs, branch expiration\)/)
    expect(r.stdout).not.toMatch(/early.access/i)
    expect(previewBranches()).toHaveLength(0)
  })

  it('a platform that refuses to push expires_at on reuse: an error naming expires-in; the branch is kept', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    emu.platform.lifecycle.refuseExpiry.add(project.id)
    const r = await run({ 'expires-in': '1d' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/refused the branch expiry that input `expires-in` asks for/)
    expect(expiryPatches().map((q) => q.status)).toEqual([400])
    expect(project.branches.has(first.outputs['branch-id'])).toBe(true)
  })
})

describe('endpoint settings and schema-only', () => {
  it('sets suspend-timeout, min-cu and max-cu on the endpoint it creates; sends nothing when not given', async () => {
    const r = await run({ 'suspend-timeout': '300', 'min-cu': '0.25', 'max-cu': '1' }, { pr: { number: newPr() } })
    expect(r.errors).toEqual([])
    const endpoints = await (await fetch(`${emu.platform.url}/projects/${project.id}/branches/${r.outputs['branch-id']}/endpoints`, { headers: { authorization: `Bearer ${project.apiKey}` } })).json() as { endpoints: Record<string, unknown>[] }
    expect(endpoints.endpoints[0]).toMatchObject({ suspend_timeout_seconds: 300, autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 1 })
    const plain = await run({}, { pr: { number: newPr() } })
    const ep = project.branches.get(plain.outputs['branch-id'])!.endpoint!
    expect(Object.keys(ep).sort()).toEqual(['host', 'id', 'type'])
  })

  it('schema-only: the parent schema without rows, seeded, and the comment says so', async () => {
    const pr = newPr()
    const r = await run({ 'schema-only': 'true', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(project.branches.get(r.outputs['branch-id'])!.init_source).toBe('schema-only')
    expect(await count(r, 'customers')).toBe(0)
    expect(await count(r, 'items')).toBe(5)
    for (const text of [emu.github.comments(REPO, pr)[0].body, r.summary]) expect(text).toContain("| Data | schema only: the parent's tables without their rows (`schema-only`) |")
    const full = await run({ seed: 'seed.sql' }, { pr: { number: newPr() } })
    expect(await count(full, 'customers')).toBe(2)
  })
})

describe('command: cleanup', () => {
  const sweep = (inputs: Record<string, string> = {}): Promise<RunResult> => run({ command: 'cleanup', ...inputs }, { eventName: 'schedule', event: {} })

  it('max-age sweeps a branch of an open PR not used for longer, keeps a recent one', async () => {
    const old = await run({}, { pr: { number: newPr() } })
    const recent = await run({}, { pr: { number: newPr() } })
    const b = project.branches.get(old.outputs['branch-id'])!
    const threeDaysAgo = new Date(Date.now() - 3 * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    b.created_at = threeDaysAgo
    b.updated_at = threeDaysAgo
    const r = await sweep({ 'max-age': '2d' })
    expect(r.errors).toEqual([])
    expect(project.branches.has(b.id)).toBe(false)
    expect(project.branches.has(recent.outputs['branch-id'])).toBe(true)
    expect(r.summary).toMatch(new RegExp(`\\| deleted \\| not used for 3 d \\(max-age 2 d\\) \\|`))
    expect(r.summary).toMatch(/\| keep \| pull request #\d+ is open and the branch was used within max-age \|/)
    expectNoLeak(r)
  })

  it('in instant mode: a notice, no request', async () => {
    const before = emu.platform.server.log.length + emu.github.server.log.length + emu.instant.server.log.length
    const r = await emu.run({ inputs: { mode: 'instant', command: 'cleanup', 'instant-url': emu.instant.url }, repository: REPO, cwd: work, node: NODE_24, eventName: 'schedule', event: {} })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/::notice::`command: cleanup` does nothing in instant mode/)
    expect(emu.platform.server.log.length + emu.github.server.log.length + emu.instant.server.log.length).toBe(before)
  })
})

describe('the post step', () => {
  it('does nothing after a successful run, or after a failed seed main already undid', async () => {
    const pr = newPr()
    const ok = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(ok.code).toBe(0)
    expect(ok.post?.code).toBe(0)
    expect(ok.post?.stdout.trim()).toBe('')
    expect(emu.platform.server.log.filter((q) => q.at >= ok.endedAt)).toEqual([])
    writeFileSync(path.join(work, 'fails.sql'), 'CREATE TABLE t (id int);\nINSERT INTO t VALUES (1), (1);\nCREATE UNIQUE INDEX ON t (id);\n')
    const failed = await run({ seed: 'fails.sql' }, { pr: { number: newPr() } })
    expect(failed.code).toBe(1)
    expect(failed.post?.stdout.trim()).toBe('')
    expect(emu.platform.server.log.filter((q) => q.at >= failed.endedAt)).toEqual([])
    expect(previewBranches().map((b) => b.id)).toEqual([ok.outputs['branch-id']])
  })
})

describe('command: reset', () => {
  it("restores the branch in place from its parent's latest state, then seeds again: same id and connection strings", async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    const b = project.branches.get(created.outputs['branch-id'])!
    await emu.pg.query(b.database, 'INSERT INTO items VALUES (99); DELETE FROM customers')
    const main = [...project.branches.values()].find((x) => x.default)!
    await emu.pg.query(main.database, 'INSERT INTO customers (email) VALUES ($$c@example.com$$)')
    const marker = path.join(work, `reset-${pr}`)
    const r = await run({ command: 'reset', seed: 'seed.sql', 'seed-command': `test -n "$DATABASE_URL" && echo ran > ${marker}` }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    for (const k of ['branch-id', 'database-url', 'database-url-direct']) expect(r.outputs[k]).toBe(created.outputs[k])
    expect(r.outputs.created).toBe('false')
    expect(await count(r, 'customers')).toBe(3)
    expect(await count(r, 'items')).toBe(5)
    expect(readFileSync(marker, 'utf8')).toBe('ran\n')
    expect(emu.platform.server.requests('POST', /\/restore$/).map((q) => q.status)).toEqual([200])
    const ops = emu.platform.operations(project).filter((o) => o.branch_id === b.id && ['create_timeline', 'start_compute'].includes(String(o.action)))
    for (const op of ops) expect(op.endedAt).toBeLessThanOrEqual(r.endedAt)
    for (const text of [emu.github.comments(REPO, pr)[0].body, r.summary]) {
      expect(text).toContain('reset to its parent and seeded again')
      expect(text).toMatch(/\| Reset \| \d{4}-\d\d-\d\d \d\d:\d\d UTC: restored from the parent's latest state \|/)
    }
    expect(r.post?.stdout.trim()).toBe('')
    expectNoLeak(r)
  })

  it('a branch with children: an error that says what to do, and the branch untouched', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    const b = project.branches.get(created.outputs['branch-id'])!
    await emu.pg.query(b.database, 'INSERT INTO items VALUES (99)')
    const res = await fetch(`${emu.platform.url}/projects/${project.id}/branches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: { name: 'child-of-preview', parent_id: b.id } })
    })
    expect(res.status).toBe(201)
    await new Promise((r) => setTimeout(r, 500))
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Cannot reset branch "preview\/pr-\d+-feature-login": Neon requires `preserve_under_name` .* delete the child branches of/)
    expect(await count(created, 'items')).toBe(6)
    expect(r.outputs['database-url']).toBeUndefined()
  })

  it('no branch yet: an error that says to create it first', async () => {
    const r = await run({ command: 'reset' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/does not exist, so there is nothing to reset\. Run the action with `command: create` first/)
    expect(emu.platform.server.requests('POST')).toHaveLength(0)
  })
})

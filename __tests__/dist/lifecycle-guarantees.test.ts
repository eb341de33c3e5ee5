/**
 * The preview lifecycle's guarantees through the bundled action (Node 24, as
 * action.yml) against the platform emulator and a real PostgreSQL 17: no run
 * hands out a branch before its seed committed, and nothing in use is
 * deleted, through lost answers, cancels, kills and concurrent runs of
 * reset, cleanup and create.
 */
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { lifecycleSuite } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'

const suite = lifecycleSuite('lifecycle-guarantees-test-', 1500)
const { newPr, run, count } = suite
let emu: Emulator
let work: string
let project: Project
beforeAll(() => {
  ;({ emu, work } = suite)
})
beforeEach(() => {
  project = suite.project
})

describe('reset, cleanup and cancel keep the promise', () => {
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
  const until = async (cond: () => boolean, ms = 20_000): Promise<void> => {
    const deadline = Date.now() + ms
    while (!cond() && Date.now() < deadline) await sleep(20)
    if (!cond()) throw new Error('timed out waiting')
  }
  const sweep = (inputs: Record<string, string> = {}): Promise<RunResult> => run({ command: 'cleanup', ...inputs }, { eventName: 'schedule', event: {} })
  const nameOf = (pr: number): string => `preview/pr-${pr}-feature-login`
  const ago = (ms: number): string => new Date(Date.now() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
  /** Bodies of the comments the action posted on `pr` (claims and placeholders included). */
  /** Every body written to the PR's comment, created or edited, in order (after the first run the lock edits, never creates). */
  const writtenBodies = (pr: number): string[] => {
    const ids = new Set(emu.github.comments(REPO, pr).map((c) => String(c.id)))
    return emu.github.server
      .requests()
      .filter((q) => (q.method === 'POST' && q.path.endsWith(`/issues/${pr}/comments`)) || (q.method === 'PATCH' && ids.has(/\/issues\/comments\/(\d+)$/.exec(q.path)?.[1] ?? '')))
      .map((q) => String((JSON.parse(q.requestText) as { body?: string }).body ?? ''))
  }
  /** Creates a branch straight through the API, as a cancelled run's leftover would be. */
  const plant = async (name: string, parentId?: string): Promise<string> => {
    const res = await fetch(`${emu.platform.url}/projects/${project.id}/branches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: { name, ...(parentId ? { parent_id: parentId } : {}) }, endpoints: [{ type: 'read_write' }] })
    })
    expect(res.status).toBe(201)
    return ((await res.json()) as { branch: { id: string } }).branch.id
  }

  it('1. a reset whose restore answer is lost: the branch left is never reused, and the next run creates and seeds a new one', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    const id = created.outputs['branch-id']
    emu.platform.server.inject({ method: 'POST', path: /\/restore$/, kind: 'lost-reset' })
    // The post step's delete fails too (three 500s: the client's attempts), so the unseeded branch stays for the next run.
    emu.platform.server.inject({ method: 'DELETE', path: new RegExp(`/branches/${id}$`), kind: 'status', status: 500, times: 3 })
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(emu.platform.server.requests('POST', /\/restore$/).map((q) => q.fault)).toEqual(['lost-reset'])
    expect(r.post?.warnings.join('\n')).toMatch(/Could not delete the unseeded branch/)
    expect(project.branches.get(id)?.name).toBe(`${nameOf(pr)}~seeding`)
    const next = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(next.errors).toEqual([])
    expect(next.outputs.created).toBe('true')
    expect(next.outputs['branch-id']).not.toBe(id)
    expect(project.branches.has(id)).toBe(false)
    expect(await count(next, 'items')).toBe(5)
  })

  it('1. a reset whose restore answer is lost: the post step deletes the unseeded branch', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    emu.platform.server.inject({ method: 'POST', path: /\/restore$/, kind: 'lost-reset' })
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.post?.stdout).toMatch(new RegExp(`Deleted branch "${nameOf(pr)}~seeding" \\(${created.outputs['branch-id']}\\)`))
    expect(project.branches.has(created.outputs['branch-id'])).toBe(false)
  })

  it('1. the post step keeps a branch that is no longer as the main step left it (the rename to ~seeding was refused)', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    emu.platform.server.inject({ method: 'PATCH', path: /\/branches\/[^/]+$/, kind: 'status', status: 400, body: { message: 'injected refusal' } })
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.post?.stdout).toMatch(new RegExp(`is now named "${nameOf(pr)}", not "${nameOf(pr)}~seeding" as the main step left it: it is seeded or in use, so it is kept`))
    expect(project.branches.get(created.outputs['branch-id'])?.name).toBe(nameOf(pr))
    const next = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(next.outputs).toMatchObject({ created: 'false', 'branch-id': created.outputs['branch-id'] })
  })

  it('1. a restore the platform refuses outright (HTTP 4xx: nothing changed) gives the branch its name back; it stays reusable', async () => {
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    emu.platform.server.inject({ method: 'POST', path: /\/restore$/, kind: 'status', status: 422, body: { message: 'injected refusal' } })
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`The restore was refused, so branch "${nameOf(pr)}~seeding" is unchanged: renamed it back to "${nameOf(pr)}"`))
    expect(r.post?.stdout.trim()).toBe('')
    expect(project.branches.get(created.outputs['branch-id'])?.name).toBe(nameOf(pr))
    const next = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(next.outputs).toMatchObject({ created: 'false', 'branch-id': created.outputs['branch-id'] })
    expect(await count(next, 'items')).toBe(5)
  })

  it('2. a cancelled reset: the create run waiting on the lock gets a new, seeded branch, and the cancelled run undoes only its own', async () => {
    writeFileSync(path.join(work, 'slow.sql'), 'SELECT pg_sleep(5);\n')
    const pr = newPr()
    const created = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    // Cancelled once the restore was sent and the create run has found the lock taken (its reaction answered 200): it waits for the lock.
    const reactions = emu.github.server.requests('POST', /\/reactions$/).length
    const resetting = run({ command: 'reset', seed: 'slow.sql\nseed.sql' }, {
      pr: { number: pr },
      cancelWhen: () =>
        emu.platform.server.requests('POST', /\/restore$/).length > 0 &&
        emu.github.server.requests('POST', /\/reactions$/).slice(reactions).some((q) => q.status === 200)
    })
    await until(() => emu.platform.server.requests('POST', /\/restore$/).length > 0)
    const waiting = run({ seed: 'seed.sql' }, { pr: { number: pr } })
    const [reset, next] = await Promise.all([resetting, waiting])
    expect(reset.code).toBe(1)
    expect(reset.errors.join('\n')).toMatch(/cancelled/)
    expect(next.errors).toEqual([])
    expect(next.stdout).toMatch(/Another run of this PR holds the lock/)
    expect(next.outputs.created).toBe('true')
    expect(next.outputs['branch-id']).not.toBe(created.outputs['branch-id'])
    expect(project.branches.has(created.outputs['branch-id'])).toBe(false)
    expect(project.branches.get(next.outputs['branch-id'])?.name).toBe(nameOf(pr))
    expect(await count(next, 'items')).toBe(5)
    expect(await count(next, 'customers')).toBe(2)
  })

  it("3. max-age keeps a branch reused a moment before the sweep: every reuse records its use", async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    const b = project.branches.get(first.outputs['branch-id'])!
    b.created_at = b.updated_at = ago(3 * 86400_000)
    const again = await run({}, { pr: { number: pr } })
    expect(again.outputs.created).toBe('false')
    const r = await sweep({ 'max-age': '2d' })
    expect(r.errors).toEqual([])
    expect(project.branches.has(b.id)).toBe(true)
    expect(r.summary).toMatch(/\| keep \| pull request #\d+ is open and the branch was used within max-age \|/)
  })

  it("3. max-age waits for the run that holds the PR's lock, reads the branch again under the lock, and keeps it", async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    const b = project.branches.get(first.outputs['branch-id'])!
    b.created_at = b.updated_at = ago(3 * 86400_000)
    // The reusing run holds the lock for 6 s before it records its use.
    emu.platform.server.inject({ method: 'GET', path: /\/connection_uri$/, kind: 'delay', delayMs: 6000 })
    const reusing = run({}, { pr: { number: pr } })
    await until(() => emu.platform.server.requests('GET', /\/connection_uri$/).some((q) => q.at > first.endedAt))
    const r = await sweep({ 'max-age': '2d' })
    const u = await reusing
    expect(u.errors).toEqual([])
    expect(u.outputs).toMatchObject({ created: 'false', 'branch-id': b.id })
    expect(r.errors).toEqual([])
    expect(project.branches.has(b.id)).toBe(true)
    expect(r.stdout).toMatch(/Another run of this PR holds the lock/)
    expect(r.summary).toMatch(/\| keep \| pull request #\d+ is open and the branch was used within max-age \(read again before the delete, under the PR's lock\) \|/)
    expect(emu.platform.server.requests('DELETE')).toHaveLength(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toContain('reused from an earlier run')
  })

  it('4. expires-in above 30 days is refused before any request, naming the limit; 30d works on create and reuse', async () => {
    const pr = newPr()
    const before = emu.platform.server.log.length + emu.github.server.log.length
    const r = await run({ 'expires-in': '45d' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual(["Input `expires-in` must be at most 30d (2592000 seconds), Neon's longest branch expiry (Neon docs, branch expiration); got \"45d\". Use 30d or less; an active PR keeps its branch anyway, since every run that uses it pushes the expiry forward."])
    expect(r.stdout).not.toMatch(/early.access/i)
    expect(emu.platform.server.log.length + emu.github.server.log.length).toBe(before)
    const first = await run({ 'expires-in': '7d' }, { pr: { number: pr } })
    const again = await run({ 'expires-in': '30d' }, { pr: { number: pr } })
    expect(again.errors).toEqual([])
    expect(again.outputs.created).toBe('false')
    const at = Date.parse(project.branches.get(first.outputs['branch-id'])!.expires_at!)
    expect(at).toBeLessThanOrEqual(Date.now() + 30 * 86400_000)
    expect(at).toBeGreaterThan(Date.now() + 29 * 86400_000)
    // The emulator holds the platform's limit, so a request past it is refused there too.
    const res = await fetch(`${emu.platform.url}/projects/${project.id}/branches/${first.outputs['branch-id']}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: { expires_at: new Date(Date.now() + 31 * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z') } })
    })
    expect(res.status).toBe(400)
  })

  it("5. one branch whose delete fails: reported, counted, and the sweep goes on; the summary is written; no placeholder on a PR no run holds", async () => {
    const open = await run({}, { pr: { number: newPr() } })
    const closedPr = newPr()
    const closed = await run({}, { pr: { number: closedPr } })
    emu.pulls.close(REPO, closedPr)
    const mergedPr = newPr()
    const merged = await run({}, { pr: { number: mergedPr } })
    emu.pulls.close(REPO, mergedPr, true)
    const brokenPr = newPr()
    const broken = await run({}, { pr: { number: brokenPr } })
    emu.pulls.close(REPO, brokenPr)
    // The branch list answers every branch with its annotations; the broken branch's delete fails.
    emu.platform.server.inject({ method: 'DELETE', path: new RegExp(`/branches/${broken.outputs['branch-id']}$`), kind: 'status', status: 500, times: 50 })
    const r = await sweep()
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/^The cleanup could not handle 1 branch\(es\): "preview\/pr-\d+-feature-login": .*HTTP 500.* The other branches were handled/)
    expect(project.branches.has(closed.outputs['branch-id'])).toBe(false)
    expect(project.branches.has(merged.outputs['branch-id'])).toBe(false)
    expect(project.branches.has(open.outputs['branch-id'])).toBe(true)
    expect(project.branches.has(broken.outputs['branch-id'])).toBe(true)
    expect(r.summary).toMatch(new RegExp(`\`${broken.outputs['branch-id']}\`\\) \\| #${brokenPr} \\| failed \\| pull request #${brokenPr} is closed; kept: .*HTTP 500`))
    expect(r.summary).toMatch(new RegExp(`\\| #${closedPr} \\| deleted \\| pull request #${closedPr} is closed \\|`))
    // No run of the closed PR held its lock (its comment shows no claim): the sweep wrote the final report straight away, no placeholder.
    expect(writtenBodies(closedPr).some((b) => b.includes('being swept'))).toBe(false)
    expect(emu.github.comments(REPO, closedPr)[0].body).toContain('deleted by the scheduled cleanup')
  })

  it('5. a dry run reports a PR lookup that answered 404 or 502 as unreadable, not as open', async () => {
    const ghost = 88_000 + newPr() // never opened on GitHub: pulls.get answers 404
    const lost = await run({ comment: 'false' }, { pr: { number: ghost } })
    const flaky = newPr()
    const flakyRun = await run({}, { pr: { number: flaky } })
    // The pulls list and the PR's own read both fail: unreadable.
    emu.github.server.inject({ method: 'GET', path: new RegExp(`/pulls(/${flaky})?$`), kind: 'status', status: 502, times: 50 })
    const r = await sweep({ 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(project.branches.has(lost.outputs['branch-id']) && project.branches.has(flakyRun.outputs['branch-id'])).toBe(true)
    for (const n of [ghost, flaky]) {
      expect(r.summary).toMatch(new RegExp(`\\| #${n} \\| keep \\| pull request #${n} could not be read \\(.+\\): kept \\|`))
      expect(r.summary).not.toContain(`pull request #${n} is open`)
    }
  })

  it('branches with children: a child not ours keeps its parent, with the reason; a child of ours is deleted first', async () => {
    const closedPr = newPr()
    const parent = await run({}, { pr: { number: closedPr } })
    const stranger = await plant('someones-child', parent.outputs['branch-id'])
    const otherPr = newPr()
    const withChild = await run({}, { pr: { number: otherPr } })
    const childPr = newPr()
    const child = await run({ 'parent-branch': nameOf(otherPr) }, { pr: { number: childPr } })
    expect(project.branches.get(child.outputs['branch-id'])?.parent_id).toBe(withChild.outputs['branch-id'])
    for (const n of [closedPr, otherPr, childPr]) emu.pulls.close(REPO, n)
    await until(() => !emu.platform.busy(project))
    const r = await sweep()
    expect(r.errors).toEqual([])
    expect(project.branches.has(parent.outputs['branch-id'])).toBe(true)
    expect(project.branches.has(stranger)).toBe(true)
    expect(r.summary).toMatch(new RegExp(`\\| #${closedPr} \\| keep \\| pull request #${closedPr} is closed, but it has child branch "someones-child", and Neon does not delete a branch with children: delete them first \\|`))
    expect(project.branches.has(withChild.outputs['branch-id'])).toBe(false)
    expect(project.branches.has(child.outputs['branch-id'])).toBe(false)
    const deletes = emu.platform.server.requests('DELETE').filter((q) => q.status === 200).map((q) => q.path.split('/').pop())
    expect(deletes).toEqual([child.outputs['branch-id'], withChild.outputs['branch-id']])
  })

  it("7. the run after a cancel waits for the leftover unseeded branch's compute start before deleting it", async () => {
    const pr = newPr()
    // Long enough that the run surely meets it running, however slowly the runner starts (its create, 0.2 s, may still run too).
    emu.platform.timing = { createBranchMs: 200, startComputeMs: 12_000, deleteMs: 200 }
    const leftover = await plant(`${nameOf(pr)}~seeding`)
    emu.platform.timing = { createBranchMs: 200, startComputeMs: 400, deleteMs: 200 }
    const r = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.stdout).toMatch(new RegExp(`Waiting for [12] operation\\(s\\) still running on branch "${nameOf(pr)}~seeding"`))
    expect(emu.platform.server.requests('DELETE', new RegExp(`/branches/${leftover}$`)).map((q) => q.status)).toEqual([200])
    expect(project.branches.has(leftover)).toBe(false)
    expect(r.outputs.created).toBe('true')
    expect(await count(r, 'items')).toBe(5)
  })

  it('8. during a reset the PR comment says resetting, not that the pull request closed', async () => {
    const pr = newPr()
    await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    const before = writtenBodies(pr).length
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    const placeholder = writtenBodies(pr).slice(before).find((b) => b.includes('being'))
    expect(placeholder).toContain('Postgres branch being reset to its parent and seeded again')
    expect(placeholder).not.toContain('the pull request closed')
  })

  it('Also: a cancel during the SQL seed never commits it (the session ends), even when the branch cannot be deleted', async () => {
    writeFileSync(path.join(work, 'late.sql'), 'CREATE TABLE late_marker (id int);\nSELECT pg_sleep(2);\nINSERT INTO late_marker VALUES (1);\n')
    writeFileSync(path.join(work, 'after.sql'), 'CREATE TABLE after_marker (id int);\n')
    const pr = newPr()
    // Every DELETE fails, so the cancelled run's branch stays to be looked into.
    emu.platform.server.inject({ method: 'DELETE', kind: 'status', status: 500, times: 1000 })
    const r = await run({ seed: 'late.sql\nafter.sql' }, { pr: { number: pr }, cancelOn: /Seed the database/ })
    expect(r.code).toBe(1)
    const id = /Created branch "[^"]+" \((br-[^)]+)\)/.exec(r.stdout)![1]
    await sleep(3000) // past the pg_sleep: a seed still running would have committed by now
    const db = project.branches.get(id)!.database
    const [row] = await emu.pg.query<{ late: string | null; after: string | null }>(db, "SELECT to_regclass('late_marker')::text AS late, to_regclass('after_marker')::text AS after")
    expect(row).toEqual({ late: null, after: null })
    expect(project.branches.get(id)!.name).toBe(`${nameOf(pr)}~seeding`)
    emu.platform.server.clearFaults()
  })

  it("Also: a cancel during seed-command kills its process group: nothing it started runs on", async () => {
    const pr = newPr()
    const marker = path.join(work, `late-${pr}`)
    const r = await run({ 'seed-command': `(sleep 2; echo late > ${marker}) & sleep 2; echo late > ${marker}.main` }, { pr: { number: pr }, cancelOn: /Run seed-command/ })
    expect(r.code).toBe(1)
    await sleep(3000)
    expect(existsSync(marker)).toBe(false)
    expect(existsSync(`${marker}.main`)).toBe(false)
  })
})

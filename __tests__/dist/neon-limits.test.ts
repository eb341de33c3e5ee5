/**
 * Neon's branch limit through the bundle (Node 24), with the emulator's cap
 * switched on (HTTP 422 `BRANCHES_LIMIT_EXCEEDED`, "branches limit
 * exceeded"): `make-room` deletes the least recently used preview of a
 * closed PR under its lock and creates again; with none to delete, the run
 * fails naming the limit, the project's figures and the way out, in the log
 * and the PR comment, and leaves nothing behind.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { APP_TOKEN } from '../../emulator/github/github.js'
import { limitGitHub, unlimitGitHub } from '../../emulator/github/github-rate.js'
import { REPO } from '../fixtures/preview.js'
import { until } from '../helpers.js'
import { branchSuite } from '../fixtures/branch-suite.js'

const suite = branchSuite({ prefix: 'neon-limits-test-', firstPr: 5800, projectPerTest: true })
const { newPr, run } = suite
const capAt = (n: number): void => void suite.emu.platform.branchRequests.branchCap.set(suite.project.id, n)
const idle = async (): Promise<void> => {
  while (suite.emu.platform.busy(suite.project)) await new Promise((r) => setTimeout(r, 50))
}

describe("at Neon's branch limit", () => {
  it("make-room deletes the least recently used closed PR's preview under its lock, then creates; the log says which", async () => {
    const older = newPr()
    const olderRun = await run({}, { pr: { number: older } })
    const newer = newPr()
    const newerRun = await run({}, { pr: { number: newer } })
    const open = newPr()
    const openRun = await run({}, { pr: { number: open } })
    suite.emu.pulls.close(REPO, older, true)
    suite.emu.pulls.close(REPO, newer)
    await idle()
    const total = suite.project.branches.size
    capAt(total)
    const pr = newPr()
    const r = await run({}, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(suite.project.branches.has(r.outputs['branch-id'])).toBe(true)
    expect(suite.project.branches.has(olderRun.outputs['branch-id'])).toBe(false)
    expect(suite.project.branches.has(newerRun.outputs['branch-id'])).toBe(true)
    expect(suite.project.branches.has(openRun.outputs['branch-id'])).toBe(true)
    expect(r.warnings.join('\n')).toMatch(
      new RegExp(
        `Neon's branch limit of the project is reached \\(HTTP 422 "branches limit exceeded"\\)\\. The project has ${total} branches; 3 of them are this action's previews for this repository, 2 of those of closed or merged pull requests\\. ` +
          `Deleted branch "${olderRun.outputs['branch-name']}" \\(${olderRun.outputs['branch-id']}\\), the least recently used preview of pull request #${older} \\(merged\\), to make room`
      )
    )
    // Under the closed PR's lock: its comment went through "being swept" and says deleted; no reaction left.
    expect(suite.emu.github.comments(REPO, older)[0].body).toContain('deleted by the scheduled cleanup')
    expect(suite.emu.github.reactionsOf.get(`issue ${REPO}#${older}`) ?? []).toEqual([])
    expect(suite.emu.github.comments(REPO, older)).toHaveLength(1)
  })

  it("with no closed PR's preview: fails naming the limit, the figures and the way out, in the log and the comment; nothing left", async () => {
    const open = newPr()
    const openRun = await run({}, { pr: { number: open } })
    await idle()
    const total = suite.project.branches.size
    capAt(total)
    const before = [...suite.project.branches.keys()].sort()
    const pr = newPr()
    const r = await run({}, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(
      new RegExp(`^Create branch .*: Neon's branch limit of the project is reached \\(HTTP 422: "branches limit exceeded"\\).* The project has ${total} branches; 1 of them are this action's previews for this repository, 0 of those of closed or merged pull requests\\. No preview of a closed or merged pull request to delete .* Make room: run .command: cleanup.*.max-age.*.expires-in.*a Neon plan with more branches`)
    )
    expect([...suite.project.branches.keys()].sort()).toEqual(before)
    expect(suite.project.branches.has(openRun.outputs['branch-id'])).toBe(true)
    const comment = suite.emu.github.comments(REPO, pr)[0].body
    expect(comment).toContain("Neon's branch limit of the project is reached")
    expect(comment).toContain('`command: cleanup`')
    expect(suite.emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).toEqual([])
  })

  it('make-room: false keeps a closed PR\'s preview and says the input is off', async () => {
    const closed = newPr()
    const closedRun = await run({}, { pr: { number: closed } })
    suite.emu.pulls.close(REPO, closed)
    await idle()
    capAt(suite.project.branches.size)
    const r = await run({ 'make-room': 'false' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/1 of those of closed or merged pull requests\. `make-room` is off\./)
    expect(suite.project.branches.has(closedRun.outputs['branch-id'])).toBe(true)
  })
})

describe("make-room and the repository's GitHub budget", () => {
  afterEach(() => {
    unlimitGitHub(suite.emu.github)
  })

  it("with the hour's budget at the reserve it leaves to the repository's pull requests, deletes nothing and says so", async () => {
    const closed = newPr()
    const closedRun = await run({}, { pr: { number: closed } })
    suite.emu.pulls.close(REPO, closed)
    await idle()
    capAt(suite.project.branches.size)
    const budget = limitGitHub(suite.emu.github, APP_TOKEN, { limit: 1000, remaining: 260 })
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/The project has \d+ branches; 1 of them are this action's previews for this repository\. GitHub's rate limit: \d+ of 1000 requests left.*`make-room` leaves the last 250 requests of the hour to the repository's pull requests, so it deleted nothing/)
    expect(suite.project.branches.has(closedRun.outputs['branch-id'])).toBe(true)
    expect(budget.limit - budget.used).toBeGreaterThan(240)
  })
})

describe("at Neon's limit on active computes", () => {
  const active = () => [...suite.project.branches.values()].filter((b) => b.endpoint && !b.endpoint.suspended)
  const capComputes = (): void => void suite.emu.platform.branchRequests.computeCap.set(suite.project.id, active().length)

  it('waits for a compute to suspend within wait-timeout, then creates and seeds', async () => {
    const other = await run({}, { pr: { number: newPr() } })
    await idle()
    capComputes()
    const pr = newPr()
    const from = suite.emu.platform.server.log.length
    const running = run({ 'wait-timeout': '60' }, { pr: { number: pr } })
    // the run has met the limit (a create refused with 422), however late a loaded machine lets it start
    await until(
      () => suite.emu.platform.server.log.slice(from).some((q) => q.method === 'POST' && /\/branches$/.test(q.path) && q.status === 422),
      'a create refused at the limit'
    )
    suite.project.branches.get(other.outputs['branch-id'])!.endpoint!.suspended = true
    const r = await running
    expect(r.errors).toEqual([])
    expect(r.stdout).toMatch(/Neon's limit on active computes of the project is reached \("active endpoints limit exceeded"\): waiting up to 60 s \(wait-timeout\)/)
    expect(r.stdout).toMatch(/A compute slot came free after \d+ s/)
    expect(suite.project.branches.get(r.outputs['branch-id'])!.name).toBe(r.outputs['branch-name'])
    const refused = suite.emu.platform.server.requests('POST', /\/branches$/).filter((q) => q.at > r.startedAt && q.status === 422)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('not freed: fails at wait-timeout naming the limit and the way out; no branch left', async () => {
    await idle()
    capComputes()
    const before = [...suite.project.branches.keys()].sort()
    const pr = newPr()
    const r = await run({ 'wait-timeout': '3' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(
      /Neon's limit on active computes of the project is reached \(HTTP 422: "active endpoints limit exceeded"\).* Waited \d+ s \(`wait-timeout`\) for a compute to suspend; none did\. Computes suspend when idle.*`suspend-timeout`/
    )
    expect([...suite.project.branches.keys()].sort()).toEqual(before)
    expect(suite.emu.github.comments(REPO, pr)[0].body).toContain("Neon's limit on active computes of the project is reached")
  })
})

describe('archived branches', () => {
  const archive = (id: string): void => void (suite.project.branches.get(id)!.archived = true)
  const unarchives = (since: number) =>
    suite.emu.platform.operations(suite.project).filter((op) => op.action === 'timeline_unarchive' && op.startedAt >= since)
  const archivedLine = /Branch "[^"]+" \([^)]+\) is archived \(Neon archives branches unused for a while\): Neon unarchives it on this access \(operation timeline_unarchive\); waiting for it\./

  it('reuse and delete: one log line each, the unarchive waited out', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    await idle()
    archive(first.outputs['branch-id'])
    const reused = await run({}, { pr: { number: pr } })
    expect(reused.errors).toEqual([])
    expect(reused.outputs).toMatchObject({ created: 'false', 'branch-id': first.outputs['branch-id'] })
    expect(reused.stdout.split('\n').filter((l) => archivedLine.test(l))).toHaveLength(1)
    expect(unarchives(reused.startedAt)).toHaveLength(1)
    expect(reused.stdout).toMatch(/^unarchive: \d+ ms, 0 PostgreSQL round trip\(s\), \d+ HTTP request\(s\)$/m) // its own row in the trace
    await idle()
    archive(first.outputs['branch-id'])
    const deleted = await run({ command: 'delete' }, { pr: { number: pr } })
    expect(deleted.errors).toEqual([])
    expect(deleted.stdout).toMatch(archivedLine)
    expect(suite.project.branches.has(first.outputs['branch-id'])).toBe(false)
  })

  it('reset: one log line, the unarchive waited out, the same branch seeded again', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    await idle()
    archive(first.outputs['branch-id'])
    const reset = await run({ command: 'reset' }, { pr: { number: pr } })
    expect(reset.errors).toEqual([])
    expect(reset.stdout.split('\n').filter((l) => archivedLine.test(l))).toHaveLength(1)
    expect(unarchives(reset.startedAt)).toHaveLength(1)
    expect(reset.outputs['branch-id']).toBe(first.outputs['branch-id'])
    expect(suite.project.branches.get(first.outputs['branch-id'])!.name).toBe(first.outputs['branch-name'])
  })

  it('the sweep deletes an archived branch of a closed PR, saying so', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    suite.emu.pulls.close(REPO, pr)
    await idle()
    archive(first.outputs['branch-id'])
    const r = await run({ command: 'cleanup' }, { eventName: 'schedule', event: {} })
    expect(r.errors).toEqual([])
    expect(r.stdout).toMatch(archivedLine)
    expect(suite.project.branches.has(first.outputs['branch-id'])).toBe(false)
    expect(unarchives(r.startedAt)).toHaveLength(1)
  })
})

/**
 * Where runs come from, through the bundled action (Node 24, as action.yml)
 * against the emulated Neon and GitHub: a create on a closed pull request,
 * a renamed head branch, and the guards that keep holding.
 */
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { lifecycleSuite, notices } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'
import { exampleEvent } from '../fixtures/webhook-events.js'

const suite = lifecycleSuite('run-sources-', 5200)
const { newPr, run, previewBranches, expectNoLeak } = suite
let emu: Emulator
let project: Project
beforeAll(() => {
  ;({ emu } = suite)
})
beforeEach(() => {
  project = suite.project
})

/** The data of each `::notice::` command in `stdout`. */

/** A `pull_request` payload of PR `number` with `action` and `state`: GitHub's example of that action with the case's fields on top. */
const prEvent = (number: number, action: string, state: 'open' | 'closed', headRef = 'feature/login'): Record<string, unknown> =>
  exampleEvent(
    'pull_request',
    {
      number,
      pull_request: {
        number,
        state,
        merged: state === 'closed',
        head: { ref: headRef, sha: 'a1b2c3d4e5f6', repo: { full_name: REPO } },
        base: { ref: 'main', repo: { full_name: REPO } }
      }
    },
    (e) => e.action === action
  ).event!

describe('a closed pull request gets no new preview', () => {
  it('create on the closed event after delete: nothing provisioned, no comment or deployment written, one notice, the step succeeds', async () => {
    const pr = newPr()
    const first = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(first.errors).toEqual([])
    emu.pulls.close(REPO, pr, true)
    const closed = { eventName: 'pull_request', event: prEvent(pr, 'closed', 'closed') }
    const deleted = await run({ command: 'delete' }, closed)
    expect(deleted.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
    const comment = emu.github.comments(REPO, pr)[0].body
    const deployments = JSON.stringify(emu.deployments.of(REPO, `preview-postgres/pr-${pr}`).map((d) => emu.deployments.statusesOf(d.id)))
    const platformBefore = emu.platform.server.log.length
    const githubBefore = emu.github.server.log.length

    const r = await run({ seed: 'seed.sql' }, closed)
    expect(r.code).toBe(0)
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
    expect(notices(r.stdout)).toEqual([expect.stringMatching(new RegExp(`^Pull request #${pr} is closed: \`command: create\` provisions nothing`))])
    expect(previewBranches()).toHaveLength(0)
    expect(emu.platform.server.log.length).toBe(platformBefore)
    expect(emu.github.server.log.length).toBe(githubBefore)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toBe(comment)
    expect(JSON.stringify(emu.deployments.of(REPO, `preview-postgres/pr-${pr}`).map((d) => emu.deployments.statusesOf(d.id)))).toBe(deployments)
    expect(r.outputs['database-url'] ?? '').toBe('')
    expect(r.post?.code ?? 0).toBe(0)
    expectNoLeak(r)
  })

  it('a payload whose pull_request.state is closed (another action than closed) is refused the same way', async () => {
    const pr = newPr()
    emu.pulls.close(REPO, pr)
    const r = await run({}, { eventName: 'pull_request_target', event: prEvent(pr, 'labeled', 'closed') })
    expect(r.code).toBe(0)
    expect(notices(r.stdout)).toHaveLength(1)
    expect(previewBranches()).toHaveLength(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(0)
  })

  it('an open PR with the same payload shape still gets its preview', async () => {
    const pr = newPr()
    const r = await run({}, { eventName: 'pull_request', event: prEvent(pr, 'synchronize', 'open') })
    expect(r.errors).toEqual([])
    expect(r.outputs.created).toBe('true')
    expect(previewBranches()).toHaveLength(1)
    expect(project.branches.get(r.outputs['branch-id'])).toBeDefined()
  })
})

describe('a renamed head branch', () => {
  it('the next run reuses the PR\'s branch (renamed to the new default name), and delete leaves none', async () => {
    const pr = newPr()
    const first = await run({ seed: 'seed.sql' }, { pr: { number: pr, headRef: 'feature/checkout' } })
    expect(first.errors).toEqual([])
    expect(first.outputs['branch-name']).toBe(`preview/pr-${pr}-feature-checkout`)
    const second = await run({ seed: 'seed.sql' }, { pr: { number: pr, headRef: 'feature/checkout-v2' } })
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', 'branch-id': first.outputs['branch-id'], 'branch-name': `preview/pr-${pr}-feature-checkout-v2` })
    expect(second.stdout).toContain(`renamed branch "preview/pr-${pr}-feature-checkout" (${first.outputs['branch-id']}) to "preview/pr-${pr}-feature-checkout-v2"`)
    expect(previewBranches().map((b) => b.name)).toEqual([`preview/pr-${pr}-feature-checkout-v2`])
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    const deleted = await run({ command: 'delete' }, { eventName: 'pull_request', event: prEvent(pr, 'closed', 'closed', 'feature/checkout-v2') })
    expect(deleted.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
  })

  it('without the comment\'s record (comment: false): delete finds every branch of the PR by its annotations, and leaves other PRs\' and named previews', async () => {
    const pr = newPr()
    const other = newPr()
    const inputs = { comment: 'false' }
    const a = await run(inputs, { pr: { number: pr, headRef: 'feature/cart' } })
    const b = await run(inputs, { pr: { number: pr, headRef: 'feature/cart-v2' } })
    const named = await run({ ...inputs, 'preview-name': 'api' }, { pr: { number: pr, headRef: 'feature/cart-v2' } })
    const elsewhere = await run(inputs, { pr: { number: other, headRef: 'feature/cart' } })
    for (const r of [a, b, named, elsewhere]) expect(r.errors).toEqual([])
    expect(previewBranches()).toHaveLength(4)
    const deleted = await run({ ...inputs, command: 'delete' }, { pr: { number: pr, headRef: 'feature/cart-v2' } })
    expect(deleted.errors).toEqual([])
    expect(previewBranches().map((x) => x.id).sort()).toEqual([named.outputs['branch-id'], elsewhere.outputs['branch-id']].sort())
    expect(deleted.stdout).toContain(`Deleted branch "preview/pr-${pr}-feature-cart" (${a.outputs['branch-id']}), this pull request's preview under an earlier head branch name.`)
  })

  it('delete after the rename when only the old branch exists: it is deleted and the comment says so', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr, headRef: 'feature/pay' } })
    const deleted = await run({ command: 'delete' }, { pr: { number: pr, headRef: 'feature/pay-v2' } })
    expect(deleted.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
    expect(project.branches.has(first.outputs['branch-id'])).toBe(false)
    expect(emu.github.comments(REPO, pr)[0].body).toMatch(/deleted/i)
  })
})


describe('guards that keep holding', () => {
  it('three matrix jobs of one PR at once: one branch, one comment, one database', async () => {
    const pr = newPr()
    const runs = await Promise.all([0, 1, 2].map(() => run({ seed: 'seed.sql' }, { pr: { number: pr } })))
    for (const r of runs) expect(r.errors).toEqual([])
    expect(new Set(runs.map((r) => r.outputs['branch-id'])).size).toBe(1)
    expect(runs.filter((r) => r.outputs.created === 'true')).toHaveLength(1)
    expect(previewBranches()).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
  })

  it('a 250-character head ref with non-ASCII letters and an emoji: a valid name, reused, and delete leaves none', async () => {
    const pr = newPr()
    const headRef = `feature/ünïcödé-😀-${'x'.repeat(230)}`.slice(0, 250)
    const first = await run({}, { pr: { number: pr, headRef } })
    expect(first.errors).toEqual([])
    const name = first.outputs['branch-name']
    expect(name.length).toBeLessThanOrEqual(256)
    expect(name).toMatch(new RegExp(`^preview/pr-${pr}-feature-n-c-d-x+$`))
    const again = await run({}, { pr: { number: pr, headRef } })
    expect(again.outputs).toMatchObject({ created: 'false', 'branch-id': first.outputs['branch-id'] })
    const deleted = await run({ command: 'delete' }, { pr: { number: pr, headRef } })
    expect(deleted.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
  })

  it("GitHub Enterprise Server's API under /api/v3: the comment, its lock and the deployment all go there, and delete finds them", async () => {
    emu.github.server.servePathPrefix('/api/v3') // requests without the prefix get 404, as from a GHES host
    try {
      const from = emu.github.server.log.length
      const pr = newPr()
      const first = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
      expect(first.errors).toEqual([])
      expect(first.outputs['comment-url']).not.toBe('')
      expect(first.outputs['deployment-id']).not.toBe('')
      expect(emu.github.comments(REPO, pr)).toHaveLength(1)
      const again = await run({ seed: 'seed.sql' }, { pr: { number: pr } })
      expect(again.outputs).toMatchObject({ created: 'false', 'branch-id': first.outputs['branch-id'] })
      const deleted = await run({ command: 'delete' }, { pr: { number: pr } })
      expect(deleted.errors).toEqual([])
      expect(previewBranches()).toHaveLength(0)
      expect(emu.github.comments(REPO, pr)).toHaveLength(1)
      const requests = emu.github.server.log.slice(from)
      expect(requests.length).toBeGreaterThan(5)
      expect(requests.filter((q) => q.status === 404 && q.path.startsWith('/no-such-path'))).toEqual([])
    } finally {
      emu.github.server.servePathPrefix('')
    }
  })
})

/**
 * The fault matrix's cases for the scheduled sweep (`command: cleanup`):
 * which branches it deletes and which it keeps. Each runs the bundle (Node
 * 24) against the emulator; matrix.ts runs the orphan and secret scans after
 * each.
 */
import { type Case, type Ctx, type MatrixHelpers, REPO } from './matrix-kit.js'
import type { RunResult } from '../../emulator/runner/runner.js'

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * Creates a branch straight through the Neon API, as a person or another
 * tool would (no annotations), waits until the project is idle, and marks it
 * as the case's fixture.
 */
export async function plantBranch(ctx: Ctx, name: string, parentId?: string): Promise<string> {
  const res = await fetch(`${ctx.emu.platform.url}/projects/${ctx.project.id}/branches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.project.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ branch: { name, ...(parentId ? { parent_id: parentId } : {}) }, endpoints: [{ type: 'read_write' }] })
  })
  if (res.status !== 201) throw new Error(`planting branch ${name}: HTTP ${res.status} ${await res.text()}`)
  const { branch } = (await res.json()) as { branch: { id: string } }
  ctx.fixtures.add(branch.id)
  while (ctx.emu.platform.operations(ctx.project).some((op) => !['finished', 'skipped', 'cancelled'].includes(String(op.status))))
    await sleep(100)
  return branch.id
}

/** A run of `command: cleanup` from a `schedule` event (no pull request). */
export const sweep = (ctx: Ctx, inputs: Record<string, string> = {}): Promise<RunResult> =>
  ctx.run('branch', { command: 'cleanup', ...inputs }, { pr: undefined, eventName: 'schedule', event: {} })

/** Opens another PR of the repository and creates its branch; closes it (merged or not) when asked. */
export async function otherPr(ctx: Ctx, closed?: 'closed' | 'merged'): Promise<{ pr: number; run: RunResult }> {
  const pr = nextOtherPr++
  ctx.emu.github.openPullRequest(REPO, pr)
  const run = await ctx.run('branch', {}, { pr: { number: pr } })
  if (closed) ctx.emu.pulls.close(REPO, pr, closed === 'merged')
  return { pr, run }
}
let nextOtherPr = 70_000

/** The sweep's cases (`command: cleanup`), in table order. */
export function sweepCases(h: MatrixHelpers): Case[] {
  const group = 'lifecycle'
  return [
    {
      group,
      name: "branch: cleanup sweeps closed and merged PRs' branches, keeps an open PR's, the protected branch and a look-alike",
      expected:
        "deletes exactly the closed and merged PRs' branches (operations waited on); the summary tables every branch; their comments say swept",
      body: async (ctx) => {
        const open = await ctx.run('branch')
        const closed = await otherPr(ctx, 'closed')
        const merged = await otherPr(ctx, 'merged')
        // named as this action names a closed PR's branch, but made by someone else (no annotations)
        const alikePr = nextOtherPr++
        const lookalike = await plantBranch(ctx, `preview/pr-${alikePr}-feature-login`)
        ctx.emu.github.openPullRequest(REPO, alikePr)
        ctx.emu.pulls.close(REPO, alikePr)
        const r = await sweep(ctx)
        const c = h.checker()
        c.expect(r.code === 0, `cleanup exit ${r.code} (${r.errors[0] ?? ''})`)
        const has = (id: string): boolean => ctx.project.branches.has(id)
        c.expect(has(open.outputs['branch-id']), "the open PR's branch was deleted")
        c.expect(!has(closed.run.outputs['branch-id']), "the closed PR's branch is left")
        c.expect(!has(merged.run.outputs['branch-id']), "the merged PR's branch is left")
        c.expect(has(lookalike), 'the look-alike branch was deleted')
        c.expect(
          [...ctx.project.branches.values()].some((b) => b.protected) && [...ctx.project.branches.values()].some((b) => b.default),
          'the default or protected branch is gone'
        )
        for (const [what, re] of [
          ['open', /\| keep \| pull request #\d+ is open \|/],
          ['closed', new RegExp(`\\| #${closed.pr} \\| deleted \\| pull request #${closed.pr} is closed \\|`)],
          ['merged', new RegExp(`\\| #${merged.pr} \\| deleted \\| pull request #${merged.pr} is merged \\|`)],
          ['look-alike', /\| keep \| not made by this action \(no preview-postgres annotations\), whatever its name \|/],
          ['protected', /`production` .*\| keep \| a protected branch: never touched \|/],
          ['default', /`main` .*\| keep \| the project's default branch: never touched \|/]
        ] as const)
          c.expect(re.test(r.summary), `the summary has no ${what} row`)
        for (const p of [closed.pr, merged.pr]) {
          const body = ctx.emu.github.comments(REPO, p)[0]?.body ?? ''
          c.expect(/deleted by the scheduled cleanup/.test(body), `PR #${p}'s comment does not say swept`)
        }
        c.expect(!/swept|cleanup/.test(ctx.emu.github.comments(REPO, ctx.pr)[0]?.body ?? ''), "the open PR's comment says swept")
        const dropped = await ctx.emu.pg.databases()
        c.expect(
          !dropped.some((d) => [closed.run, merged.run].some((x) => d === ctx.project.branches.get(x.outputs['branch-id'])?.database)),
          'a swept database is left'
        )
        return {
          observed: `${h.outcome(r)}; ${ctx.project.branches.size} branches left (main, production, open, look-alike)`,
          problems: c.problems
        }
      }
    },
    {
      group,
      name: 'branch: cleanup as a dry run',
      expected: 'lists the closed PR\'s branch as "would delete" and deletes nothing',
      body: async (ctx) => {
        const closed = await otherPr(ctx, 'closed')
        const r = await sweep(ctx, { 'dry-run': 'true' })
        const c = h.checker()
        c.expect(r.code === 0, `exit ${r.code}`)
        c.expect(ctx.project.branches.has(closed.run.outputs['branch-id']), 'the dry run deleted a branch')
        c.expect(ctx.emu.platform.server.requests('DELETE').length === 0, 'the dry run sent a DELETE')
        c.expect(
          new RegExp(`\\| #${closed.pr} \\| would delete \\| pull request #${closed.pr} is closed \\|`).test(r.summary),
          'no "would delete" row'
        )
        c.expect(/dry run: nothing deleted/.test(r.summary), 'the summary does not say dry run')
        return { observed: `${h.outcome(r)}; DELETEs ${ctx.emu.platform.server.requests('DELETE').length}`, problems: c.problems }
      }
    },
    {
      group,
      name: 'branch: cleanup meets 423 Locked on the delete',
      expected: 'retries at 0.1 s doubling, deletes the branch and waits for its operations',
      body: async (ctx) => {
        const closed = await otherPr(ctx, 'closed')
        ctx.emu.platform.server.inject({
          method: 'DELETE',
          path: /\/branches\/[^/]+$/,
          kind: 'status',
          status: 423,
          times: 2,
          body: { message: 'project already has running conflicting operations' }
        })
        const r = await sweep(ctx)
        const c = h.checker()
        c.expect(r.code === 0, `exit ${r.code} (${r.errors[0] ?? ''})`)
        const deletes = ctx.emu.platform.server.requests('DELETE').map((q) => q.status)
        c.expect(deletes.join(',') === '423,423,200', `DELETE statuses ${deletes.join(',')}`)
        c.expect(!ctx.project.branches.has(closed.run.outputs['branch-id']), 'the branch is left')
        const ops = ctx.emu.platform
          .operations(ctx.project)
          .filter((o) => o.branch_id === closed.run.outputs['branch-id'] && o.action === 'delete_timeline')
        c.expect(
          ops.length === 1 && ops[0].endedAt !== undefined && ops[0].endedAt <= r.endedAt,
          'the delete operations were not waited on'
        )
        return { observed: `${h.outcome(r)}; DELETE statuses ${deletes.join(', ')}`, problems: c.problems }
      }
    }
  ]
}

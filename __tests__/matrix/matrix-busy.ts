/**
 * The fault matrix's cases of a busy project: a run whose create met 423 on
 * all five attempts waits for the project's running operations, and one of
 * them fails, or `wait-timeout` passes, or the run is cancelled meanwhile.
 * The project is held by a system operation (an availability check) that
 * outlasts the five attempts.
 */
import type { RunResult } from '../../emulator/runner/runner.js'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Case, type Ctx, REPO, BRANCHES, checker, failed, outcome, prComments, previewBranches, succeeded } from './matrix-kit.js'

/** The run logged that it waits for the project. */
const WAITING = /Waiting for the project to be free/

export function busyProjectCases(): Case[] {
  const cases: Case[] = []
  const add = (name: string, expected: string, body: Case['body']): void => void cases.push({ group: 'busy project', name, expected, body })
  const reactionsLeft = (ctx: Ctx): number =>
    ctx.emu.github.comments(REPO, ctx.pr).reduce((n, x) => n + ctx.emu.github.commentReactions(x.id).length, 0)
  /** Nothing created, no branch left, the comment final (no lock reaction) and saying `state`. */
  const nothingLeft = (ctx: Ctx, r: RunResult, state: RegExp, c: ReturnType<typeof checker>): void => {
    const made = ctx.emu.platform.server.requests('POST', BRANCHES).filter((q) => q.status === 201).length
    c.expect(made === 0, `${made} create(s) answered 201`)
    c.expect(previewBranches(ctx.project).length === 0, `${previewBranches(ctx.project).length} branch(es) left`)
    c.expect(reactionsLeft(ctx) === 0, 'the lock reaction is left')
    const comments = prComments(ctx.emu, ctx.pr)
    c.expect(comments.length === 1 && state.test(comments[0].body), `the comment does not say ${state}`)
    c.expect(WAITING.test(r.stdout), 'the run never waited for the project')
  }

  add(
    'branch: the operation a run waits on fails, then ends in error',
    'warns that it failed (Neon retries it) and that it ended in error, goes on waiting until the project is free, then creates and seeds; the summary shows the wait',
    async (ctx) => {
      const { emu, project, run } = ctx
      emu.platform.startSystemOperation(project, { durationMs: 60_000 })
      const check = project.operations.at(-1)!
      /** From now on the availability check has `status` (Neon's own retries and errors). */
      const turn = (status: 'failed' | 'running' | 'error', extra: { failures?: number; error?: string } = {}): void =>
        void check.steps.push({ at: Date.now() - check.created, status, ...extra })
      const lists = () => emu.platform.server.requests('GET', /\/operations(\/[^/]+)?\/?$/)
      /** Resolves once the run has read the operations and been answered with the check in `status` (however late a loaded machine lets it poll). */
      const seen = async (status: string): Promise<void> => {
        const from = lists().length
        const answered = (): boolean =>
          lists()
            .slice(from)
            .some((q) => (q.responseText ?? '').includes(`"status":"${status}"`))
        for (const deadline = Date.now() + 60_000; !answered() && Date.now() < deadline;) await sleep(20)
      }
      const running = run('branch', { 'poll-interval': '0.5' })
      await seen('running')
      turn('failed', { failures: 1 })
      await seen('failed')
      turn('running', { failures: 1 })
      await seen('running')
      turn('error', { failures: 1, error: 'availability check failed' })
      const r = await running
      const c = checker()
      succeeded(r, c)
      c.expect(
        r.warnings.some((w) =>
          /Check availability on branch br-[\w-]+ \(failed, 1 failure\(s\)\), which this run waits on, failed/.test(w)
        ),
        'no warning that the operation failed'
      )
      c.expect(
        r.warnings.some((w) => /ended in error \("availability check failed"\)\. It is not this run's operation: still waiting/.test(w)),
        'no warning that it ended in error'
      )
      c.expect(
        /\| Waited for the project \| \d+\.\d s, for 1 operation of other runs or of Neon \|/.test(r.summary),
        'no wait in the summary'
      )
      return { observed: `${outcome(r)}; ${r.warnings.length} warning(s)`, problems: c.problems }
    }
  )
  add(
    'branch: wait-timeout passes while the run waits for a busy project',
    'fails naming the operation still running; nothing created, no branch left, the lock released, the comment says failed',
    async (ctx) => {
      const { emu, project, run } = ctx
      emu.platform.startSystemOperation(project, { durationMs: 60_000 })
      const r = await run('branch', { 'wait-timeout': '4', 'poll-interval': '0.5' })
      const c = checker()
      failed(
        r,
        /timed out after 4 s \(wait-timeout\) waiting for the project to be free; still running: Check availability on branch br-[\w-]+ \(running\) id [0-9a-f-]{36}\. Nothing was created/,
        c
      )
      nothingLeft(ctx, r, /failed/i, c)
      emu.platform.lifecycle.finishSystemOperations(project)
      return { observed: `${outcome(r)}`, problems: c.problems }
    }
  )
  add(
    'branch: a cancel (SIGINT) while the run waits for a busy project',
    'the run stops at once; nothing created, no branch left, the lock released, the comment says cancelled',
    async (ctx) => {
      const { emu, project, run } = ctx
      emu.platform.startSystemOperation(project, { durationMs: 60_000 })
      const r = await run('branch', { 'poll-interval': '0.5' }, { cancelOn: WAITING })
      const c = checker()
      c.expect(r.code === 1 && r.errors.some((e) => /cancelled \(SIGINT\)/.test(e)), `cancelled run: ${outcome(r)}`)
      c.expect(!r.outputs['database-url'], 'database-url was set')
      c.expect(r.durationMs < 20_000, `the cancelled run took ${r.durationMs} ms`)
      nothingLeft(ctx, r, /the run was cancelled/, c)
      emu.platform.lifecycle.finishSystemOperations(project)
      return { observed: `${outcome(r)} in ${(r.durationMs / 1000).toFixed(1)} s`, problems: c.problems }
    }
  )
  return cases
}

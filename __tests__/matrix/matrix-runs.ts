/**
 * The fault matrix's cases for concurrent and failed runs (the comment
 * lock, GitHub retries, stale locks, an App's token; cancelled runs are in
 * matrix-cancels.ts);
 * the lock is a reaction, and no run after the first creates a
 * comment (`created` counts POSTs to .../issues/{n}/comments).
 * matrix.ts runs the orphan, spec and secret scans after each.
 */
import { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN } from '../../emulator/index.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { type Ctx, type Case, REPO, outcome, checker, succeeded, prComments, previewBranches } from './matrix-kit.js'

export function concurrentAndFailed(): Case[] {
  const cases: Case[] = []
  const add = (name: string, expected: string, body: Case['body']): void =>
    void cases.push({ group: 'runs and locks', name, expected, body })
  const LIST = /\/issues\/\d+\/comments\/?$/
  const ONE = /\/issues\/comments\/\d+\/?$/
  /** The final edit of the comment: its marker no longer carries the lock's fields. */
  const FINAL = /^(?![\s\S]*provisioningSince)/
  const waited = (r: RunResult): boolean => /holds the lock\b.*: waiting for it\./.test(r.stdout)
  /** Comments created on the case's PR since the GitHub log was `from` long (each one notifies the PR's subscribers). */
  const created = (ctx: Ctx, from = 0): number =>
    ctx.emu.github.server.log.slice(from).filter((q) => q.method === 'POST' && new RegExp(`/issues/${ctx.pr}/comments/?$`).test(q.path))
      .length
  /** Lock reactions left on the PR (where the lock lives) or on any of its comments. */
  const reactionsLeft = (ctx: Ctx): number =>
    (ctx.emu.github.reactionsOf.get(`issue ${REPO}#${ctx.pr}`) ?? []).length +
    ctx.emu.github.comments(REPO, ctx.pr).reduce((n, x) => n + ctx.emu.github.commentReactions(x.id).length, 0)

  for (const mode of ['instant', 'branch'] as const) {
    const what = mode === 'instant' ? 'database' : 'branch'
    add(
      `${mode}: two concurrent runs after a failed-seed comment`,
      `both hold the lock in turn: one new ${what}, seeded once, handed to both; one comment, none created after the first run's`,
      async (ctx) => {
        const { emu, run, pr, project } = ctx
        const bad = await run(mode, { seed: 'matrix-seed.sql\nmatrix-bad.sql' })
        const afterBad = prComments(emu, pr)
        const mark = emu.github.server.log.length
        const before = emu.instant.databases.size
        // The create is answered 1.5 s late, so the holder still holds the lock when the other run (started with it, but
        // maybe slower to reach the lock on a loaded machine) asks for it.
        if (mode === 'instant') emu.instant.server.inject({ method: 'POST', path: /\/database\/?$/, kind: 'delay', delayMs: 1500 })
        const [a, b] = await Promise.all([run(mode, {}, { timeOutputs: true }), run(mode, {}, { timeOutputs: true })])
        const c = checker()
        const [maker, reuser] = a.outputs.created === 'true' ? [a, b] : [b, a]
        c.expect(
          (reuser.outputsAt ?? 0) >= (maker.outputsAt ?? Infinity),
          'the reusing run set its outputs before the creating run had seeded and set its own'
        )
        c.expect(
          bad.code === 1 && afterBad.length === 1 && /seeding failed/.test(afterBad[0].body),
          `first run: ${outcome(bad)}, ${afterBad.length} comment(s)`
        )
        succeeded(a, c)
        succeeded(b, c)
        for (const k of ['database-url', 'database-id', 'branch-id']) c.expect(a.outputs[k] === b.outputs[k], `output ${k} differs`)
        const made = mode === 'instant' ? emu.instant.databases.size - before : previewBranches(project).length
        c.expect(made === 1, `${made} ${what}s`)
        c.expect([a, b].filter((r) => r.outputs.created === 'true').length === 1, 'created=true is not on exactly one run')
        c.expect([a, b].some(waited), "neither run waited for the other one's lock")
        const comments = prComments(emu, pr)
        c.expect(comments.length === 1, `${comments.length} comments`)
        c.expect(created(ctx, mark) === 0, `${created(ctx, mark)} comment(s) created by the concurrent re-runs`)
        c.expect(reactionsLeft(ctx) === 0, 'a lock reaction is left')
        return {
          observed: `${outcome(a)} / ${outcome(b)}; ${made} ${what}, ${comments.length} comment, ${created(ctx, mark)} created by the re-runs`,
          problems: c.problems
        }
      }
    )
    add(
      `${mode}: the final comment update answers HTTP 502 once, then a re-run`,
      'the update is retried; no lock is left; the re-run does not wait and reuses',
      async ({ emu, run, pr }) => {
        emu.github.server.inject({ method: 'PATCH', path: ONE, requestText: FINAL, kind: 'status', status: 502 })
        const first = await run(mode)
        const again = await run(mode)
        const c = checker()
        succeeded(first, c)
        succeeded(again, c)
        c.expect(
          emu.github.server.requests('PATCH', ONE).some((q) => q.status === 502),
          'the 502 was never served'
        )
        c.expect(!waited(again), 'the re-run waited for a lock')
        c.expect(again.outputs.created === 'false', `the re-run created=${again.outputs.created}`)
        c.expect(prComments(emu, pr).length === 1, `${prComments(emu, pr).length} comments`)
        return {
          observed: `${outcome(first)} / ${outcome(again)} in ${(again.durationMs / 1000).toFixed(1)} s, created=${again.outputs.created}`,
          problems: c.problems
        }
      }
    )
  }
  add(
    'instant: the final comment update answers HTTP 502 on every attempt, then a re-run',
    'warns; the lock reaction is deleted so no lock is left; the re-run does not wait',
    async ({ emu, run, pr }) => {
      emu.github.server.inject({ method: 'PATCH', path: ONE, requestText: FINAL, kind: 'status', status: 502, times: 4 })
      const first = await run('instant')
      const again = await run('instant')
      const c = checker()
      succeeded(first, c)
      c.expect(
        first.warnings.some((w) => /Could not write the preview comment.*502/.test(w)),
        'no warning about the comment'
      )
      succeeded(again, c)
      c.expect(!waited(again), 'the re-run waited for a lock')
      return { observed: `${outcome(first)} / ${outcome(again)}; comments ${prComments(emu, pr).length}`, problems: c.problems }
    }
  )
  add(
    "instant: the lock's own edit of the marker (naming its reaction) answers HTTP 502 on every attempt, then a re-run",
    'warns that the lock could not be taken; the reaction is deleted (no dead lock); the run goes on without reuse; the re-run does not wait; no comment created',
    async (ctx) => {
      const { emu, run } = ctx
      const first = await run('instant')
      const mark = emu.github.server.log.length
      emu.github.server.inject({ method: 'PATCH', path: ONE, requestText: /provisioningSince/, kind: 'status', status: 502, times: 4 })
      const broken = await run('instant')
      const left = reactionsLeft(ctx)
      const again = await run('instant')
      const c = checker()
      for (const r of [first, broken, again]) succeeded(r, c)
      c.expect(
        broken.warnings.some((w) => /Could not take the lock on the preview comment of PR #\d+: HTTP 502/.test(w)),
        `warnings: ${JSON.stringify(broken.warnings)}`
      )
      c.expect(left === 0, `${left} lock reaction(s) left`)
      c.expect(!waited(again), 'the re-run waited for a lock')
      c.expect(created(ctx, mark) === 0, `${created(ctx, mark)} comment(s) created`)
      return {
        observed: `${outcome(broken)}; reactions left ${left} / ${outcome(again)}, created=${again.outputs.created}`,
        problems: c.problems
      }
    }
  )
  for (const times of [1, 4]) {
    add(
      `branch: listing the PR's comments (the lock's first look) answers HTTP 502 ${times === 1 ? 'once' : 'on every attempt'}`,
      times === 1
        ? 'the list is retried; the run holds the lock and succeeds; one comment'
        : 'warns that the comments could not be read; goes on without the lock and creates no comment (it cannot know one exists); succeeds',
      async ({ emu, run, pr }) => {
        emu.github.server.inject({ method: 'GET', path: LIST, kind: 'status', status: 502, times })
        const r = await run('branch')
        const c = checker()
        succeeded(r, c)
        const listWarning = r.warnings.some((w) => /Could not read the comments of PR #\d+: HTTP 502.*Going on without it/.test(w))
        c.expect(times === 1 ? r.warnings.length === 0 : listWarning, `warnings: ${JSON.stringify(r.warnings)}`)
        const comments = prComments(emu, pr)
        c.expect(
          times === 1 ? comments.length === 1 && /created for this pull request/.test(comments[0].body) : comments.length === 0,
          `${comments.length} comments`
        )
        return { observed: `${outcome(r)}; comments ${comments.length}`, problems: c.problems }
      }
    )
  }
  for (const mode of ['instant', 'branch'] as const) {
    add(
      `${mode}: a re-run, then two concurrent re-runs, on the new lock`,
      'the re-runs reuse; they hold the lock in turn; no comment created after the first run; no reaction left',
      async (ctx) => {
        const first = await ctx.run(mode)
        const mark = ctx.emu.github.server.log.length
        const again = await ctx.run(mode)
        const [a, b] = await Promise.all([ctx.run(mode), ctx.run(mode)])
        const c = checker()
        for (const r of [first, again, a, b]) succeeded(r, c)
        c.expect(
          [again, a, b].every((r) => r.outputs.created === 'false'),
          'a re-run did not reuse'
        )
        c.expect(created(ctx, mark) === 0, `${created(ctx, mark)} comment(s) created by re-runs`)
        c.expect(prComments(ctx.emu, ctx.pr).length === 1, `${prComments(ctx.emu, ctx.pr).length} comments`)
        c.expect(reactionsLeft(ctx) === 0, 'a lock reaction is left')
        return {
          observed: `${outcome(again)} / ${outcome(a)} / ${outcome(b)}; comments created by re-runs: ${created(ctx, mark)}`,
          problems: c.problems
        }
      }
    )
  }
  add(
    'instant: a stale lock (marker names a reaction on a comment last written 10 min ago), then two concurrent runs',
    'both may delete the stale reaction by its id (one 204, one 404); exactly one then gets 201, the other 200 and waits; both reuse; no comment created; no reaction left',
    async (ctx) => {
      const { emu, run } = ctx
      const first = await run('instant')
      const comment = emu.github.comments(REPO, ctx.pr)[0]
      const old = new Date(Date.now() - 10 * 60_000).toISOString()
      const stale = {
        id: 777_000 + ctx.pr,
        node_id: 'stale',
        user: { login: comment.user.login, type: 'Bot' },
        content: 'eyes',
        created_at: old
      }
      emu.github.reactionsOf.set(`issue ${REPO}#${ctx.pr}`, [stale])
      comment.updated_at = old
      comment.body = comment.body.replace(
        /"expiresAt"/,
        `"provisioningSince":"${old}","heartbeatAt":"${old}","run":"killed","reaction":${stale.id},"expiresAt"`
      )
      const mark = emu.github.server.log.length
      const [a, b] = await Promise.all([run('instant'), run('instant')])
      const c = checker()
      for (const r of [first, a, b]) succeeded(r, c)
      const takeovers = [a, b].filter((r) => /Taking over the lock .* is stale/.test(r.stdout)).length
      c.expect(prComments(emu, ctx.pr)[0]?.record?.reaction === undefined, 'the marker still names a reaction')
      c.expect(takeovers >= 1, 'no run took the stale lock over')
      c.expect([a, b].some(waited), 'neither run waited for the other one')
      c.expect(
        a.outputs['database-id'] === first.outputs['database-id'] && b.outputs['database-id'] === first.outputs['database-id'],
        'a run did not reuse'
      )
      c.expect(created(ctx, mark) === 0, `${created(ctx, mark)} comment(s) created`)
      c.expect(reactionsLeft(ctx) === 0, 'a lock reaction is left')
      return {
        observed: `${outcome(a)} / ${outcome(b)}; ${takeovers} run(s) deleted the stale reaction, one waited, comments created ${created(ctx, mark)}`,
        problems: c.problems
      }
    }
  )
  for (const mode of ['instant', 'branch'] as const) {
    add(
      `${mode}: a cancel (SIGINT) while the lock's reaction POST is in flight (answered 201 after 1.5 s), then a re-run`,
      'the reaction is let finish and then released: no live lock; the comment says cancelled; the re-run does not wait; no comment created',
      async (ctx) => {
        const { emu, run } = ctx
        const first = await run(mode)
        const mark = emu.github.server.log.length
        emu.github.server.inject({ method: 'POST', path: /\/reactions\/?$/, kind: 'delay', delayMs: 1500 })
        const cancelled = await run(
          mode,
          {},
          { cancelWhen: () => emu.github.server.log.slice(mark).some((q) => q.method === 'POST' && /\/reactions\/?$/.test(q.path)) }
        )
        const left = reactionsLeft(ctx)
        const said = prComments(emu, ctx.pr)[0]?.body ?? ''
        const again = await run(mode)
        const c = checker()
        succeeded(first, c)
        c.expect(cancelled.code === 1, `cancelled run: ${outcome(cancelled)}`)
        c.expect(
          emu.github.server.requests('POST', /\/reactions\/?$/).some((q) => q.status === 201),
          'no reaction was created'
        )
        c.expect(left === 0, `${left} lock reaction(s) left after the cancel`)
        c.expect(/the run was cancelled/.test(said), 'the comment does not say cancelled')
        succeeded(again, c)
        c.expect(!waited(again), 'the re-run waited for a lock')
        c.expect(created(ctx, mark) === 0, `${created(ctx, mark)} comment(s) created`)
        return {
          observed: `${outcome(cancelled)}, reactions left ${left} / ${outcome(again)} in ${(again.durationMs / 1000).toFixed(1)} s`,
          problems: c.problems
        }
      }
    )
  }
  add(
    `instant: a GitHub App installation token (comments as ${APP_BOT_LOGIN}, GET /user answers 403), a run then two concurrent runs`,
    'every run finds its own comment and holds the lock: one database, reused by the later runs; one comment',
    async ({ emu, run, pr }) => {
      const inputs = { 'github-token': APP_INSTALLATION_TOKEN }
      const before = emu.instant.databases.size
      const first = await run('instant', inputs)
      const [a, b] = await Promise.all([run('instant', inputs), run('instant', inputs)])
      const c = checker()
      for (const r of [first, a, b]) succeeded(r, c)
      c.expect(
        a.outputs['database-id'] === first.outputs['database-id'] && b.outputs['database-id'] === first.outputs['database-id'],
        'a different database'
      )
      c.expect(a.outputs.created === 'false' && b.outputs.created === 'false', `created=${a.outputs.created}/${b.outputs.created}`)
      const made = emu.instant.databases.size - before
      c.expect(made === 1, `${made} databases`)
      const comments = prComments(emu, pr)
      c.expect(
        comments.length === 1 && comments[0].login === APP_BOT_LOGIN,
        `${comments.length} comments by ${comments.map((x) => x.login).join(', ')}`
      )
      const userCalls = emu.github.server.requests('GET', /^\/user\/?$/)
      c.expect(
        userCalls.every((q) => q.status === 403),
        'GET /user answered other than 403'
      )
      return {
        observed: `${outcome(first)} / ${outcome(a)} / ${outcome(b)}; ${made} database, comments by ${comments.map((x) => x.login).join(', ')}`,
        problems: c.problems
      }
    }
  )
  return cases
}

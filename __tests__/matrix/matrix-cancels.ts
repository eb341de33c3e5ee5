/**
 * The fault matrix's cases for runs that are cancelled (SIGINT while the
 * branch's operations run, while its create is in flight, while seeding) or
 * disturbed, an env file written over an existing one, and a Retry-After
 * longer than the action waits. matrix.ts runs the orphan, spec and secret
 * scans after each.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { RunResult } from '../../emulator/runner/runner.js'
import {
  type Case,
  type Ctx,
  INSTANT_CREATE,
  BRANCHES,
  checker,
  failed,
  handedOut,
  outcome,
  prComments,
  previewBranches,
  succeeded
} from './matrix-kit.js'

/** Cancelled and disturbed runs, the env file and Retry-After, in table order. */
export function cancelledRuns(): Case[] {
  const cases: Case[] = []
  const add = (name: string, expected: string, body: Case['body']): void =>
    void cases.push({ group: 'runs and locks', name, expected, body })
  add(
    "branch: a cancel (SIGINT) while the new branch's operations take 6 s, then a re-run",
    'the cancel stops the run, waits for the operations, deletes the branch and says so in the comment; the re-run creates and seeds a new branch',
    async ({ emu, run, pr, project }) => {
      emu.platform.timing = { ...emu.platform.timing, startComputeMs: 6000 }
      const cancelled = await run('branch', {}, { cancelOn: /Created branch "[^"]+" \(/ })
      const leftAfterCancel = previewBranches(project).length
      const commentAfterCancel = prComments(emu, pr)
      emu.platform.timing = { ...emu.platform.timing, startComputeMs: 400 }
      const again = await run('branch')
      const c = checker()
      c.expect(
        cancelled.code === 1 && cancelled.errors.some((e) => /cancelled \(SIGINT\).*the unseeded branch/.test(e)),
        `cancelled run: ${outcome(cancelled)}`
      )
      c.expect(!cancelled.outputs['database-url'], 'the cancelled run set database-url')
      c.expect(cancelled.durationMs < 6000 + 10_000, `the cancelled run took ${cancelled.durationMs} ms`)
      c.expect(leftAfterCancel === 0, `${leftAfterCancel} branch(es) left after the cancel`)
      c.expect(
        commentAfterCancel.length === 1 &&
          /the run was cancelled/.test(commentAfterCancel[0].body) &&
          !commentAfterCancel[0].record?.provisioningSince,
        'the comment does not say cancelled'
      )
      succeeded(again, c)
      c.expect(again.outputs.created === 'true', `the re-run reused (created=${again.outputs.created})`)
      return {
        observed: `${outcome(cancelled)} in ${(cancelled.durationMs / 1000).toFixed(1)} s, branches left ${leftAfterCancel} / ${outcome(again)}, created=${again.outputs.created}`,
        problems: c.problems
      }
    }
  )
  add(
    'branch: a cancel (SIGINT) while the create-branch request is in flight (answered after 1.5 s), then a re-run',
    'the create is let finish, so the branch it made is known and deleted; the re-run creates and seeds a new branch',
    async ({ emu, run, project }) => {
      emu.platform.server.inject({ method: 'POST', path: BRANCHES, kind: 'delay', delayMs: 1500 })
      const cancelled = await run('branch', {}, { cancelWhen: () => emu.platform.server.requests('POST', BRANCHES).length > 0 })
      const leftAfterCancel = previewBranches(project).length
      const again = await run('branch')
      const c = checker()
      c.expect(cancelled.code === 1 && cancelled.errors.some((e) => /cancelled \(SIGINT\)/.test(e)), `cancelled run: ${outcome(cancelled)}`)
      c.expect(emu.platform.server.requests('POST', BRANCHES)[0]?.status === 201, "the cancelled run's create was not answered 201")
      c.expect(leftAfterCancel === 0, `${leftAfterCancel} branch(es) left after the cancel`)
      succeeded(again, c)
      c.expect(again.outputs.created === 'true', `the re-run reused (created=${again.outputs.created})`)
      return {
        observed: `${outcome(cancelled)}, branches left ${leftAfterCancel} / ${outcome(again)}, created=${again.outputs.created}`,
        problems: c.problems
      }
    }
  )
  for (const mode of ['instant', 'branch'] as const) {
    add(
      `${mode}: a cancel (SIGINT) while seeding stops the run before it publishes`,
      'no database outputs (its deployment-id and comment-url only), no env file, no "created" comment: the comment says the run was cancelled',
      async ({ emu, run, pr, envFiles }) => {
        const r = await run(mode, { seed: 'matrix-seed.sql\nmatrix-slow.sql\nmatrix-more.sql' }, { cancelOn: /Seed the database/ })
        const c = checker()
        c.expect(r.code === 1, `exit ${r.code}`)
        c.expect(handedOut(r).length === 0, `outputs set: ${handedOut(r).join(', ')}`)
        c.expect(!existsSync(envFiles.at(-1)!), 'the env file was written')
        const comments = prComments(emu, pr)
        c.expect(comments.length === 1 && /the run was cancelled/.test(comments[0].body), 'the comment does not say cancelled')
        c.expect(!comments.some((x) => /created for this pull request/.test(x.body)), 'a comment says created')
        return { observed: `${outcome(r)}; outputs ${handedOut(r).length}, comments ${comments.length}`, problems: c.problems }
      }
    )
  }
  // A re-run that makes nothing new and then fails or is cancelled keeps what the earlier run recorded.
  const keepsRecord = (name: string, said: RegExp, disturbed: (ctx: Ctx) => Promise<{ r: RunResult; ok: boolean }>): void =>
    add(
      name,
      `the comment says ${said.source.replace('the run ', '')} but keeps the earlier record; the next run reuses the database`,
      async (ctx) => {
        const first = await ctx.run('instant')
        const { r, ok } = await disturbed(ctx)
        const comment = prComments(ctx.emu, ctx.pr)
        const again = await ctx.run('instant')
        const c = checker()
        succeeded(first, c)
        c.expect(ok, `disturbed run: ${outcome(r)}`)
        c.expect(
          comment.length === 1 && said.test(comment[0].body) && comment[0].record?.databaseId === first.outputs['database-id'],
          'the earlier record was not kept'
        )
        succeeded(again, c)
        c.expect(
          again.outputs.created === 'false' && again.outputs['database-id'] === first.outputs['database-id'],
          `created=${again.outputs.created}`
        )
        return { observed: `${outcome(r)} / ${outcome(again)}, created=${again.outputs.created}`, problems: c.problems }
      }
    )
  keepsRecord(
    'instant: a re-run fails (the reuse lookup keeps answering HTTP 503), then another re-run',
    /the run failed/,
    async ({ emu, run }) => {
      emu.instant.server.inject({ method: 'GET', path: /^\/api\/v1\/database\/[^/]+$/, kind: 'status', status: 503, times: 3 })
      const r = await run('instant')
      return { r, ok: r.code === 1 && /HTTP 503/.test(r.errors.join('\n')) && !r.outputs['database-url'] }
    }
  )
  keepsRecord(
    'instant: a re-run is cancelled (SIGINT) as soon as it holds the lock, then another re-run',
    /the run was cancelled/,
    async ({ run }) => {
      const r = await run('instant', {}, { cancelOn: /This run holds the PR's comment lock/ })
      return { r, ok: r.code === 1 && r.errors.some((e) => /cancelled \(SIGINT\)/.test(e)) }
    }
  )
  add(
    'instant: env-file names an existing 0644 file holding an old DATABASE_URL',
    'the file is replaced by a new 0600 file (new inode, so no secret was ever written into the 0644 one); other lines kept',
    async ({ run, work }) => {
      const file = path.join(mkdtempSync(path.join(work, 'env-')), '.env')
      writeFileSync(file, 'APP_NAME=shop\nDATABASE_URL=postgresql://old\n')
      chmodSync(file, 0o644)
      const inode = statSync(file).ino
      const r = await run('instant', { 'env-file': file })
      const c = checker()
      succeeded(r, c)
      const st = statSync(file)
      const text = readFileSync(file, 'utf8')
      c.expect((st.mode & 0o777) === 0o600, `mode ${(st.mode & 0o777).toString(8)}`)
      c.expect(st.ino !== inode, 'written in place into the 0644 file')
      c.expect(
        text.includes('APP_NAME=shop') &&
          !text.includes('postgresql://old') &&
          text.includes(`DATABASE_URL="${r.outputs['database-url']}"`),
        'content not replaced'
      )
      return { observed: `${outcome(r)}; mode ${(st.mode & 0o777).toString(8)}, new inode ${st.ino !== inode}`, problems: c.problems }
    }
  )
  for (const [mode, server, p] of [
    ['instant', 'instant', INSTANT_CREATE],
    ['branch', 'platform', BRANCHES]
  ] as const) {
    add(
      `${mode}: the create answers 429 with Retry-After: 3600`,
      'fails at once saying the service asked for 3600 s; one POST; nothing made',
      async ({ emu, run }) => {
        emu[server].server.inject({ method: 'POST', path: p, kind: 'status', status: 429, headers: { 'retry-after': '3600' } })
        const r = await run(mode)
        const c = checker()
        failed(r, /HTTP 429.*asked to wait 3600 s \(Retry-After\).*longer than this action waits \(60 s\): re-run the job later/, c)
        const posts = emu[server].server.requests('POST', p).length
        c.expect(posts === 1, `${posts} POSTs`)
        c.expect(r.durationMs < 15_000, `took ${r.durationMs} ms`)
        return { observed: `${outcome(r)}; POSTs ${posts}, ${(r.durationMs / 1000).toFixed(1)} s`, problems: c.problems }
      }
    )
  }
  return cases
}

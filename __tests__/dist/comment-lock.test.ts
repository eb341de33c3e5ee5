/**
 * The comment lock through the bundled action: after a pull request's first run, no
 * run creates a comment (a POST to `.../issues/{n}/comments` notifies every
 * subscriber; the lock is a reaction, see src/comment/lock/lock.ts), in both
 * modes, on reuse, after a failed seed, for reset, delete and cleanup; a
 * cancel right after the lock is taken leaves no live lock; and an answer
 * lost after GitHub did the work (the comment's POST, the final edit, the
 * reaction's delete) leaves one comment with the record the next run reuses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import { REPO, branchInputs, instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let work: string
let project: Project

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('comment-lock-test-', {
    'seed.sql': 'CREATE TABLE IF NOT EXISTS items (id int PRIMARY KEY);\nINSERT INTO items SELECT generate_series(1, 5);\n',
    'bad.sql': 'INSERT INTO no_such_table VALUES (1);\n'
  }))
})
afterAll(async () => {
  await emu?.stop()
})
beforeEach(async () => {
  project = await emu.platform.createProject()
  emu.platform.timing = { createBranchMs: 100, startComputeMs: 200, deleteMs: 100 }
  emu.github.server.clearFaults()
})

const newPr = pullRequests(() => emu, 2300)

type Mode = 'instant' | 'branch'
const run = (mode: Mode, pr: number, inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  runAction(
    emu,
    work,
    { mode, ...(mode === 'instant' ? instantInputs(emu) : branchInputs(emu, project)), 'github-token': APP_TOKEN, seed: 'seed.sql', ...inputs },
    { pr: { number: pr }, ...extra }
  )

/** Comments created on PR `pr` (POST .../issues/{pr}/comments) since the log was `from` long. */
const commentsCreated = (pr: number, from = 0): number =>
  emu.github.server.log.slice(from).filter((q) => q.method === 'POST' && new RegExp(`/issues/${pr}/comments/?$`).test(q.path)).length
const ok = (r: RunResult): void => {
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
}
/** Lock reactions left on the PR (where the lock lives) or on any of its comments. */
const lockReactions = (pr: number): number =>
  (emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).length + emu.github.comments(REPO, pr).reduce((n, c) => n + emu.github.commentReactions(c.id).length, 0)

describe.each(['instant', 'branch'] as const)('%s mode: no comment after the first run', (mode) => {
  it('the first run creates the one comment; a re-run creates none and leaves no lock', async () => {
    const pr = newPr()
    const first = await run(mode, pr)
    ok(first)
    expect(commentsCreated(pr)).toBe(1)
    const mark = emu.github.server.log.length
    const again = await run(mode, pr)
    ok(again)
    expect(again.outputs.created).toBe('false')
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(lockReactions(pr)).toBe(0)
  })

  it('a re-run that must make a new one whose seed fails, and the run after it, create no comment', async () => {
    const pr = newPr()
    const first = await run(mode, pr)
    ok(first)
    const mark = emu.github.server.log.length
    // Instant: the recorded database is gone (lapsed), so the re-run creates one; branch: another branch name.
    if (mode === 'instant') emu.instant.databases.delete(first.outputs['database-id'])
    const failedSeed = await run(mode, pr, { seed: 'seed.sql\nbad.sql', ...(mode === 'instant' ? {} : { 'branch-name': `fresh-${pr}` }) })
    expect(failedSeed.code).toBe(1)
    expect(failedSeed.errors.join('\n')).toMatch(/no_such_table/)
    const after = await run(mode, pr)
    ok(after)
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(lockReactions(pr)).toBe(0)
  })

  it('a first run whose seed fails, then a re-run that creates: one comment in all', async () => {
    const pr = newPr()
    const failedSeed = await run(mode, pr, { seed: 'seed.sql\nbad.sql' })
    expect(failedSeed.code).toBe(1)
    expect(emu.github.comments(REPO, pr)[0].body).toMatch(/seeding failed/)
    const mark = emu.github.server.log.length
    const again = await run(mode, pr)
    ok(again)
    expect(again.outputs.created).toBe('true')
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
  })

  it('delete creates no comment, and the comment says so', async () => {
    const pr = newPr()
    ok(await run(mode, pr))
    const mark = emu.github.server.log.length
    const del = await run(mode, pr, { command: 'delete' }, { eventName: 'pull_request' })
    ok(del)
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toMatch(mode === 'instant' ? /closed|lapses/i : /deleted/i)
    expect(lockReactions(pr)).toBe(0)
  })

  it('a cancel (SIGINT) right after the lock reaction is created leaves no live lock: the next run does not wait', async () => {
    const pr = newPr()
    ok(await run(mode, pr))
    const comment = emu.github.comments(REPO, pr)[0]
    // The reaction's answer comes 1.5 s late: SIGINT arrives while the lock is being taken.
    emu.github.server.inject({ method: 'POST', path: /\/issues\/\d+\/reactions\/?$/, kind: 'delay', delayMs: 1500 })
    const mark = emu.github.server.log.length
    const cancelled = await run(mode, pr, {}, { cancelWhen: () => emu.github.server.log.slice(mark).some((q) => q.method === 'POST' && /\/reactions\/?$/.test(q.path)) })
    expect(cancelled.code).toBe(1)
    expect(cancelled.errors.some((e) => /cancelled \(SIGINT\)/.test(e))).toBe(true)
    expect(emu.github.server.requests('POST', /\/reactions\/?$/).at(-1)?.status).toBe(201)
    expect(lockReactions(pr)).toBe(0)
    expect(comment.body).toMatch(/the run was cancelled/)
    const t0 = Date.now()
    const next = await run(mode, pr, { 'wait-timeout': '20' })
    ok(next)
    expect(next.stdout).not.toMatch(/holds the lock .*waiting for it/)
    expect(Date.now() - t0).toBeLessThan(15_000)
    expect(commentsCreated(pr, mark)).toBe(0)
  })
})

describe('a cancel between the lock reaction (201) and the marker naming it', () => {
  it('SIGINT while the naming edit is in flight (answered after 1.5 s): the release waits for it, then leaves no live lock', async () => {
    const pr = newPr()
    ok(await run('instant', pr))
    const comment = emu.github.comments(REPO, pr)[0]
    emu.github.server.inject({ method: 'PATCH', path: /\/issues\/comments\/\d+\/?$/, requestText: /provisioningSince/, kind: 'delay', delayMs: 1500 })
    const mark = emu.github.server.log.length
    const cancelled = await run('instant', pr, {}, {
      cancelWhen: () => emu.github.server.log.slice(mark).some((q) => q.method === 'POST' && /\/reactions\/?$/.test(q.path) && q.status === 201)
    })
    expect(cancelled.code).toBe(1)
    expect(cancelled.errors.some((e) => /cancelled \(SIGINT\)/.test(e))).toBe(true)
    expect(lockReactions(pr)).toBe(0)
    expect(comment.body).toMatch(/the run was cancelled/)
    expect(commentsCreated(pr, mark)).toBe(0)
    const next = await run('instant', pr, { 'wait-timeout': '20' })
    ok(next)
    expect(next.outputs.created).toBe('false')
    expect(next.stdout).not.toMatch(/holds the lock .*waiting for it/)
  })
})

describe('branch mode: reset, cleanup and the post step create no comment', () => {
  it('reset creates no comment', async () => {
    const pr = newPr()
    ok(await run('branch', pr))
    const mark = emu.github.server.log.length
    const reset = await run('branch', pr, { command: 'reset' })
    ok(reset)
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(lockReactions(pr)).toBe(0)
  })

  it('the sweep of a closed PR writes its comment without creating one', async () => {
    const pr = newPr()
    ok(await run('branch', pr))
    emu.pulls.close(REPO, pr)
    const mark = emu.github.server.log.length
    const sweep = await run('branch', pr, { command: 'cleanup' }, { eventName: 'schedule', event: {} })
    ok(sweep)
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toMatch(/cleanup|swept|deleted/i)
    expect(lockReactions(pr)).toBe(0)
  })

  it('a main step killed (SIGKILL) while holding the lock: the post step releases it, and the next run does not wait', async () => {
    const pr = newPr()
    ok(await run('branch', pr))
    const comment = emu.github.comments(REPO, pr)[0]
    const killed = await run('branch', pr, { command: 'reset' }, { killOn: /This run holds the PR's comment lock/ })
    expect(killed.code).not.toBe(0)
    expect(killed.post?.stdout).toMatch(new RegExp(`Released the PR comment lock \\(comment ${comment.id}\\)`))
    expect(comment.body).toMatch(/failed/)
    expect(lockReactions(pr)).toBe(0)
    const mark = emu.github.server.log.length
    const next = await run('branch', pr)
    ok(next)
    expect(next.stdout).not.toMatch(/holds the lock .*waiting for it/)
    expect(commentsCreated(pr, mark)).toBe(0)
  })
})

describe('answers lost after GitHub did the work (one comment, whatever the network does)', () => {
  const posts = (pr: number) => new RegExp(`/issues/${pr}/comments$`)

  it("the first run's comment POST answered by a reset: the retry's copy is deleted, the one comment records the seeded database, and the next run reuses it", async () => {
    const pr = newPr()
    emu.github.server.inject({ method: 'POST', path: posts(pr), kind: 'lost-reset' })
    const first = await run('instant', pr)
    ok(first)
    expect(emu.github.server.requests('POST', posts(pr)).map((q) => q.fault ?? q.status)).toEqual(['lost-reset', 201])
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toContain(`"databaseId":"${first.outputs['database-id']}"`)
    expect(comments[0].body).not.toMatch(/being provisioned/)
    const mark = emu.github.server.log.length
    const next = await run('instant', pr)
    ok(next)
    expect(next.outputs.created).toBe('false')
    expect(next.outputs['database-id']).toBe(first.outputs['database-id'])
    expect(commentsCreated(pr, mark)).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(lockReactions(pr)).toBe(0)
  })

  it('the final edit answered by a reset: retried (an edit is the same twice), one comment with the record', async () => {
    const pr = newPr()
    emu.github.server.inject({ method: 'PATCH', path: /\/issues\/comments\/\d+$/, requestText: /databaseId/, kind: 'lost-reset' })
    const first = await run('instant', pr)
    ok(first)
    expect(emu.github.server.requests('PATCH').filter((q) => q.at >= first.startedAt && q.fault === 'lost-reset')).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toContain(`"databaseId":"${first.outputs['database-id']}"`)
    const next = await run('instant', pr)
    ok(next)
    expect(next.outputs.created).toBe('false')
    expect(lockReactions(pr)).toBe(0)
  })

  it("the lock reaction's delete answered by a reset: retried (404 is success), no reaction left, the next run does not wait", async () => {
    const pr = newPr()
    ok(await run('instant', pr))
    emu.github.server.inject({ method: 'DELETE', path: new RegExp(`/issues/${pr}/reactions/\\d+$`), kind: 'lost-reset' })
    const again = await run('instant', pr)
    ok(again)
    expect(emu.github.server.requests('DELETE', /\/reactions\/\d+$/).filter((q) => q.at >= again.startedAt).map((q) => q.fault ?? q.status)).toEqual([
      'lost-reset',
      404
    ])
    expect(lockReactions(pr)).toBe(0)
    const t0 = Date.now()
    const next = await run('instant', pr, { 'wait-timeout': '20' })
    ok(next)
    expect(next.outputs.created).toBe('false')
    expect(next.stdout).not.toMatch(/holds the lock .*waiting for it/)
    expect(Date.now() - t0).toBeLessThan(15_000)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
  })
})

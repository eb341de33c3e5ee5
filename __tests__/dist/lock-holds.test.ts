/**
 * The PR's lock holds under what users and GitHub really do, through the
 * bundled action: the sweep decides on the PR as it is under the lock; a
 * cancel at any step keeps what an earlier run recorded; deleting or editing
 * the PR comment never lets two runs hold the lock; a run that cannot tell
 * whether another first run posted does not claim; a failed naming edit
 * leaves nothing for the post step.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { NODE_24, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'

const REPO = 'acme/shop'
let emu: Emulator
let work: string
let nextPr = 3000
let project: Project

beforeAll(async () => {
  emu = await startEmulator()
  work = mkdtempSync(path.join(os.tmpdir(), 'lock-holds-test-'))
  writeFileSync(path.join(work, 'seed.sql'), 'CREATE TABLE IF NOT EXISTS items (id int PRIMARY KEY);\nINSERT INTO items SELECT generate_series(1, 5);\n')
  writeFileSync(path.join(work, 'slow.sql'), 'SELECT pg_sleep(8);\n')
  writeFileSync(path.join(work, 'slower.sql'), 'SELECT pg_sleep(80);\n')
})
afterAll(async () => {
  await emu?.stop()
})
beforeEach(async () => {
  project = await emu.platform.createProject()
  emu.platform.timing = { createBranchMs: 100, startComputeMs: 200, deleteMs: 100 }
  emu.github.server.clearFaults()
  emu.platform.server.clearFaults()
  emu.instant.server.clearFaults()
  emu.github.server.onRequest = undefined
})

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const until = async (cond: () => boolean, ms = 30_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!cond() && Date.now() < deadline) await sleep(20)
  if (!cond()) throw new Error('timed out waiting')
}

function newPr(): number {
  const n = nextPr++
  emu.github.openPullRequest(REPO, n)
  return n
}

type Mode = 'instant' | 'branch'
const run = (mode: Mode, pr: number | null, inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  emu.run({
    inputs: {
      mode,
      ...(mode === 'instant'
        ? { 'instant-url': emu.instant.url }
        : { 'api-url': emu.platform.url, 'api-key': project.apiKey, 'project-id': project.id, 'poll-interval': '0.2' }),
      'github-token': APP_TOKEN,
      seed: 'seed.sql',
      ...inputs
    },
    repository: REPO,
    cwd: work,
    node: NODE_24,
    ...(pr === null ? {} : { pr: { number: pr } }),
    timeoutMs: 240_000,
    ...extra
  })
const ok = (r: RunResult): void => {
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
}
const MARKER = /<!-- preview-postgres:v1 (\{.*?\}) -->/
const recordOn = (pr: number): Record<string, unknown> | null => {
  const bodies = emu.github.comments(REPO, pr).map((c) => MARKER.exec(c.body)?.[1])
  const found = bodies.find((b) => b !== undefined)
  return found ? (JSON.parse(found) as Record<string, unknown>) : null
}
/** 👀 reactions left on the PR or any of its comments. */
const lockReactions = (pr: number): number =>
  (emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).length +
  emu.github.comments(REPO, pr).reduce((n, c) => n + emu.github.commentReactions(c.id).length, 0)
/** The reaction POSTs (on the PR or on a comment) logged since `from`. */
const reactionPosts = (from: number) => emu.github.server.log.slice(from).filter((q) => q.method === 'POST' && /\/reactions\/?$/.test(q.path))
/** Instant databases created (POST /api/v1/database answered 201) since `from`. */
const databasesCreated = (from: number): number =>
  emu.instant.server.log.slice(from).filter((q) => q.method === 'POST' && /\/database\/?$/.test(q.path) && q.status === 201).length

describe('1. the sweep under the PR lock', () => {
  it('a PR closed, then reopened and re-run while the sweep waits for its lock: the sweep reads the PR again and keeps the branch the run handed out', async () => {
    const pr = newPr()
    const first = await run('branch', pr)
    ok(first)
    const id = first.outputs['branch-id']
    emu.pulls.close(REPO, pr)
    // The re-run holds the PR's lock 8 s (its reuse reads the connection string slowly).
    emu.platform.server.inject({ method: 'GET', path: /\/connection_uri$/, kind: 'delay', delayMs: 8000 })
    const rerun = run('branch', pr)
    await until(() => emu.platform.server.requests('GET', /\/connection_uri$/).some((q) => q.at > first.endedAt))
    const mark = emu.github.server.log.length
    const sweeping = run('branch', null, { command: 'cleanup' }, { eventName: 'schedule', event: {} })
    // The sweep has read the PR closed (from the pulls list, or the PR itself); the PR is reopened before the sweep gets the lock.
    await until(() =>
      emu.github.server.log.slice(mark).some((q) => q.method === 'GET' && (q.path.endsWith('/pulls') || q.path.endsWith(`/pulls/${pr}`)) && q.status === 200)
    )
    emu.pulls.reopen(REPO, pr)
    const [again, sweep] = await Promise.all([rerun, sweeping])
    ok(again)
    expect(again.outputs).toMatchObject({ created: 'false', 'branch-id': id })
    ok(sweep)
    expect(sweep.stdout).toMatch(/Another run of this PR holds the lock/)
    expect(project.branches.has(id)).toBe(true)
    expect(sweep.summary).toMatch(new RegExp(`\\| #${pr} \\| keep \\| pull request #${pr} is open \\(read again before the delete, under the PR's lock\\) \\|`))
    expect(recordOn(pr)).toMatchObject({ branchId: id })
  })

  it('a closed PR whose comment shows no claim, reopened and re-run after the sweep listed it: the sweep reads the branch again and keeps it', async () => {
    const pr = newPr()
    const first = await run('branch', pr)
    ok(first)
    const id = first.outputs['branch-id']
    emu.pulls.close(REPO, pr)
    // The sweep's read of the comments (the repository's written lately: the branch records its comment's id) takes 15 s:
    // meanwhile the PR is reopened and a run reuses the branch and ends.
    const comments = new RegExp(`/issues/(${pr}/)?comments$`)
    emu.github.server.inject({ method: 'GET', path: comments, kind: 'delay', delayMs: 15_000, times: 1 })
    let listing = false
    emu.github.server.onRequest = (q) => void (listing ||= q.method === 'GET' && comments.test(q.path))
    const sweeping = run('branch', null, { command: 'cleanup' }, { eventName: 'schedule', event: {} })
    await until(() => listing)
    emu.github.server.onRequest = undefined
    emu.pulls.reopen(REPO, pr)
    const again = await run('branch', pr)
    ok(again)
    expect(again.outputs).toMatchObject({ created: 'false', 'branch-id': id })
    const sweep = await sweeping
    ok(sweep)
    expect(project.branches.has(id)).toBe(true)
    expect(sweep.summary).toMatch(new RegExp(`\\| #${pr} \\| keep \\| [^|]*read again before the delete[^|]*\\|`))
    expect(recordOn(pr)).toMatchObject({ branchId: id })
  })
})

describe('2. a cancel while the lock is being named', () => {
  it('SIGINT after the reaction (201) and before naming has read the comment: the comment keeps the earlier database, and the next run reuses it', async () => {
    const pr = newPr()
    const first = await run('instant', pr)
    ok(first)
    const db = first.outputs['database-id']
    // Once the re-run's reaction POST arrives, its next read of the comments is answered 2 s late.
    emu.github.server.onRequest = (q) => {
      if (q.method !== 'POST' || !/\/reactions\/?$/.test(q.path)) return
      emu.github.server.onRequest = undefined
      emu.github.server.inject({ method: 'GET', path: /\/issues\/(\d+\/comments|comments\/\d+)\/?$/, kind: 'delay', delayMs: 2000 })
    }
    const mark = emu.github.server.log.length
    const cancelled = await run('instant', pr, {}, { cancelWhen: () => reactionPosts(mark).some((q) => q.status === 201) })
    expect(cancelled.code).toBe(1)
    expect(cancelled.errors.some((e) => /cancelled \(SIGINT\)/.test(e))).toBe(true)
    expect(emu.github.server.log.slice(mark).some((q) => q.fault === 'delay')).toBe(true)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toMatch(/the run was cancelled/)
    expect(recordOn(pr)).toMatchObject({ databaseId: db })
    expect(lockReactions(pr)).toBe(0)
    const from = emu.instant.server.log.length
    const next = await run('instant', pr, { 'wait-timeout': '20' })
    ok(next)
    expect(next.outputs).toMatchObject({ created: 'false', 'database-id': db })
    expect(databasesCreated(from)).toBe(0)
  })
})

describe('3. users deleting or editing the PR comment while a run holds the lock', () => {
  /**
   * Starts a run that holds the lock while its seed sleeps (`seed`), then a
   * second run that finds the lock taken and waits; runs `userAction`; both
   * end. Returns both results.
   */
  const holdAndWait = async (pr: number, seed: string, userAction: () => void): Promise<[RunResult, RunResult]> => {
    const mark = emu.github.server.log.length
    const holding = run('instant', pr, { seed })
    // The holder has made its database and is seeding it.
    await until(() => databasesCreated(from) > 0)
    // reseed: never: the waiter has no seed input, so its seed fingerprint differs from the holder's; this is about the lock, not a rebuild.
    const waiting = run('instant', pr, { 'wait-timeout': '200', reseed: 'never' })
    await until(() => reactionPosts(mark).some((q) => q.status === 200))
    userAction()
    return Promise.all([holding, waiting])
  }
  let from = 0

  it('a user deletes the comment while a run holds the lock: the waiting run does not take it, and reuses the holder database', async () => {
    const pr = newPr()
    const first = await run('instant', pr)
    ok(first)
    emu.instant.databases.delete(first.outputs['database-id']) // lapsed: the holder makes a new one
    from = emu.instant.server.log.length
    const [holder, waiter] = await holdAndWait(pr, 'slow.sql', () => {
      const comments = emu.github.comments(REPO, pr)
      const [gone] = comments.splice(0, comments.length)
      emu.github.reactionsOf.delete(`comment ${gone.id}`)
    })
    ok(holder)
    ok(waiter)
    expect(holder.outputs.created).toBe('true')
    expect(waiter.outputs).toMatchObject({ created: 'false', 'database-id': holder.outputs['database-id'] })
    expect(databasesCreated(from)).toBe(1)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(recordOn(pr)).toMatchObject({ databaseId: holder.outputs['database-id'] })
    expect(lockReactions(pr)).toBe(0)
  })

  it('a user edits the comment and removes its marker while a run holds the lock for 80 s: the waiting run does not take it over', async () => {
    const pr = newPr()
    const first = await run('instant', pr)
    ok(first)
    emu.instant.databases.delete(first.outputs['database-id'])
    from = emu.instant.server.log.length
    const [holder, waiter] = await holdAndWait(pr, 'slower.sql', () => {
      const [comment] = emu.github.comments(REPO, pr)
      comment.body = 'Edited by a maintainer: nothing of the marker is left.'
    })
    ok(holder)
    ok(waiter)
    expect(waiter.outputs).toMatchObject({ created: 'false', 'database-id': holder.outputs['database-id'] })
    expect(databasesCreated(from)).toBe(1)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(recordOn(pr)).toMatchObject({ databaseId: holder.outputs['database-id'] })
    expect(lockReactions(pr)).toBe(0)
  }, 300_000)
})

describe('4. racing first runs', () => {
  it('the listing after the post fails for one of them: it does not claim, and the PR keeps one comment', async () => {
    const pr = newPr()
    const mark = emu.github.server.log.length
    const posts = () => emu.github.server.log.slice(mark).filter((q) => q.method === 'POST' && new RegExp(`/issues/${pr}/comments/?$`).test(q.path))
    // Run A's comment POST is answered 3 s late; run B starts once it has arrived.
    emu.github.server.inject({ method: 'POST', path: new RegExp(`/issues/${pr}/comments/?$`), kind: 'delay', delayMs: 3000 })
    // Once B's reaction POST arrives, the next listing of the PR's comments fails (every attempt of the client).
    emu.github.server.onRequest = (q) => {
      if (q.method !== 'POST' || !/\/reactions\/?$/.test(q.path) || posts().length < 2) return
      emu.github.server.onRequest = undefined
      emu.github.server.inject({ method: 'GET', path: new RegExp(`/issues/${pr}/comments/?$`), kind: 'status', status: 502, times: 4 })
    }
    const a = run('instant', pr, { 'wait-timeout': '60' })
    await until(() => posts().length > 0)
    const b = run('instant', pr, { 'wait-timeout': '60' })
    const [ra, rb] = await Promise.all([a, b])
    ok(ra)
    ok(rb)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    const recorded = recordOn(pr)?.databaseId
    // The run that could not tell either went on without the lock and without a comment, or waited and reused.
    for (const r of [ra, rb]) {
      if (r.outputs['database-id'] !== recorded) expect(r.warnings.join('\n')).toMatch(/Going on without it/)
    }
    expect(lockReactions(pr)).toBe(0)
  })
})

describe('5. a naming edit that fails after its retries', () => {
  it('leaves nothing for the post step: the run goes on without the lock, succeeds, and the post step says nothing', async () => {
    const pr = newPr()
    ok(await run('instant', pr))
    emu.github.server.inject({ method: 'PATCH', path: /\/issues\/comments\/\d+\/?$/, requestText: /provisioningSince/, kind: 'status', status: 500, times: 4 })
    const r = await run('instant', pr)
    ok(r)
    expect(r.warnings.join('\n')).toMatch(/Going on without it/)
    expect(r.post?.warnings).toEqual([])
    expect(r.post?.stdout ?? '').not.toMatch(/did not finish/)
    expect(lockReactions(pr)).toBe(0)
  })
})

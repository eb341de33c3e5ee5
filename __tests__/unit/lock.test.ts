/**
 * The PR's lock (src/comment/lock/lock.ts) with the real octokit client (retry
 * and throttling plugins) against the GitHub emulator's comment and reaction API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN, APP_TOKEN, GitHubService } from '../../emulator/github/github.js'

const REPO = 'acme/shop'
const github = new GitHubService()
let lockModule: typeof import('../../src/comment/lock/lock.js')
let errorsModule: typeof import('../../src/comment/lock/errors.js')
let commentModule: typeof import('../../src/comment/comment.js')
let prNumber = 100

beforeAll(async () => {
  await github.server.listen()
  // @actions/github reads the API URL when it is first loaded.
  process.env.GITHUB_API_URL = github.url
  commentModule = await import('../../src/comment/comment.js')
  lockModule = await import('../../src/comment/lock/lock.js')
  errorsModule = await import('../../src/comment/lock/errors.js')
})
afterAll(async () => {
  await github.server.close()
})

let pr: { owner: string; repo: string; number: number; headRef: string }
beforeEach(() => {
  pr = { owner: 'acme', repo: 'shop', number: ++prNumber, headRef: 'feature' }
  github.openPullRequest(REPO, pr.number)
  github.server.clearFaults()
})

/** Our comments' heading (report.ts): a body of ours starts with it. */
const H = '### 🐘 Preview Postgres: '
const options = { mode: 'instant' as const, placeholder: `${H}being provisioned`, pollSeconds: 0.1, timeoutSeconds: 5 }
const client = (token = APP_TOKEN) => commentModule.githubClient(token, 5000)
const comments = () =>
  github.comments(REPO, pr.number).map((c) => ({ id: c.id, login: c.user.login, record: commentModule.recordOf(c.body) }))

/** Lock reactions on the PR itself. */
const lockReactions = () => github.reactionsOf.get(`issue ${REPO}#${pr.number}`) ?? []
/** Reactions on any comment of the PR (the lock never puts one there). */
const commentReactions = () => github.comments(REPO, pr.number).flatMap((c) => github.commentReactions(c.id))
const commentPosts = () => github.server.requests('POST', new RegExp(`/issues/${pr.number}/comments/?$`)).length

describe('acquireLock and finish', () => {
  it('takes the lock with a reaction on the PR, names it in the earlier comment, creates no comment, writes the report into it and removes the reaction', async () => {
    const { markerOf } = commentModule
    const home = github.addComment(
      REPO,
      pr.number,
      'github-actions[bot]',
      `${H}old\n\n${markerOf({ mode: 'instant', databaseId: 'db-1' })}`
    )
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.home?.id).toBe(home.id)
    expect(lock.home?.record).toEqual({ mode: 'instant', databaseId: 'db-1' })
    expect(lockReactions().map((r) => r.id)).toEqual([lock.reaction.id])
    expect(commentReactions()).toEqual([])
    expect(comments()[0].record).toMatchObject({ databaseId: 'db-1', reaction: lock.reaction.id, run: expect.any(String) })
    await lock.finish(`${H}done`, { mode: 'instant', databaseId: 'db-2' })
    expect(comments()).toEqual([{ id: home.id, login: 'github-actions[bot]', record: { mode: 'instant', databaseId: 'db-2' } }])
    expect(lockReactions()).toEqual([])
    expect(commentPosts()).toBe(0)
  })

  it('the first run posts the comment; finish(null) on a comment it created deletes it', async () => {
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.home).toBeNull()
    expect(commentPosts()).toBe(1)
    await lock.finish(null, { mode: 'instant' })
    expect(comments()).toEqual([])
  })

  it('two racing first runs hold the lock in turn, and the one comment is posted under it', async () => {
    let holders = 0
    let most = 0
    const take = async (id: string): Promise<void> => {
      const lock = await lockModule.acquireLock(client(), pr, options)
      most = Math.max(most, ++holders)
      await new Promise((r) => setTimeout(r, 300))
      holders--
      await lock.finish(`${H}${id}`, { mode: 'instant', databaseId: id })
    }
    await Promise.all([take('a'), take('b')])
    expect(most).toBe(1)
    expect(commentPosts()).toBe(1)
    expect(comments()).toHaveLength(1)
    expect(lockReactions()).toEqual([])
  })

  it('a first run that cannot list the PR comments after its 201 does not claim: no comment, its reaction deleted, ClaimNotPostedError', async () => {
    github.server.inject({ method: 'GET', path: /\/issues\/\d+\/comments\/?$/, kind: 'status', status: 502, times: 4 })
    const taken: number[] = []
    const err = await lockModule
      .acquireLock(client(), pr, { ...options, onTaken: (l) => taken.push(l.reaction.id) })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errorsModule.ClaimNotPostedError)
    expect((err as Error).message).toMatch(/Could not read the comments of PR #\d+: HTTP 502/)
    expect((err as InstanceType<typeof errorsModule.ClaimNotPostedError>).reactionLeft).toBe(false)
    expect(taken).toHaveLength(1)
    expect(commentPosts()).toBe(0)
    expect(lockReactions()).toEqual([])
  })

  it('waits while the marker names a live lock, and takes the lock once its run has released it', async () => {
    const { markerOf } = commentModule
    const first = await lockModule.acquireLock(client(), pr, options)
    await first.finish(`${H}one`, { mode: 'instant', databaseId: 'db-8' })
    const holder = await lockModule.acquireLock(client(), pr, options)
    const t0 = Date.now()
    setTimeout(() => void holder.finish(`${H}two`, { mode: 'instant', databaseId: 'db-9' }), 600)
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550)
    expect(lock.home?.record.databaseId).toBe('db-9')
    await lock.finish(null, { mode: 'instant' })
    expect(comments()).toHaveLength(1)
    expect(github.comments(REPO, pr.number)[0].body).toBe(`${H}two\n\n${markerOf({ mode: 'instant', databaseId: 'db-9' })}`)
    expect(lockReactions()).toEqual([])
    expect(commentPosts()).toBe(1)
  })

  it('fails at wait-timeout naming the comment of the run that holds the lock, and leaves nothing of its own', async () => {
    const holder = await lockModule.acquireLock(client(), pr, options)
    await expect(lockModule.acquireLock(client(), pr, { ...options, timeoutSeconds: 0.5 })).rejects.toThrow(
      new RegExp(`comment ${holder.claim.id}\\) and did not finish within wait-timeout`)
    )
    expect(lockReactions().map((r) => r.id)).toEqual([holder.reaction.id])
    await holder.finish(null, { mode: 'instant' })
  })

  it('a stale lock (its comment not written since: GitHub clock) is taken over by exactly one of two runs at once; the other waits for it', async () => {
    const dead = await lockModule.acquireLock(client(), pr, { ...options, heartbeatMs: 3_600_000 })
    // The live holders' heartbeat (0.1 s) keeps their locks far from stale (1.5 s) however a loaded machine delays their timers.
    const fast = { ...options, staleAfterMs: 1500, heartbeatMs: 100, timeoutSeconds: 10 }
    await new Promise((r) => setTimeout(r, 1600))
    let holders = 0
    let most = 0
    const take = async (): Promise<number> => {
      const lock = await lockModule.acquireLock(client(), pr, fast)
      most = Math.max(most, ++holders)
      await new Promise((r) => setTimeout(r, 200))
      holders--
      await lock.finish(`${H}done`, { mode: 'instant' })
      return lock.reaction.id
    }
    const ids = await Promise.all([take(), take()])
    expect(most).toBe(1)
    expect(new Set(ids).size).toBe(2)
    expect(ids).not.toContain(dead.reaction.id)
    expect(lockReactions()).toEqual([])
    expect(
      github.server.requests('DELETE', /\/issues\/\d+\/reactions\/\d+$/).filter((q) => q.path.endsWith(`/${dead.reaction.id}`)).length
    ).toBeGreaterThanOrEqual(1)
  })

  it('a reaction the marker never names (its run died right after the 201) is orphaned and taken over', async () => {
    github.addComment(
      REPO,
      pr.number,
      'github-actions[bot]',
      commentModule.commentBody(`${H}earlier`, { mode: 'instant', databaseId: 'db-1' })
    )
    github.reactionsOf.set(`issue ${REPO}#${pr.number}`, [
      { id: 999, node_id: 'x', user: { login: 'github-actions[bot]', type: 'Bot' }, content: 'eyes', created_at: new Date().toISOString() }
    ])
    const lock = await lockModule.acquireLock(client(), pr, { ...options, orphanAfterMs: 500 })
    expect(lock.home?.record.databaseId).toBe('db-1')
    expect(lockReactions().map((r) => r.id)).toEqual([lock.reaction.id])
    await lock.finish(null, { mode: 'instant' })
    expect(commentModule.recordOf(github.comments(REPO, pr.number)[0].body)).toEqual({ mode: 'instant', databaseId: 'db-1' })
  })

  it('never takes a live lock for orphaned while GitHub cannot be read: it fails at wait-timeout and the holder keeps it', async () => {
    const holder = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'GET', path: /\/issues\/\d+\/reactions\/?$/, kind: 'status', status: 502, times: 1000 })
    await expect(lockModule.acquireLock(client(), pr, { ...options, orphanAfterMs: 100, timeoutSeconds: 1.5 })).rejects.toThrow(
      /before wait-timeout: HTTP 502/
    )
    github.server.clearFaults()
    expect(lockReactions().map((r) => r.id)).toEqual([holder.reaction.id])
    await holder.finish(null, { mode: 'instant' })
  }, 30_000)

  it("learns its login from its reaction: a GitHub App installation token, whose GET /user is refused; skips another login's comment", async () => {
    const { recordOf } = commentModule
    const other = github.addComment(
      REPO,
      pr.number,
      'github-actions[bot]',
      commentModule.commentBody(`${H}earlier`, { mode: 'instant', databaseId: 'not-ours' })
    )
    const ours = github.addComment(
      REPO,
      pr.number,
      APP_BOT_LOGIN,
      commentModule.commentBody(`${H}earlier`, { mode: 'instant', databaseId: 'ours' })
    )
    const lock = await lockModule.acquireLock(client(APP_INSTALLATION_TOKEN), pr, options)
    expect(lock.home?.id).toBe(ours.id)
    expect(lockReactions().map((r) => r.user.login)).toEqual([APP_BOT_LOGIN])
    expect(recordOf(github.comments(REPO, pr.number).find((x) => x.id === other.id)!.body)).toEqual({
      mode: 'instant',
      databaseId: 'not-ours'
    })
    await lock.finish(null, { mode: 'instant' })
    expect(github.server.requests('GET', /^\/user/)).toEqual([])
    expect(commentPosts()).toBe(0)
  })

  it('a reaction POST whose answer is lost (502 after it took effect) is taken back as orphaned, not a dead lock', async () => {
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.commentBody(`${H}earlier`, { mode: 'instant' }))
    github.server.inject({ method: 'POST', path: /\/reactions\/?$/, kind: 'lost-reset' })
    const lock = await lockModule.acquireLock(client(), pr, { ...options, orphanAfterMs: 500 })
    expect(lockReactions().map((r) => r.id)).toEqual([lock.reaction.id])
    await lock.finish(`${H}done`, { mode: 'instant' })
    expect(lockReactions()).toEqual([])
    expect(commentModule.recordOf(github.comments(REPO, pr.number).find((x) => x.id === c.id)!.body)).toEqual({ mode: 'instant' })
  })

  it('retries a 502 on the final update; when every attempt fails it still removes its reaction', async () => {
    const one = /\/issues\/comments\/\d+\/?$/
    let lock = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'PATCH', path: one, kind: 'status', status: 502 })
    expect(await lock.finish(`${H}done`, { mode: 'instant', databaseId: 'db-4' })).toBe(lock.claim.id)
    expect(comments()[0].record).toEqual({ mode: 'instant', databaseId: 'db-4' })
    lock = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'PATCH', path: one, kind: 'status', status: 502, times: 4 })
    expect(await lock.finish(`${H}done`, { mode: 'instant', databaseId: 'db-5' })).toBeNull()
    expect(lockReactions()).toEqual([])
    const next = await lockModule.acquireLock(client(), pr, { ...options, timeoutSeconds: 0.2 })
    expect(next.home?.record.databaseId).toBe('db-4')
    await next.finish(null, { mode: 'instant' })
  })

  it('refreshes its heartbeat while held, and stops when released', async () => {
    const lock = await lockModule.acquireLock(client(), pr, { ...options, heartbeatMs: 300 })
    const since = lock.claim.record.heartbeatAt!
    await new Promise((r) => setTimeout(r, 1500))
    const beat = comments()[0].record?.heartbeatAt
    expect(Date.parse(beat!)).toBeGreaterThan(Date.parse(since))
    await lock.finish(`${H}done`, { mode: 'instant' })
    const patches = github.server.requests('PATCH').length
    await new Promise((r) => setTimeout(r, 800))
    expect(github.server.requests('PATCH').length).toBe(patches)
    expect(comments()[0].record).toEqual({ mode: 'instant' })
  })

  it('makes no pause between writes: the writes of a re-run are not spaced a second apart', async () => {
    const first = await lockModule.acquireLock(client(), pr, options)
    await first.finish(`${H}one`, { mode: 'instant' })
    const from = github.server.log.length
    const lock = await lockModule.acquireLock(client(), pr, options)
    await lock.finish(`${H}two`, { mode: 'instant' })
    // octokit's throttling would space every write at least 1 s from the one before (3 s for a comment); a loaded
    // machine may delay one request, not each of them by a second
    const writes = github.server.log.slice(from).filter((q) => q.method !== 'GET')
    expect(writes.length).toBeGreaterThanOrEqual(4)
    const gaps = writes.slice(1).map((q, i) => q.at - writes[i].at)
    expect(Math.min(...gaps)).toBeLessThan(1000)
  })
})

describe('users deleting or editing the PR comment while a run holds the lock', () => {
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
  let naming = ''
  const userActions: [string, () => void][] = [
    [
      'deletes the comment',
      () => {
        const list = github.comments(REPO, pr.number)
        const [gone] = list.splice(0, list.length)
        github.reactionsOf.delete(`comment ${gone.id}`)
      }
    ],
    ['edits it and removes the marker', () => void (github.comments(REPO, pr.number)[0].body = 'Edited by a maintainer.')],
    [
      'puts back the revision the holder named it with (an old heartbeat)',
      () => Object.assign(github.comments(REPO, pr.number)[0], { body: naming, updated_at: new Date().toISOString() })
    ]
  ]
  it.each(userActions)(
    'a user %s: no second run takes the lock while it is held, and the record survives',
    async (_what, act) => {
      const first = await lockModule.acquireLock(client(), pr, options)
      await first.finish(`${H}one`, { mode: 'instant', databaseId: 'db-1' })
      const holder = await lockModule.acquireLock(client(), pr, { ...options, heartbeatMs: 200 })
      naming = github.comments(REPO, pr.number)[0].body
      let takenAt = 0
      const waiting = lockModule
        .acquireLock(client(), pr, { ...options, orphanAfterMs: 1000, staleAfterMs: 1500, timeoutSeconds: 20 })
        .then((l) => ((takenAt = Date.now()), l))
      await sleep(1600)
      act()
      await sleep(3000) // well past both windows: a waiter that took the user's action for a release has the lock by now
      expect(takenAt).toBe(0)
      const releasedAt = Date.now()
      await holder.finish(`${H}two`, { mode: 'instant', databaseId: 'db-2' })
      const lock = await waiting
      expect(takenAt).toBeGreaterThanOrEqual(releasedAt)
      expect(lock.home?.record.databaseId).toBe('db-2')
      expect(comments()).toHaveLength(1)
      await lock.finish(null, { mode: 'instant' })
      expect(comments()[0].record).toEqual({ mode: 'instant', databaseId: 'db-2' })
      expect(lockReactions()).toEqual([])
    },
    30_000
  )
})

describe('githubClient: rate limits kept, write spacing gone', () => {
  const secondary = { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' }
  it('retries a 403 secondary rate limit once after its Retry-After (1 s)', async () => {
    github.server.inject({
      method: 'POST',
      path: /\/reactions\/?$/,
      kind: 'status',
      status: 403,
      body: secondary,
      headers: { 'retry-after': '1' }
    })
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.commentBody(`${H}earlier`, { mode: 'instant' }))
    const t0 = Date.now()
    const answer = await client().rest.reactions.createForIssueComment({
      owner: pr.owner,
      repo: pr.repo,
      comment_id: c.id,
      content: 'eyes'
    })
    expect(answer.status).toBe(201)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000)
    expect(
      github.server
        .requests('POST', /\/reactions\/?$/)
        .map((q) => q.status)
        .slice(-2)
    ).toEqual([403, 201])
  })

  it('retries a 429 secondary rate limit once after its Retry-After (1 s)', async () => {
    github.server.inject({
      method: 'PATCH',
      path: /\/issues\/comments\/\d+\/?$/,
      kind: 'status',
      status: 429,
      body: secondary,
      headers: { 'retry-after': '1' }
    })
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.commentBody(`${H}earlier`, { mode: 'instant' }))
    const t0 = Date.now()
    await client().rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id, body: 'x' })
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000)
    expect(
      github.server
        .requests('PATCH')
        .map((q) => q.status)
        .slice(-2)
    ).toEqual([429, 200])
  })

  it('fails at once when a secondary rate limit asks for more than 60 s (429, Retry-After: 3600)', async () => {
    github.server.inject({
      method: 'POST',
      path: /\/reactions\/?$/,
      kind: 'status',
      status: 429,
      body: secondary,
      headers: { 'retry-after': '3600' }
    })
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.commentBody(`${H}earlier`, { mode: 'instant' }))
    const before = github.server.requests('POST', /\/reactions\/?$/).length
    const t0 = Date.now()
    await expect(
      client().rest.reactions.createForIssueComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id, content: 'eyes' })
    ).rejects.toMatchObject({ status: 429 })
    expect(Date.now() - t0).toBeLessThan(3000)
    expect(github.server.requests('POST', /\/reactions\/?$/).length - before).toBe(1)
  })

  it('sends five writes back to back: no 1 s write spacing, no 3 s spacing of comment creation', async () => {
    const from = github.server.log.length
    for (let i = 0; i < 3; i++)
      await client().rest.issues.createComment({ owner: pr.owner, repo: pr.repo, issue_number: pr.number, body: `c${i}` })
    const c = github.comments(REPO, pr.number)[0]
    await client().rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id, body: 'x' })
    await client().rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id })
    // spaced writes would be at least 1 s apart each (3 s between the creates); a loaded machine delays some, not all
    const writes = github.server.log.slice(from).filter((q) => q.method !== 'GET')
    expect(writes).toHaveLength(5)
    const gaps = writes.slice(1).map((q, i) => q.at - writes[i].at)
    expect(Math.min(...gaps)).toBeLessThan(1000)
  })
})

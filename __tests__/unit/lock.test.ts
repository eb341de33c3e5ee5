/**
 * The comment lock (src/comment/lock/lock.ts) with the real octokit client
 * (retry and throttling plugins) against the GitHub emulator's comment API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN, APP_TOKEN, GitHubService } from '../../emulator/github.js'

const REPO = 'acme/shop'
const github = new GitHubService()
let lockModule: typeof import('../../src/comment/lock/lock.js')
let commentModule: typeof import('../../src/comment/comment.js')
let prNumber = 100

beforeAll(async () => {
  await github.server.listen()
  // @actions/github reads the API URL when it is first loaded.
  process.env.GITHUB_API_URL = github.url
  commentModule = await import('../../src/comment/comment.js')
  lockModule = await import('../../src/comment/lock/lock.js')
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

const minutesAgo = (n: number): string => new Date(Date.now() - n * 60_000).toISOString()
const options = { mode: 'instant' as const, placeholder: 'being provisioned', pollSeconds: 0.1, timeoutSeconds: 5 }
const client = (token = APP_TOKEN) => commentModule.githubClient(token, 5000)
const comments = () =>
  github.comments(REPO, pr.number).map((c) => ({ id: c.id, login: c.user.login, record: commentModule.recordOf(c.body) }))

describe('isLiveClaim', () => {
  it('is live with a fresh heartbeat, stale after 5 minutes without one, and never for a final record', () => {
    const { isLiveClaim } = lockModule
    expect(isLiveClaim({ mode: 'instant', provisioningSince: minutesAgo(20), heartbeatAt: minutesAgo(1) })).toBe(true)
    expect(isLiveClaim({ mode: 'instant', provisioningSince: minutesAgo(6) })).toBe(false)
    expect(isLiveClaim({ mode: 'instant', provisioningSince: minutesAgo(20), heartbeatAt: minutesAgo(6) })).toBe(false)
    expect(isLiveClaim({ mode: 'instant', databaseId: 'db' })).toBe(false)
  })
})

const reactionsOn = (id: number) => github.commentReactions(id)
const commentPosts = () => github.server.requests('POST', new RegExp(`/issues/${pr.number}/comments/?$`)).length

describe('acquireLock and finish', () => {
  it('takes the lock with a reaction on the earlier comment, creates no comment, writes the report into it and removes the reaction', async () => {
    const { markerOf } = commentModule
    const home = github.addComment(REPO, pr.number, 'github-actions[bot]', `old\n\n${markerOf({ mode: 'instant', databaseId: 'db-1' })}`)
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.home?.id).toBe(home.id)
    expect(lock.home?.record).toEqual({ mode: 'instant', databaseId: 'db-1' })
    expect(reactionsOn(home.id).map((r) => r.id)).toEqual([lock.reaction.id])
    expect(comments()[0].record).toMatchObject({ databaseId: 'db-1', reaction: lock.reaction.id, run: expect.any(String) })
    await lock.finish('done', { mode: 'instant', databaseId: 'db-2' })
    expect(comments()).toEqual([{ id: home.id, login: 'github-actions[bot]', record: { mode: 'instant', databaseId: 'db-2' } }])
    expect(reactionsOn(home.id)).toEqual([])
    expect(commentPosts()).toBe(0)
  })

  it('the first run posts the comment; finish(null) on a comment it created deletes it', async () => {
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.home).toBeNull()
    expect(commentPosts()).toBe(1)
    await lock.finish(null, { mode: 'instant' })
    expect(comments()).toEqual([])
  })

  it('two racing first runs: at most two comments are posted, the later one is deleted, and they hold the lock in turn', async () => {
    let holders = 0
    let most = 0
    const take = async (id: string): Promise<void> => {
      const lock = await lockModule.acquireLock(client(), pr, options)
      most = Math.max(most, ++holders)
      await new Promise((r) => setTimeout(r, 300))
      holders--
      await lock.finish(id, { mode: 'instant', databaseId: id })
    }
    await Promise.all([take('a'), take('b')])
    expect(most).toBe(1)
    expect(commentPosts()).toBeLessThanOrEqual(2)
    expect(comments()).toHaveLength(1)
    expect(reactionsOn(comments()[0].id)).toEqual([])
  })

  it('a first run whose reaction lands after another run held its comment and recorded a database reads that record (no second database)', async () => {
    // The first run posts the comment, then its reaction POST is held back 3 s; meanwhile a second
    // run finds the comment, takes the lock, records db-r2 and releases it. Then the first run's reaction lands (201).
    github.server.inject({ method: 'POST', path: /\/reactions$/, kind: 'delay', delayMs: 3000 })
    const reactionPosts = () => github.server.requests('POST', /\/reactions$/).length
    const before = reactionPosts()
    const first = lockModule.acquireLock(client(), pr, options)
    // The second run starts only once the first run's reaction POST has arrived (logged on arrival) and is held back.
    while (reactionPosts() === before) await new Promise((r) => setTimeout(r, 10))
    const second = await lockModule.acquireLock(client(), pr, options)
    expect(second.home).not.toBeNull()
    await second.finish('two', { mode: 'instant', databaseId: 'db-r2' })
    const lock = await first
    expect(lock.home?.record.databaseId).toBe('db-r2')
    expect(lock.createdComment).toBe(false)
    await lock.finish(null, { mode: 'instant' })
    expect(comments()).toEqual([{ id: lock.claim.id, login: expect.any(String), record: { mode: 'instant', databaseId: 'db-r2' } }])
    expect(reactionsOn(lock.claim.id)).toEqual([])
    expect(commentPosts()).toBe(1)
  })

  it('waits while the marker names a live lock, and takes the lock once its run has released it', async () => {
    const { markerOf } = commentModule
    const first = await lockModule.acquireLock(client(), pr, options)
    await first.finish('one', { mode: 'instant', databaseId: 'db-8' })
    const holder = await lockModule.acquireLock(client(), pr, options)
    const t0 = Date.now()
    setTimeout(() => void holder.finish('two', { mode: 'instant', databaseId: 'db-9' }), 600)
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550)
    expect(lock.home?.record.databaseId).toBe('db-9')
    await lock.finish(null, { mode: 'instant' })
    expect(comments()).toHaveLength(1)
    expect(github.comments(REPO, pr.number)[0].body).toBe(`two\n\n${markerOf({ mode: 'instant', databaseId: 'db-9' })}`)
    expect(reactionsOn(lock.claim.id)).toEqual([])
    expect(commentPosts()).toBe(1)
  })

  it('fails at wait-timeout naming the comment of the run that holds the lock, and leaves nothing of its own', async () => {
    const holder = await lockModule.acquireLock(client(), pr, options)
    await expect(lockModule.acquireLock(client(), pr, { ...options, timeoutSeconds: 0.5 })).rejects.toThrow(
      new RegExp(`comment ${holder.claim.id}\\) and did not finish within wait-timeout`)
    )
    expect(reactionsOn(holder.claim.id).map((r) => r.id)).toEqual([holder.reaction.id])
    await holder.finish(null, { mode: 'instant' })
  })

  it('a stale lock (no heartbeat) is taken over by exactly one of two runs at once; the other waits for it', async () => {
    const dead = await lockModule.acquireLock(client(), pr, { ...options, heartbeatMs: 3_600_000 })
    const fast = { ...options, staleAfterMs: 400, timeoutSeconds: 10 }
    await new Promise((r) => setTimeout(r, 500))
    let holders = 0
    let most = 0
    const take = async (): Promise<number> => {
      const lock = await lockModule.acquireLock(client(), pr, fast)
      most = Math.max(most, ++holders)
      await new Promise((r) => setTimeout(r, 200))
      holders--
      await lock.finish('done', { mode: 'instant' })
      return lock.reaction.id
    }
    const ids = await Promise.all([take(), take()])
    expect(most).toBe(1)
    expect(new Set(ids).size).toBe(2)
    expect(ids).not.toContain(dead.reaction.id)
    expect(reactionsOn(dead.claim.id)).toEqual([])
    expect(
      github.server.requests('DELETE', /\/reactions\/\d+$/).filter((q) => q.path.endsWith(`/${dead.reaction.id}`)).length
    ).toBeGreaterThanOrEqual(1)
  })

  it('a reaction the marker never names (its run died right after the 201) is orphaned and taken over', async () => {
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.markerOf({ mode: 'instant', databaseId: 'db-1' }))
    github.reactionsOf.set(`comment ${c.id}`, [
      { id: 999, node_id: 'x', user: { login: 'github-actions[bot]', type: 'Bot' }, content: 'eyes', created_at: new Date().toISOString() }
    ])
    const lock = await lockModule.acquireLock(client(), pr, { ...options, orphanAfterMs: 500 })
    expect(lock.home?.record.databaseId).toBe('db-1')
    expect(reactionsOn(c.id).map((r) => r.id)).toEqual([lock.reaction.id])
    await lock.finish(null, { mode: 'instant' })
    expect(commentModule.recordOf(github.comments(REPO, pr.number)[0].body)).toEqual({ mode: 'instant', databaseId: 'db-1' })
  })

  it('never takes a live lock for orphaned while GitHub cannot be read: it fails at wait-timeout and the holder keeps it', async () => {
    const holder = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'GET', path: /\/issues\/comments\/\d+\/?$/, kind: 'status', status: 502, times: 1000 })
    await expect(lockModule.acquireLock(client(), pr, { ...options, orphanAfterMs: 100, timeoutSeconds: 1.5 })).rejects.toThrow(
      /before wait-timeout: HTTP 502/
    )
    github.server.clearFaults()
    expect(reactionsOn(holder.claim.id).map((r) => r.id)).toEqual([holder.reaction.id])
    await holder.finish(null, { mode: 'instant' })
  }, 30_000)

  it("learns its login from its reaction: a GitHub App installation token, whose GET /user is refused; skips another login's comment", async () => {
    const { markerOf } = commentModule
    const other = github.addComment(REPO, pr.number, 'github-actions[bot]', markerOf({ mode: 'instant', databaseId: 'not-ours' }))
    const ours = github.addComment(REPO, pr.number, APP_BOT_LOGIN, markerOf({ mode: 'instant', databaseId: 'ours' }))
    const lock = await lockModule.acquireLock(client(APP_INSTALLATION_TOKEN), pr, options)
    expect(lock.home?.id).toBe(ours.id)
    expect(reactionsOn(other.id)).toEqual([])
    await lock.finish(null, { mode: 'instant' })
    expect(github.server.requests('GET', /^\/user/)).toEqual([])
    expect(commentPosts()).toBe(0)
  })

  it('a reaction POST whose answer is lost (502 after it took effect) is taken back as orphaned, not a dead lock', async () => {
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.markerOf({ mode: 'instant' }))
    github.server.inject({ method: 'POST', path: /\/reactions\/?$/, kind: 'lost-reset' })
    const lock = await lockModule.acquireLock(client(), pr, { ...options, orphanAfterMs: 500 })
    expect(reactionsOn(c.id).map((r) => r.id)).toEqual([lock.reaction.id])
    await lock.finish('done', { mode: 'instant' })
    expect(reactionsOn(c.id)).toEqual([])
  })

  it('retries a 502 on the final update; when every attempt fails it still removes its reaction', async () => {
    const one = /\/issues\/comments\/\d+\/?$/
    let lock = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'PATCH', path: one, kind: 'status', status: 502 })
    expect(await lock.finish('done', { mode: 'instant', databaseId: 'db-4' })).toBe(lock.claim.id)
    expect(comments()[0].record).toEqual({ mode: 'instant', databaseId: 'db-4' })
    lock = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'PATCH', path: one, kind: 'status', status: 502, times: 4 })
    expect(await lock.finish('done', { mode: 'instant', databaseId: 'db-5' })).toBeNull()
    expect(reactionsOn(lock.claim.id)).toEqual([])
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
    await lock.finish('done', { mode: 'instant' })
    const patches = github.server.requests('PATCH').length
    await new Promise((r) => setTimeout(r, 800))
    expect(github.server.requests('PATCH').length).toBe(patches)
    expect(comments()[0].record).toEqual({ mode: 'instant' })
  })

  it('makes no pause between writes: four writes of a re-run take well under a second', async () => {
    const first = await lockModule.acquireLock(client(), pr, options)
    await first.finish('one', { mode: 'instant' })
    const t0 = Date.now()
    const lock = await lockModule.acquireLock(client(), pr, options)
    await lock.finish('two', { mode: 'instant' })
    expect(Date.now() - t0).toBeLessThan(900)
  })
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
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.markerOf({ mode: 'instant' }))
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
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.markerOf({ mode: 'instant' }))
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
    const c = github.addComment(REPO, pr.number, 'github-actions[bot]', commentModule.markerOf({ mode: 'instant' }))
    const before = github.server.requests('POST', /\/reactions\/?$/).length
    const t0 = Date.now()
    await expect(
      client().rest.reactions.createForIssueComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id, content: 'eyes' })
    ).rejects.toMatchObject({ status: 429 })
    expect(Date.now() - t0).toBeLessThan(3000)
    expect(github.server.requests('POST', /\/reactions\/?$/).length - before).toBe(1)
  })

  it('sends five writes back to back: no 1 s write spacing, no 3 s spacing of comment creation', async () => {
    const t0 = Date.now()
    for (let i = 0; i < 3; i++)
      await client().rest.issues.createComment({ owner: pr.owner, repo: pr.repo, issue_number: pr.number, body: `c${i}` })
    const c = github.comments(REPO, pr.number)[0]
    await client().rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id, body: 'x' })
    await client().rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id })
    expect(Date.now() - t0).toBeLessThan(1000)
  })
})

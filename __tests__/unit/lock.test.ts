/**
 * The comment lock (src/publish/lock.ts) with the real octokit client
 * (retry and throttling plugins) against the GitHub emulator's comment API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN, APP_TOKEN, GitHubService } from '../../emulator/github.js'

const REPO = 'acme/shop'
const github = new GitHubService()
let lockModule: typeof import('../../src/publish/lock.js')
let commentModule: typeof import('../../src/publish/comment.js')
let prNumber = 100

beforeAll(async () => {
  await github.server.listen()
  // @actions/github reads the API URL when it is first loaded.
  process.env.GITHUB_API_URL = github.url
  commentModule = await import('../../src/publish/comment.js')
  lockModule = await import('../../src/publish/lock.js')
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
const comments = () => github.comments(REPO, pr.number).map((c) => ({ id: c.id, login: c.user.login, record: commentModule.recordOf(c.body) }))

describe('isLiveClaim', () => {
  it('is live with a fresh heartbeat, stale after 5 minutes without one, and never for a final record', () => {
    const { isLiveClaim } = lockModule
    expect(isLiveClaim({ mode: 'instant', provisioningSince: minutesAgo(20), heartbeatAt: minutesAgo(1) })).toBe(true)
    expect(isLiveClaim({ mode: 'instant', provisioningSince: minutesAgo(6) })).toBe(false)
    expect(isLiveClaim({ mode: 'instant', provisioningSince: minutesAgo(20), heartbeatAt: minutesAgo(6) })).toBe(false)
    expect(isLiveClaim({ mode: 'instant', databaseId: 'db' })).toBe(false)
  })
})

describe('acquireLock and finish', () => {
  it('takes the lock over an earlier final comment, writes the report into it and removes its claim', async () => {
    const { markerOf } = commentModule
    const home = github.addComment(REPO, pr.number, 'github-actions[bot]', `old\n\n${markerOf({ mode: 'instant', databaseId: 'db-1' })}`)
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.home?.id).toBe(home.id)
    expect(lock.home?.record.databaseId).toBe('db-1')
    expect(comments()).toHaveLength(2)
    await lock.finish('done', { mode: 'instant', databaseId: 'db-2' })
    expect(comments()).toEqual([{ id: home.id, login: 'github-actions[bot]', record: { mode: 'instant', databaseId: 'db-2' } }])
  })

  it('ignores and removes a stale claim, and writes into the final comment rather than into it', async () => {
    const { markerOf } = commentModule
    const stale = github.addComment(REPO, pr.number, 'github-actions[bot]', markerOf({ mode: 'instant', provisioningSince: minutesAgo(40), heartbeatAt: minutesAgo(10), run: 'dead' }))
    const home = github.addComment(REPO, pr.number, 'github-actions[bot]', markerOf({ mode: 'instant', databaseId: 'db-1' }))
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.home?.id).toBe(home.id)
    expect(comments().map((c) => c.id)).not.toContain(stale.id)
    await lock.finish('done', { mode: 'instant' })
    expect(comments().map((c) => c.id)).toEqual([home.id])
  })

  it('waits while an older claim is live, and takes the lock once its run has finished', async () => {
    const { markerOf } = commentModule
    const live = github.addComment(REPO, pr.number, 'github-actions[bot]', markerOf({ mode: 'instant', provisioningSince: minutesAgo(0), heartbeatAt: minutesAgo(0), run: 'other' }))
    const finishedAt = Date.now() + 600
    setTimeout(() => (live.body = markerOf({ mode: 'instant', databaseId: 'db-9' })), 600)
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(Date.now()).toBeGreaterThanOrEqual(finishedAt)
    expect(lock.home?.id).toBe(live.id)
    expect(lock.home?.record.databaseId).toBe('db-9')
    await lock.finish(null, { mode: 'instant' })
    expect(comments().map((c) => c.id)).toEqual([live.id])
  })

  it('fails at wait-timeout naming the comment of the run that holds the lock, and leaves no claim of its own', async () => {
    const { markerOf } = commentModule
    const live = github.addComment(REPO, pr.number, 'github-actions[bot]', markerOf({ mode: 'instant', provisioningSince: minutesAgo(0), heartbeatAt: minutesAgo(0), run: 'other' }))
    await expect(lockModule.acquireLock(client(), pr, { ...options, timeoutSeconds: 0.5 })).rejects.toThrow(
      new RegExp(`comment ${live.id}\\) and did not finish within wait-timeout`)
    )
    expect(comments().map((c) => c.id)).toEqual([live.id])
  })

  it('learns its login from its own claim: a GitHub App installation token, whose GET /user is refused', async () => {
    const { markerOf } = commentModule
    github.addComment(REPO, pr.number, 'github-actions[bot]', markerOf({ mode: 'instant', databaseId: 'not-ours' }))
    const ours = github.addComment(REPO, pr.number, APP_BOT_LOGIN, markerOf({ mode: 'instant', databaseId: 'ours' }))
    const lock = await lockModule.acquireLock(client(APP_INSTALLATION_TOKEN), pr, options)
    expect(lock.home?.id).toBe(ours.id)
    await lock.finish(null, { mode: 'instant' })
  })

  it('counts itself the holder when the list fails right after its claim, and releases the lock', async () => {
    github.server.inject({ method: 'GET', path: /\/issues\/\d+\/comments\/?$/, kind: 'status', status: 502, times: 4 })
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(lock.held).toBe(true)
    expect(lock.home).toBeNull()
    expect(comments()[0].record?.provisioningSince).toBeDefined()
    await lock.finish('done', { mode: 'instant', databaseId: 'db-3' })
    expect(comments()).toEqual([{ id: lock.claim.id, login: 'github-actions[bot]', record: { mode: 'instant', databaseId: 'db-3' } }])
  })

  it('retries a 502 on the final update, and deletes its claim when every attempt fails', async () => {
    const one = /\/issues\/comments\/\d+\/?$/
    let lock = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'PATCH', path: one, kind: 'status', status: 502 })
    expect(await lock.finish('done', { mode: 'instant', databaseId: 'db-4' })).toBe(lock.claim.id)
    expect(comments()[0].record).toEqual({ mode: 'instant', databaseId: 'db-4' })
    lock = await lockModule.acquireLock(client(), pr, options)
    github.server.inject({ method: 'PATCH', path: one, kind: 'status', status: 502, times: 4 })
    expect(await lock.finish('done', { mode: 'instant', databaseId: 'db-5' })).toBeNull()
    expect(comments().filter((c) => c.record?.provisioningSince)).toEqual([])
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
})

/**
 * One comment whatever the network does (src/comment/lock/one-comment.ts):
 * the copies a retried POST made are found by the run's id (or the body it
 * posted) and all but the oldest deleted; with the real octokit client
 * (its retry plugin) against the GitHub emulator, whose `lost-reset` fault
 * makes the comment and then drops the connection.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { APP_TOKEN, GitHubService } from '../../emulator/github/github.js'

const REPO = 'acme/shop'
const BOT = 'github-actions[bot]'
const github = new GitHubService()
let lockModule: typeof import('../../src/comment/lock/lock.js')
let oneComment: typeof import('../../src/comment/lock/one-comment.js')
let commentModule: typeof import('../../src/comment/comment.js')
let prNumber = 700

beforeAll(async () => {
  await github.server.listen()
  process.env.GITHUB_API_URL = github.url
  commentModule = await import('../../src/comment/comment.js')
  lockModule = await import('../../src/comment/lock/lock.js')
  oneComment = await import('../../src/comment/lock/one-comment.js')
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

const H = '### 🐘 Preview Postgres: '
const options = { mode: 'instant' as const, placeholder: `${H}being provisioned`, pollSeconds: 0.1, timeoutSeconds: 5 }
const client = () => commentModule.githubClient(APP_TOKEN, 5000)
const records = () => github.comments(REPO, pr.number).map((c) => commentModule.recordOf(c.body))
const POSTS = () => new RegExp(`/issues/${pr.number}/comments$`)

describe('copiesOf', () => {
  const c = (id: number, body: string, login = BOT) => ({ id, body, html_url: `u${id}`, user: { login } })
  it("finds the run's own comments by its run id or the body it posted, only the token's user's, oldest first", () => {
    const mine = commentModule.commentBody(`${H}x`, { mode: 'instant', run: 'r1' })
    const theirs = commentModule.commentBody(`${H}x`, { mode: 'instant', run: 'r2' })
    const final = commentModule.commentBody(`${H}done`, { mode: 'instant', databaseId: 'db' })
    const all = [c(9, mine), c(3, mine), c(4, theirs), c(5, final), c(6, mine, 'mallory'), c(7, final)]
    expect(oneComment.copiesOf(all, BOT, 'r1', 'other').map((x) => x.id)).toEqual([3, 9])
    expect(oneComment.copiesOf(all, BOT, 'r1', final).map((x) => x.id)).toEqual([3, 5, 7, 9])
    expect(oneComment.copiesOf(all, BOT, '', final).map((x) => x.id)).toEqual([5, 7])
  })
})

describe('keepOneCopy', () => {
  it('keeps the oldest copy and deletes the others; a comment of another run stays', async () => {
    const body = commentModule.commentBody(`${H}being provisioned`, { mode: 'instant', run: 'r1' })
    const other = github.addComment(REPO, pr.number, BOT, commentModule.commentBody(`${H}old`, { mode: 'instant', run: 'r0' }))
    const first = github.addComment(REPO, pr.number, BOT, body)
    const second = github.addComment(REPO, pr.number, BOT, body)
    const kept = await oneComment.keepOneCopy(client(), pr, BOT, 'r1', body, second)
    expect(kept.id).toBe(first.id)
    expect(github.comments(REPO, pr.number).map((x) => x.id)).toEqual([other.id, first.id])
  })

  it('writes the body posted into the copy kept when that copy says something else', async () => {
    const older = github.addComment(
      REPO,
      pr.number,
      BOT,
      commentModule.commentBody(`${H}being provisioned`, { mode: 'instant', run: 'r1' })
    )
    const body = commentModule.commentBody(`${H}being provisioned`, { mode: 'instant', run: 'r1', heartbeatAt: 'later' })
    const posted = github.addComment(REPO, pr.number, BOT, body)
    const kept = await oneComment.keepOneCopy(client(), pr, BOT, 'r1', body, posted)
    expect(kept.id).toBe(older.id)
    expect(github.comments(REPO, pr.number).map((x) => x.body)).toEqual([body])
  })
})

describe('the lock after a lost answer', () => {
  it("the first run's comment POST answered after a reset: one comment, the one every later run reads", async () => {
    github.server.inject({ method: 'POST', path: POSTS(), kind: 'lost-reset' })
    const lock = await lockModule.acquireLock(client(), pr, options)
    expect(github.server.requests('POST', POSTS())).toHaveLength(2) // the client's retry posted it again
    const left = github.comments(REPO, pr.number)
    expect(left.map((c) => c.id)).toEqual([lock.claim.id])
    await lock.finish(`${H}ready`, { mode: 'instant', databaseId: 'db-1' })
    expect(records()).toEqual([{ mode: 'instant', databaseId: 'db-1' }])
    const next = await lockModule.acquireLock(client(), pr, options)
    expect(next.home?.record).toEqual({ mode: 'instant', databaseId: 'db-1' })
    await next.finish(`${H}ready again`, { mode: 'instant', databaseId: 'db-1' })
    expect(github.comments(REPO, pr.number)).toHaveLength(1)
  })

  it('a run whose every POST failed after GitHub made the comment leaves placeholders; the next holder keeps the oldest and deletes the copy', async () => {
    github.server.inject({ method: 'POST', path: POSTS(), kind: 'lost-reset', times: 2 })
    github.server.inject({ method: 'POST', path: POSTS(), kind: 'status', status: 502, times: 2 })
    await expect(lockModule.acquireLock(client(), pr, options)).rejects.toThrow(/Could not/)
    expect(github.comments(REPO, pr.number)).toHaveLength(2)
    expect(github.reactionsOf.get(`issue ${REPO}#${pr.number}`) ?? []).toEqual([])
    const next = await lockModule.acquireLock(client(), pr, options)
    expect(github.comments(REPO, pr.number).map((c) => c.id)).toEqual([next.claim.id])
    expect(next.home?.record).toEqual({ mode: 'instant' })
    await next.finish(`${H}ready`, { mode: 'instant', databaseId: 'db-2' })
    expect(records()).toEqual([{ mode: 'instant', databaseId: 'db-2' }])
  })

  it('a final write that posts the comment again (a user deleted it) and loses its answer leaves one comment', async () => {
    const lock = await lockModule.acquireLock(client(), pr, options)
    github.comments(REPO, pr.number).splice(0)
    github.server.inject({ method: 'POST', path: POSTS(), kind: 'lost-reset' })
    await lock.finish(`${H}ready`, { mode: 'instant', databaseId: 'db-3' })
    expect(records()).toEqual([{ mode: 'instant', databaseId: 'db-3' }])
  })
})

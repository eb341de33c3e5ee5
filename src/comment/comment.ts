/**
 * The one PR comment this action keeps per pull request: its hidden marker
 * (what it records for the next run), the GitHub client that reads and writes
 * it, and the listing of our own marker comments. The comment lock built on
 * these lives in lock.ts.
 */
import { commentScope } from './scope.js'
export { commentScope, scopeComments } from './scope.js'
import * as github from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck'

export type Octokit = ReturnType<typeof github.getOctokit>

/** What the comment records for the next run (in its hidden marker). */
export interface CommentRecord {
  mode: 'instant' | 'branch'
  /** Instant database id; absent when nothing may be reused (for example after a failed seed). */
  databaseId?: string
  /** ISO 8601 UTC expiry of the instant database. */
  expiresAt?: string
  branchId?: string
  branchName?: string
  /** What the recorded database was seeded from (fingerprint.ts): `sha256:<hex>`; absent in a record of an earlier version. */
  fingerprint?: string
  /**
   * Set (ISO 8601 UTC start time) on a lock claim: a placeholder comment a run
   * posts before it provisions (see lock.ts). Absent on a final comment.
   */
  provisioningSince?: string
  /** Lock claims only: when the holder last showed it is alive (ISO 8601 UTC); see lock.ts for how old is stale. */
  heartbeatAt?: string
  /** Lock claims only: a random id of the run that posted the claim, so a run knows its own claims (even one a retried POST made twice). */
  run?: string
  /** Lock only: the id of the holder's lock reaction on this comment (see lock.ts); the lock is live only while that reaction exists. */
  reaction?: number
}

/** The record without the lock's fields (`provisioningSince`, `heartbeatAt`, `run`, `reaction`): what it says for reuse. */
export function withoutLock(record: CommentRecord): CommentRecord {
  const { provisioningSince: _since, heartbeatAt: _beat, run: _run, reaction: _reaction, ...rest } = record
  return rest
}

/** The pull request a run belongs to. */
export interface PullRequest {
  owner: string
  repo: string
  number: number
  headRef: string
}

/** A comment of ours found on the PR. */
export interface FoundComment {
  id: number
  record: CommentRecord
}

const MARKER = /<!-- preview-postgres:v1 (\{.*?\}) -->/

/** The hidden marker line for a record (with this process's preview name). */
export function markerOf(record: CommentRecord): string {
  return `<!-- preview-postgres:v1 ${JSON.stringify(commentScope() ? { ...record, preview: commentScope() } : record)} -->`
}

/** Parses the marker out of a comment body (without its `preview`), or null, also for a marker of another preview. */
export function recordOf(body: string): CommentRecord | null {
  const found = anyPreviewRecordOf(body)
  return found && found.preview === commentScope() ? found.record : null
}

/**
 * Parses the marker out of a comment body whatever preview it belongs to:
 * the record and its preview name ('' for the PR's one preview), or null.
 * The lock's waiters read every preview's markers, since two names may
 * share a lock reaction ({@link lockReactionOf}).
 */
export function anyPreviewRecordOf(body: string): { record: CommentRecord; preview: string } | null {
  const m = MARKER.exec(body)
  if (!m) return null
  try {
    const { preview = '', ...record } = JSON.parse(m[1]) as CommentRecord & { preview?: string }
    return record.mode === 'instant' || record.mode === 'branch' ? { record, preview } : null
  } catch {
    return null
  }
}

/** GitHub's reaction contents (REST, reactions) a lock may use: 👀 for the PR's one preview, the others for named previews. */
const LOCK_CONTENTS = ['eyes', 'rocket', 'hooray', 'heart', 'laugh', '+1'] as const
export type LockReactionContent = (typeof LOCK_CONTENTS)[number]

/**
 * The reaction on the PR that is this preview's lock: 👀 (`eyes`) for the
 * PR's one preview; for a `preview-name`, one of five other contents (not
 * `-1` or `confused`, which read as a verdict on the PR),
 * picked by a hash of the name. GitHub keeps one reaction of a content per
 * user, so two names that hash alike share one lock and wait on each other
 * (safe, only slower); names that hash apart never do.
 */
export function lockReactionOf(name: string = commentScope()): LockReactionContent {
  if (!name) return 'eyes'
  let h = 0
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)!) >>> 0
  return LOCK_CONTENTS[1 + (h % (LOCK_CONTENTS.length - 1))]
}

/** The PR of the triggering event (`pull_request`, `pull_request_target`), or null. */
export function pullRequestOfEvent(): PullRequest | null {
  const pr = github.context.payload.pull_request
  if (!pr || typeof pr.number !== 'number') return null
  const head = (pr.head as { ref?: string } | undefined)?.ref ?? ''
  return { ...github.context.repo, number: pr.number, headRef: head }
}

/** Longest wait a GitHub rate limit may ask for before the request is retried, in seconds; beyond it the request fails at once. */
export const MAX_GITHUB_WAIT_S = 60

/**
 * A GitHub client for the comment: every request is abandoned after
 * `timeoutMs` milliseconds; 5xx answers, network errors and timeouts are
 * retried 3 times after 0.5 s, 2 s and 4.5 s (@octokit/plugin-retry; 4xx
 * are not retried by it); rate limits (403/429 with
 * `Retry-After` or `x-ratelimit-reset`) are retried once when the wait is at
 * most 60 s (@octokit/plugin-throttling, whose `secondary rate limit` and
 * `x-ratelimit-remaining: 0` handling is kept). The plugin's spacing of
 * writes (1 s) and of notifying writes (3 s) is turned off: GitHub's advice
 * ("wait at least one second between each request") is for many writes, and
 * a run makes a handful (lock.ts), one at a time.
 */
export function githubClient(token: string, timeoutMs: number): Octokit {
  const withinBudget = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean =>
    retryCount < 1 && retryAfter <= MAX_GITHUB_WAIT_S
  return github.getOctokit(
    token,
    {
      request: {
        fetch: (url: string | URL, init?: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
      },
      // 429 is the throttling plugin's alone (plugin-retry would resend it after 0.5 s whatever Retry-After says).
      retry: { retries: 3, retryAfterBaseValue: 500, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
      throttle: {
        onRateLimit: withinBudget,
        onSecondaryRateLimit: withinBudget,
        // One write at a time, no spacing (the plugin's defaults: minTime 1000 ms for writes, 3000 ms for notifying ones).
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 })
      }
    },
    retry,
    throttling
  )
}

/**
 * Our marker comments on the PR, oldest first: every page of comments
 * (octokit pagination), only those written by `login`, only those carrying a
 * marker.
 * @throws the GitHub error when the comments cannot be read (after the retries).
 */
export async function listOurComments(octokit: Octokit, pr: PullRequest, login: string): Promise<FoundComment[]> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    per_page: 100
  })
  const found: FoundComment[] = []
  for (const c of comments) {
    if (c.user?.login !== login) continue
    const record = recordOf(c.body ?? '')
    if (record) found.push({ id: c.id, record })
  }
  return found.sort((a, b) => a.id - b.id)
}

/** The HTTP status of a GitHub (octokit) error, if it has one. */
export const statusOf = (err: unknown): number | undefined => (err as { status?: number }).status

/** A GitHub error in words, with what to do for a rate limit, 403 and 404. */
export function describeGitHubError(err: unknown): string {
  const e = err as { status?: number; message?: string }
  if ((e.status === 403 || e.status === 429) && /rate limit/i.test(e.message ?? '')) {
    return `HTTP ${e.status}: GitHub's rate limit (${e.message}), with a wait longer than ${MAX_GITHUB_WAIT_S} s or a second time`
  }
  if (e.status === 403) {
    return 'HTTP 403: the token may not write to this pull request (fork PRs and Dependabot get a read-only GITHUB_TOKEN; grant `permissions: pull-requests: write`)'
  }
  if (e.status === 404) return 'HTTP 404: the pull request or repository was not found (deleted, or the token cannot see it)'
  return e.status ? `HTTP ${e.status}: ${e.message ?? ''}` : (e.message ?? String(err))
}

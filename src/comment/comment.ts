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
import { proxiedFetch } from '../proxy-fetch.js'

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

/**
 * The first line of every comment of ours starts with this (report.ts's
 * heading): then `` `<preview-name>` `` for a named preview, then `: `.
 */
export const COMMENT_HEADING = '### 🐘 Preview Postgres'

/** A comment's first line as this action writes it. */
const HEADING_LINE = /^### 🐘 Preview Postgres(?: `[^`]+`)?: \S/
/** The marker: the whole last line of a comment of ours. */
const MARKER_LINE = /^<!-- preview-postgres:v1 (\{.*\}) -->$/

/** The marker's fields and their JSON types: nothing else is read from it. */
const MARKER_FIELDS: Record<string, 'string' | 'number'> = {
  mode: 'string',
  databaseId: 'string',
  expiresAt: 'string',
  branchId: 'string',
  branchName: 'string',
  fingerprint: 'string',
  provisioningSince: 'string',
  heartbeatAt: 'string',
  run: 'string',
  reaction: 'number',
  preview: 'string'
}

/**
 * The hidden marker line for a record (with this process's preview name).
 * `<` and `>` are written as JSON's `\u003c` and `\u003e`, so no value can
 * end the HTML comment (`-->`) and show as Markdown.
 */
export function markerOf(record: CommentRecord): string {
  const json = JSON.stringify(commentScope() ? { ...record, preview: commentScope() } : record)
  return `<!-- preview-postgres:v1 ${json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e')} -->`
}

/** A comment body of ours: `markdown` (report.ts's rendering, heading first), a blank line, and the marker of `record` as its last line. */
export function commentBody(markdown: string, record: CommentRecord): string {
  return `${markdown}\n\n${markerOf(record)}`
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
 *
 * A body counts only when it has this action's whole structure
 * ({@link commentBody}): its first line is the report's heading
 * ({@link COMMENT_HEADING}), the line before its last is blank, and its last
 * line is exactly one marker whose JSON is an object of the known fields of
 * their types (others are dropped) with `mode` `instant` or `branch`. A
 * marker anywhere else (quoted in another comment, or in text a report
 * holds) is not read. Who wrote the comment is the caller's to check.
 */
export function anyPreviewRecordOf(body: string): { record: CommentRecord; preview: string } | null {
  const lines = body.trimEnd().split(/\r?\n/)
  if (lines.length < 3 || !HEADING_LINE.test(lines[0]) || lines[lines.length - 2].trim() !== '') return null
  const m = MARKER_LINE.exec(lines[lines.length - 1])
  if (!m) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(m[1])
  } catch {
    return null
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (!Object.hasOwn(MARKER_FIELDS, key)) continue
    if (typeof value !== MARKER_FIELDS[key]) return null
    kept[key] = value
  }
  const { preview = '', ...record } = kept as unknown as CommentRecord & { preview?: string }
  return record.mode === 'instant' || record.mode === 'branch' ? { record, preview } : null
}

/** `body` (a comment of ours) with its last line, the marker, made that of `record`. */
export function withMarker(body: string, record: CommentRecord): string {
  const trimmed = body.trimEnd()
  return `${trimmed.slice(0, trimmed.lastIndexOf('\n') + 1)}${markerOf(record)}`
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
        fetch: (url: string | URL, init?: RequestInit) => proxiedFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
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

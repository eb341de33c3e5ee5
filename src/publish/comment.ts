/**
 * The one PR comment this action keeps per pull request: found by a hidden
 * marker among the comments of the token's own user, created once and
 * updated in place afterwards.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'

type Octokit = ReturnType<typeof github.getOctokit>

/** What the comment records for the next run (in its hidden marker). */
export interface CommentRecord {
  mode: 'instant' | 'branch'
  /** Instant database id; absent when nothing may be reused (for example after a failed seed). */
  databaseId?: string
  /** ISO 8601 UTC expiry of the instant database. */
  expiresAt?: string
  branchId?: string
  branchName?: string
  /**
   * Set (ISO 8601 UTC start time) while a run is provisioning: the comment is
   * then a lock that tells a concurrent run of the same PR to wait for this one.
   */
  provisioningSince?: string
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

/** The hidden marker line for a record. */
export function markerOf(record: CommentRecord): string {
  return `<!-- preview-postgres:v1 ${JSON.stringify(record)} -->`
}

/** Parses the marker out of a comment body, or null. */
export function recordOf(body: string): CommentRecord | null {
  const m = MARKER.exec(body)
  if (!m) return null
  try {
    const record = JSON.parse(m[1]) as CommentRecord
    return record && (record.mode === 'instant' || record.mode === 'branch') ? record : null
  } catch {
    return null
  }
}

/** The PR of the triggering event (`pull_request`, `pull_request_target`), or null. */
export function pullRequestOfEvent(): PullRequest | null {
  const pr = github.context.payload.pull_request
  if (!pr || typeof pr.number !== 'number') return null
  const head = (pr.head as { ref?: string } | undefined)?.ref ?? ''
  return { ...github.context.repo, number: pr.number, headRef: head }
}

/** Login of the account behind the token; `GITHUB_TOKEN` cannot ask, and comments as `github-actions[bot]`. */
async function ownLogin(octokit: Octokit): Promise<string> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated()
    return data.login
  } catch {
    return 'github-actions[bot]'
  }
}

/** A GitHub client whose every request is abandoned after `timeoutMs` milliseconds. */
export function githubClient(token: string, timeoutMs: number): Octokit {
  return github.getOctokit(token, {
    request: {
      fetch: (url: string | URL, init?: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    }
  })
}

/** Our marker comments on the PR (by the token's own user), oldest first. */
async function ourComments(octokit: Octokit, pr: PullRequest): Promise<FoundComment[]> {
  const login = await ownLogin(octokit)
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

/**
 * Finds our comment on the PR: every page of comments (octokit pagination),
 * only those by the token's own user, the oldest one carrying our marker.
 * @returns null when there is none, or when the comments cannot be read (a warning says why).
 */
export async function findComment(octokit: Octokit, pr: PullRequest): Promise<FoundComment | null> {
  try {
    return (await ourComments(octokit, pr))[0] ?? null
  } catch (err) {
    core.warning(`Could not read the comments of PR #${pr.number}: ${describeGitHubError(err)}. Continuing as if there were none.`)
    return null
  }
}

/** A GitHub error in words, with what to do for 403 and 404. */
export function describeGitHubError(err: unknown): string {
  const e = err as { status?: number; message?: string }
  if (e.status === 403) {
    return 'HTTP 403: the token may not write to this pull request (fork PRs and Dependabot get a read-only GITHUB_TOKEN; grant `permissions: pull-requests: write`)'
  }
  if (e.status === 404) return 'HTTP 404: the pull request or repository was not found (deleted, or the token cannot see it)'
  return e.status ? `HTTP ${e.status}: ${e.message ?? ''}` : (e.message ?? String(err))
}

/** A record that is a lock of a run still provisioning, and not older than `staleAfterMs` milliseconds. */
export function isLiveLock(record: CommentRecord, staleAfterMs: number, now = Date.now()): boolean {
  return !!record.provisioningSince && now - Date.parse(record.provisioningSince) < staleAfterMs
}

/** How a run came out of claimComment. */
export type Claim = { won: true; comment: FoundComment } | { won: false; winner: FoundComment }

/**
 * Takes the PR's comment as a lock before provisioning, so two runs of one PR
 * started together make one database: posts a placeholder comment whose marker
 * has `provisioningSince`, then lists our comments; the oldest one wins. A run
 * that lost deletes its placeholder. (GitHub has no compare-and-set on
 * comments; comment ids only grow, so "oldest wins" is the same answer for
 * every run that looks after posting.)
 * @throws the GitHub error when the placeholder cannot be posted or the comments read.
 */
export async function claimComment(octokit: Octokit, pr: PullRequest, mode: CommentRecord['mode'], markdown: string): Promise<Claim> {
  const record: CommentRecord = { mode, provisioningSince: new Date().toISOString() }
  const { data } = await octokit.rest.issues.createComment({
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    body: `${markdown}\n\n${markerOf(record)}`
  })
  const oldest = (await ourComments(octokit, pr))[0]
  if (!oldest || oldest.id === data.id) return { won: true, comment: { id: data.id, record } }
  await octokit.rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: data.id })
  return { won: false, winner: oldest }
}

/**
 * Waits until the run that holds the comment lock has finished (its record no
 * longer has `provisioningSince`), reading the comment every `pollSeconds`
 * seconds for at most `timeoutSeconds` seconds.
 * @returns the comment as that run left it, or null if it was deleted.
 * @throws Error naming the comment when the lock is still held at the timeout.
 */
export async function waitForLock(
  octokit: Octokit,
  pr: PullRequest,
  lock: FoundComment,
  options: { pollSeconds: number; timeoutSeconds: number }
): Promise<FoundComment | null> {
  const deadline = Date.now() + options.timeoutSeconds * 1000
  for (;;) {
    let record: CommentRecord | null
    try {
      const { data } = await octokit.rest.issues.getComment({ owner: pr.owner, repo: pr.repo, comment_id: lock.id })
      record = recordOf(data.body ?? '')
    } catch (err) {
      if ((err as { status?: number }).status === 404) return null
      record = lock.record // a GitHub hiccup: keep waiting
    }
    if (!record) return null
    if (!record.provisioningSince) return { id: lock.id, record }
    if (Date.now() >= deadline) {
      throw new Error(
        `Another run of PR #${pr.number} has been provisioning its preview database since ${record.provisioningSince} (comment ${lock.id}) ` +
          `and did not finish within wait-timeout (${options.timeoutSeconds} s). Re-run when it is done, or delete that comment if its run was cancelled.`
      )
    }
    await new Promise((r) => setTimeout(r, Math.min(options.pollSeconds * 1000, Math.max(0, deadline - Date.now()))))
  }
}

/**
 * Creates our comment, or updates `existing` in place. Never fails the run:
 * a token that cannot write (403), a vanished PR (404) or a GitHub outage is a warning.
 * @returns the comment id, or null when it could not be written.
 */
export async function upsertComment(
  octokit: Octokit,
  pr: PullRequest,
  existing: FoundComment | null,
  markdown: string,
  record: CommentRecord
): Promise<number | null> {
  const body = `${markdown}\n\n${markerOf(record)}`
  try {
    if (existing) {
      await octokit.rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: existing.id, body })
      core.info(`Updated the preview comment on PR #${pr.number}.`)
      return existing.id
    }
    const { data } = await octokit.rest.issues.createComment({ owner: pr.owner, repo: pr.repo, issue_number: pr.number, body })
    // Two runs that started together may both have posted: the oldest comment
    // wins, a newer one of ours deletes itself and updates the oldest instead.
    const oldest = (await ourComments(octokit, pr))[0]
    if (oldest && oldest.id < data.id) {
      await octokit.rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: data.id })
      await octokit.rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: oldest.id, body })
      core.info(`Another run posted the preview comment first; updated it instead of keeping a second one.`)
      return oldest.id
    }
    core.info(`Posted the preview comment on PR #${pr.number}.`)
    return data.id
  } catch (err) {
    core.warning(`Could not write the preview comment on PR #${pr.number}: ${describeGitHubError(err)}. The database and the outputs are unaffected.`)
    return null
  }
}

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

function describeGitHubError(err: unknown): string {
  const e = err as { status?: number; message?: string }
  if (e.status === 403) {
    return 'HTTP 403: the token may not write to this pull request (fork PRs and Dependabot get a read-only GITHUB_TOKEN; grant `permissions: pull-requests: write`)'
  }
  if (e.status === 404) return 'HTTP 404: the pull request or repository was not found (deleted, or the token cannot see it)'
  return e.status ? `HTTP ${e.status}: ${e.message ?? ''}` : (e.message ?? String(err))
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

/**
 * A pull request from a fork: its workflow runs with a read-only
 * GITHUB_TOKEN (GitHub docs, "Events that trigger workflows",
 * pull_request from forks), so the PR comment cannot be written or locked.
 * Reading still works: the run reuses the database the PR's comment records,
 * and the `workflow_run` job (`command: publish`) posts the comment from the
 * run's `report-file`.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import {
  type CommentRecord,
  type FoundComment,
  type Octokit,
  type PullRequest,
  recordOf,
  statusOf,
  withoutLock
} from '../comment/comment.js'
import { ClaimNotPostedError } from '../comment/lock/errors.js'

/** True when the event's pull request comes from another repository (`head.repo.full_name` is not the base's). */
export function isForkPullRequest(): boolean {
  const pr = github.context.payload.pull_request as
    { head?: { repo?: { full_name?: string } | null }; base?: { repo?: { full_name?: string } } } | undefined
  const head = pr?.head?.repo?.full_name
  const base = pr?.base?.repo?.full_name ?? `${github.context.repo.owner}/${github.context.repo.repo}`
  return Boolean(head && head !== base)
}

/**
 * After the comment lock was refused: when the refusal is a fork PR's 403,
 * says once that the `workflow_run` job posts the comment and returns the
 * PR's preview comment as `home` (the oldest comment of ours written by
 * `author`, the login `command: publish` comments as: the `comment-author`
 * input; no other account's comment, a person's, another App's or another
 * bot's, can name a database to reuse; its record without the lock's
 * fields), null when there is none of this mode or it cannot be read.
 * Otherwise returns null: the caller reports the refusal as before.
 */
export async function forkRecord(
  octokit: Octokit,
  pr: PullRequest,
  mode: CommentRecord['mode'],
  err: ClaimNotPostedError,
  author: string
): Promise<{ home: FoundComment | null } | null> {
  if (statusOf(err.cause) !== 403 || !isForkPullRequest()) return null
  core.notice(
    `This pull request comes from a fork, so its token may not write to it (HTTP 403): the PR comment will be posted by the \`workflow_run\` job (\`command: publish\`) from this run's \`report-file\`.`
  )
  const comments = await octokit
    .paginate(octokit.rest.issues.listComments, { owner: pr.owner, repo: pr.repo, issue_number: pr.number, per_page: 100 })
    .catch(() => [])
  for (const c of comments.sort((a, b) => a.id - b.id)) {
    if (c.user?.login !== author) continue
    const record = recordOf(c.body ?? '')
    if (record) return { home: record.mode === mode ? { id: c.id, record: withoutLock(record) } : null }
  }
  return { home: null }
}

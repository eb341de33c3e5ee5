/**
 * What the sweep (cleanup.ts) reads from and writes to GitHub, each in as
 * few requests as it can: the state of many pull requests from the pulls
 * list (100 a page) instead of one request per PR, each PR's preview
 * comments in one listing, and one check, before anything is deleted, that
 * the token may write.
 */
import * as github from '@actions/github'
import { type CommentRecord, type Octokit, anyPreviewRecordOf, describeGitHubError, lockReactionOf, statusOf } from '../comment/comment.js'
import { deleteLockReaction, markerComments } from '../comment/lock/wait.js'
import { isRateLimited } from '../comment/lock/budget.js'
import { acquireLock } from '../comment/lock/lock.js'
import type { CommentLock } from '../comment/lock/held.js'
import { renderReport } from '../publish/report.js'
import type { Settings } from '../settings.js'

/** A PR's state: open, closed or merged; null when it cannot be read. */
export type PullState = { state: 'open' | 'closed' | 'merged' } | { state: null; why: string }

const stateOf = (p: { state: string; merged?: boolean | null; merged_at?: string | null }): PullState => ({
  state: p.merged || p.merged_at ? 'merged' : p.state === 'closed' ? 'closed' : 'open'
})

/** One PR's state per GitHub's `GET /repos/{owner}/{repo}/pulls/{pull_number}`. */
export async function pullState(octokit: Octokit, number: number): Promise<PullState> {
  try {
    const { data } = await octokit.rest.pulls.get({ ...github.context.repo, pull_number: number })
    return stateOf(data)
  } catch (err) {
    return { state: null, why: describeGitHubError(err) }
  }
}

/**
 * The states of the PRs `numbers`, read from the pulls list (GitHub REST,
 * "List pull requests": `state=all`, newest first, 100 a page), stopping
 * once every number is found or the pages have passed the oldest of them
 * (PR numbers grow with creation), or once paging costs more than the reads
 * of one PR each it replaces; the PRs it did not find are read one by one.
 * @returns a state for every number (null state when it cannot be read).
 */
export async function pullStates(octokit: Octokit, numbers: Iterable<number>): Promise<Map<number, PullState>> {
  const wanted = new Set(numbers)
  const states = new Map<number, PullState>()
  if (wanted.size === 0) return states
  const oldest = Math.min(...wanted)
  let pages = 0
  try {
    const pagesOf = octokit.paginate.iterator(octokit.rest.pulls.list, {
      ...github.context.repo,
      state: 'all',
      sort: 'created',
      direction: 'desc',
      per_page: 100
    })
    for await (const { data } of pagesOf) {
      pages++
      for (const p of data) if (wanted.has(p.number)) states.set(p.number, stateOf(p))
      const left = wanted.size - states.size
      if (left === 0 || data.length === 0 || data[data.length - 1].number <= oldest || pages >= left) break
    }
  } catch (err) {
    if (isRateLimited(err)) throw err
    // Read one by one below.
  }
  for (const n of wanted) if (!states.has(n)) states.set(n, await pullState(octokit, n))
  return states
}

/** One preview comment of ours on a PR: its id, preview name ('' for the PR's one preview), record, and age per GitHub's clock (milliseconds). */
export interface PreviewComment {
  id: number
  preview: string
  record: CommentRecord
  age: number
}

/** Our preview comments on the PR, every preview's, oldest first (one listing, all pages; comment.ts reads the markers). @throws the GitHub error. */
export async function previewComments(octokit: Octokit, number: number, login: string): Promise<PreviewComment[]> {
  const pr = { ...github.context.repo, number, headRef: '' }
  const found = await markerComments(octokit, pr, login, true)
  return found.flatMap((m) => {
    const parsed = anyPreviewRecordOf(m.body)
    return parsed ? [{ id: m.id, preview: parsed.preview, record: parsed.record, age: m.age }] : []
  })
}

/** The token may not write to pull requests: the sweep would leave comments and locks as they are. */
export class SweepPermissionError extends Error {
  constructor(number: number, cause: unknown) {
    super(
      `\`command: cleanup\` needs a token that may write to pull requests: GitHub refused a reaction on PR #${number} (${describeGitHubError(cause)}). ` +
        'Grant the workflow `permissions: pull-requests: write` (and `deployments: write` with `deployment: true`). Nothing was deleted.'
    )
    this.name = 'SweepPermissionError'
  }
}

/**
 * Checks that the token may write before the sweep deletes anything, and
 * learns its login (which GitHub App installation tokens cannot ask
 * `GET /user`): adds the lock reaction of PR `number`'s one preview and, when
 * GitHub answers 201 (no run holds that lock), deletes it again by its id. A
 * 200 means a run of ours holds it: left alone.
 * @returns the token's login.
 * @throws SweepPermissionError on a 403 or 404 that is not a rate limit; the GitHub error otherwise.
 */
export async function checkWrite(octokit: Octokit, number: number): Promise<string> {
  const pr = { ...github.context.repo, number, headRef: '' }
  let answer
  try {
    answer = await octokit.rest.reactions.createForIssue({ ...github.context.repo, issue_number: number, content: lockReactionOf('') })
  } catch (err) {
    if (!isRateLimited(err) && (statusOf(err) === 403 || statusOf(err) === 404)) throw new SweepPermissionError(number, err)
    throw err
  }
  if (answer.status === 201) await deleteLockReaction(octokit, pr, answer.data.id)
  return answer.data.user?.login ?? ''
}

/**
 * PR `number`'s comment lock for the sweep of `branch` (its placeholder says
 * "being swept by the scheduled cleanup", with `reason`), waiting at most
 * `wait-timeout` and two minutes for a run that holds it.
 * @throws the GitHub error of a rate limit; Error saying the branch may be in use otherwise.
 */
export async function sweepLock(
  octokit: Octokit,
  settings: Settings,
  number: number,
  branch: { name: string; id: string },
  reason: string
): Promise<CommentLock> {
  try {
    return await acquireLock(
      octokit,
      { ...github.context.repo, number, headRef: '' },
      {
        mode: 'branch',
        placeholder: renderReport({
          mode: 'branch',
          state: 'sweeping',
          branchName: branch.name,
          branchId: branch.id,
          sweptBecause: reason
        }),
        pollSeconds: Math.min(settings.pollIntervalSeconds, 2),
        timeoutSeconds: Math.min(settings.waitTimeoutSeconds, 120)
      }
    )
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause
    if (isRateLimited(cause ?? err)) throw cause ?? err
    throw new Error(
      `could not take the comment lock of pull request #${number}, so a run of it may be using the branch (${describeGitHubError(cause ?? err)})`,
      { cause: err }
    )
  }
}

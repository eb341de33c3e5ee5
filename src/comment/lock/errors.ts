/**
 * Why a run has no comment lock (lock.ts, acquireLock; held.ts, naming):
 * a GitHub error after the client's retries, or too few requests left of
 * GitHub's rate limit to take and release it.
 */
import { type PullRequest, describeGitHubError } from '../comment.js'

/** Too few requests are left of GitHub's rate limit to take and release the lock. */
export class BudgetLowError extends Error {
  constructor(left: number, needed: number) {
    super(
      `GitHub's rate limit: ${left} request${left === 1 ? '' : 's'} left of this token's hourly budget (x-ratelimit-remaining), and the lock and the comment need ${needed}; the comment is skipped so that no lock is left behind`
    )
    this.name = 'BudgetLowError'
  }
}

/** The lock could not be taken for a GitHub error (after the client's retries): the run has no lock. */
export class ClaimNotPostedError extends Error {
  constructor(
    readonly pr: PullRequest,
    readonly cause: unknown,
    readonly what = 'take the lock on the preview comment',
    /** True when this run's reaction may be left on the PR (its delete failed too): the post step tries again. */
    readonly reactionLeft = false
  ) {
    super(`Could not ${what} of PR #${pr.number}: ${describeGitHubError(cause)}.`)
    this.name = 'ClaimNotPostedError'
  }
}

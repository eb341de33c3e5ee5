/**
 * The PR's lock: one run of a pull request at a time provisions (or
 * deletes) its database, and after the PR's first run no run creates a
 * comment (a new comment notifies every subscriber; a reaction and an edit
 * notify nobody).
 *
 * The lock is a reaction (👀, `eyes`) of our token's user on the pull
 * request itself. GitHub's create reaction is a compare-and-set per user: it
 * answers 201 when it creates the reaction and 200 when this user already
 * had it (GitHub REST, "Create reaction for an issue"). Nobody else can
 * remove it (a reaction is its user's alone) and a pull request cannot be
 * deleted, so no user action releases it. All runs of a workflow share one
 * user, so the reaction says *that* a run holds the lock; the marker of the
 * PR's one preview comment (the oldest of our marker comments) says *which*
 * and whether it is alive: right after its 201 the holder reads the comment
 * (what an earlier run recorded; the PR's first run creates the comment
 * here, under the lock, so racing first runs make one comment) and writes
 * `reaction` (its reaction's id, unique for every take), `run`,
 * `provisioningSince` and `heartbeatAt` into the marker, and refreshes
 * `heartbeatAt` every minute.
 *
 * A run that meets 200 waits, reading the PR's lock reaction and the
 * marker. The reaction it sees (id R) is
 * - named by the marker, the comment written within {@link STALE_AFTER_MS}
 *   (its `updated_at` against the answer's `Date`: GitHub's clock, no
 *   runner's): held; wait;
 * - named, the comment not written for {@link STALE_AFTER_MS}: stale (its
 *   run was killed: a live holder writes every minute);
 * - not named for {@link ORPHAN_AFTER_MS} of this waiter's own observation
 *   (seeing it named resets that): orphaned (its run died, or lost the
 *   answer, between the 201 and naming it).
 * A stale or orphaned reaction is deleted **by its id R**, then the waiter
 * creates one again. Two waiters taking over at once both delete R (one gets
 * 204, the other 404: ids are never reused), then both create: exactly one
 * gets 201, the other 200 and waits. A late delete of R never removes a newer
 * reaction.
 *
 * What users do to the comment. Deleting it, editing it or removing its
 * marker releases nothing: the lock is the reaction on the PR. At its next
 * heartbeat (within {@link HEARTBEAT_MS}) the holder writes its comment
 * again: a deleted one is posted again (one new comment, with the record the
 * holder read) and an edited one gets its text and marker back, and its
 * final report lands there. A waiter that meanwhile sees no marker naming R
 * waits {@link ORPHAN_AFTER_MS}, longer than that, before it calls R
 * orphaned; an edit only makes the comment look younger, so it never makes
 * a live lock stale.
 *
 * Why the orphan rule cannot take a lock from a live holder: the holder
 * keeps the lock only when its naming write (retried by the client) was
 * answered within {@link NAME_WITHIN_MS} of sending its create, and writes
 * the marker again every {@link HEARTBEAT_MS}; otherwise it deletes its
 * reaction and starts again. (Assumed, as for every lease: a write GitHub
 * answered has taken effect, and one the client abandoned lands within that
 * time or never.)
 *
 * Release: the holder writes the final report and record into the comment
 * (without the lock's fields), then deletes its reaction, in that order, so
 * the next holder reads the final record. A failed write leaves no dead lock:
 * an unnamed reaction is orphaned after {@link ORPHAN_AFTER_MS}, a named one
 * stale {@link STALE_AFTER_MS} after the comment's last write. When the
 * holder cannot read the PR's comments after its 201 it cannot tell whether a
 * comment (another first run's, or the record of an earlier run) exists: it
 * deletes its reaction and the run goes on without the lock and without a
 * comment. Our own login comes from what GitHub answers to our reaction, so
 * GitHub App installation tokens (whose `GET /user` is refused) work.
 */
import { randomUUID } from 'node:crypto'
import * as core from '@actions/core'
import { budgetOf } from './budget.js'
import { finishBeforeUndo } from '../../cancel.js'
import { NAME_WITHIN_MS, ORPHAN_AFTER_MS, STALE_AFTER_MS, type LockReaction, waitForRelease } from './wait.js'
import { type CommentRecord, type Octokit, type PullRequest, lockReactionOf } from '../comment.js'
import { CommentLock } from './held.js'
import { BudgetLowError, ClaimNotPostedError } from './errors.js'

/** What {@link acquireLock} needs. Seconds for the durations. */
export interface LockOptions {
  mode: CommentRecord['mode']
  /** Markdown of the placeholder comment ("being provisioned"). */
  placeholder: string
  pollSeconds: number
  /** How long to wait for other runs' locks in all (`wait-timeout`). */
  timeoutSeconds: number
  /** Milliseconds between heartbeats; default {@link HEARTBEAT_MS}. */
  heartbeatMs?: number
  /** Milliseconds; default {@link STALE_AFTER_MS} (tests). */
  staleAfterMs?: number
  /** Milliseconds; default {@link ORPHAN_AFTER_MS} (tests). */
  orphanAfterMs?: number
  /**
   * Called as soon as this run's reaction exists (GitHub answered 201), before
   * the marker names it: register the release for a cancel and the post step
   * here, so a cancel at any later point leaves no live lock.
   */
  onTaken?: (lock: CommentLock) => void
}

/**
 * GitHub requests a run keeps for its lock: take (1), name (list and write,
 * 2), the final report (1) and the release (1), and the 3 a deployment may
 * spend meanwhile (create, `in_progress`, `success`). A first run's check
 * for copies of the comment it posted (one listing, one-comment.ts) is not
 * kept for: refused, it only warns.
 */
export const LOCK_BUDGET = 8

/**
 * Takes the PR's lock (see the module comment), waiting for another run
 * that holds it for at most `timeoutSeconds` in all. Creates a comment only
 * when the PR has no marker comment of ours.
 * @returns the lock; `lock.home` is the comment with what an earlier run recorded (null when this run created it).
 * @throws ClaimNotPostedError when the lock cannot be taken or named for a
 *   GitHub error (after the client's retries; this run's reaction is
 *   deleted), Error naming the holder's comment when its lock is still live
 *   at the timeout, and CancelledError when the run is cancelled while waiting.
 */
export async function acquireLock(octokit: Octokit, pr: PullRequest, o: LockOptions): Promise<CommentLock> {
  const runId = randomUUID()
  const deadline = Date.now() + o.timeoutSeconds * 1000
  const { owner, repo, number } = pr
  const before = await budgetOf(octokit).read(octokit)
  if (before !== undefined && before < LOCK_BUDGET) throw new ClaimNotPostedError(pr, new BudgetLowError(before, LOCK_BUDGET))
  for (;;) {
    const sentAt = Date.now()
    const answer = await finishBeforeUndo(
      octokit.rest.reactions.createForIssue({ owner, repo, issue_number: number, content: lockReactionOf() })
    ).catch((err: unknown) => {
      throw new ClaimNotPostedError(pr, err)
    })
    const reaction: LockReaction = { id: answer.data.id, login: answer.data.user?.login ?? '' }
    if (answer.status === 201) {
      const lock = new CommentLock(octokit, pr, reaction, o.placeholder, runId, o.heartbeatMs)
      o.onTaken?.(lock)
      const left = Number(answer.headers['x-ratelimit-remaining'])
      if (answer.headers['x-ratelimit-remaining'] !== undefined && left < LOCK_BUDGET - 1) {
        // Spent by others since: release at once, while the reaction's delete still fits.
        const released = await lock.abandon()
        throw new ClaimNotPostedError(pr, new BudgetLowError(left, LOCK_BUDGET - 1), undefined, !released)
      }
      const named = await lock.name(o.mode, sentAt).catch((err: unknown) => err)
      if (named === 'named') return lock
      const released = await lock.abandon()
      if (named !== 'slow') {
        const what = named instanceof ClaimNotPostedError ? named.what : undefined
        throw new ClaimNotPostedError(pr, named instanceof ClaimNotPostedError ? named.cause : named, what, !released)
      }
      if (Date.now() >= deadline)
        throw new ClaimNotPostedError(
          pr,
          new Error(`GitHub answered the lock's naming more slowly than ${NAME_WITHIN_MS / 1000} s until wait-timeout`),
          undefined,
          !released
        )
      core.info(`Naming the lock of PR #${number} took longer than ${NAME_WITHIN_MS / 1000} s: released it, taking it again.`)
      continue
    }
    await waitForRelease(octokit, pr, reaction, deadline, {
      pollSeconds: o.pollSeconds,
      staleAfterMs: o.staleAfterMs ?? STALE_AFTER_MS,
      orphanAfterMs: o.orphanAfterMs ?? ORPHAN_AFTER_MS
    })
  }
}

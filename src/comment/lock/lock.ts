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
import { budgetOf } from './budget.js'
import { dropLeftClaims, keepOneCopy } from './one-comment.js'
import * as core from '@actions/core'
import { finishBeforeUndo } from '../../cancel.js'
import {
  HEARTBEAT_MS,
  NAME_WITHIN_MS,
  ORPHAN_AFTER_MS,
  STALE_AFTER_MS,
  type LockReaction,
  deleteLockReaction,
  lockReactionIds,
  markerComments,
  waitForRelease
} from './wait.js'
import {
  type CommentRecord,
  type FoundComment,
  type Octokit,
  type PullRequest,
  commentBody as body,
  describeGitHubError,
  lockReactionOf,
  statusOf,
  withMarker,
  withoutLock
} from '../comment.js'

export { HEARTBEAT_MS, LOCK_REACTION, NAME_WITHIN_MS, ORPHAN_AFTER_MS, STALE_AFTER_MS } from './wait.js'

/** The lock a run holds, from {@link acquireLock} until {@link CommentLock.finish}. */
export class CommentLock {
  /** True until the lock is released. */
  held = true
  /** The PR's comment whose marker names the lock (id 0 until named), with the record as this run wrote it (the lock's fields included). */
  claim: FoundComment = { id: 0, record: { mode: 'instant' } }
  /** The PR's comment with what an earlier run recorded (lock fields removed), or null when this run created the comment. */
  home: FoundComment | null = null
  /** True when this run created the comment (the PR's first run). */
  createdComment = false
  /** The comment's body before this run took the lock (written back by `finish(null)`), or null when this run created it. */
  private earlierBody: string | null = null
  /** True once the marker names this run's reaction. */
  named = false
  /** The comment's `html_url` (GitHub REST, issue comment) from this run's last write of it. */
  url?: string
  private timer?: NodeJS.Timeout
  private chain: Promise<unknown> = Promise.resolve()
  /** The release under way: a second {@link finish} (the cancel's undo step and the flow at once) waits for the first. */
  private finishing?: Promise<number | null>
  /** When a write of ours last showed the lock alive (milliseconds since the epoch). */
  private confirmedAt = 0

  constructor(
    private readonly octokit: Octokit,
    readonly pr: PullRequest,
    /** This run's lock reaction on the PR. */
    readonly reaction: LockReaction,
    private readonly placeholder: string,
    private readonly runId: string,
    private readonly heartbeatMs = HEARTBEAT_MS
  ) {}

  /** Runs `step` after every step before it (naming, heartbeats), so `finish` acts on a settled state. */
  private step<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step)
    this.chain = next.catch(() => undefined)
    return next
  }

  /**
   * Writes `text` into the PR's comment; when a user deleted it, posts it
   * again (the record must not be lost) and goes on with the new one.
   * @throws the GitHub error.
   */
  private async write(text: string): Promise<void> {
    const { owner, repo, number } = this.pr
    if (this.claim.id) {
      try {
        const { data } = await this.octokit.rest.issues.updateComment({ owner, repo, comment_id: this.claim.id, body: text })
        this.url = data.html_url
        return
      } catch (err) {
        if (statusOf(err) !== 404) throw err
      }
    }
    const { data } = await finishBeforeUndo(this.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: text }))
    // A retried POST may have made it twice (one-comment.ts): the oldest copy is the one kept.
    const kept = await keepOneCopy(this.octokit, this.pr, this.reaction.login, this.runId, text, data)
    if (this.claim.id) core.info(`The preview comment ${this.claim.id} of PR #${number} was deleted: posted it again (comment ${kept.id}).`)
    this.claim = { ...this.claim, id: kept.id }
    this.url = kept.html_url
  }

  /**
   * Names this run's reaction in the marker (see the module comment): lists
   * the PR's comments, keeps what the oldest marker comment of ours records
   * and writes the placeholder with the lock's fields into it; the PR's
   * first run (no such comment) creates it.
   * @returns 'named'; 'slow' when answered after {@link NAME_WITHIN_MS} from `sentAt` (the take is unsafe).
   * @throws ClaimNotPostedError when the comments cannot be listed (this run cannot tell whether the PR has a comment); the GitHub error of the write.
   */
  name(mode: CommentRecord['mode'], sentAt: number): Promise<'named' | 'slow'> {
    return this.step(async () => {
      const listed = await markerComments(this.octokit, this.pr, this.reaction.login).catch((err: unknown) => {
        throw new ClaimNotPostedError(this.pr, err, 'read the comments')
      })
      const found = listed[0]
      // Copies a lost answer left of a gone run's placeholder (one-comment.ts): this run holds the lock, so no live run writes them.
      await dropLeftClaims(this.octokit, this.pr, listed.slice(1))
      const earlier: CommentRecord = found ? withoutLock(found.record) : { mode }
      if (found) {
        this.home = { id: found.id, record: earlier }
        this.earlierBody = withMarker(found.body, earlier)
        this.claim = { id: found.id, record: found.record }
      }
      const since = new Date().toISOString()
      const record: CommentRecord = {
        ...earlier,
        mode: earlier.mode ?? mode,
        provisioningSince: since,
        heartbeatAt: since,
        run: this.runId,
        reaction: this.reaction.id
      }
      await this.write(body(this.placeholder, record))
      this.createdComment = !found
      this.claim = { id: this.claim.id, record }
      this.named = true
      this.confirmedAt = Date.now()
      if (Date.now() - sentAt > NAME_WITHIN_MS) return 'slow'
      this.timer = setInterval(() => void this.step(() => this.heartbeat()), this.heartbeatMs)
      this.timer.unref()
      return 'named'
    })
  }

  /** Gives the lock up before it was in use: deletes this run's reaction only. @returns false when the reaction may be left (its delete failed). Never throws. */
  abandon(): Promise<boolean> {
    if (!this.held) return Promise.resolve(true)
    this.held = false
    clearInterval(this.timer)
    return this.step(() =>
      deleteLockReaction(this.octokit, this.pr, this.reaction.id).then(
        () => true,
        () => false
      )
    )
  }

  /** True while this run's reaction is on the PR (read from GitHub); true too when it cannot be read. */
  private async stillOurs(): Promise<boolean> {
    try {
      return (await lockReactionIds(this.octokit, this.pr, this.reaction.login)).includes(this.reaction.id)
    } catch {
      return true
    }
  }

  /** Refreshes `heartbeatAt`, writing the whole comment again (a user's edit or delete is undone); stops when the lock was taken over. */
  private async heartbeat(): Promise<void> {
    if (!this.held) return
    try {
      if (!(await this.stillOurs())) {
        clearInterval(this.timer)
        core.warning(
          `The lock on PR #${this.pr.number} was taken over by another run (this run's comment was not written for ${STALE_AFTER_MS / 60_000} minutes).`
        )
        return
      }
      const record: CommentRecord = { ...this.claim.record, heartbeatAt: new Date().toISOString() }
      await this.write(body(this.placeholder, record))
      this.claim = { id: this.claim.id, record }
      this.confirmedAt = Date.now()
    } catch (err) {
      core.warning(`Could not refresh the lock in comment ${this.claim.id} on PR #${this.pr.number}: ${describeGitHubError(err)}.`)
    }
  }

  /**
   * Releases the lock: writes `markdown` and `record` into the PR's comment
   * (with `markdown` null, puts back what it said before this run; a comment
   * this run created is then deleted), then deletes this run's reaction.
   * `record` may be a function: it is called once the naming in flight has
   * settled, so it sees what an earlier run recorded (`home`) whatever step
   * the run was in. Waits for a naming write or heartbeat in flight first.
   * Writes nothing when another run took the lock over. Called again while
   * releasing, returns the same promise. Never throws: what cannot be
   * written is a warning (retries are the client's).
   * @returns the id of the comment written, or null.
   */
  finish(markdown: string | null, record: CommentRecord | (() => CommentRecord)): Promise<number | null> {
    if (this.finishing) return this.finishing
    if (!this.held) return Promise.resolve(null)
    this.held = false
    clearInterval(this.timer)
    return (this.finishing = this.step(async () => {
      const { owner, repo, number } = this.pr
      let written: number | null = null
      const mayWrite = this.named && (Date.now() - this.confirmedAt < STALE_AFTER_MS / 2 || (await this.stillOurs()))
      if (mayWrite) {
        try {
          if (markdown !== null) {
            await this.write(body(markdown, withoutLock(typeof record === 'function' ? record() : record)))
            written = this.claim.id
            core.info(`Updated the preview comment on PR #${number}.`)
          } else if (this.earlierBody !== null) {
            await this.write(this.earlierBody)
          } else {
            await this.octokit.rest.issues.deleteComment({ owner, repo, comment_id: this.claim.id }).catch((err: unknown) => {
              if (statusOf(err) !== 404) throw err
            })
          }
        } catch (err) {
          core.warning(
            `Could not write the preview comment on PR #${number}: ${describeGitHubError(err)}. The database and the outputs are unaffected.`
          )
        }
      }
      await deleteLockReaction(this.octokit, this.pr, this.reaction.id).catch((err: unknown) =>
        core.warning(
          `Could not remove this run's lock reaction on PR #${number}: ${describeGitHubError(err)}. ` +
            `Other runs of this PR take it over ${mayWrite ? STALE_AFTER_MS / 60_000 : ORPHAN_AFTER_MS / 60_000} minutes from now at the latest.`
        )
      )
      return written
    }))
  }
}

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

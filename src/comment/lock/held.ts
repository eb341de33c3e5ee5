/**
 * The PR's comment lock while a run holds it (lock.ts takes it; the module
 * comment there has the whole protocol): naming this run's reaction in the
 * comment's marker, the heartbeat that keeps the claim fresh, giving the lock
 * up before use, and the release that writes the final report and record and
 * then deletes the reaction. Each step runs after the one before it, so a
 * release acts on a settled state.
 */
import * as core from '@actions/core'
import { finishBeforeUndo } from '../../cancel.js'
import { dropLeftClaims, keepOneCopy } from './one-comment.js'
import { ClaimNotPostedError } from './errors.js'
import {
  HEARTBEAT_MS,
  NAME_WITHIN_MS,
  ORPHAN_AFTER_MS,
  STALE_AFTER_MS,
  type LockReaction,
  deleteLockReaction,
  lockReactionIds,
  markerComments
} from './wait.js'
import {
  type CommentRecord,
  type FoundComment,
  type Octokit,
  type PullRequest,
  commentBody as body,
  describeGitHubError,
  statusOf,
  withMarker,
  withoutLock
} from '../comment.js'

/** The lock a run holds, from acquireLock (lock.ts) until {@link CommentLock.finish}. */
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

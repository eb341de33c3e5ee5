/**
 * The comment lock: one run of a pull request at a time provisions (or
 * deletes) its database, and after the PR's first run no run creates a
 * comment (a new comment notifies every subscriber; a reaction and an edit
 * notify nobody).
 *
 * The lock is a reaction (👀, `eyes`) of our token's user on the PR's one
 * preview comment (the oldest of our marker comments). GitHub's create
 * reaction is a compare-and-set per user: it answers 201 when it creates the
 * reaction and 200 when this user already had it (GitHub REST, "Create
 * reaction for an issue comment"). All runs of a workflow share one user, so
 * the reaction says *that* a run holds the lock, and the comment's marker says
 * *which* and whether it is alive: the holder writes `reaction` (its
 * reaction's id, unique for every take), `run`, `provisioningSince` and
 * `heartbeatAt` into the marker right after its 201, and refreshes
 * `heartbeatAt` every minute.
 *
 * A run that meets 200 waits, reading the marker and the reactions. The
 * reaction it sees (id R) is
 * - named by the marker with a live heartbeat: held; wait;
 * - named with a heartbeat older than 5 minutes: stale (its run was killed);
 * - not named for {@link ORPHAN_AFTER_MS} of this waiter's own observation:
 *   orphaned (its run died, or lost the answer, between the 201 and naming it).
 * A stale or orphaned reaction is deleted **by its id R**, then the waiter
 * creates one again. Two waiters taking over at once both delete R (one gets
 * 204, the other 404: ids are never reused), then both create: exactly one
 * gets 201, the other 200 and waits. A late delete of R never removes a newer
 * reaction.
 *
 * Why an orphan rule cannot take a lock from a live holder: the holder keeps
 * the lock only when its naming edit (retried by the client) was answered within {@link NAME_WITHIN_MS} (half of {@link ORPHAN_AFTER_MS})
 * of sending its create; otherwise it deletes its reaction and starts again.
 * A waiter first sees R only after R was created, so its second look,
 * {@link ORPHAN_AFTER_MS} later, comes after the edit took effect, and it
 * sees R named. (Assumed, as for every lease: an edit GitHub answered has
 * taken effect, and one the client abandoned lands within that time or never.)
 *
 * Release: the holder writes the final report and record into the marker
 * (without the lock's fields), then deletes its reaction, in that order, so
 * the next holder reads the final record. A failed write leaves no dead lock:
 * an unnamed reaction is orphaned after {@link ORPHAN_AFTER_MS}, a named one
 * stale 5 minutes after its last heartbeat.
 *
 * The first run of a PR (no marker comment of ours) posts the comment, then
 * lists ours: when an older one exists (a racing first run), it deletes its
 * own and uses that one. Our own login comes from what GitHub answers to our
 * create (reaction or comment), so GitHub App installation tokens (whose
 * `GET /user` is refused) work.
 */
import { randomUUID } from 'node:crypto'
import * as core from '@actions/core'
import { finishBeforeUndo } from '../../cancel.js'
import {
  HEARTBEAT_MS,
  LOCK_REACTION,
  NAME_WITHIN_MS,
  ORPHAN_AFTER_MS,
  STALE_AFTER_MS,
  type LockReaction,
  deleteReaction,
  waitForRelease
} from './wait.js'
import {
  type CommentRecord,
  type FoundComment,
  type Octokit,
  type PullRequest,
  describeGitHubError,
  statusOf,
  markerOf,
  recordOf,
  withoutLock
} from '../comment.js'

export { HEARTBEAT_MS, LOCK_REACTION, NAME_WITHIN_MS, ORPHAN_AFTER_MS, STALE_AFTER_MS, isLiveClaim } from './wait.js'

const body = (markdown: string, record: CommentRecord): string => `${markdown}\n\n${markerOf(record)}`

/** The lock a run holds, from {@link acquireLock} until {@link CommentLock.finish}. */
export class CommentLock {
  /** True until the lock is released. */
  held = true
  /** The PR's comment whose marker carries the lock, with the record as this run wrote it (the lock's fields included). */
  claim: FoundComment
  /** The PR's comment with what an earlier run recorded (lock fields removed), or null when this run created the comment. */
  home: FoundComment | null = null
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
    commentId: number,
    /** This run's lock reaction. */
    readonly reaction: LockReaction,
    /**
     * True when this run created the comment (the PR's first run) and no
     * other run has written into it since (checked when the lock is named).
     */
    public createdComment: boolean,
    private readonly placeholder: string,
    private readonly runId: string,
    private readonly heartbeatMs = HEARTBEAT_MS
  ) {
    this.claim = { id: commentId, record: { mode: 'instant' } }
  }

  private get where() {
    return { owner: this.pr.owner, repo: this.pr.repo, comment_id: this.claim.id }
  }

  /** Runs `step` after every step before it (naming, heartbeats), so `finish` acts on a settled state. */
  private step<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step)
    this.chain = next.catch(() => undefined)
    return next
  }

  /**
   * Names this run's reaction in the marker (see the module comment): reads
   * the comment (even one this run created: a racing run may have held the
   * lock on it and recorded a database before this run's reaction), keeps
   * what it records, writes the placeholder with the lock's fields.
   * @returns 'named'; 'slow' when answered after {@link NAME_WITHIN_MS} from `sentAt` (the take is unsafe); 'gone' on 404.
   * @throws the GitHub error of the read or the edit.
   */
  name(mode: CommentRecord['mode'], sentAt: number, fresh: FoundComment | null): Promise<'named' | 'slow' | 'gone'> {
    return this.step(async () => {
      let earlier: CommentRecord
      // Read even a comment this run created: another run may have held the lock on it, and
      // recorded a database, between this run's post and its reaction (a racing first run
      // whose reaction came first). Only a marker still naming this run is untouched.
      const got = await this.octokit.rest.issues.getComment(this.where).catch((err: unknown) => {
        if (statusOf(err) === 404) return null
        throw err
      })
      if (!got) return 'gone'
      const text = got.data.body ?? ''
      const found = recordOf(text)
      if (this.createdComment && fresh && found?.run === this.runId && !found.reaction) {
        earlier = withoutLock(fresh.record)
      } else {
        this.createdComment = false
        earlier = found ? withoutLock(found) : { mode }
        this.home = { id: this.claim.id, record: earlier }
        this.earlierBody = found ? text.replace(markerOf(found), markerOf(earlier)) : text
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
      await this.octokit.rest.issues.updateComment({ ...this.where, body: body(this.placeholder, record) })
      this.claim = { id: this.claim.id, record }
      this.named = true
      this.confirmedAt = Date.now()
      if (Date.now() - sentAt > NAME_WITHIN_MS) return 'slow'
      this.timer = setInterval(() => void this.step(() => this.heartbeat()), this.heartbeatMs)
      this.timer.unref()
      return 'named'
    })
  }

  /** Gives the lock up before it was in use: deletes this run's reaction only (the marker naming a reaction that is gone is no lock). Never throws. */
  abandon(): Promise<void> {
    if (!this.held) return Promise.resolve()
    this.held = false
    clearInterval(this.timer)
    return this.step(() => deleteReaction(this.octokit, this.pr, this.claim.id, this.reaction.id).catch(() => undefined))
  }

  /** True when the marker still names this run's reaction (read from GitHub); true too when it cannot be read. */
  private async stillOurs(): Promise<boolean> {
    try {
      const { data } = await this.octokit.rest.issues.getComment(this.where)
      return recordOf(data.body ?? '')?.reaction === this.reaction.id
    } catch (err) {
      return statusOf(err) !== 404
    }
  }

  private async heartbeat(): Promise<void> {
    if (!this.held) return
    try {
      if (!(await this.stillOurs())) {
        clearInterval(this.timer)
        core.warning(
          `The lock on PR #${this.pr.number} was taken over by another run (this run's heartbeat was missing for ${STALE_AFTER_MS / 60_000} minutes).`
        )
        return
      }
      const record: CommentRecord = { ...this.claim.record, heartbeatAt: new Date().toISOString() }
      await this.octokit.rest.issues.updateComment({ ...this.where, body: body(this.placeholder, record) })
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
   * Waits for a naming edit or heartbeat in flight first. Writes nothing when
   * another run took the lock over. Called again while releasing, returns
   * the same promise. Never throws: what cannot be written is a
   * warning (retries are the client's).
   * @returns the id of the comment written, or null.
   */
  finish(markdown: string | null, record: CommentRecord): Promise<number | null> {
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
            const { data } = await this.octokit.rest.issues.updateComment({ ...this.where, body: body(markdown, withoutLock(record)) })
            this.url = data.html_url
            written = this.claim.id
            core.info(`Updated the preview comment on PR #${number}.`)
          } else if (this.earlierBody !== null) {
            await this.octokit.rest.issues.updateComment({ ...this.where, body: this.earlierBody })
          } else {
            await this.octokit.rest.issues.deleteComment({ owner, repo, comment_id: this.claim.id })
            return null // its reactions go with it
          }
        } catch (err) {
          core.warning(
            `Could not write the preview comment on PR #${number}: ${describeGitHubError(err)}. The database and the outputs are unaffected.`
          )
        }
      }
      await deleteReaction(this.octokit, this.pr, this.claim.id, this.reaction.id).catch((err: unknown) =>
        core.warning(
          `Could not remove this run's lock reaction on comment ${this.claim.id} of PR #${number}: ${describeGitHubError(err)}. ` +
            `Other runs of this PR take it over ${mayWrite ? ORPHAN_AFTER_MS / 1000 + ' s' : STALE_AFTER_MS / 60_000 + ' minutes'} from now at the latest.`
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

/** The lock could not be taken for a GitHub error (after the client's retries): the run has no lock, and none is left. */
export class ClaimNotPostedError extends Error {
  constructor(
    readonly pr: PullRequest,
    readonly cause: unknown,
    what = 'take the lock on the preview comment'
  ) {
    super(`Could not ${what} of PR #${pr.number}: ${describeGitHubError(cause)}.`)
    this.name = 'ClaimNotPostedError'
  }
}

/** A marker comment on the PR, with its author. */
interface MarkerComment extends FoundComment {
  login: string
}

/** Every marker comment on the PR, oldest first (all pages). @throws the GitHub error. */
async function listMarkerComments(octokit: Octokit, pr: PullRequest): Promise<MarkerComment[]> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    per_page: 100
  })
  const found: MarkerComment[] = []
  for (const c of comments) {
    const record = recordOf(c.body ?? '')
    if (record) found.push({ id: c.id, record, login: c.user?.login ?? '' })
  }
  return found.sort((a, b) => a.id - b.id)
}

/**
 * Takes the PR's comment lock (see the module comment), waiting for another
 * run that holds it for at most `timeoutSeconds` in all. Creates a comment
 * only when the PR has no marker comment of ours.
 * @returns the lock; `lock.home` is the comment with what an earlier run recorded (null when this run created it).
 * @throws ClaimNotPostedError when the comments cannot be read or the lock
 *   cannot be taken for a GitHub error (after the client's retries; nothing
 *   of the lock is left), Error naming the holder's comment when its lock is
 *   still live at the timeout, and CancelledError when the run is cancelled
 *   while waiting.
 */
export async function acquireLock(octokit: Octokit, pr: PullRequest, o: LockOptions): Promise<CommentLock> {
  const runId = randomUUID()
  const deadline = Date.now() + o.timeoutSeconds * 1000
  const { owner, repo, number } = pr
  const fail = (err: unknown, what?: string): never => {
    throw new ClaimNotPostedError(pr, err, what)
  }
  let login: string | null = null
  let created: MarkerComment | null = null
  let comments = await listMarkerComments(octokit, pr).catch((err: unknown) => fail(err, 'read the comments'))
  for (;;) {
    const home = comments.find((c) => login === null || c.login === login)
    if (!home) {
      // The PR's first run: post its one comment, then defer to an older one a racing first run posted.
      const since = new Date().toISOString()
      const record: CommentRecord = { mode: o.mode, provisioningSince: since, heartbeatAt: since, run: runId }
      const { data } = await finishBeforeUndo(
        octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: body(o.placeholder, record) })
      ).catch((err: unknown) => fail(err, 'post the preview comment'))
      login = data.user?.login ?? ''
      created = { id: data.id, record, login }
      comments = await listMarkerComments(octokit, pr).catch(() => [created!])
      if (!comments.some((c) => c.id === data.id)) comments.push(created)
      const first = comments.find((c) => c.login === login)!
      if (first.id !== data.id) {
        core.info(`A racing first run posted comment ${first.id}: deleting this run's comment ${data.id} and using that one.`)
        await octokit.rest.issues.deleteComment({ owner, repo, comment_id: data.id }).catch(() => undefined)
        comments = comments.filter((c) => c.id !== data.id)
        created = null
      }
      continue
    }
    const sentAt = Date.now()
    const answer = await finishBeforeUndo(
      octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: home.id, content: LOCK_REACTION })
    ).catch((err: unknown) => (statusOf(err) === 404 ? null : fail(err)))
    if (!answer) {
      // The comment was deleted (by hand): look again.
      comments = await listMarkerComments(octokit, pr).catch((err: unknown) => fail(err, 'read the comments'))
      continue
    }
    const reaction: LockReaction = { id: answer.data.id, login: answer.data.user?.login ?? '' }
    if (login === null) {
      login = reaction.login
      if (home.login !== login) {
        // Not our comment (another workflow's token): undo and look among ours.
        if (answer.status === 201) await deleteReaction(octokit, pr, home.id, reaction.id).catch(() => undefined)
        continue
      }
    }
    if (answer.status === 201) {
      const ownComment = created?.id === home.id
      const lock = new CommentLock(octokit, pr, home.id, reaction, ownComment, o.placeholder, runId, o.heartbeatMs)
      o.onTaken?.(lock)
      const named = await lock.name(o.mode, sentAt, ownComment ? created : null).catch((err: unknown) => err)
      if (named === 'named') return lock
      await lock.abandon()
      if (named === 'gone') {
        comments = await listMarkerComments(octokit, pr).catch((err: unknown) => fail(err, 'read the comments'))
        continue
      }
      if (named !== 'slow') fail(named)
      if (Date.now() >= deadline)
        fail(new Error(`GitHub answered the lock's edit more slowly than ${NAME_WITHIN_MS / 1000} s until wait-timeout`))
      core.info(`Naming the lock in comment ${home.id} took longer than ${NAME_WITHIN_MS / 1000} s: released it, taking it again.`)
      continue
    }
    await waitForRelease(octokit, pr, home, reaction, deadline, {
      pollSeconds: o.pollSeconds,
      staleAfterMs: o.staleAfterMs ?? STALE_AFTER_MS,
      orphanAfterMs: o.orphanAfterMs ?? ORPHAN_AFTER_MS
    })
  }
}

/**
 * The comment lock: one run of a pull request at a time provisions (or
 * deletes) its database. GitHub has no compare-and-set on comments, so a run
 * takes the lock by posting a claim (a placeholder comment whose marker has
 * `provisioningSince`, `heartbeatAt` and the run's random id), then lists our
 * comments: the oldest live claim wins (comment ids only grow, so every run
 * that looks after posting gets the same answer). A run that lost deletes
 * its claim, waits for the winner's claim to end, and claims again. Every
 * run takes the lock, whatever comment an earlier run left (final, failed,
 * closed, or a stale claim).
 *
 * The holder refreshes `heartbeatAt` every minute; a claim whose heartbeat is
 * older than 5 minutes is stale (its run was killed outright) and is ignored
 * and cleaned up. So a lock outlives its run by at most 5 minutes.
 *
 * When done, the holder writes the final report into the PR's comment (the
 * oldest of ours that is not a claim; its own claim when there is none) and
 * deletes its claim, in that order, so a waiting run sees the final record.
 */
import { randomUUID } from 'node:crypto'
import * as core from '@actions/core'
import { sleep } from '../http.js'
import {
  type CommentRecord,
  type FoundComment,
  type Octokit,
  type PullRequest,
  describeGitHubError,
  listOurComments,
  markerOf,
  recordOf
} from './comment.js'

/** How often the holder refreshes its claim's `heartbeatAt`, in milliseconds. */
export const HEARTBEAT_MS = 60_000
/** A claim whose heartbeat is older than this is stale (its run is gone), in milliseconds. */
export const STALE_AFTER_MS = 5 * 60_000

/** A record that is a claim of a run still alive: it has `provisioningSince` and a heartbeat younger than {@link STALE_AFTER_MS}. */
export function isLiveClaim(record: CommentRecord, now = Date.now()): boolean {
  if (!record.provisioningSince) return false
  const beat = Date.parse(record.heartbeatAt ?? record.provisioningSince)
  return Number.isFinite(beat) && now - beat < STALE_AFTER_MS
}

const body = (markdown: string, record: CommentRecord): string => `${markdown}\n\n${markerOf(record)}`

/** The lock a run holds, from {@link acquireLock} until {@link CommentLock.finish}. */
export class CommentLock {
  /** True until the lock is released. */
  held = true
  private timer?: NodeJS.Timeout
  private beat: Promise<void> = Promise.resolve()

  constructor(
    private readonly octokit: Octokit,
    readonly pr: PullRequest,
    /** This run's claim comment. */
    readonly claim: FoundComment,
    /** The PR's comment from an earlier run (its record says what may be reused), or null: then the claim becomes the comment. */
    readonly home: FoundComment | null,
    private readonly placeholder: string,
    /** Milliseconds between heartbeats. */
    heartbeatMs = HEARTBEAT_MS
  ) {
    this.timer = setInterval(() => {
      this.beat = this.beat.then(() => this.heartbeat())
    }, heartbeatMs)
    this.timer.unref()
  }

  private async heartbeat(): Promise<void> {
    if (!this.held) return
    const record: CommentRecord = { ...this.claim.record, heartbeatAt: new Date().toISOString() }
    try {
      await this.octokit.rest.issues.updateComment({ owner: this.pr.owner, repo: this.pr.repo, comment_id: this.claim.id, body: body(this.placeholder, record) })
    } catch (err) {
      core.warning(`Could not refresh the lock comment ${this.claim.id} on PR #${this.pr.number}: ${describeGitHubError(err)}.`)
    }
  }

  /**
   * Releases the lock: writes `markdown` and `record` into the PR's comment
   * (the home comment, else this run's claim), then deletes the claim when it
   * is not that comment. With `markdown` null, only deletes the claim. Never
   * throws: what cannot be written is a warning (retries are the client's).
   * @returns the id of the comment written, or null.
   */
  async finish(markdown: string | null, record: CommentRecord): Promise<number | null> {
    if (!this.held) return null
    this.held = false
    clearInterval(this.timer)
    await this.beat
    const { owner, repo, number } = this.pr
    let written: number | null = null
    if (markdown !== null) {
      for (const target of this.home ? [this.home, this.claim] : [this.claim]) {
        try {
          await this.octokit.rest.issues.updateComment({ owner, repo, comment_id: target.id, body: body(markdown, record) })
          written = target.id
          core.info(`Updated the preview comment on PR #${number}.`)
          break
        } catch (err) {
          // A home comment deleted by hand (404): write into our claim instead.
          if (target === this.home && (err as { status?: number }).status === 404) continue
          core.warning(`Could not write the preview comment on PR #${number}: ${describeGitHubError(err)}. The database and the outputs are unaffected.`)
          break
        }
      }
    }
    if (written !== this.claim.id) {
      try {
        await this.octokit.rest.issues.deleteComment({ owner, repo, comment_id: this.claim.id })
      } catch (err) {
        if ((err as { status?: number }).status !== 404) {
          core.warning(
            `Could not remove this run's lock comment ${this.claim.id} on PR #${number}: ${describeGitHubError(err)}. ` +
              `Other runs of this PR treat it as stale ${STALE_AFTER_MS / 60_000} minutes after its last heartbeat; delete it to free them sooner.`
          )
        }
      }
    }
    return written
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
}

/** The claim could not be posted (after the client's retries): the run has no lock and no comment. */
export class ClaimNotPostedError extends Error {
  constructor(readonly pr: PullRequest, readonly cause: unknown) {
    super(`Could not post the preview comment on PR #${pr.number}: ${describeGitHubError(cause)}.`)
    this.name = 'ClaimNotPostedError'
  }
}

/** Deletes comments, ignoring failures (clean-up only). */
async function deleteQuietly(octokit: Octokit, pr: PullRequest, ids: number[]): Promise<void> {
  for (const id of ids) await octokit.rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: id }).catch(() => undefined)
}

/**
 * Takes the PR's comment lock (see the module comment), waiting for other
 * runs that hold it for at most `timeoutSeconds` in all. Learns our own login
 * from the claim GitHub returns, so it works for every token type (a GitHub
 * App installation token comments as `<app>[bot]`, and `GET /user` answers
 * 403 for it).
 * @returns the lock; when the comments cannot be read right after the claim
 *   was posted, the run counts itself the holder (it warns) and releases the
 *   lock like any holder.
 * @throws ClaimNotPostedError when the claim cannot be posted (after the
 *   client's retries; any claim a lost answer left is removed), Error naming
 *   the holder's comment when its lock is still live at the timeout, and
 *   CancelledError when the run is cancelled while waiting.
 */
export async function acquireLock(octokit: Octokit, pr: PullRequest, o: LockOptions): Promise<CommentLock> {
  const runId = randomUUID()
  const deadline = Date.now() + o.timeoutSeconds * 1000
  const { owner, repo, number } = pr
  for (;;) {
    const since = new Date().toISOString()
    const record: CommentRecord = { mode: o.mode, provisioningSince: since, heartbeatAt: since, run: runId }
    let posted: { id: number; login: string }
    try {
      const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: body(o.placeholder, record) })
      posted = { id: data.id, login: data.user?.login ?? '' }
    } catch (err) {
      await removeLostClaims(octokit, pr, runId)
      throw new ClaimNotPostedError(pr, err)
    }
    let ours: FoundComment[]
    try {
      ours = await listOurComments(octokit, pr, posted.login)
    } catch (err) {
      core.warning(
        `Posted the lock comment ${posted.id} on PR #${number}, but could not read the PR's comments: ${describeGitHubError(err)}. ` +
          'This run counts itself the lock holder and goes on; it cannot see a concurrent run or what an earlier run recorded.'
      )
      return new CommentLock(octokit, pr, { id: posted.id, record }, null, o.placeholder, o.heartbeatMs)
    }
    // A retried POST whose first answer was lost may have posted our claim twice: keep the oldest.
    const mine = ours.filter((c) => c.record.run === runId)
    const claim = mine[0] ?? { id: posted.id, record }
    await deleteQuietly(octokit, pr, mine.slice(1).map((c) => c.id))
    const now = Date.now()
    const others = ours.filter((c) => c.record.run !== runId)
    const winner = others.find((c) => c.id < claim.id && isLiveClaim(c.record, now))
    if (!winner) {
      const stale = others.filter((c) => c.record.provisioningSince && !isLiveClaim(c.record, now))
      const home = others.find((c) => !c.record.provisioningSince) ?? stale[0] ?? null
      await deleteQuietly(octokit, pr, stale.filter((c) => c !== home).map((c) => c.id))
      return new CommentLock(octokit, pr, claim, home, o.placeholder, o.heartbeatMs)
    }
    await deleteQuietly(octokit, pr, [claim.id])
    core.info(`Another run of this PR holds the lock (comment ${winner.id}, provisioning since ${winner.record.provisioningSince}): waiting for it.`)
    await waitForClaim(octokit, pr, winner, deadline, o.pollSeconds)
  }
}

/** After a failed POST of our claim: deletes any claim of this run a lost answer left (found by its run id; best effort). */
async function removeLostClaims(octokit: Octokit, pr: PullRequest, runId: string): Promise<void> {
  try {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner: pr.owner, repo: pr.repo, issue_number: pr.number, per_page: 100 })
    await deleteQuietly(octokit, pr, comments.filter((c) => recordOf(c.body ?? '')?.run === runId).map((c) => c.id))
  } catch {
    // GitHub is down: such a claim goes stale after STALE_AFTER_MS.
  }
}

/**
 * Waits until `claim` is no longer a live claim: its run finished (the marker
 * lost `provisioningSince`), deleted it, or stopped refreshing it. Reads it
 * every `pollSeconds` seconds.
 * @throws Error naming the comment when it is still live at `deadline`
 *   (milliseconds since the epoch); CancelledError on a cancel.
 */
export async function waitForClaim(octokit: Octokit, pr: PullRequest, claim: FoundComment, deadline: number, pollSeconds: number): Promise<void> {
  let record: CommentRecord | null = claim.record
  for (;;) {
    try {
      const { data } = await octokit.rest.issues.getComment({ owner: pr.owner, repo: pr.repo, comment_id: claim.id })
      record = recordOf(data.body ?? '')
    } catch (err) {
      if ((err as { status?: number }).status === 404) return
      // a GitHub hiccup (after the client's retries): keep waiting on what we knew
    }
    if (!record || !isLiveClaim(record)) return
    if (Date.now() >= deadline) {
      throw new Error(
        `Another run of PR #${pr.number} has been provisioning its preview database since ${record.provisioningSince} (comment ${claim.id}) ` +
          `and did not finish within wait-timeout. Re-run when it is done; a lock whose run was killed is taken over ${STALE_AFTER_MS / 60_000} minutes after its last heartbeat.`
      )
    }
    await sleep(Math.min(pollSeconds * 1000, Math.max(0, deadline - Date.now())))
  }
}

/**
 * The waiting side of the comment lock (lock.ts has the protocol): its
 * timing constants, when a lock is live, stale or orphaned, and the wait
 * until a lock reaction is gone (released, or deleted here by its id).
 */
import * as core from '@actions/core'
import { sleep } from '../../http.js'
import {
  type CommentRecord,
  type FoundComment,
  type Octokit,
  type PullRequest,
  describeGitHubError,
  recordOf,
  statusOf
} from '../comment.js'

/** How often the holder refreshes `heartbeatAt` in the marker, in milliseconds. */
export const HEARTBEAT_MS = 60_000
/** A lock whose heartbeat is older than this is stale (its run is gone), in milliseconds. */
export const STALE_AFTER_MS = 5 * 60_000
/** A lock reaction no marker names for this long, as one waiter watches it, is orphaned, in milliseconds. */
export const ORPHAN_AFTER_MS = 60_000
/** The holder keeps a take only when its naming edit was answered within this long of sending its create, in milliseconds. */
export const NAME_WITHIN_MS = ORPHAN_AFTER_MS / 2
/** The reaction that is the lock. */
export const LOCK_REACTION = 'eyes'

/** A record that names a lock of a run still alive: it has `provisioningSince` and a heartbeat younger than `staleAfterMs` (default {@link STALE_AFTER_MS}). */
export function isLiveClaim(record: CommentRecord, now = Date.now(), staleAfterMs = STALE_AFTER_MS): boolean {
  if (!record.provisioningSince) return false
  const beat = Date.parse(record.heartbeatAt ?? record.provisioningSince)
  return Number.isFinite(beat) && now - beat < staleAfterMs
}

/** A reaction as GitHub answers it (the fields the lock reads). */
export interface LockReaction {
  id: number
  login: string
}

/** Deletes reaction `reactionId` on comment `commentId`; a 404 (already gone) is success. @throws other GitHub errors. */
export async function deleteReaction(octokit: Octokit, pr: PullRequest, commentId: number, reactionId: number): Promise<void> {
  try {
    await octokit.rest.reactions.deleteForIssueComment({ owner: pr.owner, repo: pr.repo, comment_id: commentId, reaction_id: reactionId })
  } catch (err) {
    if (statusOf(err) !== 404) throw err
  }
}

/** The lock reactions of `login` on a comment. @throws the GitHub error. */
async function lockReactions(octokit: Octokit, pr: PullRequest, commentId: number, login: string): Promise<number[]> {
  const { data } = await octokit.rest.reactions.listForIssueComment({
    owner: pr.owner,
    repo: pr.repo,
    comment_id: commentId,
    content: LOCK_REACTION,
    per_page: 100
  })
  return data.filter((r) => r.user?.login === login).map((r) => r.id)
}

/**
 * Waits until the lock reaction on `home` is gone: released by its holder,
 * or deleted here by its id when stale or orphaned (module comment). Polls
 * the marker and the reactions every `pollSeconds` seconds. Milliseconds for
 * `staleAfterMs` and `orphanAfterMs`.
 * @throws Error naming the comment when the lock is still live at `deadline`
 *   (milliseconds since the epoch); CancelledError on a cancel.
 */
export async function waitForRelease(
  octokit: Octokit,
  pr: PullRequest,
  home: FoundComment,
  seen: LockReaction,
  deadline: number,
  o: { pollSeconds: number; staleAfterMs: number; orphanAfterMs: number }
): Promise<void> {
  const staleAfter = o.staleAfterMs
  const orphanAfter = o.orphanAfterMs
  const firstSeen = new Map<number, number>([[seen.id, Date.now()]])
  let told = false
  for (;;) {
    let record: CommentRecord | null
    let ids: number[]
    try {
      const [comment, reactions] = await Promise.all([
        octokit.rest.issues.getComment({ owner: pr.owner, repo: pr.repo, comment_id: home.id }),
        lockReactions(octokit, pr, home.id, seen.login)
      ])
      record = recordOf(comment.data.body ?? '')
      ids = reactions
    } catch (err) {
      if (statusOf(err) === 404) return // the comment is gone: the caller looks again
      // A GitHub hiccup (after the client's retries): decide nothing on it, keep waiting.
      if (Date.now() >= deadline)
        throw new Error(
          `Could not read the lock of PR #${pr.number} (comment ${home.id}) before wait-timeout: ${describeGitHubError(err)}.`,
          { cause: err }
        )
      await sleep(Math.min(o.pollSeconds * 1000, Math.max(0, deadline - Date.now())))
      continue
    }
    const id = ids[0]
    if (id === undefined) return
    const now = Date.now()
    if (!firstSeen.has(id)) firstSeen.set(id, now)
    let reason: string | null = null
    if (record?.reaction === id) {
      if (!isLiveClaim(record, now, staleAfter)) reason = `stale: no heartbeat since ${record.heartbeatAt}`
    } else if (now - firstSeen.get(id)! >= orphanAfter) {
      reason = `orphaned: no run named it in ${orphanAfter / 1000} s`
    }
    if (reason) {
      core.info(`Taking over the lock of PR #${pr.number} (comment ${home.id}): its reaction ${id} is ${reason}.`)
      await deleteReaction(octokit, pr, home.id, id).catch(() => undefined)
      return
    }
    if (!told) {
      told = true
      core.info(
        `Another run of this PR holds the lock (comment ${home.id}${record?.reaction === id ? `, provisioning since ${record.provisioningSince}` : ''}): waiting for it.`
      )
    }
    if (now >= deadline) {
      throw new Error(
        `Another run of PR #${pr.number} has been provisioning its preview database since ${record?.provisioningSince ?? 'a moment ago'} (comment ${home.id}) ` +
          `and did not finish within wait-timeout. Re-run when it is done; a lock whose run was killed is taken over ${staleAfter / 60_000} minutes after its last heartbeat.`
      )
    }
    await sleep(Math.min(o.pollSeconds * 1000, Math.max(0, deadline - now)))
  }
}

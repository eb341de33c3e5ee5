/**
 * The comment lock as the post step sees it: the main step saves which lock
 * it holds (comment and reaction ids) in the runner's step state the moment
 * its reaction exists, clears it once released, and the post step releases
 * a lock still saved (a main step killed, or ended before it released).
 * The release is the same as {@link CommentLock.finish}'s: the comment says
 * the run failed when its marker still names this run's reaction (keeping
 * what it records for reuse, without the lock's fields), then the reaction
 * is deleted by its id, so a reaction of another run is never touched.
 */
import * as core from '@actions/core'
import { STATE } from '../../post-state.js'
import { type Octokit, type PullRequest, markerOf, recordOf, withoutLock } from '../comment.js'
import { deleteReaction } from './wait.js'

/** This run holds the comment lock (reaction `reactionId` on comment `commentId`) until {@link clearLock}. */
export function markLock(commentId: number, reactionId?: number): void {
  core.saveState(STATE.lockComment, JSON.stringify({ comment: commentId, reaction: reactionId }))
}

/** The lock {@link markLock} saved, from the post step's `STATE_lockComment`; null when none. */
export function savedLock(saved: string): { comment: number; reaction?: number } | null {
  if (!saved) return null
  if (/^\d+$/.test(saved)) return { comment: Number(saved) }
  const v = JSON.parse(saved) as { comment?: unknown; reaction?: unknown }
  return typeof v.comment === 'number' ? { comment: v.comment, reaction: typeof v.reaction === 'number' ? v.reaction : undefined } : null
}

/** The comment lock is released (the comment is final). */
export function clearLock(): void {
  core.saveState(STATE.lockComment, '')
}

/**
 * Releases the lock `saved` names (the post step's `STATE_lockComment`), writing
 * `failedMarkdown` over the comment when its marker still names the saved
 * reaction. Other runs would take the lock over 1 to 5 minutes later; this
 * frees them at once. An older main step's state (a claim comment id alone)
 * is handled as before: its claim comment is deleted when it still is a claim.
 * @returns true when a lock was released
 * @throws the GitHub error of the read, the edit or the delete (a 404 on the reaction is success)
 */
export async function releaseSavedLock(octokit: Octokit, pr: PullRequest, saved: string, failedMarkdown: string): Promise<boolean> {
  const lock = savedLock(saved)
  if (!lock) return false
  const { owner, repo } = pr
  const comment = await octokit.rest.issues.getComment({ owner, repo, comment_id: lock.comment }).catch(() => null)
  const record = comment ? recordOf(comment.data.body ?? '') : null
  if (lock.reaction === undefined) {
    if (record?.provisioningSince) await octokit.rest.issues.deleteComment({ owner, repo, comment_id: lock.comment })
    return false
  }
  if (record?.reaction === lock.reaction) {
    await octokit.rest.issues.updateComment({
      owner,
      repo,
      comment_id: lock.comment,
      body: `${failedMarkdown}\n\n${markerOf(withoutLock(record))}`
    })
  }
  await deleteReaction(octokit, pr, lock.comment, lock.reaction)
  return true
}

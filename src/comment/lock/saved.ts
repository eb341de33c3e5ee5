/**
 * The PR's lock as the post step sees it: the main step saves which lock it
 * holds (its reaction's id on the PR) in the runner's step state the moment
 * its reaction exists, clears it once released, and the post step releases
 * a lock still saved (a main step killed, or ended before it released).
 * The release is the same as {@link CommentLock.finish}'s: a comment whose
 * marker still names this run's reaction says the run failed (keeping what
 * it records for reuse, without the lock's fields), then the reaction is
 * deleted from the PR by its id, so a reaction of another run is never
 * touched.
 */
import * as core from '@actions/core'
import { STATE } from '../../post-state.js'
import { type Octokit, type PullRequest, commentBody, recordOf, withoutLock } from '../comment.js'
import { deleteLockReaction } from './wait.js'

/** This run holds the PR's lock (its reaction `reactionId` on the PR, made by `login`, the token's identity) until {@link clearLock}. */
export function markLock(reactionId: number, login?: string): void {
  core.saveState(STATE.lockComment, JSON.stringify({ reaction: reactionId, login }))
}

/** The lock {@link markLock} saved, from the post step's `STATE_lockComment`; null when none. */
export function savedLock(saved: string): { reaction: number; login?: string } | null {
  if (!saved) return null
  const v = JSON.parse(saved) as { reaction?: unknown; login?: unknown }
  if (typeof v.reaction !== 'number') return null
  return typeof v.login === 'string' ? { reaction: v.reaction, login: v.login } : { reaction: v.reaction }
}

/** The lock is released (the comment is final). */
export function clearLock(): void {
  core.saveState(STATE.lockComment, '')
}

/**
 * Releases the lock `saved` names (the post step's `STATE_lockComment`):
 * writes `failedMarkdown` over the PR's comment whose marker still names the
 * saved reaction (found by listing the comments: a user may have deleted the
 * comment and the holder posted it again), then deletes the reaction from
 * the PR. Other runs would take the lock over minutes later; this frees them
 * at once.
 * @returns the reaction released and the comment written (undefined when none named it), or null when nothing was saved
 * @throws the GitHub error of the edit or the delete (a 404 on the reaction is success)
 */
export async function releaseSavedLock(
  octokit: Octokit,
  pr: PullRequest,
  saved: string,
  failedMarkdown: string
): Promise<{ reaction: number; comment?: number } | null> {
  const lock = savedLock(saved)
  if (!lock) return null
  const { owner, repo, number } = pr
  const comments = await octokit
    .paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 })
    .catch(() => [])
  let comment: number | undefined
  for (const c of comments) {
    if (lock.login !== undefined && c.user?.login !== lock.login) continue
    const record = recordOf(c.body ?? '')
    if (record?.reaction !== lock.reaction) continue
    comment = c.id
    await octokit.rest.issues.updateComment({
      owner,
      repo,
      comment_id: c.id,
      body: commentBody(failedMarkdown, withoutLock(record))
    })
  }
  await deleteLockReaction(octokit, pr, lock.reaction)
  return { reaction: lock.reaction, comment }
}

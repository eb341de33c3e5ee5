/**
 * What the main step tells the post step (`runs.post`), through
 * `core.saveState` (GITHUB_STATE: appended at once, so it survives a
 * SIGKILL; the post step reads it as `STATE_<name>`, the last value saved wins).
 * An empty value means "nothing left to undo".
 */
import * as core from '@actions/core'

/** State names. */
export const STATE = {
  /** Set first thing in main: the post step knows it is the post step. */
  isPost: 'isPost',
  /**
   * `{id, name}` of a branch this run holds under its unseeded name
   * (`<name>~seeding`) and has not finished seeding: created, or renamed for
   * a reset. The post step deletes it only while it has that id and name.
   */
  unseededBranch: 'unseededBranch',
  /** `{comment, reaction}`: the PR comment and the lock reaction on it this run holds (publish/lock.ts); older versions saved the comment id alone. */
  lockComment: 'lockComment'
} as const

/** The branch this run holds under the unseeded name `branch.name`; the post step deletes it unless {@link clearUnseeded} ran (and only while it keeps that name). */
export function saveUnseeded(branch: { id: string; name: string }): void {
  core.saveState(STATE.unseededBranch, JSON.stringify({ id: branch.id, name: branch.name }))
}

/** The branch is seeded, or already deleted: nothing for the post step. */
export function clearUnseeded(): void {
  core.saveState(STATE.unseededBranch, '')
}

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

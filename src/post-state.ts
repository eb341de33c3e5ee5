/**
 * What the main step tells the post step (`runs.post`), through
 * `core.saveState` (GITHUB_STATE: appended at once, so it survives a
 * SIGKILL; the post step reads it as `STATE_<name>`, the last value saved wins).
 * An empty value means "nothing left to undo".
 */
import * as core from '@actions/core'

import { STATE } from './step-state.js'

export { STATE }

/** The branch this run holds under the unseeded name `branch.name`; the post step deletes it unless {@link clearUnseeded} ran (and only while it keeps that name). */
export function saveUnseeded(branch: { id: string; name: string }): void {
  core.saveState(STATE.unseededBranch, JSON.stringify({ id: branch.id, name: branch.name }))
}

/** A branch for this job alone (a merge group's): the post step deletes it when the job ends. */
export function saveJobBranch(branch: { id: string; name: string }): void {
  core.saveState(STATE.jobBranch, JSON.stringify({ id: branch.id, name: branch.name }))
}

/** The branch is seeded, or already deleted: nothing for the post step. */
export function clearUnseeded(): void {
  core.saveState(STATE.unseededBranch, '')
}

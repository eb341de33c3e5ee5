/**
 * The post step (`runs.post`, run by GitHub after the main step even when it
 * failed or was cancelled or killed): when the main step left an unseeded
 * branch (created, or taken out of reuse for a reset, under its unseeded
 * name) or still held the PR comment's provisioning lock, undoes that
 * (post-undo.ts, loaded only then: after a successful main, which clears
 * both, the step does nothing and loads nothing more). A branch made for
 * the job alone (a merge group's, run-source.ts) is deleted whatever main did.
 */
import * as core from '@actions/core'
import { STATE } from '../post-state.js'

/** Runs the post step. Never fails the job for what it could not undo: it warns and says what to do by hand. */
export async function runPost(): Promise<void> {
  const branch = core.getState(STATE.unseededBranch)
  const lock = core.getState(STATE.lockComment)
  const job = core.getState(STATE.jobBranch)
  if (!branch && !lock) return job ? await deleteJob(job) : undefined
  core.warning('The main step did not finish (it failed, or was cancelled or killed): undoing what it left half done.')
  const { deleteUnseeded, releaseLock } = await import('./post-undo.js')
  if (branch) {
    await deleteUnseeded(branch).catch((err: Error) =>
      core.warning(`Could not delete the unseeded branch ${branch}: ${err.message} Delete it by hand.`)
    )
  }
  if (lock) await releaseLock(lock).catch((err: Error) => core.warning(`Could not release the preview comment ${lock}: ${err.message}`))
  if (job) await deleteJob(job)
}

/** Deletes the branch made for this job alone (a merge group's): its `expires_at` removes it should this fail. */
async function deleteJob(job: string): Promise<void> {
  const { deleteJobBranch } = await import('./post-undo.js')
  await deleteJobBranch(job).catch((err: Error) =>
    core.warning(
      `Could not delete branch ${job}, made for this job alone: ${err.message} Its expiry (expires_at) removes it, or \`command: cleanup\` does.`
    )
  )
}

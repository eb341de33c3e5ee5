/**
 * The post step (`runs.post`, run by GitHub after the main step even when it
 * failed or was cancelled or killed). When main left a branch it did not
 * finish seeding (created, or taken out of reuse for a reset), under its
 * provisional name, the post step deletes it, waiting first for the branch's
 * own operations and retrying 423, which the SIGINT handler has no time for;
 * when main still held the PR comment's provisioning lock, it marks the
 * comment failed. After a successful main both are cleared, and it does nothing.
 */
import * as core from '@actions/core'
import { readSettings } from '../inputs.js'
import { PROVISIONAL_SUFFIX, deleteBranchAndWait, waitForPendingOf } from '../platform/lifecycle.js'
import { lifecycleClientOf } from '../platform/lifecycle-client.js'
import { renderReport } from '../publish/report.js'
import { type CommentRecord, githubClient, listOurComments, markerOf, pullRequestOfEvent, recordOf } from '../publish/comment.js'
import { STATE } from '../post-state.js'

/**
 * Deletes the unseeded branch named in the state, but only while it is still
 * as the main step left it (issue 20): the same id under the provisional name
 * `<name>~seeding` the state names. A branch renamed since (its seed
 * completed, or a reset's rename never happened) is in use or usable: kept.
 * A branch that another run deleted and made again has another id: kept.
 * @throws on a failed delete.
 */
async function deleteUnseeded(saved: string): Promise<void> {
  const { id, name } = JSON.parse(saved) as { id: string; name: string }
  const settings = readSettings()
  const client = lifecycleClientOf(settings)
  await core.group(`Delete branch "${name}", which the main step did not finish seeding`, async () => {
    const branch = await client.getBranch(id)
    if (!branch) return core.info(`Branch "${name}" (${id}) is already gone.`)
    if (branch.name !== name || !name.endsWith(PROVISIONAL_SUFFIX)) {
      return core.info(`Branch ${id} is now named "${branch.name}", not "${name}" as the main step left it: it is seeded or in use, so it is kept.`)
    }
    await waitForPendingOf(client, branch, settings)
    const ops = await deleteBranchAndWait(client, branch, settings)
    core.info(`Deleted branch "${name}" (${id})${ops === null ? ': it was already gone' : ''}, so the next run starts clean.`)
  })
}

/**
 * Releases the comment lock the main step still held (publish/lock.ts): when
 * its claim comment still has `provisioningSince`, deletes it if the PR has
 * an earlier preview comment of ours, or else turns it into the PR's comment
 * saying the run failed. Other runs would treat the claim as stale 5 minutes
 * after its last heartbeat; this frees them at once.
 */
async function releaseLock(saved: string): Promise<void> {
  const settings = readSettings()
  const pr = pullRequestOfEvent()
  if (!pr || !settings.githubToken) return
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  const { owner, repo } = pr
  const claim = await octokit.rest.issues.getComment({ owner, repo, comment_id: Number(saved) }).catch(() => null)
  const record = claim ? recordOf(claim.data.body ?? '') : null
  if (!claim || !record?.provisioningSince) return
  const ours = await listOurComments(octokit, pr, claim.data.user?.login ?? '')
  const home = ours.find((c) => c.id !== claim.data.id && !c.record.provisioningSince)
  if (home) {
    await octokit.rest.issues.deleteComment({ owner, repo, comment_id: claim.data.id })
  } else {
    const failed: CommentRecord = { mode: settings.mode }
    const markdown = renderReport({ mode: settings.mode, state: 'failed' })
    await octokit.rest.issues.updateComment({ owner, repo, comment_id: claim.data.id, body: `${markdown}\n\n${markerOf(failed)}` })
  }
  core.info(`Released the PR comment lock (comment ${claim.data.id}): the main step ended before the database was ready.`)
}

/** Runs the post step. Never fails the job for what it could not undo: it warns and says what to do by hand. */
export async function runPost(): Promise<void> {
  const branch = core.getState(STATE.unseededBranch)
  const lock = core.getState(STATE.lockComment)
  if (!branch && !lock) return
  core.warning('The main step did not finish (it failed, or was cancelled or killed): undoing what it left half done.')
  if (branch) {
    await deleteUnseeded(branch).catch((err: Error) =>
      core.warning(`Could not delete the unseeded branch ${branch}: ${err.message} Delete it by hand.`)
    )
  }
  if (lock) await releaseLock(lock).catch((err: Error) => core.warning(`Could not release the preview comment ${lock}: ${err.message}`))
}

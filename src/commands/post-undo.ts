/**
 * What the post step undoes (commands/post.ts loads this module only when
 * there is something to undo). When main created a branch it did not
 * finish seeding (created, or taken out of reuse for a reset) and that is
 * still under its unseeded name, the post step deletes it, waiting first for the branch's
 * own operations and retrying 423, which the SIGINT handler has no time for;
 * when main still held the PR comment's provisioning lock, it marks the
 * comment failed. After a successful main both are cleared, and it does nothing.
 */
import * as core from '@actions/core'
import { readSettings } from '../inputs.js'
import { deleteBranchAndWait } from '../platform/branch-delete.js'
import { waitForPendingOf } from '../platform/branch-wait.js'
import { UNSEEDED_SUFFIX } from '../platform/preview-branch.js'
import { neonClientOf } from '../platform/client.js'
import { ownerOf } from '../platform/annotations.js'
import { waitForBusyProject } from '../platform/project-wait.js'
import { renderReport } from '../publish/report.js'
import { githubClient, pullRequestOfEvent } from '../comment/comment.js'
import { releaseSavedLock, savedLock } from '../comment/lock/saved.js'

/**
 * Deletes the unseeded branch named in the state, but only while it is still
 * as the main step left it: the same id under the unseeded name
 * `<name>~seeding` the state names. A branch renamed since (its seed
 * completed, or a reset's rename never happened) is in use or usable: kept.
 * A branch that another run deleted and made again has another id: kept.
 * @throws on a failed delete.
 */
export async function deleteUnseeded(saved: string): Promise<void> {
  const { id, name } = JSON.parse(saved) as { id: string; name: string }
  const settings = readSettings()
  const client = neonClientOf(settings)
  waitForBusyProject(client, settings)
  await core.group(`Delete branch "${name}", which the main step did not finish seeding`, async () => {
    const branch = await client.getBranch(id)
    if (!branch) return core.info(`Branch "${name}" (${id}) is already gone.`)
    if (branch.name !== name || !name.endsWith(UNSEEDED_SUFFIX)) {
      return core.info(
        `Branch ${id} is now named "${branch.name}", not "${name}" as the main step left it: it is seeded or in use, so it is kept.`
      )
    }
    await waitForPendingOf(client, branch, settings)
    const ops = await deleteBranchAndWait(client, branch, settings)
    core.info(`Deleted branch "${name}" (${id})${ops === null ? ': it was already gone' : ''}, so the next run starts clean.`)
  })
}

/**
 * Deletes the branch made for this job alone (a merge group's) that the state names, by its id:
 * its job is over. A branch of that id that is not ours (no annotations of this repository's
 * merge groups) is kept.
 * @throws on a failed delete.
 */
export async function deleteJobBranch(saved: string): Promise<void> {
  const { id, name } = JSON.parse(saved) as { id: string; name: string }
  const settings = readSettings()
  const client = neonClientOf(settings)
  waitForBusyProject(client, settings)
  await core.group(`Delete branch "${name}", made for this job alone`, async () => {
    const found = await client.branchWithAnnotations(id)
    if (!found) return core.info(`Branch "${name}" (${id}) is already gone.`)
    if (ownerOf(found.annotations)?.kind !== 'merge-group') return core.info(`Branch ${id} is not a merge group's: kept.`)
    await waitForPendingOf(client, found.branch, settings)
    const ops = await deleteBranchAndWait(client, found.branch, settings)
    core.info(`Deleted branch "${found.branch.name}" (${id})${ops === null ? ': it was already gone' : ''}: the job that had it is over.`)
  })
}

/** Releases the PR's lock the main step still held (comment/lock/saved.ts), saying in the comment that the run failed. */
export async function releaseLock(saved: string): Promise<void> {
  const settings = readSettings()
  const pr = pullRequestOfEvent()
  if (!pr || !settings.githubToken || !savedLock(saved)) return
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  const released = await releaseSavedLock(octokit, pr, saved, renderReport({ mode: settings.mode, state: 'failed' }))
  if (released) {
    core.info(
      `Released the PR comment lock (${released.comment ? `comment ${released.comment}` : `reaction ${released.reaction}`}): the main step ended before the database was ready.`
    )
  }
}

/**
 * What the post step undoes (commands/post.ts loads this module only when
 * there is something to undo). When main created a branch it did not
 * finish seeding, the post step deletes it, waiting first for the branch's
 * own operations and retrying 423, which the SIGINT handler has no time for;
 * when main still held the PR comment's provisioning lock, it marks the
 * comment failed. After a successful main both are cleared, and it does nothing.
 */
import * as core from '@actions/core'
import { readSettings } from '../inputs.js'
import { deleteBranchAndWait } from '../platform/lifecycle.js'
import { lifecycleClientOf } from '../platform/lifecycle-client.js'
import { waitForOperations } from '../platform/operations.js'
import { renderReport } from '../publish/report.js'
import { type CommentRecord, githubClient, listOurComments, markerOf, pullRequestOfEvent, recordOf } from '../publish/comment.js'

/** Deletes the unseeded branch named in the state. @throws on a failed delete. */
export async function deleteUnseeded(saved: string): Promise<void> {
  const { id, name } = JSON.parse(saved) as { id: string; name: string }
  const settings = readSettings()
  const client = lifecycleClientOf(settings)
  await core.group(`Delete branch "${name}", which the main step created but did not finish seeding`, async () => {
    const branch = await client.getBranch(id)
    if (!branch) return core.info(`Branch "${name}" (${id}) is already gone.`)
    const since = new Date(Math.max(Date.parse(branch.created_at) || 0, Date.now() - 3600_000)).toISOString()
    const pending = await client.pendingOperationsOf(id, since)
    if (pending.length) {
      core.info(`Waiting for ${pending.length} operation(s) still running on branch "${name}".`)
      await waitForOperations(pending, { ...settings, get: (op) => client.getOperation(op) })
    }
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
export async function releaseLock(saved: string): Promise<void> {
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

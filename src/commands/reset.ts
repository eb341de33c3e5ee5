/**
 * `command: reset`: restores the PR's branch in place from its parent's
 * latest state (platform spec, `POST /projects/{project_id}/branches/{branch_id}/restore`
 * with `source_branch_id` the parent), so the branch id, its compute and the
 * connection strings stay the same; the restore's 423 is retried and its
 * operations waited on. Then `seed`, `migrate-command` and `seed-command` run again (schema before data).
 *
 * A branch under the PR's name is a seeded one (platform/lifecycle.ts),
 * so before the restore the branch leaves that name: it is renamed to
 * `<name>~seeding` (markUnseeded, with the post step's state saved first
 * and the cancel's undo step registered), and renamed back only after the
 * seed (markSeeded). A lost restore answer, a cancel or a kill at any point
 * leaves an unseeded branch, which no run reuses and which the post step,
 * the cancel's undo step or the next run deletes. A failed seed deletes it.
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import type { Settings } from '../settings.js'
import { type Connection, describeConnection } from '../connection.js'
import { markUnseeded, markSeeded } from '../platform/lifecycle.js'
import { deleteBranchAndWait } from '../platform/branch-delete.js'
import { logArchived } from '../platform/branch-wait.js'
import { BranchRefusedError, UNSEEDED_SUFFIX, refuseProtected } from '../platform/preview-branch.js'
import { connectionOf } from '../platform/branch-connection.js'
import { UNSEEDED_BRANCH, isCancelled, offCancel, throwIfCancelled } from '../cancel.js'
import type { NeonClient } from '../platform/client.js'
import { recordUse } from '../platform/expiry.js'
import { ProjectBusyError, retryLocked } from '../platform/retry-423.js'
import { type Operation, summarise, waitForOperations } from '../platform/operations.js'
import { usageOf } from '../platform/usage.js'
import { maskConnection, setOutputs } from '../publish/outputs.js'
import { writeEnvFile } from '../publish/env-file.js'
import type { Report } from '../publish/report.js'
import { type Publication, publish } from '../publish/publication.js'
import { failWiring, wirePreview } from '../vercel/preview.js'
import { schemaResult } from '../schema/track.js'
import type { SeedPlan } from '../seed/loader.js'
import { seedOrUndo } from './seed-step.js'
import { clearUnseeded } from '../post-state.js'
import type { Branch } from '../platform/client.js'

/** The refusal of a reset of a branch with children (platform spec, BranchRestoreRequest.preserve_under_name). */
function childrenRefusal(name: string, detail: string): BranchRefusedError {
  return new BranchRefusedError(
    `Cannot reset branch "${name}": Neon requires \`preserve_under_name\` to restore it (${detail}), because it has child branches. ` +
      `A reset keeps the branch's id and connection strings, so the action does not move the children aside: delete the child branches of "${name}" ` +
      '(or restore it by hand in the console, keeping its old state under a new name), then run the reset again.'
  )
}

/** The restore refused because the branch has children (a child made after the check). */
function explainRestoreRefusal(err: unknown, name: string): unknown {
  if (!(err instanceof HttpError) || err.status !== 400 || !/preserve_under_name/i.test(err.serviceMessage ?? '')) return err
  return childrenRefusal(name, `"${err.serviceMessage}"`)
}

/** An answer that says the restore did not happen: a 4xx, or 423 Locked to the last retry (not a lost answer, a timeout or a 5xx). */
const refused = (err: unknown): boolean =>
  (err instanceof HttpError && err.status >= 400 && err.status < 500) || err instanceof ProjectBusyError

/**
 * The platform lists `restore` among an anonymized branch's
 * `restricted_actions` (platform spec, Branch.restricted_actions): a reset
 * would bring back the parent's unmasked rows. Refused before any change.
 * @throws BranchRefusedError
 */
function refuseRestricted(branch: Branch): void {
  const restore = branch.restricted_actions?.find((a) => a.name === 'restore')
  if (!restore) return
  throw new BranchRefusedError(
    `Cannot reset branch "${branch.name}" (${branch.id}): Neon does not allow restoring it ("${restore.reason}"); an anonymized branch cannot be reset. ` +
      'Nothing was changed. Delete it with `command: delete` and create it again with `command: create`, which copies the parent afresh and masks it again.'
  )
}

/**
 * Resets the branch named `name` (or, with `branch-id`, the branch with that id) and seeds it again.
 * @throws BranchRefusedError (no such branch, default or protected, no parent, children), ProjectBusyError, OperationError, HttpError, SeedError.
 */
export async function resetBranch(
  client: NeonClient,
  settings: Settings,
  name: string,
  seed: SeedPlan | null,
  pub: Publication,
  fingerprint: string
): Promise<void> {
  const branches = await client.listBranches()
  const branch = branches.find((b) => (settings.branchId ? b.id === settings.branchId : b.name === name))
  if (!branch) {
    throw new BranchRefusedError(
      settings.branchId
        ? `Branch ${settings.branchId} (input \`branch-id\`) does not exist in the project, so there is nothing to reset.`
        : `Branch "${name}" does not exist, so there is nothing to reset. Run the action with \`command: create\` first.`
    )
  }
  refuseProtected(branch, 'reset', settings.branchId ? 'branch-id' : 'branch-name')
  if (branch.name.endsWith(UNSEEDED_SUFFIX)) {
    throw new BranchRefusedError(
      `Cannot reset branch "${branch.name}" (${branch.id}): its seed never completed. Delete it with \`command: delete\` and create it again.`
    )
  }
  const branchName = branch.name
  refuseRestricted(branch)
  const parent = branch.parent_id ? await client.getBranch(branch.parent_id) : null
  if (!parent) {
    throw new BranchRefusedError(
      `Branch "${branch.name}" has no parent to reset from (${branch.init_source === 'schema-only' ? 'a schema-only branch is a root branch' : 'its parent was deleted'}). ` +
        'Delete it with `command: delete` and create it again instead.'
    )
  }
  const children = branches.filter((b) => b.parent_id === branch.id)
  if (children.length) throw childrenRefusal(branch.name, `children: ${children.map((c) => `"${c.name}"`).join(', ')}`)
  logArchived(branch)
  const { restored, connection, undoUnseeded, markSeededAgain } = await restoreUnseeded(client, settings, branch, parent, branchName)
  maskConnection(connection)
  // The restore moved the branch's updated_at (its last use for max-age); with expires-in the expiry moves too.
  const expiresAt = settings.expiresInSeconds > 0 ? await recordUse(client, restored.branch, settings) : restored.branch.expires_at
  const report: Report = {
    mode: 'branch',
    state: 'reset',
    projectId: settings.projectId,
    branchId: branch.id,
    branchName: branch.name,
    parentBranch: parent.name,
    host: connection.directHost,
    operations: restored.operations.map(summarise),
    resetAt: (restored.branch as { last_reset_at?: string }).last_reset_at ?? new Date().toISOString(),
    expiresAt,
    usage: usageOf(branch) // as the lookup read it, before the restore
  }
  const undo = async (): Promise<void> => {
    await undoUnseeded()
    await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'branch' })
  }
  // After the restore the branch is its parent's copy again: the diff is what the seed and the commands change.
  report.schema = schemaResult(settings, await seedOrUndo(settings, seed, connection, report, undo), true).report
  await markSeededAgain()
  throwIfCancelled()
  setOutputs({
    mode: 'branch',
    created: false,
    connection,
    projectId: settings.projectId,
    branchId: branch.id,
    branchName: branch.name,
    expiresAt,
    migrationReport: report.migrationCost?.file,
    usage: report.usage
  })
  if (settings.envFile)
    await writeEnvFile(settings.envFile, { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl }, settings.envNames)
  core.info(`Reset branch "${branch.name}" (${branch.id}): same id and connection strings, seeded again.`)
  const wired = await wirePreview(settings, pub.pr, connection) // the same strings: normally nothing to write or deploy
  if (wired) report.vercel = wired.report
  await publish(pub, report, { mode: 'branch', branchId: branch.id, branchName: branch.name, fingerprint })
  failWiring(wired)
}

/** A branch restored from its parent under its unseeded name, and what finishes or undoes it. */
export interface RestoredUnseeded {
  /** The branch under `<name>~seeding`. */
  unseeded: Branch
  /** The branch as the restore left it, and the operations the restore ran (in their terminal state). */
  restored: { branch: Branch; operations: Operation[] }
  /** Its connection (not yet masked). */
  connection: Connection
  /** After a failed seed: deletes it (its name keeps every run from reusing it if even that fails). */
  undoUnseeded(): Promise<void>
  /** After the seed committed: gives it the PR's name back, so later runs reuse it. @returns the renamed branch */
  markSeededAgain(): Promise<Branch>
}

/**
 * Restores `branch` in place from `parent`'s latest state, never leaving it
 * reusable unseeded: it leaves the PR's name first (`<name>~seeding`,
 * markUnseeded: the post step's state saved and the cancel's undo step
 * registered), is restored (423 retried, operations waited on; a restore the
 * Neon API refuses gives the name back), and its connection is read. Shared by
 * `command: reset` and the rebuild of a reused branch whose seed changed.
 * @throws HttpError, ProjectBusyError, OperationError, BranchRefusedError (an anonymized branch, whose restore Neon restricts; a restore refused because of child branches)
 */
export async function restoreUnseeded(
  client: NeonClient,
  settings: Settings,
  branch: Branch,
  parent: Branch,
  branchName: string
): Promise<RestoredUnseeded> {
  refuseRestricted(branch) // an anonymized branch is never restored from its unmasked parent, whoever asks
  const wait = { ...settings, get: (id: string) => client.getOperation(id) }
  const unseeded = await core.group(`Take branch "${branch.name}" out of reuse until it is seeded again`, () =>
    markUnseeded(client, branch, settings)
  )
  const restored = await core.group(`Reset branch "${branch.name}" to the latest state of "${parent.name}"`, async () => {
    let res
    let since = Date.now()
    try {
      res = await retryLocked(`Restore branch "${unseeded.name}"`, () => {
        since = Date.now()
        return client.restoreBranch(branch.id, { source_branch_id: parent.id })
      })
    } catch (err) {
      if (refused(err) && !isCancelled()) await giveNameBack(client, unseeded, branchName)
      throw explainRestoreRefusal(err, branch.name)
    }
    core.info(
      `Restoring branch "${unseeded.name}" (${branch.id}) from "${parent.name}"; waiting for ${res.operations.length} operation(s).`
    )
    return { ...res, operations: await waitForOperations(res.operations, { ...wait, since }) }
  })
  const { pooledUrl, directUrl } = await connectionOf(client, branch, settings)
  return {
    unseeded,
    restored,
    connection: describeConnection(pooledUrl, directUrl),
    async undoUnseeded() {
      offCancel(UNSEEDED_BRANCH)
      await core.group(`Delete the reset branch "${unseeded.name}", whose seed failed`, async () => {
        try {
          await deleteBranchAndWait(client, unseeded, settings)
          clearUnseeded()
          core.info(`Deleted branch "${unseeded.name}" so the next run creates "${branch.name}" fresh.`)
        } catch (err) {
          core.warning(
            `Could not delete branch "${unseeded.name}" (${branch.id}): ${(err as Error).message} Its name marks it unseeded, so no run reuses it: the next run deletes it.`
          )
        }
      })
    },
    async markSeededAgain() {
      // Only now does the branch carry the PR's name again, which is what later runs reuse.
      const named = await core.group(`Mark branch "${branch.name}" seeded`, () => markSeeded(client, unseeded, branchName, settings))
      offCancel(UNSEEDED_BRANCH)
      clearUnseeded()
      return named
    }
  }
}

/** After a restore the platform refused (it changed nothing), the branch gets the PR's name back; on failure the post step deletes it. */
async function giveNameBack(client: NeonClient, unseeded: Branch, name: string): Promise<void> {
  try {
    await retryLocked(`Rename branch "${unseeded.name}"`, () => client.renameBranch(unseeded.id, name))
    offCancel(UNSEEDED_BRANCH)
    clearUnseeded()
    core.info(`The restore was refused, so branch "${unseeded.name}" is unchanged: renamed it back to "${name}".`)
  } catch (err) {
    core.warning(
      `Could not rename branch "${unseeded.name}" back to "${name}" (${(err as Error).message}); the post step deletes it, and the next run creates it fresh.`
    )
  }
}

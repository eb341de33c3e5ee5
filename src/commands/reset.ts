/**
 * `command: reset`: restores the PR's branch in place from its parent's
 * latest state (platform spec, `POST /projects/{project_id}/branches/{branch_id}/restore`
 * with `source_branch_id` the parent), so the branch id, its compute and the
 * connection strings stay the same; the restore's 423 is retried and its
 * operations waited on. Then `seed` and `seed-command` run again. Until the
 * seed is done the branch is marked for the post step, and a failed seed
 * deletes it (a reset branch without its seed must not be reused).
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import type { Settings } from '../inputs.js'
import { type Connection, describeConnection } from '../connection.js'
import { BranchRefusedError, connectionOf, deleteBranchAndWait } from '../platform/lifecycle.js'
import type { Branch } from '../platform/client.js'
import { lifecycleClientOf } from '../platform/lifecycle-client.js'
import { extendExpiry } from '../platform/expiry.js'
import { retryLocked } from '../platform/locked.js'
import { summarise, waitForOperations } from '../platform/operations.js'
import { maskConnection, setOutputs } from '../publish/outputs.js'
import { writeEnvFile } from '../publish/env-file.js'
import type { Report } from '../publish/report.js'
import type { CommentRecord } from '../publish/comment.js'
import { clearUnseeded, markUnseeded } from '../post-state.js'

/** What main.ts lends the reset: publishing (PR comment and summary) and seeding with an undo. */
export interface ResetHooks {
  publish(report: Report, record: CommentRecord): Promise<void>
  /** Loads the checked seed files and runs `seed-command`; on failure runs `undo` and rethrows. Sets `report.seedFiles`. */
  seed(connection: Connection, report: Report, undo: () => Promise<void>): Promise<void>
}

/** The restore refused because the branch has children (platform spec, BranchRestoreRequest.preserve_under_name). */
function explainRestoreRefusal(err: unknown, name: string): unknown {
  if (!(err instanceof HttpError) || err.status !== 400 || !/preserve_under_name/i.test(err.serviceMessage ?? '')) return err
  return new BranchRefusedError(
    `Cannot reset branch "${name}": the platform requires \`preserve_under_name\` to restore it ("${err.serviceMessage}"), because it has child branches. ` +
      `A reset keeps the branch's id and connection strings, so the action does not move the children aside: delete the child branches of "${name}" ` +
      '(or restore it by hand in the console, keeping its old state under a new name), then run the reset again.'
  )
}

/**
 * issue 25: the platform lists `restore` among an anonymized branch's
 * `restricted_actions` (platform spec, Branch.restricted_actions): a reset
 * would bring back the parent's unmasked rows. Refused before any change.
 * @throws BranchRefusedError
 */
function refuseRestricted(branch: Branch): void {
  const restore = branch.restricted_actions?.find((a) => a.name === 'restore')
  if (!restore) return
  throw new BranchRefusedError(
    `Cannot reset branch "${branch.name}" (${branch.id}): the platform does not allow restoring it ("${restore.reason}"); an anonymized branch cannot be reset. ` +
      'Nothing was changed. Delete it with `command: delete` and create it again with `command: create`, which copies the parent afresh and masks it again.'
  )
}

/**
 * Resets the branch named `branchName` and seeds it again.
 * @throws BranchRefusedError (no such branch, default or protected, no parent, children), ProjectBusyError, OperationError, HttpError, SeedError.
 */
export async function resetBranch(settings: Settings, branchName: string, hooks: ResetHooks): Promise<void> {
  const client = lifecycleClientOf(settings)
  const branch = (await client.listBranches()).find((b) => b.name === branchName)
  if (!branch) {
    throw new BranchRefusedError(`Branch "${branchName}" does not exist, so there is nothing to reset. Run the action with \`command: create\` first.`)
  }
  if (branch.default || branch.protected) {
    throw new BranchRefusedError(`Refusing to reset branch "${branch.name}" (${branch.id}): it is the project's ${branch.default ? 'default' : 'protected'} branch. Set \`branch-name\` to a preview branch name.`)
  }
  refuseRestricted(branch)
  const parent = branch.parent_id ? await client.getBranch(branch.parent_id) : null
  if (!parent) {
    throw new BranchRefusedError(
      `Branch "${branch.name}" has no parent to reset from (${branch.init_source === 'schema-only' ? 'a schema-only branch is a root branch' : 'its parent was deleted'}). ` +
        'Delete it with `command: delete` and create it again instead.'
    )
  }
  const wait = { ...settings, get: (id: string) => client.getOperation(id) }
  const restored = await core.group(`Reset branch "${branch.name}" to the latest state of "${parent.name}"`, async () => {
    const res = await retryLocked(`Restore branch "${branch.name}"`, () => client.restoreBranch(branch.id, { source_branch_id: parent.id })).catch((err: unknown) =>
      Promise.reject(explainRestoreRefusal(err, branch.name))
    )
    markUnseeded(branch)
    core.info(`Restoring branch "${branch.name}" (${branch.id}) from "${parent.name}"; waiting for ${res.operations.length} operation(s).`)
    return { ...res, operations: await waitForOperations(res.operations, wait) }
  })
  const { pooledUrl, directUrl } = await connectionOf(client, branch, settings)
  const connection = describeConnection(pooledUrl, directUrl)
  maskConnection(connection)
  const expiresAt = await extendExpiry(client, restored.branch, settings)
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
    expiresAt
  }
  await hooks.seed(connection, report, async () => {
    await core.group(`Delete the reset branch "${branch.name}", whose seed failed`, async () => {
      try {
        await deleteBranchAndWait(client, branch, settings)
        clearUnseeded()
        core.info(`Deleted branch "${branch.name}" so the next run creates it fresh.`)
      } catch (err) {
        core.warning(`Could not delete branch "${branch.name}" (${branch.id}): ${(err as Error).message} Delete it by hand.`)
      }
    })
    await hooks.publish({ ...report, state: 'seed-failed' }, { mode: 'branch' })
  })
  clearUnseeded()
  setOutputs({ mode: 'branch', created: false, connection, projectId: settings.projectId, branchId: branch.id, branchName: branch.name, expiresAt })
  if (settings.envFile) await writeEnvFile(settings.envFile, { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl }, settings.envNames)
  core.info(`Reset branch "${branch.name}" (${branch.id}): same id and connection strings, seeded again.`)
  await hooks.publish(report, { mode: 'branch', branchId: branch.id, branchName: branch.name })
}

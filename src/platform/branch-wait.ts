/**
 * Waiting on one branch: the options of a wait for the run's own operations, the wait for the operations
 * still running on a branch before a request changes it (a DELETE or PATCH meets 423 until they end, Neon
 * operations guide), and the log line of an archived branch. Shared by the lifecycle, the delete and the
 * commands that change a branch.
 */
import * as core from '@actions/core'
import type { Branch, NeonClient } from './client.js'
import { type Operation, waitForOperations } from './operations.js'

/** How a wait polls and how long it may take, seconds (the inputs `poll-interval` and `wait-timeout`). */
export interface WaitSettings {
  pollIntervalSeconds: number
  waitTimeoutSeconds: number
}

/**
 * Operations a poll lists when it waits for two or more of its own (operations.ts `list`): a request that
 * starts work holds the project until its operations end, so they are among its newest.
 */
const OWN_OPERATIONS_PAGE = 10

/**
 * The options of operations.ts's wait for this run's own operations: `get` reads one by id, `list` the
 * project's newest page ({@link OWN_OPERATIONS_PAGE}).
 */
export function waitOptions(client: NeonClient, o: WaitSettings) {
  return {
    pollIntervalSeconds: o.pollIntervalSeconds,
    waitTimeoutSeconds: o.waitTimeoutSeconds,
    get: (id: string) => client.getOperation(id),
    list: async () => (await client.listOperations(OWN_OPERATIONS_PAGE)).operations
  }
}

/**
 * Waits for the operations still running on `branch` (started within the
 * last hour and since it was created): another run's create, a compute start
 * a cancelled run left, a restore. A DELETE or PATCH meets 423 until they end
 * (Neon operations guide), so every path waits for them first.
 * @returns those operations, in their terminal state (empty when none ran).
 * @throws OperationError, or Error after `waitTimeoutSeconds`.
 */
export async function waitForPendingOf(client: NeonClient, branch: Branch, o: WaitSettings): Promise<Operation[]> {
  const since = new Date(Math.max(Date.parse(branch.created_at) || 0, Date.now() - 3600_000)).toISOString()
  const pending = await client.pendingOperationsOf(branch.id, since)
  if (!pending.length) return []
  core.info(`Waiting for ${pending.length} operation(s) still running on branch "${branch.name}".`)
  return await waitForOperations(pending, waitOptions(client, o))
}

/** The one log line for an archived branch: Neon unarchives it on this access (a `timeline_unarchive` operation, waited out like any other). */
export function logArchived(branch: Branch): void {
  if (branch.current_state === 'archived')
    core.info(
      `Branch "${branch.name}" (${branch.id}) is archived (Neon archives branches unused for a while): Neon unarchives it on this access (operation timeline_unarchive); waiting for it.`
    )
}

/**
 * Deleting a branch: one DELETE (423 retried per the Neon operations guide, Errors), then the wait for the
 * operations it started; the sweep's deletes share the project through {@link DeleteSharing}.
 */
import type { Branch, NeonClient } from './client.js'
import { refuseProtected } from './preview-branch.js'
import { retryLocked } from './retry-423.js'
import { type Operation, waitForOperations } from './operations.js'
import { type WaitSettings, logArchived, waitOptions } from './branch-wait.js'

/**
 * Deletes `branch` (423 retried per the Neon operations guide, Errors) and waits for the operations
 * the delete started; with `shared`, one DELETE of the sweep is sent at a time and the polls share
 * one listing of the project's operations.
 * @returns those operations; null when the branch was already gone.
 */
export async function deleteBranchAndWait(
  client: NeonClient,
  branch: Branch,
  o: WaitSettings,
  shared?: DeleteSharing
): Promise<Operation[] | null> {
  refuseProtected(branch, 'delete')
  logArchived(branch)
  const label = `Delete branch "${branch.name}"`
  let since = Date.now()
  const attempt = (): Promise<Operation[] | null> => {
    since = Date.now()
    return client.deleteBranch(branch.id)
  }
  const ops = shared ? await shared.send(label, attempt) : await retryLocked(label, attempt)
  if (ops === null) return null
  return await waitForOperations(ops, {
    ...waitOptions(client, o),
    since,
    ...(shared ? { get: shared.get, list: undefined } : {})
  })
}

/** How deletes running at once share the project (the sweep, sweep/pace.ts). */
export interface DeleteSharing {
  /**
   * Sends a DELETE when no other delete of the sweep is sending one: `attempt` is one request,
   * resent on 423 per retry-423.ts; `label` names it in those retries' log lines.
   */
  send<T>(label: string, attempt: () => Promise<T>): Promise<T>
  /** Reads an operation from one listing shared by every delete polling at once. */
  get(id: string): Promise<Operation>
}

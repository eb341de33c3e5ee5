/**
 * The create of a preview's unseeded branch, and what a run does when the create's answer is lost: the
 * lookup by name that tells whether Neon made it anyway (platform/lifecycle.ts uses it).
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import { type Branch, type ConnectionUri, type CreatedBranch, NeonClient, PlatformResponseError } from './client.js'
import { UNSEEDED_SUFFIX, findPreviewBranches } from './preview-branch.js'
import { retryLocked } from './retry-423.js'
import { ANNOTATION } from './annotations.js'
import type { Operation } from './operations.js'
import type { CreateBranchExtras } from './shapes.js'

/**
 * A create whose answer does not say what happened: a timeout, a reset, a
 * 5xx (after the 503 retries), or a 2xx we could not read. The platform may
 * have made the branch.
 */
function unanswered(err: unknown): err is HttpError | PlatformResponseError {
  return (
    err instanceof PlatformResponseError ||
    (err instanceof HttpError && (err.status === 0 || err.status >= 500 || (err.status >= 200 && err.status < 300)))
  )
}

/**
 * Creates the unseeded branch. After an unanswered create (its answer
 * lost to a timeout or a reset, or a 5xx) looks the name up: a branch the
 * platform made anyway is adopted with the operations still pending on it,
 * so this run finishes the job (wait, seed, rename) or deletes it; one that carries another run's claim
 * (annotations.ts, `RUN_CLAIM`) is that run's, reported as Neon's HTTP 409 for a taken name.
 * @returns the branch, its pending operations, its connection URIs and when the answered create was sent
 *   (milliseconds since the epoch; the operations' wait counts from it) if the create answered.
 */
export async function createUnseeded(
  client: NeonClient,
  parent: Branch,
  name: string,
  extras?: CreateBranchExtras,
  anonymized?: { create(parent: Branch, name: string, extras?: CreateBranchExtras): Promise<CreatedBranch> }
): Promise<{ branch: Branch; operations: Operation[]; uris: ConnectionUri[]; sentAt?: number }> {
  const since = new Date(Date.now() - 60_000).toISOString()
  try {
    let sentAt = Date.now()
    const create = () => {
      sentAt = Date.now()
      return anonymized ? anonymized.create(parent, name, extras) : client.createBranch(parent.id, name, extras)
    }
    const created = await retryLocked(`Create branch "${name}"`, create)
    return { branch: created.branch, operations: created.operations, uris: created.connection_uris, sentAt }
  } catch (err) {
    if (!unanswered(err)) throw err
    core.warning(`${err.message} Looking the branch up by name, in case Neon made it.`)
    let made: Branch | null
    try {
      made = (await findPreviewBranches(client, name.slice(0, -UNSEEDED_SUFFIX.length))).unseeded
    } catch (e) {
      throw new Error(
        `${err.message} The lookup that would tell whether the branch was made failed too (${(e as Error).message}); if branch "${name}" exists, the next run deletes it.`,
        { cause: e }
      )
    }
    if (!made) {
      if (err instanceof PlatformResponseError) throw new PlatformResponseError(`${err.message} No branch "${name}" was made.`)
      throw new HttpError(
        `${err.message} No branch "${name}" was made.`,
        err.status,
        err.serviceMessage,
        err.hint,
        err.timedOut,
        undefined,
        err.requestId
      )
    }
    const claim = extras?.annotation_value?.[ANNOTATION.claim]
    const found = claim ? await client.branchWithAnnotations(made.id) : null
    if (found && found.annotations[ANNOTATION.claim] !== claim)
      // another run holds the name (runs without a PR share it, shared-preview.ts): the caller handles it as Neon's 409
      throw new HttpError(`Branch "${name}" (${made.id}) was made by another run, not by this run's lost create.`, 409)
    core.info(`Neon made branch "${name}" (${made.id}) although its answer was lost: finishing the job on it.`)
    return { branch: made, operations: await client.pendingOperationsOf(made.id, since), uris: [] }
  }
}

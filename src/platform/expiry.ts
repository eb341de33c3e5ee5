/**
 * Branch expiry (`expires-in`): the platform deletes a branch whose
 * `expires_at` has passed (platform spec, Branch.expires_at: RFC 3339 with
 * at most whole seconds; "Deletion is performed by a background job"). It is
 * set on create and pushed forward on every run that reuses the branch, so an
 * active PR keeps its branch and an abandoned one disappears by itself.
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import type { Branch } from './client.js'
import type { LifecycleClient } from './lifecycle-client.js'
import { retryLocked } from './locked.js'
import { waitForOperations } from './operations.js'

/** RFC 3339 UTC, whole seconds: `now` (milliseconds since the epoch) plus `seconds`. */
export function expiresAtFrom(seconds: number, now = Date.now()): string {
  return new Date(now + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * Pushes the expiry of a reused `branch` to `expires-in` from now
 * (`PATCH …/branches/{id}` with `{branch: {expires_at}}`, 423 retried, its
 * operations waited on). Without `expires-in` the branch keeps what it has.
 * @returns the branch's `expires_at` afterwards, if it has one.
 * @throws HttpError, explained by {@link explainExpiryRefusal} when the platform refuses the field.
 */
export async function extendExpiry(
  client: LifecycleClient,
  branch: Branch,
  o: { expiresInSeconds: number; pollIntervalSeconds: number; waitTimeoutSeconds: number }
): Promise<string | undefined> {
  if (o.expiresInSeconds <= 0) return branch.expires_at
  const expiresAt = expiresAtFrom(o.expiresInSeconds)
  try {
    const updated = await retryLocked(`Update branch "${branch.name}"`, () => client.updateBranch(branch.id, { expires_at: expiresAt }))
    if (updated.operations.length) {
      await waitForOperations(updated.operations, { ...o, get: (id) => client.getOperation(id) })
    }
    core.info(`Branch "${branch.name}" now expires at ${updated.branch.expires_at ?? expiresAt} (expires-in from this run).`)
    return updated.branch.expires_at ?? expiresAt
  } catch (err) {
    throw explainExpiryRefusal(err, o.expiresInSeconds)
  }
}

/**
 * A 400 or 422 whose message is about the expiry, on a request that carried
 * `expires_at`, becomes an error that names `expires-in` (the field is in
 * early access on the platform, so a project may refuse it). Other errors are
 * returned as they are.
 */
export function explainExpiryRefusal(err: unknown, expiresInSeconds: number): unknown {
  if (expiresInSeconds <= 0 || !(err instanceof HttpError) || ![400, 422].includes(err.status)) return err
  if (!/expir|ttl/i.test(err.serviceMessage ?? '')) return err
  const why = err.serviceMessage ? `: "${err.serviceMessage}"` : ''
  return new HttpError(
    `The platform refused the branch expiry that input \`expires-in\` asks for (sent as \`branch.expires_at\`; HTTP ${err.status}${why}). ` +
      'Branch expiry is an early-access feature on some projects: remove `expires-in` (and sweep with `command: cleanup` instead), or enable it for the project.',
    err.status,
    err.serviceMessage
  )
}

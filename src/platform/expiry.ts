/**
 * Branch expiry (`expires-in`): the platform deletes a branch whose
 * `expires_at` has passed (platform spec, Branch.expires_at: RFC 3339 with
 * at most whole seconds; "Deletion is performed by a background job"). It is
 * set on create and pushed forward on every run that reuses the branch, so an
 * active PR keeps its branch and an abandoned one disappears by itself.
 *
 * The platform keeps a branch at most 30 days ahead (platform docs, branch
 * expiration: "the maximum expiration period is 30 days"): inputs.ts refuses
 * a longer `expires-in` before any request, and every `expires_at` sent is
 * at most {@link MAX_EXPIRES_IN_SECONDS} minus {@link EXPIRY_CLOCK_MARGIN_SECONDS} from now.
 *
 * Every reuse also records its use on the branch ({@link recordUse}):
 * the update moves the branch's `updated_at`, which `command: cleanup`'s
 * `max-age` reads as its last use.
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import type { Branch } from './client.js'
import type { NeonClient } from './client.js'
import { retryLocked } from './retry-423.js'
import { waitForOperations } from './operations.js'

/** The platform's longest branch expiry, in seconds: 30 days (platform docs, branch expiration). */
export const MAX_EXPIRES_IN_SECONDS = 30 * 86400

/** Kept below the 30-day limit, in seconds, so a runner clock a little ahead of the platform's stays within it. */
export const EXPIRY_CLOCK_MARGIN_SECONDS = 600

/**
 * RFC 3339 UTC, whole seconds: `now` (milliseconds since the epoch) plus
 * `seconds`, but never more than 30 days less {@link EXPIRY_CLOCK_MARGIN_SECONDS} ahead.
 */
export function expiresAtFrom(seconds: number, now = Date.now()): string {
  const capped = Math.min(seconds, MAX_EXPIRES_IN_SECONDS - EXPIRY_CLOCK_MARGIN_SECONDS)
  return new Date(now + capped * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * Records a use of the reused `branch` (`PATCH …/branches/{id}`, 423 retried,
 * its operations waited on; platform spec, updateProjectBranch), which moves
 * its `updated_at`, the last use `command: cleanup` reads for `max-age`:
 * with `expires-in` the update pushes `expires_at` to `expires-in` from now;
 * without it, it sets the branch's own name again and the expiry stays as it is.
 * @returns the branch's `expires_at` afterwards, if it has one.
 * @throws HttpError (explained by {@link explainExpiryRefusal} when the platform refuses the expiry), ProjectBusyError,
 *   only with `expires-in`; without it a failed update is a warning.
 */
export async function recordUse(
  client: NeonClient,
  branch: Branch,
  o: { expiresInSeconds: number; pollIntervalSeconds: number; waitTimeoutSeconds: number }
): Promise<string | undefined> {
  const expiresAt = o.expiresInSeconds > 0 ? expiresAtFrom(o.expiresInSeconds) : undefined
  try {
    const updated = await retryLocked(`Update branch "${branch.name}"`, () =>
      client.updateBranch(branch.id, expiresAt ? { expires_at: expiresAt } : { name: branch.name })
    )
    if (updated.operations.length) {
      await waitForOperations(updated.operations, { ...o, get: (id) => client.getOperation(id) })
    }
    if (!expiresAt) return updated.branch.expires_at ?? branch.expires_at
    core.info(`Branch "${branch.name}" now expires at ${updated.branch.expires_at ?? expiresAt} (expires-in from this run).`)
    return updated.branch.expires_at ?? expiresAt
  } catch (err) {
    if (expiresAt) throw explainExpiryRefusal(err, o.expiresInSeconds)
    // Without expires-in the update only records the use: the branch is still usable, so a warning.
    core.warning(
      `Could not record this use of branch "${branch.name}" (${(err as Error).message}); \`command: cleanup\` with \`max-age\` counts from its earlier use.`
    )
    return branch.expires_at
  }
}

/**
 * A 400 or 422 whose message is about the expiry, on a request that carried
 * `expires_at`, becomes an error that names `expires-in` and its 30-day
 * limit. Other errors are returned as they are.
 */
export function explainExpiryRefusal(err: unknown, expiresInSeconds: number): unknown {
  if (expiresInSeconds <= 0 || !(err instanceof HttpError) || ![400, 422].includes(err.status)) return err
  if (!/expir|ttl/i.test(err.serviceMessage ?? '')) return err
  const why = err.serviceMessage ? `: "${err.serviceMessage}"` : ''
  return new HttpError(
    `Neon refused the branch expiry that input \`expires-in\` asks for (sent as \`branch.expires_at\`; HTTP ${err.status}${why}). ` +
      `Neon keeps a branch at most ${MAX_EXPIRES_IN_SECONDS / 86400} days ahead (Neon docs, branch expiration). ` +
      'If the project does not accept branch expiry, remove `expires-in` and sweep old branches with `command: cleanup` and `max-age` instead.',
    err.status,
    err.serviceMessage
  )
}

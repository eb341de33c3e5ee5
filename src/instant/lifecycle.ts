/**
 * Instant mode's lifecycle: reuse the database an earlier run of this PR
 * recorded, or create a new one.
 */
import * as core from '@actions/core'
import { createDatabase, getDatabase, type InstantDatabase, type InstantEndpoint } from './client.js'

/** A usable instant database and how this run came by it. */
export interface InstantOutcome {
  /** Has a non-null `connectionString`. */
  database: InstantDatabase & { connectionString: string }
  created: boolean
  /** Why an earlier database was not reused (for the log and the comment). */
  replacedBecause?: string
}

/** Margin before `expires_at` within which a database is not worth reusing, in milliseconds. */
const EXPIRY_MARGIN_MS = 10 * 60_000

/**
 * Why the earlier database cannot be reused, or null when it can.
 * Rules: reuse only an `UNCLAIMED` database that has a connection
 * string and does not expire within the next 10 minutes. A claimed database
 * (instant service API: `connection_string` null, expiration removed, so `expires_at`
 * may be null) and a lapsed one (400 `Database not found`) are replaced.
 */
export function whyNotReusable(id: string, db: InstantDatabase | null, now = Date.now()): string | null {
  if (!db) return `the earlier database ${id} no longer exists (the instant service answered "Database not found")`
  if (db.status !== 'UNCLAIMED' || db.connectionString === null) {
    return `the earlier database ${id} was claimed into an account (status ${db.status}) and is no longer the PR's to use`
  }
  if (db.expiresAt !== null && Date.parse(db.expiresAt) - now <= EXPIRY_MARGIN_MS)
    return `the earlier database ${id} expired (or expires within minutes) at ${db.expiresAt}`
  return null
}

/**
 * Reuses `previousId` when allowed and still usable, else creates a database.
 * @throws HttpError / InstantResponseError from the instant client.
 */
export async function provisionInstant(
  endpoint: InstantEndpoint,
  options: { referrer: string; logicalReplication: boolean; reuse: boolean; previousId?: string }
): Promise<InstantOutcome> {
  let replacedBecause: string | undefined
  if (options.reuse && options.previousId) {
    const earlier = await getDatabase(endpoint, options.previousId)
    replacedBecause = whyNotReusable(options.previousId, earlier) ?? undefined
    if (!replacedBecause && earlier?.connectionString) {
      core.info(`Reusing instant database ${earlier.id} from an earlier run (expires ${earlier.expiresAt ?? 'never'}).`)
      return { database: { ...earlier, connectionString: earlier.connectionString }, created: false }
    }
    core.info(`Creating a new database: ${replacedBecause}.`)
  } else if (options.previousId) {
    core.info(`reuse is false: creating a new database instead of reusing ${options.previousId}.`)
    replacedBecause = '`reuse` is false'
  }
  const db = await createDatabase(endpoint, options)
  core.info(`Created instant database ${db.id} (expires ${db.expiresAt ?? 'never'}).`)
  return { database: { ...db, connectionString: db.connectionString as string }, created: true, replacedBecause }
}

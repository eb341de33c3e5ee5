/**
 * Client of the instant database service (instant service API): create a database with
 * one unauthenticated call, and fetch it again by id. The service has no
 * delete: an unclaimed database lapses 72 hours after creation.
 */
import { HttpError, requestJson } from '../http.js'

/** Region every instant database is provisioned in (instant service API). */
export const INSTANT_REGION = 'us-east-2'
/** PostgreSQL major version of every instant database (instant service API). */
export const INSTANT_PG_VERSION = 17

export type InstantStatus = 'UNCLAIMED' | 'CLAIMING' | 'CLAIMED'

/** The service's Database object (instant service API), with timestamps as given (ISO 8601 strings). */
export interface InstantDatabase {
  id: string
  status: InstantStatus
  /**
   * Id of the underlying platform project: `neon_project_id` in the live
   * service's answers, `svc_project_id` in the instant service API. Information only: a
   * missing or odd value never fails a run (undefined then).
   */
  projectId?: string
  /** Pooled connection string; null once claimed. A secret: mask before logging anything. */
  connectionString: string | null
  claimUrl: string
  /** ISO 8601 UTC with milliseconds, as the service sent it; null once claimed (instant service API: "expiration removed"). */
  expiresAt: string | null
  createdAt: string
  updatedAt: string
}

/** A response that is not the Database object the seed describes. */
export class InstantResponseError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InstantResponseError'
  }
}

const STATUSES: readonly string[] = ['UNCLAIMED', 'CLAIMING', 'CLAIMED']

/**
 * Checks the shape of a Database object. Names the first bad field; never
 * quotes the body, which may hold a connection string. Accepts the project id
 * under either name (`neon_project_id`, live service; `svc_project_id`, seed
 * 001) or neither, and `expires_at: null` (a claimed database).
 * @throws InstantResponseError
 */
export function parseDatabase(label: string, body: unknown): InstantDatabase {
  if (!body || typeof body !== 'object') {
    throw new InstantResponseError(`${label}: the instant service returned ${body === null ? 'null' : typeof body}, not a database object.`)
  }
  const b = body as Record<string, unknown>
  const str = (field: string): string => {
    const v = b[field]
    if (typeof v !== 'string' || v === '') {
      throw new InstantResponseError(`${label}: the instant service's response has no valid \`${field}\` (expected a non-empty string).`)
    }
    return v
  }
  const status = str('status')
  if (!STATUSES.includes(status)) {
    throw new InstantResponseError(
      `${label}: the instant service returned an unknown \`status\` "${status}" (expected ${STATUSES.join(', ')}).`
    )
  }
  const cs = b.connection_string
  if (cs !== null && (typeof cs !== 'string' || !/^postgres(ql)?:\/\//.test(cs))) {
    throw new InstantResponseError(`${label}: the instant service's \`connection_string\` is neither null nor a postgresql:// URL.`)
  }
  const expiresAt = b.expires_at === null ? null : str('expires_at')
  if (expiresAt !== null && !Number.isFinite(Date.parse(expiresAt))) {
    throw new InstantResponseError(`${label}: the instant service's \`expires_at\` "${expiresAt}" is not an ISO 8601 timestamp.`)
  }
  const projectId = [b.neon_project_id, b.svc_project_id].find((v): v is string => typeof v === 'string' && v !== '')
  return {
    id: str('id'),
    status: status as InstantStatus,
    projectId,
    connectionString: cs as string | null,
    claimUrl: str('claim_url'),
    expiresAt,
    createdAt: str('created_at'),
    updatedAt: str('updated_at')
  }
}

/** Where and how long: the service's base address and the per-request timeout in milliseconds. */
export interface InstantEndpoint {
  baseUrl: string
  timeoutMs: number
}

/**
 * `POST {base}/api/v1/database` with `{ref, enable_logical_replication}`.
 * Sent once: a retry after an unclear failure could create a second database.
 * @throws HttpError (quoting `Missing referrer` and its hint, `Failed to create
 *   the database.`, timeouts) or InstantResponseError.
 */
export async function createDatabase(
  endpoint: InstantEndpoint,
  options: { referrer: string; logicalReplication: boolean }
): Promise<InstantDatabase> {
  const res = await requestJson({
    label: 'Create database (instant service)',
    method: 'POST',
    url: `${endpoint.baseUrl}/api/v1/database`,
    body: { ref: options.referrer, enable_logical_replication: options.logicalReplication },
    timeoutMs: endpoint.timeoutMs,
    idempotent: false
  })
  const db = parseDatabase('Create database', res.body)
  if (db.connectionString === null) {
    throw new InstantResponseError('Create database: the instant service returned no `connection_string` for a new database.')
  }
  return db
}

/**
 * `GET {base}/api/v1/database/{id}`.
 * @returns the database, or null when the service says `Database not found`
 *   (HTTP 400 per the instant service API; 404 is treated the same).
 * @throws HttpError for any other failure, InstantResponseError for a bad body.
 */
export async function getDatabase(endpoint: InstantEndpoint, id: string): Promise<InstantDatabase | null> {
  try {
    const res = await requestJson({
      label: `Get database ${id} (instant service)`,
      method: 'GET',
      url: `${endpoint.baseUrl}/api/v1/database/${encodeURIComponent(id)}`,
      timeoutMs: endpoint.timeoutMs,
      idempotent: true
    })
    return parseDatabase(`Get database ${id}`, res.body)
  } catch (err) {
    if (err instanceof HttpError && (err.status === 404 || (err.status === 400 && /not found/i.test(err.serviceMessage ?? '')))) {
      return null
    }
    throw err
  }
}

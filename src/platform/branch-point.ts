/**
 * A point-in-time parent: the inputs `parent-lsn` and `parent-timestamp`,
 * sent as the new branch's `parent_lsn` or `parent_timestamp` (Neon API spec,
 * BranchCreateRequest.branch: "The branch will be created with data from
 * this LSN" / "from this point in time", ISO 8601 such as
 * `2024-02-26T12:00:00Z`). At most one of the two; each checked before any
 * request.
 */

import type { BranchPoint } from '../settings.js'

/** A `parent-lsn` or `parent-timestamp` the action refuses; the message names the input and what it accepts. */
export class BranchPointError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BranchPointError'
  }
}

/** PostgreSQL's textual LSN: two hexadecimal numbers of up to 8 digits, `X/Y` (pg_lsn). */
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/

/** RFC 3339 date-time (section 5.6): full date, `T`, full time with optional fraction, `Z` or an offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/**
 * Reads the two inputs' values.
 * @param lsn `parent-lsn`, trimmed; empty when not set
 * @param timestamp `parent-timestamp`, trimmed; empty when not set
 * @returns the point, or undefined when neither is set.
 * @throws BranchPointError when both are set, or one is malformed (an LSN not
 *   `X/Y` in hexadecimal; a time not RFC 3339, or not a real date, or in the future).
 */
export function branchPointOf(lsn: string, timestamp: string, now = Date.now()): BranchPoint | undefined {
  if (lsn && timestamp) {
    throw new BranchPointError(
      'Inputs `parent-lsn` and `parent-timestamp` cannot be combined: each names the point of the parent branch to copy. Set one of them.'
    )
  }
  if (lsn) {
    if (!LSN.test(lsn)) {
      throw new BranchPointError(
        `Input \`parent-lsn\` must be a PostgreSQL LSN, two hexadecimal numbers such as 0/1DE2850 (from pg_current_wal_lsn() or Neon's console); got "${lsn}".`
      )
    }
    return { lsn: lsn.toUpperCase() }
  }
  if (timestamp) {
    const m = RFC3339.exec(timestamp)
    const ms = Date.parse(timestamp)
    const real = m && !Number.isNaN(ms) && new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDate() === +m[3] && +m[4] < 24 && +m[5] < 60
    if (!real) {
      throw new BranchPointError(
        `Input \`parent-timestamp\` must be an RFC 3339 time with a zone, such as 2026-02-26T12:00:00Z or 2026-02-26T13:00:00+01:00; got "${timestamp}".`
      )
    }
    if (ms > now) throw new BranchPointError(`Input \`parent-timestamp\` must not be in the future; got "${timestamp}".`)
    return { timestamp }
  }
  return undefined
}

/** The point in words for the log, the comment and the summary: `at LSN 0/1DE2850` or `as of 2026-02-26T12:00:00Z`. */
export function describePoint(point: BranchPoint): string {
  return 'lsn' in point ? `at LSN ${point.lsn}` : `as of ${point.timestamp}`
}

/** The point as BranchCreateRequest.branch takes it: `{ parent_lsn }` or `{ parent_timestamp }`. */
export function pointFields(point: BranchPoint | undefined): { parent_lsn?: string; parent_timestamp?: string } {
  if (!point) return {}
  return 'lsn' in point ? { parent_lsn: point.lsn } : { parent_timestamp: point.timestamp }
}

/**
 * The Neon emulator's branch history, for a create branch with `parent_lsn`
 * or `parent_timestamp` (Neon API spec, BranchCreateRequest.branch: "The
 * branch will be created with data from this LSN" / "from this point in
 * time").
 *
 * Neon keeps every past state of a branch within its history retention. The
 * emulator's branches are plain databases of one PostgreSQL cluster, so it
 * keeps past states only where a test marks them ({@link PlatformHistory.mark}:
 * a copy of the branch's database, with the cluster's WAL LSN and the time).
 * A create from a point takes the latest mark at or before it (the emulator
 * does not watch writes: mark after the writes a test branches from); an LSN
 * ahead of the cluster's, a time in the future, a point before every mark or
 * on a branch with no marks is answered 400, as Neon answers a point outside
 * the history it keeps
 * answers a point outside the history it keeps (the status and wording are
 * the emulator's choice; the spec does not say).
 */
import type { PostgresServer } from '../postgres/postgres.js'

/** A past state of a branch: its copy's database, with the LSN and time it was taken at. */
export interface HistoryMark {
  lsn: string
  /** RFC 3339, milliseconds, UTC. */
  timestamp: string
  database: string
}

/** `X/Y` (pg_lsn's text) as one number, for comparing. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/')
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`)
}

/** Where a create from a point copies from (a mark's database, with the point's LSN and time), or why not. */
export type PointSource = { database: string; lsn: string; timestamp: string } | { error: string }

export class PlatformHistory {
  private readonly marks = new Map<string, HistoryMark[]>()
  private count = 0

  constructor(private readonly pg: PostgresServer) {}

  /** The cluster's current WAL LSN (pg_current_wal_lsn), the LSN every branch is at now. */
  async currentLsn(): Promise<string> {
    const [row] = await this.pg.query<{ lsn: string }>('postgres', 'SELECT pg_current_wal_lsn()::text AS lsn')
    return row.lsn
  }

  /**
   * Marks the branch's state now: copies its database (closed to
   * connections, owned by `owner`) and records the LSN and the time.
   * The branch's database must have no open connection (CREATE DATABASE … TEMPLATE).
   * @returns the mark's `lsn` and `timestamp`, to pass as `parent-lsn` / `parent-timestamp`.
   */
  async mark(branch: { id: string; database: string }, owner: string): Promise<{ lsn: string; timestamp: string }> {
    const database = `${branch.database}_at${++this.count}`.slice(0, 63)
    const lsn = await this.currentLsn()
    const timestamp = new Date().toISOString()
    await this.pg.createDatabase(database, owner, { template: branch.database, allowConnections: false })
    const list = this.marks.get(branch.id) ?? []
    list.push({ lsn, timestamp, database })
    this.marks.set(branch.id, list)
    // the next mark or write is later than this one
    await new Promise((r) => setTimeout(r, 5))
    return { lsn, timestamp }
  }

  /** The marks of a branch, oldest first (tests). */
  marksOf(branchId: string): HistoryMark[] {
    return [...(this.marks.get(branchId) ?? [])]
  }

  /**
   * What a branch created from `parent` at the point copies.
   * @param point the request's `parent_lsn` or `parent_timestamp` (one of them)
   */
  async source(parent: { id: string; database: string }, point: { parent_lsn?: string; parent_timestamp?: string }): Promise<PointSource> {
    const marks = this.marks.get(parent.id) ?? []
    const now = await this.currentLsn()
    if (point.parent_lsn !== undefined) {
      if (!/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/.test(point.parent_lsn)) return { error: `invalid LSN "${point.parent_lsn}"` }
      const at = lsnValue(point.parent_lsn)
      if (at > lsnValue(now)) return { error: `LSN ${point.parent_lsn} is ahead of the branch's current LSN ${now}` }
      const last = marks.filter((m) => lsnValue(m.lsn) <= at).at(-1)
      if (!last) return { error: `LSN ${point.parent_lsn} is outside the branch's history` }
      return { database: last.database, lsn: point.parent_lsn, timestamp: last.timestamp }
    }
    const ms = Date.parse(point.parent_timestamp ?? '')
    if (Number.isNaN(ms)) return { error: `invalid timestamp "${point.parent_timestamp}"` }
    if (ms > Date.now()) return { error: `timestamp ${point.parent_timestamp} is in the future` }
    const last = marks.filter((m) => Date.parse(m.timestamp) <= ms).at(-1)
    if (!last) return { error: `timestamp ${point.parent_timestamp} is outside the branch's history` }
    return { database: last.database, lsn: last.lsn, timestamp: point.parent_timestamp! }
  }
}

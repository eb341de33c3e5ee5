/**
 * The platform emulator's usage counters of each branch, the Branch schema's
 * `active_time_seconds`, `compute_time_seconds`, `cpu_used_sec`,
 * `written_data_bytes`, `data_transfer_bytes` and `logical_size`
 * (public-v2-for-users.gen.yaml in `@neondatabase/api-client`), kept as Neon keeps them:
 *
 * - active time: wall-clock seconds the branch's read-write compute ran,
 *   from the end of its `start_compute` (a branch a setup made: from its
 *   making) and not while a test has it `suspended`; sampled when the branch
 *   is shown, the interval since the last sample counted when the compute is
 *   active at its end (Neon measures at intervals, and its counters lag);
 * - compute time: active seconds × the compute's size in CU (Neon docs,
 *   "Billing metrics", Compute time: "compute size × Active time hours"),
 *   at its `autoscaling_limit_min_cu` (0.25 when unset), where an idle
 *   autoscaled compute sits; `cpu_used_sec` (deprecated) the same count;
 * - logical size: `pg_database_size` of the branch's database on the real
 *   PostgreSQL behind it, measured when List branches or Get branch shows
 *   it (its last measure otherwise, as Neon's value lags too);
 * - written data and data transfer: 0 (not measured).
 *
 * A test sets any counter with {@link PlatformUsage.set}: a number replaces
 * the emulator's own count; `null` leaves the field out of the branch
 * object, as an older API answer does (off the spec, which requires all but
 * `logical_size`: not for the contract test's runs).
 */
import type { PostgresServer } from '../postgres/postgres.js'
import type { BranchRecord } from './platform-records.js'

/** The Branch schema's counter fields. */
export type Counter =
  'active_time_seconds' | 'compute_time_seconds' | 'cpu_used_sec' | 'written_data_bytes' | 'data_transfer_bytes' | 'logical_size'

interface State {
  /** Milliseconds the compute was counted active. */
  activeMs: number
  /** Milliseconds since the epoch of the last sample; absent until the compute first started. */
  sampledAt?: number
  /** Bytes, from the last measure. */
  logicalSize?: number
  /** What a test set: a number, or null for a field left out. */
  set: Partial<Record<Counter, number | null>>
}

export class PlatformUsage {
  private readonly states = new Map<string, State>()

  constructor(private readonly pg: PostgresServer) {}

  private state(b: BranchRecord): State {
    let s = this.states.get(b.id)
    if (!s) this.states.set(b.id, (s = { activeMs: 0, set: {} }))
    return s
  }

  /** The branch's compute started now (its `start_compute` ended, or a setup made it running): active time counts from here. */
  started(b: BranchRecord): void {
    const s = this.state(b)
    s.sampledAt ??= Date.now()
  }

  /** Sets counters of the branch `b` (a number: that value from now on; null: the field left out). */
  set(b: BranchRecord, counters: Partial<Record<Counter, number | null>>): void {
    Object.assign(this.state(b).set, counters)
  }

  /** Measures the logical size of `branches` now: one query for all of them; a failed one (a database dropped meanwhile) keeps the last measure. */
  async measure(branches: BranchRecord[]): Promise<void> {
    if (!branches.length) return
    try {
      const { rows } = await this.pg.admin.query<{ datname: string; size: string }>(
        'SELECT datname, pg_database_size(oid)::text AS size FROM pg_database WHERE datname = ANY($1)',
        [branches.map((b) => b.database)]
      )
      const sizes = new Map(rows.map((r) => [r.datname, Number(r.size)]))
      for (const b of branches) if (sizes.has(b.database)) this.state(b).logicalSize = sizes.get(b.database)
    } catch {
      // a database dropped between the catalog's read and its size: the last measures stay
    }
  }

  /** The branch's counters as the Branch object shows them (see the module comment). */
  view(b: BranchRecord): Record<string, number> {
    const s = this.state(b)
    const now = Date.now()
    if (s.sampledAt !== undefined) {
      if (b.endpoint && !b.endpoint.suspended) s.activeMs += now - s.sampledAt
      s.sampledAt = now
    }
    const active = Math.floor(s.activeMs / 1000)
    const compute = Math.round(active * (b.endpoint?.autoscaling_limit_min_cu ?? 0.25))
    const own: Record<string, number> = {
      cpu_used_sec: compute,
      active_time_seconds: active,
      compute_time_seconds: compute,
      written_data_bytes: 0,
      data_transfer_bytes: 0,
      ...(s.logicalSize !== undefined ? { logical_size: s.logicalSize } : {})
    }
    for (const [k, v] of Object.entries(s.set)) {
      if (v === null) delete own[k]
      else own[k] = v
    }
    return own
  }
}

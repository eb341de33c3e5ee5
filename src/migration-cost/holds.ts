/**
 * From lock samples to hold times: per relation (OID) and lock mode, the
 * longest run of consecutive samples in which a lock was seen held, in
 * milliseconds from the first of them to the last (so a lock seen in one
 * sample only was held 0 ms, as far as the samples tell).
 */

/** One sample of the watcher, as it reports it. */
export interface LockSample {
  /** Server time of this sample (ms since the epoch, `clock_timestamp()`). */
  t: number
  /** Server time of the sample before it (0 for the first): it saw the locks of the previous report. */
  p: number
  /** The granted relation locks of the command's sessions: [relation OID, mode] pairs. */
  l: [number, string][]
}

/** How long one relation's lock mode was seen held. */
export interface Hold {
  oid: number
  /** `pg_locks.mode`, e.g. `AccessExclusiveLock`. */
  mode: string
  /** Longest run of consecutive samples, first to last, in milliseconds. */
  heldMs: number
}

/**
 * Folds the watcher's reports into holds. The watcher reports a sample when
 * its set of locks differs from the last report's, and otherwise now and
 * then (a heartbeat); every sample between two reports saw the earlier
 * report's set, so a lock gone at a report was last seen at its `p`.
 */
export class HoldTracker {
  private readonly open = new Map<string, { first: number; last: number }>()
  private readonly longest = new Map<string, number>()

  /** Adds one report. Reports arrive in the order the watcher took them. */
  add(s: LockSample): void {
    const now = new Set(s.l.map(([oid, mode]) => `${oid} ${mode}`))
    for (const [key, run] of this.open) {
      if (now.has(key)) continue
      this.close(key, Math.max(run.last, s.p) - run.first)
    }
    for (const key of now) {
      const run = this.open.get(key)
      if (run) run.last = s.t
      else this.open.set(key, { first: s.t, last: s.t })
    }
  }

  /** Whether some lock is still seen held (its end not yet reported). */
  holding(): boolean {
    return this.open.size > 0
  }

  /** Every relation and mode seen, with its longest hold; runs still open end at their last sample. */
  holds(): Hold[] {
    const longest = new Map(this.longest)
    for (const [key, run] of this.open) longest.set(key, Math.max(longest.get(key) ?? 0, run.last - run.first))
    return [...longest].map(([key, ms]) => {
      const [oid, mode] = key.split(' ')
      return { oid: Number(oid), mode, heldMs: Math.round(ms) }
    })
  }

  private close(key: string, ms: number): void {
    this.open.delete(key)
    this.longest.set(key, Math.max(this.longest.get(key) ?? 0, ms))
  }
}

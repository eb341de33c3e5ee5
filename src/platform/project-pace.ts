/**
 * What a run learns of its project's pace from the operations it reads, so
 * that its waits follow the project rather than a clock:
 *
 * - {@link OperationDurations}: how long each kind of operation took
 *   (`total_duration_ms` of the finished operations in the project's list and
 *   of the run's own), so that the wait for the run's own operations polls
 *   first about when operations of their kinds have ended, not three times
 *   before.
 * - {@link HandoffGaps}: while runs queue for a project busy with one
 *   another's operations (platform/project-wait.ts), the time the project
 *   stood idle between one run's operations and the next run's: the time
 *   the first of the waiting runs took to see the project free. With k runs
 *   polling every I seconds at random phases it is about I / (k + 1), so the
 *   gap tells each waiting run how many poll with it, and
 *   {@link waitCeilingMs} sets its longest wait so that all of them together
 *   poll about once every {@link TARGET_GAP_MS}: the project's idle time and
 *   the requests stay about the same whether 2 or 40 runs wait.
 *
 * The operations' timestamps have second precision (Neon operations guide);
 * durations (`total_duration_ms`, platform spec) are exact, so a gap is read
 * over several handoffs, where only the first and the last start round.
 */
/** The fields of an operation (operations.ts `Operation`) that the pace reads. */
export interface PacedOperation {
  id: string
  action: string
  status: string
  branch_id?: string
  endpoint_id?: string
  /** ISO 8601 UTC, second precision. */
  created_at: string
  /** Milliseconds (platform spec). */
  total_duration_ms?: number
}

/** Finished durations kept per action; the expectation is their median. */
const KEPT = 9

/** Durations of finished operations by action (milliseconds), newest last. */
export class OperationDurations {
  private readonly byAction = new Map<string, number[]>()
  private readonly counted = new Set<string>()

  /** Records the `total_duration_ms` of each finished operation not recorded before. */
  learn(ops: readonly PacedOperation[]): void {
    for (const op of ops) {
      if (op.status !== 'finished' || typeof op.total_duration_ms !== 'number' || this.counted.has(op.id)) continue
      this.counted.add(op.id)
      const list = this.byAction.get(op.action) ?? []
      list.push(Math.max(0, op.total_duration_ms))
      if (list.length > KEPT) list.shift()
      this.byAction.set(op.action, list)
    }
  }

  /**
   * How long operations of these actions take together, in milliseconds: the
   * longest of their medians; undefined when one of them was never seen finished.
   */
  expectedMs(actions: readonly string[]): number | undefined {
    let longest = 0
    for (const action of actions) {
      const list = this.byAction.get(action)
      if (!list?.length) return undefined
      const sorted = [...list].sort((a, b) => a - b)
      longest = Math.max(longest, sorted[Math.floor(sorted.length / 2)])
    }
    return actions.length ? longest : undefined
  }

  /** Forgets everything (tests). */
  clear(): void {
    this.byAction.clear()
    this.counted.clear()
  }
}

/** The run's learned durations (one project a run). */
export const learnedDurations = new OperationDurations()

/**
 * The idle time to aim for between one run's operations and the next's, in
 * milliseconds, when runs queue on a project: the runs waiting poll together
 * about once every 0.2 s (5 listings a second), whatever their number. Measured
 * in docs/benchmarks.md ("Many runs in one project") against 0.25 s: twenty
 * runs 1.25 and 1.31 times the busy time with 257 and 340 requests in the
 * busiest minute, against 1.37 and 1.41 with 295 and 278.
 */
export const TARGET_GAP_MS = 200
/** The mean wait over its ceiling under Equal Jitter (poll-schedule.ts: a wait is drawn between half its ceiling and the ceiling). */
const MEAN_SHARE = 0.75
/** The shortest longest-wait {@link waitCeilingMs} gives (a lone waiting run polls about every 0.5 s). */
export const MIN_CEILING_MS = 700
/**
 * The most a waiting run's longest wait rises at one poll ({@link waitCeilingMs}).
 * Measured with `npm run bench:queue` (the waits' own code on a simulated clock,
 * docs/benchmarks.md): twenty runs 1.251 times the busy time (median of 500
 * queues) against 1.269 with no bound, forty 1.191 against 1.208, at 1 to 2 %
 * more requests. 1.05 and 1.1 gave twenty 1.241 and 1.247 at a few more
 * requests for forty (464 and 465 in the median minute against 460); 1.5 gave 1.259.
 */
export const MAX_RAISE = 1.2
/** Handoffs a gap is read over: the newest ones, so that it follows the queue as it shortens. */
const GAP_WINDOW = 5
/** Handoffs needed before a gap is read: below this the second rounding of two starts weighs too much. */
const MIN_HANDOFFS = 3
/**
 * A gap under this over the first two handoffs of a wait, in milliseconds, is read
 * ({@link HandoffGaps.crowdedGapMs}): only a crowd of runs polling finds the project free so
 * soon, and the reading can only raise a run's longest wait, never lower it. Measured with
 * `npm run bench:queue`: forty runs sent 446 requests in the median minute, 484 to 489 in the
 * 90th percentile and 503 to 509 in the 97th (400 queues, two rounds), against 458 to 461, 499 to
 * 506 and 521 to 539 waiting for a third handoff; twenty runs 1.255 times the busy time against
 * 1.251. Read on one handoff (under 30 to 100 ms), twenty runs took 1.265 to 1.27: one handoff's
 * second rounding gives 0 too often.
 */
export const CROWDED_GAP_MS = 60
/** Handoffs {@link CROWDED_GAP_MS} is read over. */
const CROWDED_HANDOFFS = 2

/** One run's hold of the project: operations of one branch created in one second. */
interface Hold {
  start: number
  /** The longest of its operations' durations; undefined while one of them is not finished. */
  durationMs?: number
  /** When this run first saw one of its operations (milliseconds since the epoch, this machine's clock). */
  seenAt: number
}

/**
 * The project's holds seen during one wait, and the idle gaps between them.
 * Only operations created no earlier than the first one seen running count,
 * so that the gaps are those of the queue the run waits in, not of the
 * project's past.
 */
export class HandoffGaps {
  private readonly ops = new Map<string, PacedOperation>()
  private readonly seenAt = new Map<string, number>()
  private floor = Infinity

  /** @param running the operations running when the wait began */
  constructor(running: readonly PacedOperation[]) {
    for (const op of running) {
      const start = startOf(op)
      if (start !== undefined) this.floor = Math.min(this.floor, start)
    }
    this.observe(running)
  }

  /**
   * Takes in a page of the project's operations (newest first, as listed), read at `at` (this machine's clock).
   * An operation whose `created_at` is not a time (a service answer off the spec) is left out.
   */
  observe(page: readonly PacedOperation[], at = Date.now()): void {
    for (const op of page) {
      const start = startOf(op)
      if (start === undefined || start < this.floor) continue
      this.ops.set(op.id, op)
      if (!this.seenAt.has(op.id)) this.seenAt.set(op.id, at)
    }
  }

  /** Holds seen, by start. */
  private holds(): Hold[] {
    const byKey = new Map<string, Hold & { pending: boolean }>()
    for (const op of this.ops.values()) {
      const start = startOf(op)! // observe() keeps only operations with a start
      const key = `${op.branch_id ?? op.endpoint_id ?? op.id} ${start}`
      const hold = byKey.get(key) ?? { start, durationMs: 0, pending: false, seenAt: Infinity }
      if (op.status === 'finished' || op.status === 'skipped') hold.durationMs = Math.max(hold.durationMs ?? 0, op.total_duration_ms ?? 0)
      else hold.pending = true
      hold.seenAt = Math.min(hold.seenAt, this.seenAt.get(op.id) ?? Infinity)
      byKey.set(key, hold)
    }
    return [...byKey.values()]
      .map((h) => ({ start: h.start, durationMs: h.pending ? undefined : h.durationMs, seenAt: h.seenAt }))
      .sort((a, b) => a.start - b.start)
  }

  /**
   * The mean idle time between consecutive holds over the newest
   * {@link GAP_WINDOW} handoffs whose earlier hold has ended, in
   * milliseconds (at least 0); undefined before {@link MIN_HANDOFFS} were seen.
   * @param sinceMs only handoffs to a hold this run first saw at or after this time (this machine's clock):
   *   the time its own recent waits cover, so that the gap and its mean wait are of the same queue
   */
  gapMs(sinceMs = -Infinity): number | undefined {
    return this.meanGapMs(sinceMs, MIN_HANDOFFS)
  }

  /**
   * For a wait that has seen fewer handoffs than {@link gapMs} needs: their mean idle time when
   * at least {@link CROWDED_HANDOFFS} were seen and it is under {@link CROWDED_GAP_MS} (many runs
   * poll), else undefined; in milliseconds. Read only to raise a run's longest wait
   * ({@link waitCeilingMs} lowers it only on a gap of 1.5 times the target).
   */
  crowdedGapMs(sinceMs = -Infinity): number | undefined {
    const gap = this.meanGapMs(sinceMs, CROWDED_HANDOFFS)
    return gap !== undefined && gap < CROWDED_GAP_MS ? gap : undefined
  }

  /** The mean idle time over the newest {@link GAP_WINDOW} handoffs seen since `sinceMs`; undefined below `minHandoffs`. */
  private meanGapMs(sinceMs: number, minHandoffs: number): number | undefined {
    const holds = this.holds()
    let idle = 0
    let counted = 0
    for (let i = holds.length - 1; i > 0 && counted < GAP_WINDOW; i--) {
      const before = holds[i - 1]
      if (before.durationMs === undefined || holds[i].seenAt < sinceMs) continue
      idle += holds[i].start - before.start - before.durationMs
      counted++
    }
    return counted >= minHandoffs ? Math.max(0, idle / counted) : undefined
  }
}

/** `created_at` in milliseconds since the epoch; undefined when it is not a time. */
function startOf(op: PacedOperation): number | undefined {
  const ms = Date.parse(op.created_at)
  return Number.isFinite(ms) ? ms : undefined
}

/**
 * The longest wait of a waiting run's schedule, in milliseconds, from the
 * project's idle gap and the run's own mean wait over the same time: with k
 * runs waiting as this one does, gap ≈ meanWait / (k + 1); so that they poll
 * together about once every {@link TARGET_GAP_MS}, each waits on average
 * (k + 1) · target, and (Equal Jitter: the mean wait is 3/4 of its ceiling)
 * the ceiling is 4/3 of that. The rounding of the starts to the second
 * puts up to ±0.2 s into a gap read over {@link GAP_WINDOW} handoffs, as much
 * as the target itself, so the ceiling follows a gap in one direction at a
 * time: it is lowered only on a gap of at least 1.5 times the target
 * ({@link lowers}), so that runs do not poll more often on a gap the rounding
 * lengthened; on a shorter gap it may only rise (fewer requests). It rises by
 * at most {@link MAX_RAISE} times at a poll, so that a gap the rounding
 * shortened (a true 0.2 s read as 0) does not send the last runs of a queue
 * back to `poll-interval` at once.
 * Between {@link MIN_CEILING_MS} and `longestMs` (`poll-interval`);
 * `currentMs` (the ceiling now) while no gap is known.
 */
export function waitCeilingMs(gapMs: number | undefined, meanWaitMs: number, longestMs: number, currentMs = longestMs): number {
  if (gapMs === undefined || !(meanWaitMs > 0)) return currentMs
  let ceiling = (runsPolling(gapMs, meanWaitMs) * TARGET_GAP_MS) / MEAN_SHARE
  if (!lowers(gapMs)) ceiling = Math.max(ceiling, currentMs)
  ceiling = Math.min(ceiling, currentMs * MAX_RAISE)
  return Math.min(longestMs, Math.max(Math.min(MIN_CEILING_MS, longestMs), ceiling))
}

/**
 * How many runs poll the project as this one does, this one included (k + 1
 * in {@link waitCeilingMs}): its mean wait over the idle gap, both in
 * milliseconds; not rounded.
 */
export function runsPolling(gapMs: number, meanWaitMs: number): number {
  return meanWaitMs / Math.max(gapMs, 1)
}

/** Whether a gap is long enough to lower a waiting run's ceiling (see {@link waitCeilingMs}); a shorter one may raise it. */
export function lowers(gapMs: number): boolean {
  return gapMs >= 1.5 * TARGET_GAP_MS
}

/**
 * When to poll something that ends by itself: Neon's operations, a project
 * busy with other runs' operations, an anonymized branch's masking, a
 * compute slot. The Neon operations guide's polling rule asks for a poll
 * every 5 seconds until the operations are terminal, and no request that
 * starts work before; most operations end within a second or two (create
 * branch and start compute about 1 s each), so a fixed 5 s left a run idle
 * for seconds after its operations had ended. The schedule polls soon and
 * then less and less often, up to `poll-interval`, the guide's rate for a
 * long wait. So it polls more often than the guide at first (8 polls in the
 * first 9 s of a wait, against 2): a few requests more a provision, counted
 * against Neon's rate limit in docs/benchmarks.md.
 *
 * The algorithm is "Equal Jitter" of Marc Brooker, "Exponential Backoff And
 * Jitter" (AWS Architecture Blog, 2015): the n-th wait (n from 0) has the
 * ceiling `min(longest, firstMs · factor^n)` and is drawn at random between
 * `1 − jitter` of that ceiling and the ceiling (with `jitter` 0.5, the post's
 * `temp / 2 + random_between(0, temp / 2)`). Equal rather than Full Jitter
 * (`random_between(0, temp)`): a wait near zero spends a request on a state
 * just read, and at the ceiling Full Jitter polls twice as often as
 * `poll-interval` on average; Equal Jitter keeps every wait within half of
 * its ceiling while runs that started together still drift apart by a
 * random share of each wait, so they do not poll in step.
 */
import { sleep } from '../http.js'

/**
 * The schedule's constants: the first wait's ceiling in milliseconds, the
 * growth of the ceiling from one wait to the next, and the share of each
 * ceiling that is random. The first poll so comes 175 to 350 ms after the
 * request, the ceilings are 0.35, 0.49, 0.69, 0.96, 1.3, 1.9, 2.6, 3.7 s, then
 * `poll-interval`; in all, a run polls about 0.26, 0.63, 1.1, 1.9, 2.9, 4.3 s
 * after the request (the means), later every 2.5 to 5 s (at the default).
 * Growth 1.4 rather than the post's doubling: the time from an operation's
 * end to the poll that sees it is at most one wait, and with 1.4 a wait is
 * on average about 0.4 of the time already waited (with doubling, about all
 * of it), at the cost of about one more poll for a 1 s operation. The first
 * ceiling puts the third poll about 1.1 s after the request, just after
 * Neon's usual create branch and compute start (about 1 s each).
 */
export const POLL_SCHEDULE = { firstMs: 350, factor: 1.4, jitter: 0.5 } as const

/** A schedule's settings, in milliseconds. */
export interface PollScheduleOptions {
  /** The longest wait (the ceiling of every wait): `poll-interval`. */
  longestMs: number
  /** The first wait's ceiling ({@link POLL_SCHEDULE}.firstMs unless given); at most `longestMs` is used. */
  firstMs?: number
  /**
   * Time already gone since the request that started the work (its answer
   * took that long, or 423 attempts went first): the schedule counts from
   * the request, so the waits that would have ended by now, or less than
   * half their ceiling from now (a poll right after the answer would read
   * the state it just gave), are skipped. 0 when not given.
   */
  elapsedMs?: number
  /**
   * When the work is expected to end, in milliseconds after the request (the
   * project's own operations of the same kinds took that long: project-pace.ts):
   * the first poll comes then rather than a few hundred milliseconds after
   * the request, and the schedule goes on from its first ceiling after it.
   */
  expectedMs?: number
}

/**
 * The waits of one schedule, one per poll, in milliseconds. Each call of
 * {@link next} gives the wait before the next poll; a new wait (a new
 * request's operations, a new wait for the project) takes a new schedule.
 */
export class PollSchedule {
  private n = 0
  private longestMs: number
  private readonly limitMs: number
  private readonly firstMs: number
  private elapsedMs: number
  private expectedMs: number
  private raisedMs = 0

  /** @param random in [0, 1) (injectable for tests) */
  constructor(
    options: PollScheduleOptions,
    private readonly random: () => number = Math.random
  ) {
    this.longestMs = this.limitMs = Math.max(1, options.longestMs)
    this.firstMs = Math.min(this.longestMs, options.firstMs ?? POLL_SCHEDULE.firstMs)
    this.elapsedMs = Math.max(0, options.elapsedMs ?? 0)
    this.expectedMs = Math.max(0, options.expectedMs ?? 0)
  }

  /** The longest wait now, in milliseconds (see {@link setLongest}). */
  longest(): number {
    return this.longestMs
  }

  /**
   * Lowers (or raises back) the longest wait from the next wait on, in
   * milliseconds, never above the schedule's own (`poll-interval`) nor under
   * its first ceiling: a waiting run's share of the polls (project-pace.ts).
   */
  setLongest(ms: number): void {
    this.longestMs = Math.min(this.limitMs, Math.max(this.firstMs, ms))
    this.raisedMs = Math.min(this.raisedMs, this.longestMs)
  }

  /** The ceiling of the next wait, in milliseconds: `min(longest, max(raised, first · factor^n))`. */
  ceilingMs(): number {
    return Math.min(this.longestMs, Math.max(this.raisedMs, this.firstMs * POLL_SCHEDULE.factor ** this.n))
  }

  /**
   * Lets the ceilings jump to `ms` from the next wait on, however few waits
   * the schedule has had (never above the longest wait): a waiting run that
   * learned that many runs poll with it (project-pace.ts) need not poll at
   * the first waits' pace.
   */
  raiseTo(ms: number): void {
    this.raisedMs = Math.max(this.raisedMs, Math.min(this.limitMs, ms))
  }

  /**
   * The first wait when it comes from `expectedMs` (the time left until the
   * work is expected to end, at most the longest wait), in milliseconds; 0
   * when the schedule starts as usual (no expectation, one already nearly
   * past, or the first wait already taken).
   */
  headStartMs(): number {
    return this.expectedMs > this.elapsedMs + (1 - POLL_SCHEDULE.jitter) * this.firstMs
      ? Math.min(this.limitMs, this.expectedMs - this.elapsedMs)
      : 0
  }

  /**
   * The wait before the next poll, in milliseconds: between `(1 − jitter)` of
   * its ceiling and the ceiling; the first call skips what `elapsedMs` covers (see there),
   * and the first wait is the head start when there is one ({@link headStartMs}).
   */
  next(): number {
    const head = this.headStartMs()
    if (head > 0) {
      // The first poll when operations of these kinds have ended; the next ones a first ceiling apart, growing.
      this.expectedMs = this.elapsedMs = 0
      return head
    }
    this.expectedMs = 0
    let ceiling = this.ceilingMs()
    let wait = this.draw()
    if (this.elapsedMs > 0) {
      while (wait - this.elapsedMs < (1 - POLL_SCHEDULE.jitter) * ceiling) {
        ceiling = this.ceilingMs()
        wait += this.draw()
      }
      wait -= this.elapsedMs
      this.elapsedMs = 0
    }
    return wait
  }

  /** The next wait at random under its ceiling, and the schedule moved on by one. */
  private draw(): number {
    const ceiling = this.ceilingMs()
    this.n++
    return ceiling * (1 - POLL_SCHEDULE.jitter * this.random())
  }
}

/**
 * A schedule whose longest wait is `pollIntervalSeconds` (`poll-interval`).
 * @param o.since when the request that started the work was sent (milliseconds since the epoch): the schedule counts from it
 * @param o.firstMs the first wait's ceiling, if not {@link POLL_SCHEDULE}'s
 * @param o.expectedMs when the work is expected to end, in milliseconds after `since` (see {@link PollScheduleOptions})
 */
export function pollSchedule(
  pollIntervalSeconds: number,
  o: { since?: number; firstMs?: number; expectedMs?: number; random?: () => number } = {}
): PollSchedule {
  return new PollSchedule(
    {
      longestMs: pollIntervalSeconds * 1000,
      firstMs: o.firstMs,
      elapsedMs: o.since === undefined ? 0 : Date.now() - o.since,
      expectedMs: o.expectedMs
    },
    o.random
  )
}

/**
 * Sleeps the schedule's next wait, cut to `leftMs` (the time left before a
 * deadline). Rejects with CancelledError on a cancel, as http.ts's `sleep`.
 */
export async function sleepNext(schedule: PollSchedule, leftMs = Infinity, sleepMs: (ms: number) => Promise<void> = sleep): Promise<void> {
  await sleepMs(Math.max(0, Math.min(schedule.next(), leftMs)))
}

/**
 * How the sweep's deletes share Neon's API (Neon docs, "API rate limiting":
 * 700 requests per minute per account; Neon operations guide: a request
 * that starts work while the project is busy gets 423, resent after 0.1 s
 * doubling): every request of the sweep waits for room in a sliding minute
 * of {@link SWEEP_NEON_PER_MINUTE}; one DELETE is sent at a time (the others
 * would only meet 423), and not before the project is likely free again
 * ({@link SettleTime}: a 423 is a request spent for nothing); the deletes
 * already sent wait for their operations together, polling one listing of
 * the project's operations per poll interval instead of one request per
 * operation.
 */
import Bottleneck from 'bottleneck'
import type { NeonClient } from '../platform/client.js'
import type { DeleteSharing } from '../platform/branch-delete.js'
import type { Operation } from '../platform/operations.js'
import { retryLocked } from '../platform/retry-423.js'
import { HttpError, sleep } from '../http.js'

/** Requests a minute the sweep allows itself: Neon's 700, less room for other runs of the account. */
export const SWEEP_NEON_PER_MINUTE = 600

/** Sends of requests in a sliding minute, at most `perMinute`. */
export class MinutePace {
  private readonly times: number[] = []
  /** Requests sent through {@link wait}. */
  sent = 0
  /** @param windowMs the window's length in milliseconds (a minute; shorter in tests) */
  constructor(
    private readonly perMinute: number,
    private readonly windowMs = 60_000
  ) {}

  /** Resolves once one more request fits in the last window, and counts it. */
  readonly wait = async (): Promise<void> => {
    for (;;) {
      const now = Date.now()
      while (this.times.length && this.times[0] <= now - this.windowMs) this.times.shift()
      if (this.times.length < this.perMinute) break
      await sleep(this.times[0] + this.windowMs - now)
    }
    this.times.push(Date.now())
    this.sent++
  }
}

/** Longest wait {@link SettleTime} puts before a DELETE, in milliseconds; a project busy for longer meets 423 as before. */
export const MAX_SETTLE_MS = 5000

/**
 * How long the project stays busy after the answer to one of the sweep's
 * DELETEs (its operations run; the next DELETE meanwhile gets 423), learned
 * from the sweep's own DELETEs: one that met 423 sets it to the time from
 * the previous answer to its own (at most {@link MAX_SETTLE_MS}); one that
 * did not shortens it by a quarter, so it follows operations that get
 * faster. Times in milliseconds since the epoch.
 */
export class SettleTime {
  private answeredAt = 0
  /** The current estimate, in milliseconds. */
  ms = 0

  /** How long a DELETE sent at `now` should wait first. */
  waitMs(now: number): number {
    return Math.max(0, this.answeredAt + this.ms - now)
  }

  /** Records a DELETE's final answer at `now`; `locked`: it met 423 before that. */
  answered(now: number, locked: boolean): void {
    if (locked && this.answeredAt) this.ms = Math.min(now - this.answeredAt, MAX_SETTLE_MS)
    else if (!locked) this.ms = Math.floor(this.ms * 0.75)
    this.answeredAt = now
  }
}

/** Shortest time between two listings of the project's operations, in milliseconds. */
const LIST_EVERY_MS = 1000

/** The deletes' sharing of the project for one sweep (see the module comment). */
export function deleteSharing(client: NeonClient, pollIntervalSeconds: number): DeleteSharing {
  const one = new Bottleneck({ maxConcurrent: 1 })
  let listing: { at: number; ops: Promise<Map<string, Operation>> } | undefined
  const every = Math.max(pollIntervalSeconds * 1000, LIST_EVERY_MS)
  const list = (): { at: number; ops: Promise<Map<string, Operation>> } => {
    const ops = client.listOperations(100).then(({ operations }) => new Map(operations.map((op) => [op.id, op])))
    const current = (listing = { at: Date.now(), ops })
    ops.catch(() => {
      if (listing === current) listing = undefined
    })
    return current
  }
  const settle = new SettleTime()
  return {
    send: (label, attempt) =>
      one.schedule(async () => {
        const wait = settle.waitMs(Date.now())
        if (wait > 0) await sleep(wait)
        let locked = false
        const observed = () =>
          attempt().catch((err: unknown) => {
            if (err instanceof HttpError && err.status === 423) locked = true
            throw err
          })
        try {
          return await retryLocked(label, observed)
        } finally {
          settle.answered(Date.now(), locked)
        }
      }),
    async get(id) {
      // Waiters of one poll interval share one listing; newest first, so the operations of deletes under way are on its first page.
      const asked = Date.now()
      let current = listing && asked - listing.at < every ? listing : list()
      let op = (await current.ops).get(id)
      // Not listed yet (a listing from before the delete): one listing from after this ask has it.
      if (!op && current.at < asked) {
        current = listing && listing.at >= asked ? listing : list()
        op = (await current.ops).get(id)
      }
      return op ?? client.getOperation(id)
    }
  }
}

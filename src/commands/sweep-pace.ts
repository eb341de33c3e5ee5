/**
 * How the sweep's deletes share Neon's API (Neon docs, "API rate limiting":
 * 700 requests per minute per account; Neon operations guide: a request
 * that starts work while the project is busy gets 423, resent after 0.1 s
 * doubling): every request of the sweep waits for room in a sliding minute
 * of {@link SWEEP_NEON_PER_MINUTE}; one DELETE is sent at a time (the others
 * would only meet 423), while the deletes already sent wait for their
 * operations together, polling one listing of the project's operations per
 * poll interval instead of one request per operation.
 */
import Bottleneck from 'bottleneck'
import type { NeonClient } from '../platform/client.js'
import type { DeleteSharing } from '../platform/lifecycle.js'
import type { Operation } from '../platform/operations.js'
import { sleep } from '../http.js'

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
  return {
    send: (request) => one.schedule(request),
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

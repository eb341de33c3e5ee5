/**
 * The sweep's budgets in isolation: GitHub's rate limit told apart from a
 * missing permission (comment/lock/budget.ts), and the sliding minute that
 * keeps the sweep under Neon's 700 requests a minute, and the wait that
 * keeps its DELETEs from meeting 423 (sweep/pace.ts).
 */
import { describe, expect, it, jest } from '@jest/globals'
import { GitHubBudget, MIN_RESERVE, isRateLimited } from '../../src/comment/lock/budget.js'
import { deploymentsToDeactivate } from '../../src/sweep/direct.js'
import { MAX_SETTLE_MS, MinutePace, SettleTime, deleteSharing } from '../../src/sweep/pace.js'
import { HttpError } from '../../src/http.js'
import type { NeonClient } from '../../src/platform/client.js'

describe('isRateLimited', () => {
  const err = (status: number, message: string, remaining?: string) => ({
    status,
    message,
    response: { headers: remaining === undefined ? {} : { 'x-ratelimit-remaining': remaining } }
  })

  it('a 403 or 429 with x-ratelimit-remaining 0, or saying "rate limit", is a rate limit', () => {
    expect(isRateLimited(err(403, 'Forbidden', '0'))).toBe(true)
    expect(isRateLimited(err(403, 'API rate limit exceeded for installation ID 1.'))).toBe(true)
    expect(isRateLimited(err(429, 'Too Many Requests'))).toBe(true)
  })

  it('a 403 with budget left and no such message is a missing permission; other statuses are neither', () => {
    expect(isRateLimited(err(403, 'Resource not accessible by integration', '512'))).toBe(false)
    expect(isRateLimited(err(404, 'API rate limit exceeded'))).toBe(false)
  })
})

describe('GitHubBudget', () => {
  it('allows anything until GitHub said; then what the last answer left', () => {
    const b = new GitHubBudget()
    expect(b.allows(1000)).toBe(true)
    expect(b.describe()).toBe('no rate-limit figures from GitHub')
    b.remaining = 10
    b.limit = 1000
    expect(b.allows(10)).toBe(true)
    expect(b.allows(11)).toBe(false)
    expect(b.describe()).toMatch(/^10 of 1000 requests left$/)
  })

  it("keeps a quarter of the hour's limit for the repository's pull requests, at least one run's 8", () => {
    const b = new GitHubBudget()
    expect(b.reserve()).toBe(MIN_RESERVE)
    b.limit = 1000
    expect(b.reserve()).toBe(250)
    b.limit = 5000
    expect(b.reserve()).toBe(1250)
    b.limit = 12
    expect(b.reserve()).toBe(8)
  })
})

describe('deploymentsToDeactivate', () => {
  it("the recorded deployment and the later ones of its environment (its reuses), not an earlier preview's", () => {
    expect(deploymentsToDeactivate(7005, [{ id: 7010 }, { id: 7007 }, { id: 7005 }, { id: 7001 }])).toEqual([7005, 7007, 7010])
    expect(deploymentsToDeactivate(7005, undefined)).toEqual([7005])
    expect(deploymentsToDeactivate(7005, [])).toEqual([7005])
  })
})

describe('MinutePace', () => {
  // jest's fake clock: the window is exact, whatever a loaded machine does to real timers
  it('lets `perMinute` requests through at once, then holds the next until the window slides', async () => {
    jest.useFakeTimers({ now: 1_000_000 })
    try {
      const pace = new MinutePace(3, 600)
      const started = Date.now()
      await Promise.all([pace.wait(), pace.wait(), pace.wait()])
      expect(Date.now() - started).toBe(0)
      let fourth = 0
      const waiting = pace.wait().then(() => (fourth = Date.now() - started))
      await jest.advanceTimersByTimeAsync(200)
      expect(fourth).toBe(0)
      await jest.advanceTimersByTimeAsync(400)
      await waiting
      expect(fourth).toBe(600)
      expect(pace.sent).toBe(4)
    } finally {
      jest.useRealTimers()
    }
  })
})

describe('SettleTime', () => {
  it('learns from a DELETE that met 423 how long the project stayed busy, shortens after one that did not, caps at MAX_SETTLE_MS', () => {
    const s = new SettleTime()
    expect(s.waitMs(1_000)).toBe(0)
    s.answered(1_000, false) // the first DELETE: nothing to learn
    expect(s.waitMs(1_010)).toBe(0)
    s.answered(1_300, true) // met 423, answered 300 ms after the previous answer
    expect(s.ms).toBe(300)
    expect(s.waitMs(1_310)).toBe(290)
    s.answered(1_700, false)
    expect(s.ms).toBe(225)
    expect(s.waitMs(1_800)).toBe(125)
    s.answered(60_000, true)
    expect(s.ms).toBe(MAX_SETTLE_MS)
  })
})

describe('deleteSharing', () => {
  /** A project that stays busy `busyMs` after each DELETE it accepts, answering 423 meanwhile. */
  function project(busyMs: number) {
    let busyUntil = 0
    const log: number[] = []
    const attempt = async (): Promise<string> => {
      const now = Date.now()
      log.push(now < busyUntil ? 423 : 200)
      if (now < busyUntil) throw new HttpError('HTTP 423', 423)
      busyUntil = now + busyMs
      return 'ok'
    }
    return { attempt, log }
  }

  it('sends one DELETE at a time and, once it has met a 423, waits out the busy time instead of meeting more', async () => {
    const { attempt, log } = project(150)
    const sharing = deleteSharing({} as NeonClient, 5)
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => sharing.send(`Delete branch "b${i}"`, attempt)))
    expect(results).toEqual(Array(8).fill('ok'))
    expect(log.filter((s) => s === 200)).toHaveLength(8)
    // Without the learned wait each DELETE after the first meets at least one 423 (8 sends, 150 ms busy, retry after 100–125 ms).
    expect(log.filter((s) => s === 423).length).toBeLessThanOrEqual(3)
  })
})

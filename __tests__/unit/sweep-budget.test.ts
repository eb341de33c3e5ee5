/**
 * The sweep's budgets in isolation: GitHub's rate limit told apart from a
 * missing permission (comment/lock/budget.ts), and the sliding minute that
 * keeps the sweep under Neon's 700 requests a minute (commands/sweep-pace.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { GitHubBudget, isRateLimited } from '../../src/comment/lock/budget.js'
import { MinutePace } from '../../src/commands/sweep-pace.js'

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
})

describe('MinutePace', () => {
  it('lets `perMinute` requests through at once, then holds the next until the window slides', async () => {
    const pace = new MinutePace(3, 600)
    const started = Date.now()
    await Promise.all([pace.wait(), pace.wait(), pace.wait()])
    expect(Date.now() - started).toBeLessThan(300)
    let fourth = 0
    const waiting = pace.wait().then(() => (fourth = Date.now() - started))
    await new Promise((r) => setTimeout(r, 200))
    expect(fourth).toBe(0)
    await waiting
    expect(fourth).toBeGreaterThanOrEqual(590)
    expect(pace.sent).toBe(4)
  })
})

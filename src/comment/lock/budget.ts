/**
 * GitHub's primary rate limit as a run sees it (GitHub REST docs, "Rate
 * limits for the REST API"): every answer carries `x-ratelimit-limit`,
 * `x-ratelimit-remaining`, `x-ratelimit-used`, `x-ratelimit-reset` (UTC epoch
 * seconds) and `x-ratelimit-resource`; a `GITHUB_TOKEN` gets 1,000 requests
 * an hour per repository. Once it is spent GitHub answers 403 or 429 with
 * `x-ratelimit-remaining: 0` and "API rate limit exceeded …": a rate limit,
 * never a missing permission.
 */
import type { Octokit } from '../comment.js'

/**
 * The share of the hour's limit (`x-ratelimit-limit`) that whatever spends
 * the repository's budget in bulk (the sweep, make-room) leaves to the
 * repository's pull requests: a quarter, 250 of a `GITHUB_TOKEN`'s 1,000
 * (a PR's run needs 5 to 8: lock.ts, LOCK_BUDGET).
 */
export const RESERVE_SHARE = 0.25
/** Requests kept back whatever the limit (one PR's run). */
export const MIN_RESERVE = 8

/** What the last answer said about the token's budget. */
export class GitHubBudget {
  /** Requests left in the window; undefined until an answer said (or when GitHub sends no rate-limit headers). */
  remaining?: number
  /** Requests per window (`x-ratelimit-limit`). */
  limit?: number
  /** When the window resets, milliseconds since the epoch. */
  resetAt?: number
  /** Requests this run sent through the watched clients. */
  sent = 0

  /** Reads the headers of every answer (and error answer) of `octokit`. @returns `octokit`. */
  watch<T extends Octokit>(octokit: T): T {
    const read = (headers: Record<string, unknown> | undefined): void => {
      const remaining = Number(headers?.['x-ratelimit-remaining'])
      if (headers?.['x-ratelimit-remaining'] === undefined || !Number.isFinite(remaining)) return
      this.remaining = remaining
      const limit = Number(headers['x-ratelimit-limit'])
      if (Number.isFinite(limit)) this.limit = limit
      const reset = Number(headers['x-ratelimit-reset'])
      if (Number.isFinite(reset)) this.resetAt = reset * 1000
    }
    octokit.hook.before('request', () => {
      this.sent++
    })
    octokit.hook.after('request', (response) => read(response.headers as Record<string, unknown>))
    octokit.hook.error('request', (err) => {
      read((err as { response?: { headers?: Record<string, unknown> } }).response?.headers)
      throw err
    })
    return octokit
  }

  /** Requests a bulk spender never goes below: {@link RESERVE_SHARE} of the limit, at least {@link MIN_RESERVE}. */
  reserve(): number {
    return Math.max(MIN_RESERVE, Math.ceil((this.limit ?? 0) * RESERVE_SHARE))
  }

  /** Reads the budget from `GET /rate_limit` (free: GitHub REST docs, "Rate limit"), before any counted request; nothing when GitHub does not say. */
  async read(octokit: Octokit): Promise<void> {
    if (this.remaining !== undefined) return
    try {
      const { core } = (await octokit.rest.rateLimit.get()).data.resources
      if (!Number.isFinite(core.remaining) || this.remaining !== undefined) return
      Object.assign(this, { remaining: core.remaining, limit: core.limit, resetAt: core.reset * 1000 })
    } catch {
      // No rate limit (GitHub Enterprise Server without one), or an error: the answers' headers say later.
    }
  }

  /** True when at least `n` requests are known to be left, or nothing is known. */
  allows(n: number): boolean {
    return this.remaining === undefined || this.remaining >= n
  }

  /** "12 of 1000 requests left, resetting at 21:04 UTC". */
  describe(): string {
    if (this.remaining === undefined) return 'no rate-limit figures from GitHub'
    const at = this.resetAt ? `, resetting at ${new Date(this.resetAt).toISOString().slice(11, 16)} UTC` : ''
    return `${this.remaining} of ${this.limit ?? '?'} requests left${at}`
  }
}

/**
 * True for GitHub's rate limit (primary or secondary): HTTP 403 or 429 with
 * `x-ratelimit-remaining: 0`, or a message saying "rate limit" (GitHub REST
 * docs, "Rate limits for the REST API": exceeding the primary limit answers
 * 403 or 429 with `x-ratelimit-remaining` 0; a secondary limit says so in
 * its message, with `retry-after`).
 */
export function isRateLimited(err: unknown): boolean {
  const e = err as { status?: number; message?: string; response?: { headers?: Record<string, unknown> } }
  if (e.status !== 403 && e.status !== 429) return false
  return String(e.response?.headers?.['x-ratelimit-remaining']) === '0' || /rate limit/i.test(e.message ?? '') || e.status === 429
}

/**
 * The requests left of the token's primary rate limit (`GET /rate_limit`,
 * which does not count against it: GitHub REST docs, "Rate limit"), or
 * undefined when GitHub does not say (no rate limit, an error).
 */
export async function requestsLeft(octokit: Octokit): Promise<number | undefined> {
  try {
    const { data } = await octokit.rest.rateLimit.get()
    const left = data.resources.core.remaining
    return Number.isFinite(left) ? left : undefined
  } catch {
    return undefined
  }
}

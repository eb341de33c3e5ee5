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

/** The budget watching each client ({@link GitHubBudget.watch}), so that every spender of one client reads one budget. */
const watching = new WeakMap<Octokit, GitHubBudget>()

/** The budget that watches `octokit`, made and set watching it when none does yet (then empty until an answer or {@link GitHubBudget.read}). */
export function budgetOf(octokit: Octokit): GitHubBudget {
  const known = watching.get(octokit)
  if (known) return known
  const budget = new GitHubBudget()
  budget.watch(octokit)
  return budget
}

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

  /** Reads the headers of every answer (and error answer) of `octokit`, which {@link budgetOf} then answers with this budget. @returns `octokit`. */
  watch<T extends Octokit>(octokit: T): T {
    watching.set(octokit, this)
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

  /**
   * Reads the budget from `GET /rate_limit` (free: GitHub REST docs, "Rate
   * limit") when no answer has said it yet, before any counted request.
   * @returns the requests left ({@link remaining}): undefined when GitHub does not say (no rate limit, an error)
   */
  async read(octokit: Octokit): Promise<number | undefined> {
    if (this.remaining !== undefined) return this.remaining
    try {
      const { core } = (await octokit.rest.rateLimit.get()).data.resources
      if (Number.isFinite(core.remaining) && this.remaining === undefined)
        Object.assign(this, { remaining: core.remaining, limit: core.limit, resetAt: core.reset * 1000 })
    } catch {
      // No rate limit (GitHub Enterprise Server without one), or an error: the answers' headers say later.
    }
    return this.remaining
  }

  /**
   * When `n` more requests would take the window below {@link reserve}: the
   * time it resets (`x-ratelimit-reset`, milliseconds since the epoch;
   * Infinity when GitHub did not say), which is when a spender that keeps
   * the reserve (the sweep's lock waits) may send them. Undefined when they
   * fit, when nothing is known, or once that time has passed (the figures
   * are the old window's: the next answer gives the new one's).
   */
  pausedUntil(n: number): number | undefined {
    if (this.allows(this.reserve() + n)) return undefined
    const at = this.resetAt ?? Infinity
    return Date.now() < at ? at : undefined
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

/** A spender stopped at the {@link GitHubBudget.reserve} (a lock's wait at its deadline): a rate limit to the sweep ({@link isRateLimited}). */
export class ReserveKeptError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReserveKeptError'
  }
}

/**
 * True for GitHub's rate limit (primary or secondary), or a {@link ReserveKeptError}: HTTP 403 or 429 with
 * `x-ratelimit-remaining: 0`, or a message saying "rate limit" (GitHub REST
 * docs, "Rate limits for the REST API": exceeding the primary limit answers
 * 403 or 429 with `x-ratelimit-remaining` 0; a secondary limit says so in
 * its message, with `retry-after`).
 */
export function isRateLimited(err: unknown): boolean {
  if (err instanceof ReserveKeptError) return true
  const e = err as { status?: number; message?: string; response?: { headers?: Record<string, unknown> } } | undefined
  if (e?.status !== 403 && e?.status !== 429) return false
  return String(e.response?.headers?.['x-ratelimit-remaining']) === '0' || /rate limit/i.test(e.message ?? '') || e.status === 429
}

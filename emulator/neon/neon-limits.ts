/**
 * Neon's limits as options of the platform emulator, off unless a test or a
 * benchmark switches them on:
 *
 * - the API rate limit (Neon docs, "API rate limiting"): 700 requests per
 *   minute per account, and bursts of at most 40 requests per second per
 *   route; a request over either limit is answered HTTP 429 with
 *   `Retry-After` (whole seconds until the window lets it through) and the
 *   spec's error body. Both windows slide; an account is an API key; a
 *   route is a method and a path with its ids left out
 *   (`POST /projects/{project_id}/branches`). A refused request does not
 *   count against the limits.
 * - operation durations like Neon's ({@link NEON_TIMING}): a branch's create
 *   and its compute start take about a second each, and run together.
 */
import type { Reply } from '../http-kit.js'

/** The emulated limits. */
export interface RateLimitOptions {
  /** Requests per sliding minute per account (Neon: 700). */
  perMinute: number
  /** Requests per sliding second per account and route (Neon: 40). */
  perSecondPerRoute: number
}

/** Neon's published API rate limits. */
export const NEON_RATE_LIMIT: RateLimitOptions = { perMinute: 700, perSecondPerRoute: 40 }

/** Operation durations close to Neon's, in milliseconds: create branch and start compute about 1 s each. */
export const NEON_TIMING = { createBranchMs: 1000, startComputeMs: 1000, deleteMs: 1000 }

/** Times (milliseconds since the epoch) of the accepted requests in a sliding window. */
class Window {
  private readonly times: number[] = []
  constructor(private readonly spanMs: number) {}

  /** Milliseconds until one more request fits, 0 when it fits now. */
  waitMs(now: number, limit: number): number {
    while (this.times.length && this.times[0] <= now - this.spanMs) this.times.shift()
    return this.times.length < limit ? 0 : this.times[this.times.length - limit] + this.spanMs - now
  }

  add(now: number): void {
    this.times.push(now)
  }
}

export class RateLimiter {
  private readonly minutes = new Map<string, Window>()
  private readonly seconds = new Map<string, Window>()
  /** Requests refused with 429, by limit. */
  readonly refused = { perMinute: 0, perSecondPerRoute: 0 }

  constructor(readonly options: RateLimitOptions = NEON_RATE_LIMIT) {}

  /**
   * Counts one request of `account` on `route`, or refuses it.
   * @returns the 429 reply (with `Retry-After` in whole seconds, at least 1) when over a limit, else undefined.
   */
  admit(account: string, route: string, now = Date.now()): Reply | undefined {
    const minute = this.window(this.minutes, account, 60_000)
    const second = this.window(this.seconds, `${account} ${route}`, 1000)
    const overMinute = minute.waitMs(now, this.options.perMinute)
    const overSecond = second.waitMs(now, this.options.perSecondPerRoute)
    if (overMinute || overSecond) {
      if (overMinute) this.refused.perMinute++
      else this.refused.perSecondPerRoute++
      return {
        status: 429,
        headers: { 'retry-after': String(Math.max(1, Math.ceil(Math.max(overMinute, overSecond) / 1000))) },
        body: {
          code: '',
          message: overMinute
            ? `rate limit exceeded: more than ${this.options.perMinute} requests per minute`
            : `rate limit exceeded: more than ${this.options.perSecondPerRoute} requests per second to ${route}`
        }
      }
    }
    minute.add(now)
    second.add(now)
    return undefined
  }

  private window(map: Map<string, Window>, key: string, spanMs: number): Window {
    let w = map.get(key)
    if (!w) map.set(key, (w = new Window(spanMs)))
    return w
  }
}

/**
 * The route of a request path: its ids replaced by the spec's parameter
 * names, e.g. `/api/v2/projects/{project_id}/branches/{branch_id}`.
 */
export function routeOf(method: string, path: string): string {
  const names: Record<string, string> = {
    projects: 'project_id',
    branches: 'branch_id',
    operations: 'operation_id',
    endpoints: 'endpoint_id',
    databases: 'database_name',
    roles: 'role_name'
  }
  const parts = path.split('/')
  return `${method} ${parts.map((p, i) => (i > 0 && names[parts[i - 1]] && p ? `{${names[parts[i - 1]]}}` : p)).join('/')}`
}

/** The API key of a request's `Authorization: Bearer <key>`, or '' (anonymous requests share one account). */
export function accountOf(authorization: string | string[] | undefined): string {
  return /^Bearer (.+)$/.exec(String(authorization ?? ''))?.[1] ?? ''
}

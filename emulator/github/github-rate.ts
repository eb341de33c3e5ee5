/**
 * GitHub's primary rate limit for the emulator (GitHub REST docs, "Rate
 * limits for the REST API"), off unless a test or a benchmark switches it
 * on for a token: the token gets `limit` requests until `reset`; every
 * answer carries `x-ratelimit-limit`, `x-ratelimit-remaining`,
 * `x-ratelimit-used`, `x-ratelimit-reset` (UTC epoch seconds) and
 * `x-ratelimit-resource: core`; once the budget is spent a request is
 * answered 403 with `x-ratelimit-remaining: 0` and the message "API rate
 * limit exceeded for installation ID …" (a refused request does not count).
 * A `GITHUB_TOKEN` gets 1,000 requests per hour per repository.
 * `GET /rate_limit` answers the budget and is never counted.
 */
import type { Request, Reply, ServiceServer } from '../http-kit.js'

/**
 * What the rate limit needs of the GitHub emulator (GitHubService of github.ts has it):
 * its server, to install the admit and header hooks on, and who a request's
 * token is. Structural, so that this module does not import github.ts, which
 * imports it.
 */
export interface RateLimitedGitHub {
  readonly server: ServiceServer
  tokenOf(req: Request): unknown
}

/** One token's budget. */
export interface GitHubBudget {
  limit: number
  /** Requests counted in the current window. */
  used: number
  /** When the window ends, milliseconds since the epoch. */
  resetAt: number
  /** Requests refused with 403 since the budget was set. */
  refused: number
}

/** The budgets per token, installed on `github` by {@link limitGitHub}. */
const budgets = new WeakMap<RateLimitedGitHub, Map<string, GitHubBudget>>()

const tokenOf = (authorization: string | string[] | undefined): string =>
  /^(?:token|bearer)\s+(.+)$/i.exec(String(authorization ?? ''))?.[1] ?? ''

/**
 * Gives `token` a budget of `limit` requests with `remaining` of them left
 * (default all), resetting `resetInSeconds` from now (default an hour). Call
 * again to change it (a new hour: `remaining` = `limit`).
 * @returns the live budget (a test reads `used` and `refused`).
 */
export function limitGitHub(
  github: RateLimitedGitHub,
  token: string,
  o: { limit: number; remaining?: number; resetInSeconds?: number }
): GitHubBudget {
  let map = budgets.get(github)
  if (!map) budgets.set(github, (map = new Map()))
  const m = map
  // (Re)installed on every call: a test may have taken the hooks off since.
  github.server.admit = (_method, path, headers) => {
    const b = m.get(tokenOf(headers.authorization))
    if (!b || /^\/rate_limit\/?$/.test(path)) return undefined
    if (Date.now() >= b.resetAt) Object.assign(b, { used: 0, resetAt: Date.now() + 3600_000 })
    if (b.used >= b.limit) {
      b.refused++
      return {
        status: 403,
        body: {
          message:
            'API rate limit exceeded for installation ID 1. If you reach out to GitHub Support for help, please include the request ID.',
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api'
        }
      }
    }
    b.used++
    return undefined
  }
  github.server.headersFor = (headers): Record<string, string> => {
    const b = m.get(tokenOf(headers.authorization))
    if (!b) return {}
    return {
      'x-ratelimit-limit': String(b.limit),
      'x-ratelimit-remaining': String(Math.max(0, b.limit - b.used)),
      'x-ratelimit-used': String(b.used),
      'x-ratelimit-reset': String(Math.ceil(b.resetAt / 1000)),
      'x-ratelimit-resource': 'core'
    }
  }
  const budget: GitHubBudget = {
    limit: o.limit,
    used: o.limit - (o.remaining ?? o.limit),
    resetAt: Date.now() + (o.resetInSeconds ?? 3600) * 1000,
    refused: 0
  }
  map.set(token, budget)
  return budget
}

/**
 * `GET /rate_limit` (GitHub REST, "Get rate limit status for the
 * authenticated user"): the token's budget, or 5,000 of 5,000 when none was
 * set; free (never counted, never refused). Installed by GitHubService.
 */
export function rateLimitStatus(github: RateLimitedGitHub, req: Request): Reply {
  if (!github.tokenOf(req)) return { status: 401, body: { message: 'Bad credentials' } }
  const b = budgets.get(github)?.get(tokenOf(req.headers.authorization))
  const reset = Math.ceil((b?.resetAt ?? Date.now() + 3600_000) / 1000)
  const core = b
    ? { limit: b.limit, remaining: Math.max(0, b.limit - b.used), used: b.used, reset, resource: 'core' }
    : { limit: 5000, remaining: 5000, used: 0, reset, resource: 'core' }
  return { status: 200, body: { resources: { core }, rate: core } }
}

/** Takes every token's budget off `github` (the rate limit is off again, and `GET /rate_limit` answers 5,000 of 5,000). */
export function unlimitGitHub(github: RateLimitedGitHub): void {
  budgets.delete(github)
  github.server.admit = undefined
  github.server.headersFor = undefined
}

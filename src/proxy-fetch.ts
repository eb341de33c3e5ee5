/**
 * The one `fetch` every HTTP request of the action goes through (the Neon
 * API and neon.new in http.ts, GitHub in comment/comment.ts): on a runner
 * whose environment names a proxy (`HTTPS_PROXY`, `HTTP_PROXY`, either case;
 * GitHub docs, "Using a proxy server with self-hosted runners") requests go
 * through it, except to the hosts `NO_PROXY` names, as @actions/http-client
 * does for other actions. Reading the variables and `NO_PROXY`'s rules is
 * undici's `EnvHttpProxyAgent`'s (undici docs, EnvHttpProxyAgent), not ours.
 * Without a proxy variable the requests go straight to the host, through
 * the same undici: `@actions/core` loads it in every run (through
 * `@actions/http-client`), while the runtime's own `fetch` is a second copy
 * of undici that the run would compile as well (about 40 ms of CPU a run).
 * PostgreSQL connections (pg) are not HTTP and never go through a proxy.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici'

/** The proxy variables, in both cases, as the runner and @actions/http-client read them. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const

let agent: EnvHttpProxyAgent | undefined

/** True when the environment names a proxy for HTTP or HTTPS requests. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => !!env[name])
}

/**
 * undici's `fetch`, through the proxy the environment names (one agent for
 * the process, made on first use) when it names one, else straight to the
 * host (undici's global dispatcher). Same arguments and answer as the
 * global `fetch`.
 * @throws what `fetch` throws (a TypeError whose `cause` says why the proxy or the host could not be reached)
 */
export function proxiedFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const dispatcher = proxyConfigured() ? (agent ??= new EnvHttpProxyAgent()) : undefined
  const options = (dispatcher ? { ...init, dispatcher } : init) as unknown as Parameters<typeof undiciFetch>[1]
  return undiciFetch(url, options) as unknown as Promise<Response>
}

/**
 * What to add to a "could not reach the service" message: when a proxy is
 * configured, that the request went through it unless `NO_PROXY` names the
 * host, so the proxy is checked too; '' without one.
 */
export function proxyHint(): string {
  return proxyConfigured()
    ? ' Requests go through the proxy that HTTPS_PROXY/HTTP_PROXY name unless NO_PROXY names the host: check that the proxy is reachable and lets this host through.'
    : ''
}

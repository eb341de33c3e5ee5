/**
 * The one `fetch` every HTTP request of the action goes through (the Neon
 * API, neon.new and Vercel in http.ts, GitHub in comment/comment.ts). On a
 * runner whose environment names a proxy (GitHub docs, "Using a proxy server
 * with self-hosted runners") it goes through that proxy, read as
 * `@actions/http-client` reads it for GitHub's own actions: its
 * `getProxyUrl` and `checkBypass` (`@actions/http-client/lib/proxy`) pick
 * `https_proxy`/`HTTPS_PROXY` for an `https:` URL and `http_proxy`/
 * `HTTP_PROXY` for an `http:` one, and (`checkBypass`, which it calls)
 * bypass loopback hosts and every `NO_PROXY`/`no_proxy` entry: a host and
 * its subdomains (`corp.example` covers `ghes.corp.example`), `.domain`,
 * `host:port`, `*`.
 * Underneath is undici's `ProxyAgent` (one per proxy, made on first use),
 * as in http-client itself; credentials in the proxy URL are sent as
 * `Proxy-Authorization: Basic` and the password is masked. undici's
 * `EnvHttpProxyAgent` is not used: it is experimental and Node prints a
 * warning (`UNDICI-EHPA`) in every run that makes one.
 * Without a proxy the request goes straight to the host through the same
 * undici: `@actions/core` loads it in every run (through
 * `@actions/http-client`), while the runtime's own `fetch` is a second copy
 * of undici that the run would compile as well (about 40 ms of CPU a run).
 * PostgreSQL connections (pg) are not HTTP and never go through a proxy.
 */
import { checkBypass, getProxyUrl } from '@actions/http-client/lib/proxy'
import { ProxyAgent, fetch as undiciFetch } from 'undici'
import { maskSecret } from './secrets.js'

/** One agent per proxy (`http_proxy` and `https_proxy` may name two), by its URL with the credentials. */
const agents = new Map<string, ProxyAgent>()

/** A proxy: its URL without credentials, and the decoded username and password it carried. */
export interface Proxy {
  url: string
  username: string
  password: string
}

/**
 * The proxy a request to `url` goes through, or undefined when it goes
 * straight to the host (no proxy variable for its scheme, or bypassed).
 *
 * http-client's `getProxyUrl` keeps a proxy variable that parses as a URL
 * as it is, so a scheme-less `proxy.corp:3128` (what many runner images
 * set) comes back as a URL whose scheme is `proxy.corp:` and which has no
 * host, and http-client then sends the request direct; `127.0.0.1:3128`
 * does not parse, and it prefixes `http://`. Here a URL whose scheme is
 * not `http:` or `https:` is read with `http://` in front as well (curl's
 * reading of a scheme-less proxy), credentials included. And where
 * http-client drops a variable it cannot decode (`%zz` in the password)
 * and sends the request direct, this throws: the proxy was meant.
 * @param url the request's URL (`http:` or `https:`)
 * @throws Error naming the variable when the proxy's URL cannot be read (a malformed percent-escape); the message holds no part of the URL
 */
export function proxyFor(url: URL): Proxy | undefined {
  const https = url.protocol === 'https:'
  const unreadable = new Error(
    `the proxy that ${https ? 'HTTPS_PROXY' : 'HTTP_PROXY'} names is not a URL this action can read (write a % in its username or password as %25)`
  )
  try {
    const proxy = getProxyUrl(url)
    if (!proxy) {
      // http-client drops a variable it cannot decode and goes direct; a proxy that is set is used or named as wrong.
      const variable = https ? process.env.https_proxy || process.env.HTTPS_PROXY : process.env.http_proxy || process.env.HTTP_PROXY
      if (variable && !checkBypass(url)) throw unreadable
      return undefined
    }
    const read = proxy.protocol === 'http:' || proxy.protocol === 'https:' ? new URL(proxy.href) : new URL(`http://${proxy.href}`)
    const credentials = { username: decodeURIComponent(read.username), password: decodeURIComponent(read.password) }
    read.username = ''
    read.password = ''
    return { url: read.href, ...credentials }
  } catch {
    throw unreadable
  }
}

/** The agent for `proxy`, made on first use: `Proxy-Authorization: Basic` from its credentials (as http-client sends them), the password masked. */
function agentFor(proxy: Proxy): ProxyAgent {
  const { url, username, password } = proxy
  const key = JSON.stringify([url, username, password])
  let agent = agents.get(key)
  if (!agent) {
    // A password of a few characters is not masked: the runner would mask those letters everywhere in the log (it is never logged).
    if (password.length >= 4) maskSecret(password)
    const token = username || password ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : undefined
    agents.set(key, (agent = new ProxyAgent({ uri: url, ...(token ? { token } : {}) })))
  }
  return agent
}

/**
 * undici's `fetch`, through the proxy {@link proxyFor} names for `url`
 * when there is one, else straight to the host (undici's global
 * dispatcher). Same arguments and answer as the global `fetch`.
 * @throws what `fetch` throws (a TypeError whose `cause` says why the proxy or the host could not be reached); proxyFor's Error for a proxy URL it cannot read
 */
export function proxiedFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const proxy = proxyFor(new URL(url))
  const options = (proxy ? { ...init, dispatcher: agentFor(proxy) } : init) as unknown as Parameters<typeof undiciFetch>[1]
  return undiciFetch(url, options) as unknown as Promise<Response>
}

/**
 * What to add to a "could not reach the service" message for a request to
 * `url`: when it went through a proxy, that it did and how to send it
 * direct; '' when it went straight to the host.
 */
export function proxyHint(url: string): string {
  const parsed = new URL(url)
  try {
    if (!proxyFor(parsed)) return ''
  } catch {
    return ''
  }
  const variable = parsed.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY'
  return ` The request went through the proxy that ${variable} names: check that the proxy is reachable and lets ${parsed.host} through, or add the host to NO_PROXY.`
}

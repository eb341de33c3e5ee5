/**
 * Pooled and direct connection strings, and their parts.
 */
import { isIP } from 'node:net'
import type { ClientConfig } from 'pg'
import { rememberSecret } from './secrets.js'

/** A database's connection details. `password` is decoded; every string here but host/database/user is a secret. */
export interface Connection {
  /** Pooled connection string (host has `-pooler` in its first label). */
  pooledUrl: string
  /** Direct connection string (no pooler), for migrations and seeding. */
  directUrl: string
  pooledHost: string
  directHost: string
  /** Port, or '' for the default 5432. */
  port: string
  database: string
  user: string
  password: string
  /** `sslmode` query parameter, or '' when absent. */
  sslmode: string
  /** `channel_binding=require` is in the query string. */
  channelBinding: boolean
}

/** A connection string that cannot be used. The message never includes the string. */
export class ConnectionStringError extends Error {}

/** Splits `scheme://authority/rest` without decoding anything. */
function splitAuthority(url: string): { head: string; userinfo: string; hostport: string; tail: string } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url)
  if (!m) throw new ConnectionStringError('The connection string is not a URL.')
  const authority = m[2]
  const at = authority.lastIndexOf('@')
  return {
    head: m[1],
    userinfo: at >= 0 ? authority.slice(0, at + 1) : '',
    hostport: at >= 0 ? authority.slice(at + 1) : authority,
    tail: m[3]
  }
}

/**
 * `url` with its host name replaced by `rewrite(host)`; user, password, port,
 * database and query string kept byte for byte.
 * @throws ConnectionStringError when the string is not a URL.
 */
export function replaceHost(url: string, rewrite: (host: string) => string): string {
  const { head, userinfo, hostport, tail } = splitAuthority(url)
  const port = /:\d+$/.exec(hostport)?.[0] ?? ''
  return head + userinfo + rewrite(hostport.slice(0, hostport.length - port.length)) + port + tail
}

/**
 * The direct connection string for a pooled one: `-pooler` removed from the
 * end of the host's first label only (instant service API: "for a direct connection
 * remove `-pooler` from the host name"); everything else byte for byte. A URL
 * without `-pooler` is returned as is.
 */
export function directUrlOf(pooledUrl: string): string {
  return replaceHost(pooledUrl, (host) => host.replace(/^([^.]*?)-pooler(?=\.|$)/, '$1'))
}

/**
 * Parses a pooled connection string into a {@link Connection}, and remembers
 * its secret forms ({@link secretsOf}) as the run's secrets (secrets.ts), so no
 * error quoting a service's answer shows them from then on.
 * @throws ConnectionStringError naming what is missing (never quoting the string).
 */
export function describeConnection(pooledUrl: string, directUrl = directUrlOf(pooledUrl)): Connection {
  const c = parseConnection(pooledUrl, directUrl)
  for (const secret of secretsOf(c)) rememberSecret(secret)
  return c
}

function parseConnection(pooledUrl: string, directUrl: string): Connection {
  let pooled: URL
  let direct: URL
  try {
    pooled = new URL(pooledUrl)
    direct = new URL(directUrl)
  } catch {
    throw new ConnectionStringError('The connection string is not a valid URL.')
  }
  if (!/^postgres(ql)?:$/.test(pooled.protocol)) throw new ConnectionStringError('The connection string is not a postgresql:// URL.')
  const database = decodeURIComponent(pooled.pathname.replace(/^\//, ''))
  if (!pooled.hostname || !pooled.username || !database) {
    throw new ConnectionStringError('The connection string lacks a host, a user or a database name.')
  }
  return {
    pooledUrl,
    directUrl,
    pooledHost: pooled.hostname,
    directHost: direct.hostname,
    port: pooled.port,
    database,
    user: decodeURIComponent(pooled.username),
    password: decodeURIComponent(pooled.password),
    sslmode: pooled.searchParams.get('sslmode') ?? '',
    channelBinding: pooled.searchParams.get('channel_binding') === 'require'
  }
}

/**
 * Every form in which a connection's secrets could be printed: both URLs, the
 * password, its URL-encoded form and the form the URL itself carries. Empty
 * strings are left out (the runner refuses to mask them).
 */
export function secretsOf(c: Connection): string[] {
  const forms = [c.pooledUrl, c.directUrl, c.password, encodeURIComponent(c.password), new URL(c.pooledUrl).password]
  return [...new Set(forms.filter((s) => s !== ''))]
}

/**
 * Hosts that failed a direct TLS connection in this run (see
 * {@link directClientConfig}); later connections to them send the SSLRequest first.
 */
const sslRequestHosts = new Set<string>()

/**
 * A `pg` client configuration for the direct connection. TLS is verified
 * against the host name unless the URL says `sslmode=disable` (stricter than
 * libpq's `require`, which skips verification); channel binding is enabled
 * when the URL asks for it. Built field by field so `pg` does not print its
 * sslmode deprecation warning into the user's log.
 *
 * TLS starts at once, without the SSLRequest and its answer, one round trip
 * fewer (`sslnegotiation=direct`, ALPN `postgresql`; PostgreSQL docs, 55.2.11
 * "SSL Session Encryption": direct SSL, PostgreSQL 17; Neon's proxy accepts it
 * whatever the compute's version), unless a direct connection to the host
 * failed earlier in the run ({@link fallBackFromDirectTls}). The connection
 * strings handed to users are not changed: libpq before 17 refuses the parameter.
 */
export function directClientConfig(c: Connection, applicationName: string): ClientConfig {
  const ssl = c.sslmode === 'disable' ? false : isIP(c.directHost) ? {} : { servername: c.directHost }
  return {
    host: c.directHost,
    port: c.port ? Number(c.port) : 5432,
    user: c.user,
    password: c.password,
    database: c.database,
    // SNI takes host names only (RFC 6066); an IP address is verified against the certificate's IP SANs.
    ssl,
    ...(ssl && !sslRequestHosts.has(c.directHost) ? { sslnegotiation: 'direct' as const } : {}),
    enableChannelBinding: c.channelBinding,
    application_name: applicationName
  }
}

/**
 * After a failed connect with `config` (from {@link directClientConfig}):
 * whether to connect once more, with the SSLRequest. True when the connect
 * used direct TLS and failed before the server answered as PostgreSQL (no
 * ErrorResponse: a server before 17, or a proxy that does not take direct TLS, ends
 * the connection or answers with something that is not TLS); the host then
 * gets the SSLRequest for the rest of the run. An ErrorResponse (a wrong
 * password, a missing database) is the server's word, not retried.
 */
export function fallBackFromDirectTls(config: ClientConfig, err: unknown): boolean {
  if (config.sslnegotiation !== 'direct') return false
  if (typeof (err as { severity?: unknown } | null)?.severity === 'string') return false // pg's DatabaseError: an ErrorResponse
  sslRequestHosts.add(config.host!)
  return true
}

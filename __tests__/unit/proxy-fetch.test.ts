/**
 * How the proxy variables are read (src/proxy-fetch.ts, proxyFor): as
 * `@actions/http-client`'s getProxyUrl and checkBypass read them, with its
 * scheme-less reading wrapped (a `proxy.corp:3128` it keeps as a URL of
 * scheme `proxy.corp:`). The requests themselves are __tests__/dist/proxy.test.ts's.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { getProxyUrl } from '@actions/http-client/lib/proxy'
import { proxyFor, proxyHint } from '../../src/proxy-fetch.js'

const NAMES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]))
afterEach(() => {
  for (const n of NAMES)
    if (saved[n] === undefined) delete process.env[n]
    else process.env[n] = saved[n]
})
/** Sets exactly the proxy variables of `env`. */
const withEnv = (env: Record<string, string>): void => {
  for (const n of NAMES) delete process.env[n]
  Object.assign(process.env, env)
}
const GHES = new URL('https://ghes.corp.example/api/v3/repos')

describe('proxyFor', () => {
  it('reads a scheme-less proxy as http://, where http-client keeps a URL with no host', () => {
    withEnv({ HTTPS_PROXY: 'proxy.corp:3128' })
    expect(getProxyUrl(GHES)?.hostname).toBe('') // the library's reading: scheme `proxy.corp:`, no host
    expect(proxyFor(GHES)).toEqual({ url: 'http://proxy.corp:3128/', username: '', password: '' })
    withEnv({ HTTPS_PROXY: '10.0.0.5:3128' })
    expect(proxyFor(GHES)).toEqual({ url: 'http://10.0.0.5:3128/', username: '', password: '' })
  })

  it('takes the credentials out of the URL, decoded, with or without a scheme', () => {
    for (const value of ['http://ci:p%40ss%3Aword@proxy.corp:3128', 'ci:p%40ss%3Aword@proxy.corp:3128']) {
      withEnv({ https_proxy: value })
      expect(proxyFor(GHES)).toEqual({ url: 'http://proxy.corp:3128/', username: 'ci', password: 'p@ss:word' })
    }
  })

  it('HTTPS_PROXY for https: URLs, HTTP_PROXY for http: ones (lower case first)', () => {
    withEnv({ HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2', https_proxy: 'http://lower:3' })
    expect(proxyFor(GHES)?.url).toBe('http://lower:3/')
    expect(proxyFor(new URL('http://ghes.corp.example/api/v3'))?.url).toBe('http://plain:2/')
  })

  it('bypasses NO_PROXY parent domains, .domains, host:port, `*` and loopback', () => {
    const proxied = (url: string, noProxy?: string): boolean => {
      withEnv({ HTTPS_PROXY: 'proxy.corp:3128', ...(noProxy === undefined ? {} : { NO_PROXY: noProxy }) })
      return proxyFor(new URL(url)) !== undefined
    }
    expect(proxied('https://ghes.corp.example/api/v3')).toBe(true)
    expect(proxied('https://ghes.corp.example/api/v3', 'corp.example')).toBe(false)
    expect(proxied('https://ghes.corp.example/api/v3', '.corp.example')).toBe(false)
    expect(proxied('https://notcorp.example/', 'corp.example')).toBe(true)
    expect(proxied('https://console.neon.tech/api/v2', 'github.com, console.neon.tech:443')).toBe(false)
    expect(proxied('https://console.neon.tech:8443/api/v2', 'console.neon.tech:443')).toBe(true)
    expect(proxied('https://api.github.com/', '*')).toBe(false)
    for (const loopback of ['https://localhost:8443/', 'https://127.0.0.1/', 'https://[::1]:443/']) expect(proxied(loopback)).toBe(false)
  })

  it('a proxy URL it cannot read is named by its variable, with no part of it in the message', () => {
    withEnv({ HTTPS_PROXY: 'http://ci:bad%zzsecret@proxy.corp:3128' })
    expect(() => proxyFor(GHES)).toThrow(/^the proxy that HTTPS_PROXY names is not a URL this action can read/)
    expect(() => proxyFor(GHES)).not.toThrow(/secret/)
    expect(proxyHint(GHES.href)).toBe('')
  })
})

/**
 * A self-hosted runner behind a proxy, through the bundled action (Node 24,
 * as action.yml), with the proxy variables read as `@actions/http-client`
 * reads them (src/proxy-fetch.ts): a forward proxy on loopback counts every
 * request it forwards, against the requests each emulated service received.
 * The services are named as remote hosts are (`*.us-east-2.localhost`, which
 * the action's loopback shim resolves): a loopback host (127.0.0.1,
 * `localhost`) is never proxied. For `https:` URLs, what `HTTPS_PROXY`
 * applies to, the proxy ends the tunnels' TLS with the emulator's
 * certificate and forwards the requests in plain HTTP, so a request that
 * went direct would fail its TLS handshake.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { Emulator } from '../../emulator/index.js'
import { ForwardProxy } from '../../emulator/forward-proxy.js'
import { NODE_24, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'
import { lifecycleSuite } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'
import { leakForms } from '../leaks.js'

const suite = lifecycleSuite('proxy-test-', 5400)
const { newPr, previewBranches, expectNoLeak } = suite
let emu: Emulator
let proxy: ForwardProxy
/** A proxy that lets through only CONNECTs with `Proxy-Authorization: Basic` of {@link USER}:{@link PASSWORD}. */
let guarded: ForwardProxy
const USER = 'runner'
const PASSWORD = 'pr0xy-p@ss:word'
beforeAll(async () => {
  ;({ emu } = suite)
  const tls = { cert: readFileSync(emu.pg.certificates.serverCert), key: readFileSync(emu.pg.certificates.serverKey) }
  proxy = new ForwardProxy({ tls })
  guarded = new ForwardProxy({ tls, requireAuth: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` })
  await proxy.listen()
  await guarded.listen()
})
afterAll(async () => {
  await proxy.close()
  await guarded.close()
})

/** `url` with its host named `<name>.us-east-2.localhost` (the emulator's certificate covers `*.us-east-2.localhost`) and scheme `scheme`. */
const named = (url: string, name: string, scheme: 'http' | 'https'): string => {
  const u = new URL(url)
  return `${scheme}://${name}.us-east-2.localhost:${u.port}${u.pathname === '/' ? '' : u.pathname}`
}
/** The services' URLs, as inputs and environment: named hosts over `scheme`, or the emulator's own loopback URLs. */
const at = (scheme: 'http' | 'https' | 'loopback'): { inputs: Record<string, string>; env: Record<string, string> } =>
  scheme === 'loopback'
    ? { inputs: {}, env: {} }
    : {
        inputs: { 'api-url': named(emu.platform.url, 'neon', scheme), 'instant-url': named(emu.instant.url, 'instant', scheme) },
        env: { GITHUB_API_URL: named(emu.github.url, 'github', scheme) }
      }

/** Runs the action in branch mode (or instant, `'instant'`) with the services at `scheme` and the proxy environment `env`. */
async function run(
  scheme: 'http' | 'https' | 'loopback',
  env: Record<string, string>,
  inputs: Record<string, string> = {},
  extra: Partial<RunOptions> = {}
): Promise<RunResult> {
  const urls = at(scheme)
  const { 'instant-url': instantUrl, ...branchUrls } = urls.inputs
  const instant = inputs.mode === 'instant'
  if (instant)
    return emu.run({
      inputs: { 'instant-url': instantUrl ?? emu.instant.url, ...inputs },
      repository: REPO,
      cwd: suite.work,
      node: NODE_24,
      ...extra,
      env: { ...urls.env, ...env }
    })
  return suite.run({ ...branchUrls, ...inputs }, { ...extra, env: { ...urls.env, ...env } })
}

/** `host:port` of a service URL. */
const portOf = (url: string): string => new URL(url).port
/** Requests each emulated service received while `fn` ran, and those `via` forwarded to it (by port: the proxy sees the named host). */
async function counted<T>(
  fn: () => Promise<T>,
  via = proxy
): Promise<{ result: T; neon: [number, number]; github: [number, number]; instant: [number, number]; other: number }> {
  const before = { neon: emu.platform.server.log.length, github: emu.github.server.log.length, instant: emu.instant.server.log.length, proxy: via.requests.length }
  const result = await fn()
  const seen = via.requests.slice(before.proxy)
  const through = (url: string): number => seen.filter((r) => r.target.endsWith(`:${portOf(url)}`)).length
  const ports = [emu.platform.url, emu.github.url, emu.instant.url].map(portOf)
  return {
    result,
    neon: [emu.platform.server.log.length - before.neon, through(emu.platform.url)],
    github: [emu.github.server.log.length - before.github, through(emu.github.url)],
    instant: [emu.instant.server.log.length - before.instant, through(emu.instant.url)],
    other: seen.filter((r) => !ports.some((p) => r.target.endsWith(`:${p}`))).length
  }
}

/** No warning of Node's or undici's on stderr (such as `UNDICI-EHPA`: EnvHttpProxyAgent is experimental). */
const noNodeWarning = (r: RunResult): void => {
  expect(r.stderr).not.toMatch(/Warning|UNDICI-/)
  expect(r.post?.stderr ?? '').not.toMatch(/Warning|UNDICI-/)
}

describe('behind a proxy', () => {
  it('HTTPS_PROXY without a scheme (`proxy.corp:3128`): every Neon and GitHub request of a create and a delete goes through it, with no warning', async () => {
    const pr = newPr()
    const env = { HTTPS_PROXY: `proxy.localhost:${portOf(proxy.url)}` }
    const created = await counted(() => run('https', env, { seed: 'seed.sql' }, { pr: { number: pr } }))
    expect(created.result.errors).toEqual([])
    expect(created.result.outputs.created).toBe('true')
    expect(created.neon[0]).toBeGreaterThanOrEqual(5)
    expect(created.github[0]).toBeGreaterThanOrEqual(5)
    expect(created.neon[1]).toBe(created.neon[0])
    expect(created.github[1]).toBe(created.github[0])
    expect(created.other).toBe(0)
    expect(proxy.requests.slice(-3).every((q) => q.tls)).toBe(true)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expectNoLeak(created.result)
    noNodeWarning(created.result)

    const deleted = await counted(() => run('https', env, { command: 'delete' }, { pr: { number: pr } }))
    expect(deleted.result.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
    expect(deleted.neon[0]).toBeGreaterThan(0)
    expect(deleted.neon[1]).toBe(deleted.neon[0])
    expect(deleted.github[1]).toBe(deleted.github[0])
    noNodeWarning(deleted.result)
  })

  it('credentials in the proxy URL reach the proxy as Proxy-Authorization on every tunnel, and appear in no log', async () => {
    const pr = newPr()
    const url = `http://${USER}:${encodeURIComponent(PASSWORD)}@proxy.localhost:${portOf(guarded.url)}`
    const tunnels = guarded.tunnels.length
    const r = await counted(() => run('https', { https_proxy: url }, {}, { pr: { number: pr } }), guarded)
    expect(r.result.errors).toEqual([])
    expect(r.neon[1]).toBe(r.neon[0])
    expect(r.github[1]).toBe(r.github[0])
    const made = guarded.tunnels.slice(tunnels)
    expect(made.length).toBeGreaterThan(0)
    expect(made.every((t) => t.authorization === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`)).toBe(true)
    expectNoLeak(r.result, [...leakForms(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString('base64')])
    noNodeWarning(r.result)

    // Wrong credentials: the proxy answers 407; the error names the proxy, never the password.
    const refused = await run('https', { HTTPS_PROXY: url.replace(encodeURIComponent(PASSWORD), 'wrong') }, { comment: 'false', deployment: 'false' }, { pr: { number: newPr() } })
    expect(refused.code).toBe(1)
    expect(refused.errors).toEqual([expect.stringMatching(/could not reach the service .*The request went through the proxy that HTTPS_PROXY names/)])
    expect(refused.stdout).not.toContain('wrong@')
  })

  it('lower-case http_proxy: neon.new requests (instant mode) go through it too', async () => {
    const pr = newPr()
    const r = await counted(() => run('http', { http_proxy: proxy.url }, { mode: 'instant' }, { pr: { number: pr } }))
    expect(r.result.errors).toEqual([])
    expect(r.instant[0]).toBeGreaterThan(0)
    expect(r.instant[1]).toBe(r.instant[0])
    expect(r.github[1]).toBe(r.github[0])
  })

  it('NO_PROXY naming the parent domain (`corp.example` for `ghes.corp.example`): no request goes through the proxy, and the run succeeds', async () => {
    const pr = newPr()
    const r = await counted(() => run('http', { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.invalid, us-east-2.localhost' }, {}, { pr: { number: pr } }))
    expect(r.result.errors).toEqual([])
    expect(r.neon[0]).toBeGreaterThan(0)
    expect(r.github[0]).toBeGreaterThan(0)
    expect([r.neon[1], r.github[1], r.other]).toEqual([0, 0, 0])
  })

  it('no_proxy naming one host and port (GitHub): Neon through the proxy, GitHub direct', async () => {
    const pr = newPr()
    const github = new URL(at('http').env.GITHUB_API_URL).host
    const r = await counted(() => run('http', { http_proxy: proxy.url, no_proxy: `example.invalid,${github}` }, {}, { pr: { number: pr } }))
    expect(r.result.errors).toEqual([])
    expect(r.neon[1]).toBe(r.neon[0])
    expect(r.neon[0]).toBeGreaterThan(0)
    expect(r.github[0]).toBeGreaterThan(0)
    expect(r.github[1]).toBe(0)
  })

  it('NO_PROXY `*`, and loopback hosts with no NO_PROXY: nothing goes through a proxy that cannot be reached, and the runs succeed', async () => {
    const dead = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' }
    const everyHost = await run('http', { ...dead, no_proxy: '*' }, { comment: 'false', deployment: 'false' }, { pr: { number: newPr() } })
    expect(everyHost.errors).toEqual([])
    const loopback = await run('loopback', dead, { comment: 'false', deployment: 'false' }, { pr: { number: newPr() } })
    expect(loopback.errors).toEqual([])
    expect(loopback.outputs.created).toBe('true')
  })

  it('a proxy that cannot be reached: the run fails naming the request and the proxy, and leaves no branch', async () => {
    const r = await run('http', { HTTP_PROXY: 'http://127.0.0.1:9' }, { comment: 'false', deployment: 'false' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^List branches .*failed: could not reach the service \(GET http:\/\/neon\.us-east-2\.localhost:\d+\/.*\): ECONNREFUSED\. The request went through the proxy that HTTP_PROXY names: check that the proxy is reachable and lets neon\.us-east-2\.localhost:\d+ through, or add the host to NO_PROXY\./
      )
    ])
    expect(previewBranches()).toHaveLength(0)
  })
})

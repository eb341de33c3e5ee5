/**
 * A self-hosted runner behind a proxy, through the bundled action (Node 24,
 * as action.yml): with `HTTP_PROXY`/`HTTPS_PROXY` (either case) every request
 * to Neon, neon.new and GitHub goes through a forward proxy on loopback that
 * counts them; `NO_PROXY` naming a host sends that host's requests direct.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { ForwardProxy } from '../../emulator/forward-proxy.js'
import { NODE_24 } from '../../emulator/runner/runner.js'
import { lifecycleSuite } from '../fixtures/lifecycle-suite.js'
import { REPO } from '../fixtures/preview.js'

const suite = lifecycleSuite('proxy-test-', 5400)
const { newPr, run, previewBranches, expectNoLeak } = suite
let emu: Emulator
const proxy = new ForwardProxy()
beforeAll(async () => {
  ;({ emu } = suite)
  await proxy.listen()
})
afterAll(async () => {
  await proxy.close()
})

/** `host:port` of a service URL. */
const hostOf = (url: string): string => new URL(url).host
/** Requests each emulated service received while `fn` ran, and those the proxy forwarded to it. */
async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; neon: [number, number]; github: [number, number]; instant: [number, number]; other: number }> {
  const before = { neon: emu.platform.server.log.length, github: emu.github.server.log.length, instant: emu.instant.server.log.length, proxy: proxy.requests.length }
  const result = await fn()
  const seen = proxy.requests.slice(before.proxy)
  const through = (url: string): number => seen.filter((r) => r.target === hostOf(url)).length
  return {
    result,
    neon: [emu.platform.server.log.length - before.neon, through(emu.platform.url)],
    github: [emu.github.server.log.length - before.github, through(emu.github.url)],
    instant: [emu.instant.server.log.length - before.instant, through(emu.instant.url)],
    other: seen.filter((r) => ![emu.platform.url, emu.github.url, emu.instant.url].map(hostOf).includes(r.target)).length
  }
}

describe('behind a proxy', () => {
  it('HTTP_PROXY and HTTPS_PROXY: every Neon and GitHub request of a create and a delete goes through the proxy', async () => {
    const pr = newPr()
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }
    const created = await counted(() => run({ seed: 'seed.sql' }, { pr: { number: pr }, env }))
    expect(created.result.errors).toEqual([])
    expect(created.result.outputs.created).toBe('true')
    expect(created.neon[0]).toBeGreaterThanOrEqual(5)
    expect(created.github[0]).toBeGreaterThanOrEqual(5)
    expect(created.neon[1]).toBe(created.neon[0])
    expect(created.github[1]).toBe(created.github[0])
    expect(created.other).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expectNoLeak(created.result)

    const deleted = await counted(() => run({ command: 'delete' }, { pr: { number: pr }, env }))
    expect(deleted.result.errors).toEqual([])
    expect(previewBranches()).toHaveLength(0)
    expect(deleted.neon[0]).toBeGreaterThan(0)
    expect(deleted.neon[1]).toBe(deleted.neon[0])
    expect(deleted.github[1]).toBe(deleted.github[0])
  })

  it('lower-case http_proxy: neon.new requests (instant mode) go through it too', async () => {
    const pr = newPr()
    const r = await counted(() =>
      emu.run({ inputs: { 'instant-url': emu.instant.url }, repository: REPO, cwd: suite.work, node: NODE_24, pr: { number: pr }, env: { http_proxy: proxy.url } })
    )
    expect(r.result.errors).toEqual([])
    expect(r.instant[0]).toBeGreaterThan(0)
    expect(r.instant[1]).toBe(r.instant[0])
    expect(r.github[1]).toBe(r.github[0])
  })

  it('NO_PROXY naming the hosts: no request goes through the proxy, and the run succeeds', async () => {
    const pr = newPr()
    const r = await counted(() => run({}, { pr: { number: pr }, env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } }))
    expect(r.result.errors).toEqual([])
    expect(r.neon[0]).toBeGreaterThan(0)
    expect(r.github[0]).toBeGreaterThan(0)
    expect([r.neon[1], r.github[1], r.other]).toEqual([0, 0, 0])
  })

  it('no_proxy naming one host and port (GitHub): Neon through the proxy, GitHub direct', async () => {
    const pr = newPr()
    const r = await counted(() => run({}, { pr: { number: pr }, env: { http_proxy: proxy.url, no_proxy: `example.invalid,${hostOf(emu.github.url)}` } }))
    expect(r.result.errors).toEqual([])
    expect(r.neon[1]).toBe(r.neon[0])
    expect(r.neon[0]).toBeGreaterThan(0)
    expect(r.github[0]).toBeGreaterThan(0)
    expect(r.github[1]).toBe(0)
  })

  it('a proxy that cannot be reached: the run fails naming the request, and leaves no branch', async () => {
    const r = await run({ comment: 'false', deployment: 'false' }, { pr: { number: newPr() }, env: { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' } })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual([expect.stringMatching(/^List branches .*failed: could not reach the service \(GET http:\/\/127\.0\.0\.1:\d+\/.*\): ECONNREFUSED\. Requests go through the proxy that HTTPS_PROXY\/HTTP_PROXY name unless NO_PROXY names the host/)])
    expect(previewBranches()).toHaveLength(0)
  })
})

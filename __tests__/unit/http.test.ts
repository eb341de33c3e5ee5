/**
 * requestJson's Retry-After handling (src/http.ts) against a real HTTP
 * server (the emulator's ServiceServer with injected faults).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { ServiceServer } from '../../emulator/http-kit.js'
import { HttpError, MAX_RETRY_AFTER_S, requestJson } from '../../src/http.js'

const server = new ServiceServer('test').route('POST', /^\/thing$/, () => ({ status: 201, body: { ok: true } }))
beforeAll(async () => void (await server.listen()))
afterAll(async () => await server.close())

const post = () =>
  requestJson({ label: 'Create thing', method: 'POST', url: `${server.url}/thing`, body: {}, timeoutMs: 5000, idempotent: false })

describe('requestJson and Retry-After', () => {
  it('fails at once, saying how long the service asked for, when Retry-After exceeds what the run waits', async () => {
    for (const value of ['3600', new Date(Date.now() + 2 * 3600_000).toUTCString()]) {
      server.log.length = 0
      server.inject({ method: 'POST', kind: 'status', status: 429, headers: { 'retry-after': value } })
      const started = Date.now()
      const err = (await post().catch((e: unknown) => e)) as HttpError
      expect(err).toBeInstanceOf(HttpError)
      expect(err.status).toBe(429)
      expect(err.message).toMatch(
        new RegExp(
          `asked to wait \\d{4} s \\(Retry-After\\).*longer than this action waits \\(${MAX_RETRY_AFTER_S} s\\): re-run the job later`
        )
      )
      // not waited: a quarter of the longest Retry-After the action waits out, so the machine's load cannot fail it
      expect(Date.now() - started).toBeLessThan((MAX_RETRY_AFTER_S * 1000) / 4)
      expect(server.requests('POST')).toHaveLength(1)
    }
  })

  it('waits a Retry-After within the limit and sends the request again', async () => {
    server.log.length = 0
    server.inject({ method: 'POST', kind: 'status', status: 429, headers: { 'retry-after': '1' } })
    await expect(post()).resolves.toMatchObject({ status: 201 })
    const [first, second] = server.requests('POST')
    expect(second.at - first.at).toBeGreaterThanOrEqual(950)
  })
})

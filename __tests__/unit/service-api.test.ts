/**
 * The HTTP layer and the instant parser as the real services answer:
 * 204 with no body, `request_id` in error bodies, 503 retried
 * only where allowed, and the instant service's field names.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { HttpError, requestJson } from '../../src/http.js'
import { parseDatabase } from '../../src/instant/client.js'
import { whyNotReusable } from '../../src/instant/lifecycle.js'

let server: http.Server
let url = ''
/** Answers queued per request; each a status, a body text and headers. */
const answers: { status: number; text: string; headers?: Record<string, string> }[] = []
let hits = 0

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits++
    const a = answers.shift() ?? { status: 500, text: '' }
    res.writeHead(a.status, a.headers ?? {}).end(a.text)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const req = (extra: Partial<Parameters<typeof requestJson>[0]> = {}) =>
  requestJson({ label: 'Delete branch br-1', method: 'DELETE', url, timeoutMs: 2000, idempotent: false, ...extra })

describe('requestJson', () => {
  it('takes 204 with an empty body as success where the request allows it (platform spec, DELETE branch)', async () => {
    answers.push({ status: 204, text: '' })
    await expect(req({ emptyBodyStatuses: [204] })).resolves.toMatchObject({ status: 204, body: undefined })
  })

  it('still refuses an empty 200 where the spec promises a body', async () => {
    answers.push({ status: 200, text: '' })
    await expect(req({ emptyBodyStatuses: [204] })).rejects.toThrow(/not JSON/)
  })

  it("quotes the platform's request_id from the error body, else from X-Request-ID", async () => {
    answers.push({ status: 500, text: JSON.stringify({ code: 'X', message: 'internal', request_id: 'req-123' }) })
    const err = (await req().catch((e: unknown) => e)) as HttpError
    expect(err.requestId).toBe('req-123')
    expect(err.message).toMatch(/HTTP 500: "internal" \(DELETE \S+, request_id req-123\)\./)
    answers.push({ status: 502, text: '{"message":"bad gateway"}', headers: { 'x-request-id': 'hdr-9' } })
    expect(((await req().catch((e: unknown) => e)) as HttpError).requestId).toBe('hdr-9')
  })

  it('retries 503 only with retryOn503 (a create idempotent through its name), never other 5xx', async () => {
    hits = 0
    answers.push({ status: 503, text: '{"message":"unavailable"}' }, { status: 201, text: '{"ok":true}' })
    await expect(req({ method: 'POST', retryOn503: true })).resolves.toMatchObject({ status: 201 })
    expect(hits).toBe(2)
    hits = 0
    answers.push({ status: 500, text: '{"message":"x"}' }, { status: 201, text: '{}' })
    await expect(req({ method: 'POST', retryOn503: true })).rejects.toThrow(/HTTP 500/)
    expect(hits).toBe(1)
    answers.length = 0
    hits = 0
    answers.push({ status: 503, text: '{"message":"unavailable"}' }, { status: 201, text: '{}' })
    await expect(req({ method: 'POST' })).rejects.toThrow(/HTTP 503/)
    expect(hits).toBe(1)
    answers.length = 0
  })
})

const database = (extra: Record<string, unknown>) => ({
  id: '0190c3e0-7c1a-7000-8000-000000000001',
  status: 'UNCLAIMED',
  connection_string: 'postgresql://u:p@ep-x-pooler.us-east-2.example/db?sslmode=require',
  claim_url: 'https://svc.example/claim/0190c3e0-7c1a-7000-8000-000000000001',
  expires_at: '2030-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...extra
})

describe('parseDatabase (instant service)', () => {
  it('reads the project id as neon_project_id (live service) or svc_project_id (the API document)', () => {
    expect(parseDatabase('x', database({ neon_project_id: 'live-1' })).projectId).toBe('live-1')
    expect(parseDatabase('x', database({ svc_project_id: 'seed-1' })).projectId).toBe('seed-1')
  })

  it('never fails on the project id: missing or odd, it is just unknown', () => {
    expect(parseDatabase('x', database({})).projectId).toBeUndefined()
    expect(parseDatabase('x', database({ neon_project_id: 42 })).projectId).toBeUndefined()
  })

  it('takes a claimed database with connection_string and expires_at null, and does not reuse it', () => {
    const db = parseDatabase('x', database({ status: 'CLAIMED', connection_string: null, expires_at: null }))
    expect(db.expiresAt).toBeNull()
    expect(whyNotReusable(db.id, db)).toMatch(/claimed/)
    expect(whyNotReusable(db.id, null)).toMatch(/no longer exists.*Database not found/)
  })
})

/**
 * Neon's plan limits told by their error `code` (Neon API spec, GeneralError
 * `{code, message}`), through requestJson against a real HTTP server, and by
 * the message where no code came.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { ServiceServer } from '../../emulator/http-kit.js'
import { HttpError, requestJson } from '../../src/http.js'
import { limitOf } from '../../src/platform/api-errors.js'

let answer: { status: number; body: unknown } = { status: 201, body: {} }
const server = new ServiceServer('test').route('POST', /^\/branches$/, () => answer)
beforeAll(async () => void (await server.listen()))
afterAll(async () => await server.close())

const refusal = async (body: unknown): Promise<HttpError> => {
  answer = { status: 422, body }
  const err = await requestJson({
    label: 'Create branch',
    method: 'POST',
    url: `${server.url}/branches`,
    body: {},
    timeoutMs: 5000,
    idempotent: false
  }).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(HttpError)
  return err as HttpError
}

describe('limitOf', () => {
  it("reads Neon's error code, whatever the message says", async () => {
    const err = await refusal({ code: 'BRANCHES_LIMIT_EXCEEDED', message: 'You have reached the maximum number of branches' })
    expect(err.code).toBe('BRANCHES_LIMIT_EXCEEDED')
    expect(limitOf(err)).toBe('branches')
    expect(limitOf(await refusal({ code: 'ROLES_LIMIT_EXCEEDED', message: 'too many' }))).toBe('other')
  })

  it('falls back to the message where no code came, and is null for other refusals', async () => {
    expect(limitOf(await refusal({ message: 'active endpoints limit exceeded' }))).toBe('computes')
    expect(limitOf(await refusal({ message: 'branches limit exceeded' }))).toBe('branches')
    const other = await refusal({ code: 'BAD_REQUEST', message: 'name is invalid' })
    expect(other.code).toBe('BAD_REQUEST')
    expect(limitOf(other)).toBeNull()
  })

  it('keeps no code that is not of the spec’s shape (upper-case letters, digits, _)', async () => {
    expect((await refusal({ code: 'x<script>', message: 'm' })).code).toBeUndefined()
  })
})

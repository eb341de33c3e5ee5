/**
 * The lifecycle requests the action sends, held against the platform's
 * published OpenAPI spec (public-v2-for-users.gen.yaml in
 * `@neondatabase/api-client`): each body validates against the operation's
 * request schema (ajv), and every field we send is one the schema names
 * (the schemas allow extra properties, so a misspelt field would pass ajv alone).
 */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'
import { MockAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { NeonClient } from '../../src/platform/client.js'
import { branchCreateExtras } from '../../src/platform/branch-create-extras.js'
import { ANNOTATION, ownerOf } from '../../src/platform/annotations.js'
import { ACTION_VERSION } from '../../src/version.js'
import { duration } from '../../src/inputs.js'

const require = createRequire(import.meta.url)
type Schema = Record<string, unknown>
let spec: {
  paths: Record<string, Record<string, { requestBody?: { content: { 'application/json': { schema: Schema } } } }>>
  components: { schemas: Record<string, Schema> }
}
let ajv: Ajv

beforeAll(() => {
  const file = require.resolve('@neondatabase/api-client/public-v2-for-users.gen.yaml')
  spec = parse(readFileSync(file, 'utf8'))
  ajv = new Ajv({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ $id: 'spec', components: spec.components }, 'spec')
})

/** The request schema of `method path`, with refs pointing into the spec. */
function requestSchema(path: string, method: string): Schema {
  const schema = spec.paths[path][method].requestBody!.content['application/json'].schema
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"spec#/components'))
}

const resolve = (s: Schema): Schema => (typeof s.$ref === 'string' ? resolve(spec.components.schemas[s.$ref.split('/').pop()!]) : s)

/** Paths of `value`'s object keys that `schema` (allOf, $ref, properties, items) does not name. */
function unknownKeys(schema: Schema, value: unknown, at = ''): string[] {
  const s = resolve(schema)
  if (Array.isArray(s.allOf)) {
    const props = Object.assign({}, ...s.allOf.map((x) => (resolve(x as Schema).properties as object) ?? {}))
    return unknownKeys({ type: 'object', properties: props }, value, at)
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownKeys((s.items as Schema) ?? {}, v, `${at}[${i}]`))
  if (value && typeof value === 'object' && s.properties) {
    const props = s.properties as Record<string, Schema>
    return Object.entries(value).flatMap(([k, v]) => (props[k] ? unknownKeys(props[k], v, `${at}.${k}`) : [`${at}.${k}`]))
  }
  return []
}

const sent: { method: string; url: string; body: unknown }[] = []
const realDispatcher = getGlobalDispatcher()
let mock: MockAgent | undefined
/** Answers every request to the test's platform with `reply` (undici's MockAgent: the action's requests go through undici, proxy-fetch.ts) and records it. */
function stubFetch(reply: unknown): void {
  mock = new MockAgent()
  mock.disableNetConnect()
  mock
    .get('https://platform.test')
    .intercept({ path: () => true, method: () => true })
    .reply(
      200,
      (opts) => {
        sent.push({
          method: opts.method,
          url: `https://platform.test${opts.path}`,
          body: opts.body ? JSON.parse(String(opts.body)) : undefined
        })
        return reply as object
      },
      { headers: { 'content-type': 'application/json' } }
    )
    .persist()
  setGlobalDispatcher(mock)
}
afterEach(async () => {
  setGlobalDispatcher(realDispatcher)
  await mock?.close()
  mock = undefined
  sent.length = 0
})

const client = new NeonClient('https://platform.test/api/v2', 'napi_test', 5000, 'proj-1')
const branch = { id: 'br-a-1', project_id: 'proj-1', name: 'preview/pr-1', created_at: '2026-01-01T00:00:00Z' }
const settings = { expiresInSeconds: 7 * 86400, schemaOnly: true, suspendTimeoutSeconds: 300, minCu: 0.25, maxCu: 2 }
const owner = { repository: 'acme/shop', pr: 7, headSha: 'abc123' }

function expectConforms(path: string, method: string, body: unknown): void {
  const schema = requestSchema(path, method)
  const ok = ajv.validate(schema, body)
  expect(ajv.errors ?? []).toEqual([])
  expect(ok).toBe(true)
  expect(unknownKeys(schema, body)).toEqual([])
}

describe('requests against the published spec', () => {
  it('create branch with every lifecycle field: BranchCreateRequest + AnnotationCreateValueRequest', async () => {
    stubFetch({ branch, endpoints: [], operations: [], connection_uris: [] })
    await client.createBranch('br-main-1', 'preview/pr-7', branchCreateExtras(settings, owner, Date.parse('2026-11-23T10:00:00.456Z')))
    const body = sent[0].body as {
      branch: Record<string, unknown>
      endpoints: Record<string, unknown>[]
      annotation_value: Record<string, string>
    }
    expect(body.branch).toEqual({
      parent_id: 'br-main-1',
      name: 'preview/pr-7',
      expires_at: '2026-11-30T10:00:00Z',
      init_source: 'schema-only'
    })
    expect(body.endpoints).toEqual([
      { type: 'read_write', suspend_timeout_seconds: 300, autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 }
    ])
    expect(body.annotation_value).toEqual({
      [ANNOTATION.repository]: 'acme/shop',
      [ANNOTATION.pr]: '7',
      [ANNOTATION.headSha]: 'abc123',
      [ANNOTATION.version]: ACTION_VERSION
    })
    expectConforms('/projects/{project_id}/branches', 'post', body)
  })

  it('create branch without lifecycle inputs sends only the annotations', async () => {
    stubFetch({ branch, endpoints: [], operations: [], connection_uris: [] })
    await client.createBranch('br-main-1', 'preview/pr-7', branchCreateExtras({ expiresInSeconds: 0, schemaOnly: false }, owner))
    const body = sent[0].body as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['annotation_value', 'branch', 'endpoints'])
    expect(body.endpoints).toEqual([{ type: 'read_write' }])
    expectConforms('/projects/{project_id}/branches', 'post', body)
  })

  it('update branch (expiry) and restore branch: BranchUpdateRequest, BranchRestoreRequest', async () => {
    stubFetch({ branch, operations: [] })
    await client.updateBranch('br-a-1', { expires_at: '2026-11-30T10:00:00Z' })
    await client.restoreBranch('br-a-1', { source_branch_id: 'br-main-1' })
    expect(sent.map((s) => [s.method, new URL(s.url).pathname])).toEqual([
      ['PATCH', '/api/v2/projects/proj-1/branches/br-a-1'],
      ['POST', '/api/v2/projects/proj-1/branches/br-a-1/restore']
    ])
    expectConforms('/projects/{project_id}/branches/{branch_id}', 'patch', sent[0].body)
    expectConforms('/projects/{project_id}/branches/{branch_id}/restore', 'post', sent[1].body)
  })

  it('the checker itself: a misspelt field is caught', () => {
    expect(unknownKeys(requestSchema('/projects/{project_id}/branches', 'post'), { branch: { expires: 'x' } })).toEqual(['.branch.expires'])
  })
})

describe('annotations and durations', () => {
  it('reads its own annotations back; a branch without them is not ours', () => {
    expect(ownerOf(branchCreateExtras({ expiresInSeconds: 0, schemaOnly: false }, owner).annotation_value)).toEqual({
      ...owner,
      version: ACTION_VERSION
    })
    expect(ownerOf({})).toBeNull()
    expect(ownerOf({ [ANNOTATION.repository]: 'acme/shop' })).toBeNull()
  })

  it("records the PR comment's and the deployment's ids for the sweep, and reads back only positive integers", () => {
    const value = branchCreateExtras(
      { expiresInSeconds: 0, schemaOnly: false },
      { ...owner, commentId: 1001, deploymentId: 7002 }
    ).annotation_value!
    expect(value).toMatchObject({ [ANNOTATION.comment]: '1001', [ANNOTATION.deployment]: '7002' })
    expect(ownerOf(value)).toMatchObject({ commentId: 1001, deploymentId: 7002 })
    const bad = ownerOf({ ...value, [ANNOTATION.comment]: '-3', [ANNOTATION.deployment]: '1e400' })!
    expect([bad.commentId, bad.deploymentId]).toEqual([undefined, undefined])
  })

  it("a create waits for the deployment's id at most the time given; an id not known by then is not recorded", async () => {
    const { recordIdsFrom, recordedIds } = await import('../../src/platform/recorded-ids.js')
    recordIdsFrom(() => ({ commentId: 1001, deploymentId: new Promise((r) => setTimeout(() => r(7002), 50)) }))
    expect(await recordedIds(2000)).toEqual({ commentId: 1001, deploymentId: 7002 })
    recordIdsFrom(() => ({ commentId: 1001, deploymentId: new Promise(() => undefined) }))
    const t0 = Date.now()
    expect(await recordedIds(100)).toEqual({ commentId: 1001 })
    expect(Date.now() - t0).toBeLessThan(1000)
    recordIdsFrom(() => ({ deploymentId: Promise.reject(new Error('refused')) }))
    expect(await recordedIds(100)).toEqual({})
  })

  it('ACTION_VERSION is package.json version', () => {
    expect(ACTION_VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
  })

  it.each([
    ['90m', 5400],
    ['36h', 129600],
    ['7d', 604800],
    ['3600', 3600],
    ['45s', 45],
    ['', 0]
  ])('duration %s is %d s', (value, seconds) => {
    process.env['INPUT_EXPIRES-IN'] = value
    expect(duration('expires-in')).toBe(seconds)
    delete process.env['INPUT_EXPIRES-IN']
  })
})

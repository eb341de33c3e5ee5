/**
 * The contract with Vercel: the models of `@vercel/sdk` (Vercel's own SDK,
 * generated from its OpenAPI document; their zod schemas) checked against
 * every request the bundled action sends to the emulator's Vercel API and
 * every answer the emulator serves, over runs that touch each endpoint the
 * action uses: the project, the project's variables listed (page by page,
 * with ciphertext, and without values for a team that enforces sensitive
 * variables), upserted (one of them refused in `failed[]`) and removed,
 * deployments listed by commit and branch (the production branch's among
 * them), one created from `gitSource` with `forceNew`, a stale one
 * cancelled. Query parameters must be ones the SDK's request model names,
 * but for the env list's `until` (Vercel REST API, "Pagination": the page
 * after `pagination.next`), which the SDK's model of that list lacks.
 *
 *   npm run contract        runs this folder
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ZodTypeAny } from 'zod/v3'
import { CancelDeploymentResponseBody$inboundSchema } from '@vercel/sdk/models/canceldeploymentresponsebody.js'
import { CreateDeploymentResponseBody$inboundSchema } from '@vercel/sdk/models/createdeploymentresponsebody.js'
import {
  CreateDeploymentRequest$outboundSchema,
  CreateDeploymentRequestBody$outboundSchema
} from '@vercel/sdk/models/responsebodyimages.js'
import {
  CreateProjectEnvRequest$outboundSchema,
  CreateProjectEnvResponseBody$inboundSchema
} from '@vercel/sdk/models/createprojectenvop.js'
import {
  FilterProjectEnvsRequest$outboundSchema,
  FilterProjectEnvsResponseBody$inboundSchema
} from '@vercel/sdk/models/filterprojectenvsop.js'
import { GetDeploymentsRequest$outboundSchema, GetDeploymentsResponseBody$inboundSchema } from '@vercel/sdk/models/getdeploymentsop.js'
import { GetProjectResponseBody$inboundSchema } from '@vercel/sdk/models/getprojectresponsebody.js'
import { RemoveProjectEnvResponseBody$inboundSchema } from '@vercel/sdk/models/removeprojectenvop.js'
import { APP_TOKEN, VERCEL_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import type { LoggedRequest } from '../../emulator/http-kit.js'
import { NODE_24, type RunResult } from '../../emulator/runner/runner.js'

const REPO = 'acme/shop'
const SHA = 'a1b2c3d4e5f6'
let emu: Emulator
let work: string
const runs: RunResult[] = []

/** Each endpoint the action uses: its route, the SDK's request model (for the query's names), the request body's and the answer's schemas. */
const ENDPOINTS: { name: string; method: string; path: RegExp; query?: ZodTypeAny; body?: ZodTypeAny; answer: ZodTypeAny }[] = [
  { name: 'getProject', method: 'GET', path: /^\/v9\/projects\/[^/]+$/, answer: GetProjectResponseBody$inboundSchema },
  {
    name: 'filterProjectEnvs',
    method: 'GET',
    path: /^\/v10\/projects\/[^/]+\/env$/,
    query: FilterProjectEnvsRequest$outboundSchema,
    answer: FilterProjectEnvsResponseBody$inboundSchema
  },
  {
    name: 'createProjectEnv',
    method: 'POST',
    path: /^\/v10\/projects\/[^/]+\/env$/,
    query: CreateProjectEnvRequest$outboundSchema,
    answer: CreateProjectEnvResponseBody$inboundSchema
  },
  {
    name: 'removeProjectEnv',
    method: 'DELETE',
    path: /^\/v9\/projects\/[^/]+\/env\/[^/]+$/,
    answer: RemoveProjectEnvResponseBody$inboundSchema
  },
  {
    name: 'getDeployments',
    method: 'GET',
    path: /^\/v7\/deployments$/,
    query: GetDeploymentsRequest$outboundSchema,
    answer: GetDeploymentsResponseBody$inboundSchema
  },
  {
    name: 'createDeployment',
    method: 'POST',
    path: /^\/v13\/deployments$/,
    query: CreateDeploymentRequest$outboundSchema,
    body: CreateDeploymentRequestBody$outboundSchema,
    answer: CreateDeploymentResponseBody$inboundSchema
  },
  {
    name: 'cancelDeployment',
    method: 'PATCH',
    path: /^\/v12\/deployments\/[^/]+\/cancel$/,
    answer: CancelDeploymentResponseBody$inboundSchema
  }
]

const endpointOf = (q: LoggedRequest) => ENDPOINTS.find((e) => e.method === q.method && e.path.test(q.path))

/** The zod issues of `value` under `schema`, as `path: message` lines. */
function problems(schema: ZodTypeAny, value: unknown): string[] {
  const r = schema.safeParse(value)
  return r.success ? [] : r.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`)
}

/** Query names the request model does not know: zod drops unknown keys, so a name missing from the parsed object is one. */
function unknownQueryNames(schema: ZodTypeAny, query: string, requestBody: unknown = []): string[] {
  const given = Object.fromEntries(new URLSearchParams(query))
  const typed: Record<string, unknown> = { idOrName: 'x', requestBody, ...given }
  if ('limit' in typed) typed.limit = Number(typed.limit)
  if ('decrypt' in typed) typed.decrypt = String(typed.decrypt)
  const parsed = schema.safeParse(typed)
  if (!parsed.success) return [`(does not parse: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')})`]
  return Object.keys(given).filter((k) => !(k in (parsed.data as Record<string, unknown>)))
}

beforeAll(async () => {
  emu = await startEmulator()
  work = mkdtempSync(path.join(os.tmpdir(), 'contract-vercel-'))
  writeFileSync(path.join(work, 'seed.sql'), 'CREATE TABLE t (id int);\n')
  const team = emu.vercel.addTeam('acme')
  const project = emu.vercel.addProject('contract-web', { team })
  const run = async (pr: number, inputs: Record<string, string> = {}, event?: Record<string, unknown>): Promise<RunResult> => {
    const r = await emu.run({
      inputs: {
        'instant-url': emu.instant.url,
        'github-token': APP_TOKEN,
        seed: 'seed.sql',
        'vercel-token': VERCEL_TOKEN,
        'vercel-project': project.id,
        'vercel-team': team.id,
        'vercel-api-url': emu.vercel.url,
        ...inputs
      },
      repository: REPO,
      pr: { number: pr },
      ...(event ? { event } : {}),
      cwd: work,
      node: NODE_24,
      timeoutMs: 60_000
    })
    runs.push(r)
    return r
  }
  for (const n of [1, 2, 3]) emu.github.openPullRequest(REPO, n)
  // PR 1: a deployment building before the run (replaced and cancelled), main's production build of the same commit beside it;
  // a re-run; then closed. The variables listed one a page.
  emu.vercel.envPageSize = 1
  emu.vercel.gitPush(project, 'main', SHA, 'BUILDING')
  emu.vercel.gitPush(project, 'feature/login', SHA, 'BUILDING')
  expect((await run(1)).code).toBe(0)
  expect((await run(1)).code).toBe(0)
  expect(
    (
      await run(
        1,
        { command: 'delete' },
        { action: 'closed', number: 1, pull_request: { number: 1, head: { ref: 'feature/login', sha: SHA } } }
      )
    ).code
  ).toBe(0)
  // PR 2: one variable refused in failed[].
  emu.vercel.refuse.set('DATABASE_URL_UNPOOLED', { code: 'ENV_CONFLICT', message: 'conflict' })
  expect((await run(2)).code).toBe(1)
  // PR 3: a team that enforces sensitive variables, listed without values; a re-run.
  const strict = emu.vercel.addTeam('strict', { enforceSensitive: true })
  const sensitive = emu.vercel.addProject('contract-strict', { team: strict })
  for (let i = 0; i < 2; i++) expect((await run(3, { 'vercel-project': sensitive.id, 'vercel-team': strict.id })).code).toBe(0)
  expect(sensitive.envs.map((e) => e.type)).toEqual(['sensitive', 'sensitive'])
}, 300_000)

afterAll(async () => {
  await emu?.stop()
})

describe("the emulator's Vercel API against @vercel/sdk's models", () => {
  it('every endpoint the action uses was called', () => {
    const called = new Set(emu.vercel.server.log.map((q) => endpointOf(q)?.name))
    expect(ENDPOINTS.map((e) => e.name).filter((n) => !called.has(n))).toEqual([])
    expect(emu.vercel.server.log.filter((q) => !endpointOf(q))).toEqual([])
    // `vercel-team: team_…` goes as `teamId` on every request (a slug goes as `slug`: vercel.test.ts).
    expect(emu.vercel.server.log.filter((q) => !/(^|&)teamId=team_/.test(q.query))).toEqual([])
  })

  it("every answer parses with the SDK's response model; failed[] entries too", () => {
    const found: string[] = []
    for (const q of emu.vercel.server.log) {
      if (q.status >= 300) continue
      const e = endpointOf(q)!
      for (const p of problems(e.answer, JSON.parse(q.responseText ?? 'null'))) found.push(`${e.name} ${q.status}: ${p}`)
    }
    expect(found).toEqual([])
    const refused = emu.vercel.server.log.find((q) => q.method === 'POST' && q.responseText?.includes('ENV_CONFLICT'))
    expect(refused?.status).toBe(201)
  })

  it("every request body parses with the SDK's request model, and every query parameter is one it names", () => {
    const found: string[] = []
    for (const q of emu.vercel.server.log) {
      const e = endpointOf(q)!
      if (e.body) for (const p of problems(e.body, JSON.parse(q.requestText))) found.push(`${e.name} body: ${p}`)
      const body = e.name === 'createDeployment' ? JSON.parse(q.requestText) : []
      const names = e.query ? unknownQueryNames(e.query, q.query, body) : []
      for (const name of names.filter((n) => !(e.name === 'filterProjectEnvs' && n === 'until'))) found.push(`${e.name} query: ${name}`)
    }
    expect(found).toEqual([])
    // The list was paged, deployments listed by branch, and the create forced new.
    const queries = (name: string) => emu.vercel.server.log.filter((q) => endpointOf(q)?.name === name).map((q) => q.query)
    expect(queries('filterProjectEnvs').some((q) => /(^|&)until=\d+/.test(q))).toBe(true)
    expect(queries('getDeployments').every((q) => /(^|&)branch=/.test(q))).toBe(true)
    expect(queries('createDeployment').every((q) => /(^|&)forceNew=1(&|$)/.test(q))).toBe(true)
    // The check can fail: a name the model does not have is found (the SDK lists by `sha`, not by a `meta-` filter).
    expect(unknownQueryNames(GetDeploymentsRequest$outboundSchema, 'projectId=p&sha=a&meta-githubCommitSha=a')).toEqual([
      'meta-githubCommitSha'
    ])
    expect(problems(CreateDeploymentRequestBody$outboundSchema, { name: 'x', gitSource: { type: 'github', ref: 'b' } })).not.toEqual([])
    // The upsert's body: the SDK's array form, each variable encrypted, Preview, branch-scoped.
    const upsert = emu.vercel.server.log.find((q) => q.method === 'POST' && /\/env$/.test(q.path))!
    const body = JSON.parse(upsert.requestText) as unknown[]
    expect(problems(CreateProjectEnvRequest$outboundSchema, { idOrName: 'x', upsert: 'true', requestBody: body })).toEqual([])
    expect(body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'DATABASE_URL', type: 'encrypted', target: ['preview'], gitBranch: 'feature/login' })
      ])
    )
  })
})

/**
 * The contract: the platform's published OpenAPI spec
 * (`public-v2-for-users.gen.yaml` from `@neondatabase/api-client`) checked
 * by ajv against every request the bundled action sends and every response
 * the emulator serves, over runs that touch each endpoint the action uses:
 * create (with a lookup through several pages), reuse, 423, an operation in
 * `error`, a lost DELETE answer (then 204), a bad API key.
 *
 *   npm run contract        runs this file alone
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import type { LoggedRequest } from '../../emulator/http-kit.js'
import type { Project } from '../../emulator/neon/platform.js'
import { NODE_24, type RunResult } from '../../emulator/runner/runner.js'
import { SPEC_VERSION, findOperation, validateRequest, validateResponse } from '../../emulator/neon/openapi.js'
import { branchInputs } from '../fixtures/preview.js'

const REPO = 'acme/contract'
const API = /^\/api\/v2/
let emu: Emulator
let work: string
let project: Project
const log: LoggedRequest[] = []
const runs: RunResult[] = []

/** The endpoints the action uses, by the spec's operationId. */
const USED = [
  'listProjectBranches',
  'createProjectBranch',
  'updateProjectBranch',
  'deleteProjectBranch',
  'listProjectBranchEndpoints',
  'listProjectBranchDatabases',
  'getConnectionURI',
  'getProjectOperation',
  'listProjectOperations',
  'getProjectBranchSchemaComparison',
  // anonymized branches
  'createProjectBranchAnonymized',
  'getAnonymizedBranchStatus',
  'getMaskingRules'
]

/** The anonymized-branch endpoints the action does not call, exercised directly so their requests and answers are checked too. */
const ANONYMIZED_DIRECT = ['updateMaskingRules', 'startAnonymization']

async function run(pr: number, inputs: Record<string, string> = {}): Promise<RunResult> {
  emu.platform.server.log.length = 0
  const r = await emu.run({
    inputs: {
      ...branchInputs(emu, project),
      'github-token': APP_TOKEN,
      seed: 'seed.sql',
      ...inputs
    },
    repository: REPO,
    pr: { number: pr },
    cwd: work,
    node: NODE_24,
    timeoutMs: 60_000
  })
  log.push(...emu.platform.server.log.filter((q) => API.test(q.path)))
  runs.push(r)
  return r
}

beforeAll(async () => {
  emu = await startEmulator()
  work = mkdtempSync(path.join(os.tmpdir(), 'contract-'))
  writeFileSync(path.join(work, 'seed.sql'), 'CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\n')
  project = await emu.platform.createProject({ protectedBranch: 'production' })
  // Branches beyond the first page: the lookups must follow the cursor.
  emu.platform.branchPageSize = 2
  for (const n of [
    'alpha',
    'beta',
    'preview/pr-1-feature-login-old',
    'preview/pr-1-feature-login-older',
    'preview/pr-1-feature-login-oldest'
  ])
    await emu.platform.addBranch(project, n)
  for (const n of [1, 2, 3, 4]) emu.github.openPullRequest(REPO, n)

  // PR 1: create, then reuse.
  expect((await run(1)).code).toBe(0)
  expect((await run(1)).outputs.created).toBe('false')
  // PR 2: the create meets 423 once; then an operation ends in `error`.
  emu.platform.server.inject({ method: 'POST', path: /\/branches$/, kind: 'status', status: 423 })
  expect((await run(2)).code).toBe(0)
  emu.platform.script('start_compute', [
    { at: 0, status: 'scheduling' },
    { at: 200, status: 'error', error: 'compute failed to start' }
  ])
  expect((await run(3)).code).toBe(1)
  // PR 2 closes: the DELETE's answer is lost after the delete, the retry meets 204.
  emu.platform.server.inject({ method: 'DELETE', kind: 'lost-reset' })
  expect((await run(2, { command: 'delete' })).code).toBe(0)
  // A bad API key: the 401 body.
  expect((await run(4, { 'api-key': 'napi_wrong' })).code).toBe(1)
  await anonymizedRuns()
}, 300_000)

/** An anonymized branch created, reused, its rules replaced and masking run again; one that ends in `error`. */
async function anonymizedRuns(): Promise<void> {
  const main = [...project.branches.values()].find((b) => b.default)!
  await emu.pg.query(
    main.database,
    `CREATE TABLE people (id int PRIMARY KEY, email text, phone text); ALTER TABLE people OWNER TO "${project.role}"`
  )
  await emu.pg.query(main.database, "INSERT INTO people VALUES (1, 'a@real.test', '555-0101'), (2, 'b@real.test', '555-0102')")
  const rules =
    '- {schema: public, table: people, column: email, function: anon.fake_email()}\n- {schema: public, table: people, column: phone, value: "000"}'
  for (const n of [5, 6]) emu.github.openPullRequest(REPO, n)
  const created = await run(5, { 'masking-rules': rules })
  expect(created.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
  expect((await run(5, { 'masking-rules': rules })).outputs.created).toBe('false')
  emu.platform.anonymized.faults.push({ phase: 'anonymize', message: 'Anonymizing table public.people failed' })
  expect((await run(6, { 'masking-rules': rules })).code).toBe(1)
  // The two endpoints the action leaves to people: PATCH masking_rules, then POST anonymize (from `anonymized`).
  emu.platform.server.log.length = 0
  const base = `${emu.platform.url}/projects/${project.id}/branches/${created.outputs['branch-id']}`
  const headers = { Authorization: `Bearer ${project.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' }
  const patch = await fetch(`${base}/masking_rules`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({
      masking_rules: [
        {
          database_name: main.database,
          schema_name: 'public',
          table_name: 'people',
          column_name: 'email',
          masking_function: 'anon.hash(email)'
        }
      ]
    })
  })
  expect(patch.status).toBe(200)
  expect((await fetch(`${base}/anonymize`, { method: 'POST', headers })).status).toBe(200)
  // Let the masking that POST started finish before the checks: nothing of the emulator's runs on behind them.
  for (let i = 0; i < 100; i++) {
    const status = (await (await fetch(`${base}/anonymized_status`, { headers })).json()) as { state?: string }
    if (status.state !== 'anonymizing' && status.state !== 'created') break
    await new Promise((r) => setTimeout(r, 100))
  }
  log.push(...emu.platform.server.log.filter((q) => API.test(q.path)))
}

afterAll(async () => {
  await emu?.stop()
})

describe(`the contract: ${SPEC_VERSION.package}, ${SPEC_VERSION.file} (API ${SPEC_VERSION.api})`, () => {
  it('the runs touched every endpoint the action uses, with the statuses that matter', () => {
    const seen = new Set(log.map((q) => findOperation(q.method, q.path.replace(API, ''))?.operationId))
    expect([...USED, ...ANONYMIZED_DIRECT].filter((id) => !seen.has(id))).toEqual([])
    // anonymized_status answered both `anonymized` and `error`
    const states = log.filter((q) => /anonymized_status$/.test(q.path)).map((q) => JSON.parse(q.responseText ?? '{}').state)
    expect(states).toEqual(expect.arrayContaining(['anonymizing', 'anonymized', 'error']))
    const statuses = new Set(log.map((q) => `${q.method} ${q.status}`))
    for (const s of ['DELETE 204', 'POST 423', 'POST 201', 'PATCH 200', 'GET 401']) expect(statuses).toContain(s)
    expect(log.some((q) => /"status":"error"/.test(q.responseText ?? ''))).toBe(true)
    expect(
      log.some(
        (q) => /listProjectBranches/.test(findOperation(q.method, q.path.replace(API, ''))?.operationId ?? '') && /cursor=/.test(q.query)
      )
    ).toBe(true)
  })

  it('every request the action sent follows the spec (path, query, body)', () => {
    const problems = log.flatMap((q) =>
      validateRequest(q.method, q.path.replace(API, ''), q.query, q.requestText).map((p) => `${q.method} ${q.path}?${q.query}: ${p}`)
    )
    expect(problems).toEqual([])
    expect(log.length).toBeGreaterThan(30)
  })

  it('every response the emulator served follows the spec (status, body)', () => {
    const answered = log.filter((q) => q.responseText !== undefined)
    const problems = answered.flatMap((q) =>
      validateResponse(q.method, q.path.replace(API, ''), q.status, q.responseText!).map((p) => `${q.method} ${q.path}: ${p}`)
    )
    expect(problems).toEqual([])
    // error bodies carry the request id the response header gave
    for (const q of answered.filter((x) => x.status >= 400)) expect(JSON.parse(q.responseText!).request_id).toBe(q.requestId)
  })

  it('the action quoted the request_id of the refused request', () => {
    const refused = log.find((q) => q.status === 401)!
    const badKeyRun = runs.find((r) => /refused the API key/.test(r.errors.join('\n')))!
    expect(badKeyRun.errors.join('\n')).toContain(`request_id ${refused.requestId}`)
  })
})

describe('the validator fails what breaks the spec', () => {
  const P = '/projects/misty-1'
  it.each([
    ['a query parameter the spec lacks', () => validateRequest('GET', `${P}/branches`, 'name=x', ''), /"name" is not in the spec/],
    ['limit over 10000', () => validateRequest('GET', `${P}/branches`, 'limit=20000', ''), /limit.*<= 10000/],
    [
      'an empty branch name',
      () => validateRequest('POST', `${P}/branches`, '', '{"branch":{"name":""}}'),
      /name must NOT have fewer than 1/
    ],
    [
      'a rename without `branch`',
      () => validateRequest('PATCH', `${P}/branches/br-a`, '', '{"name":"x"}'),
      /must have required property 'branch'/
    ],
    ['a body on a 204', () => validateResponse('DELETE', `${P}/branches/br-a`, 204, '{}'), /documents no body/],
    ['an error body without code', () => validateResponse('GET', `${P}/branches`, 423, '{"message":"x"}'), /required property 'code'/],
    [
      'an operation without total_duration_ms',
      () =>
        validateResponse(
          'GET',
          `${P}/operations/x`,
          200,
          JSON.stringify({
            operation: {
              id: '0b6f4a8e-6a43-4f0e-a1b4-2f4a7d0c9e11',
              project_id: 'p',
              action: 'create_branch',
              status: 'finished',
              failures_count: 0,
              created_at: '2026-01-01T00:00:00Z',
              updated_at: '2026-01-01T00:00:00Z'
            }
          })
        ),
      /total_duration_ms/
    ],
    [
      'an unknown operation status',
      () => validateResponse('GET', `${P}/operations`, 200, '{"operations":[{"status":"waiting"}]}'),
      /allowed values/
    ],
    [
      'a masking rule without column_name',
      () =>
        validateRequest(
          'POST',
          `${P}/branch_anonymized`,
          '',
          '{"masking_rules":[{"database_name":"d","schema_name":"s","table_name":"t"}]}'
        ),
      /column_name/
    ],
    [
      'an anonymized status without state',
      () =>
        validateResponse(
          'GET',
          `${P}/branches/br-a/anonymized_status`,
          200,
          '{"project_id":"p","branch_id":"br-a","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}'
        ),
      /required property 'state'/
    ],
    ['a path the spec lacks', () => validateRequest('GET', `${P}/branches/br-a/widgets`, '', ''), /no such operation/]
  ])('%s', (_what, check, message) => {
    const problems = check()
    expect(problems.join('\n')).toMatch(message)
  })
})

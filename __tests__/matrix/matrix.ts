/**
 * The fault matrix: every case runs the bundled `dist/index.js`
 * (Node 24, as action.yml) against the emulator and its real PostgreSQL, and
 * after every case three scans run over everything the case left:
 *
 * - orphans: every database or branch the case made is either fully seeded
 *   and owned by a successful run's outputs, or (instant databases, which the
 *   service cannot delete) empty and recorded nowhere; a branch of a failed
 *   run must be gone; no branch under a name a later run would reuse (any
 *   name but an unseeded `~seeding` one) may be unseeded; the PR comment
 *   must not point at anything unseeded.
 * - spec: every platform request the action sent and every response the
 *   emulator served in the case, checked against Neon's published
 *   OpenAPI spec (emulator/neon/openapi.ts), except the faults that break it on purpose.
 * - secrets: every password, API key and connection string the emulator
 *   handed out, exact, URL-encoded and base64, in stdout, stderr, the job
 *   summary, the comment lines of the env file and every PR comment.
 *
 * Used by __tests__/matrix/matrix-shard.ts (the jest files __tests__/dist/matrix-<n>.test.ts) and bench/matrix.ts (prints the table).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import { leakForms, leaks, runPlaces } from '../leaks.js'
import type { Project } from '../../emulator/neon/platform.js'
import { validateRequest, validateResponse } from '../../emulator/neon/openapi.js'
import { branchInputs } from '../fixtures/preview.js'
import { NODE_24, type RunResult } from '../../emulator/runner/runner.js'
import { lifecycleCases } from './matrix-lifecycle.js'
import { concurrentAndFailed } from './matrix-runs.js'
import { cancelledRuns } from './matrix-cancels.js'
import { apiContract } from './matrix-api.js'
import { anonymizedCases } from './matrix-anonymized.js'
import { schemaDiffCases } from './matrix-schema.js'
import { everyPushCases } from './matrix-push.js'
import { busyProjectCases } from './matrix-busy.js'
import { githubFaults, serviceFaults } from './matrix-faults.js'
import { cancels, races } from './matrix-races.js'
import {
  REPO,
  SEED_TABLES,
  type CaseResult,
  type Ctx,
  type Case,
  outcome,
  checker,
  UNSEEDED_SUFFIX,
  succeeded,
  failed
} from './matrix-kit.js'

export { REPO } from './matrix-kit.js'
export type { Case, CaseResult, Ctx } from './matrix-kit.js'

/** A case that runs with one wrong input and expects a clear error before any network call. */
function badInputCase(label: string, mode: 'instant' | 'branch', inputs: Record<string, string>, message: RegExp): Case {
  return {
    group: 'bad input',
    name: `${mode}: ${label}`,
    expected: 'fails before any network call, naming the input and what it accepts',
    body: async ({ emu, run }) => {
      const before = emu.instant.server.log.length + emu.platform.server.log.length + emu.github.server.log.length
      const r = await run(mode, inputs)
      const requests = emu.instant.server.log.length + emu.platform.server.log.length + emu.github.server.log.length - before
      const c = checker()
      failed(r, message, c)
      c.expect(requests === 0, `${requests} network request(s) before failing`)
      return { observed: `${outcome(r)}; requests ${requests}`, problems: c.problems }
    }
  }
}

function badInput(): Case[] {
  const cases: Case[] = []
  const bad: [string, 'instant' | 'branch', Record<string, string>, RegExp][] = [
    ['mode: serverless', 'instant', { mode: 'serverless' }, /`mode` must be one of auto, instant, branch; got "serverless"/],
    [
      'command: destroy',
      'instant',
      { command: 'destroy' },
      /`command` must be one of create, delete, cleanup, reset, publish; got "destroy"/
    ],
    ['reuse: maybe', 'instant', { reuse: 'maybe' }, /`reuse` must be true or false; got "maybe"/],
    ['comment: yes', 'instant', { comment: 'yes' }, /`comment` must be true or false; got "yes"/],
    ['logical-replication: 1', 'instant', { 'logical-replication': '1' }, /`logical-replication` must be true or false; got "1"/],
    ['poll-interval: fast', 'branch', { 'poll-interval': 'fast' }, /`poll-interval` must be a number of seconds, at least 0.1; got "fast"/],
    ['wait-timeout: -5', 'branch', { 'wait-timeout': '-5' }, /`wait-timeout` must be a number of seconds, at least 1; got "-5"/],
    ['request-timeout: 0', 'instant', { 'request-timeout': '0' }, /`request-timeout` must be a number of seconds, at least 0.1; got "0"/],
    [
      'api-url: not a url',
      'branch',
      { 'api-url': 'console.example/api' },
      /`api-url` must be an http\(s\) URL; got "console.example\/api"/
    ],
    ['instant-url: ftp://…', 'instant', { 'instant-url': 'ftp://neon.new' }, /`instant-url` must be an http\(s\) URL/],
    ['branch-name with a newline', 'branch', { 'branch-name': 'preview\nx' }, /`branch-name` must be 1 to 256 printable characters/],
    ['branch-name of 257 characters', 'branch', { 'branch-name': 'b'.repeat(257) }, /`branch-name` must be 1 to 256 printable characters/],
    ['branch mode without api-key', 'branch', { 'api-key': '' }, /`api-key` is required in branch mode/],
    ['mode: branch without project-id', 'branch', { mode: 'branch', 'project-id': '' }, /`project-id` is required when `mode` is branch/],
    ['seed glob that matches nothing', 'instant', { seed: 'db/missing/*.sql' }, /db\/missing\/\*\.sql.*matches no file|matched no file/i]
  ]
  for (const [label, mode, inputs, message] of bad) cases.push(badInputCase(label, mode, inputs, message))
  return cases
}

function untrusted(): Case[] {
  const cases: Case[] = []
  for (const mode of ['instant', 'branch'] as const) {
    cases.push({
      group: 'untrusted context',
      name: `${mode}: a PR head ref carrying shell syntax${mode === 'branch' ? ' (it names the branch)' : ''}`,
      expected: 'nothing of them runs; seed-command gets the connection from its environment only',
      body: async ({ run, work, pr }) => {
        const canary = path.join(work, 'PWNED')
        const evil = 'x$(touch PWNED)`touch PWNED`;touch PWNED'
        const r = await run(
          mode,
          { 'seed-command': 'test -n "$DATABASE_URL" && test -n "$PGPASSWORD"' },
          { pr: { number: pr, headRef: evil } }
        )
        const c = checker()
        succeeded(r, c)
        c.expect(!existsSync(canary), 'a shell ran text from the event or an input')
        return { observed: `${outcome(r)}; canary file ${existsSync(canary) ? 'CREATED' : 'absent'}`, problems: c.problems }
      }
    })
  }
  return cases
}

/** Every case of the matrix, in table order. */
export const CASES: Case[] = [
  ...serviceFaults(),
  ...githubFaults(),
  ...races(),
  ...cancels(),
  ...badInput(),
  ...untrusted(),
  // concurrent, failed and cancelled runs
  ...concurrentAndFailed(),
  ...cancelledRuns(),
  // Neon's published spec and the live instant service
  ...apiContract(),
  // the preview lifecycle (matrix-lifecycle.ts)
  ...lifecycleCases({ checker, succeeded, failed, outcome, badInputCase }),
  // anonymized previews (matrix-anonymized.ts)
  ...anonymizedCases(),
  // the schema diff never costs a preview (matrix-schema.ts)
  ...schemaDiffCases(),
  // every push: migrate-command and reseed (matrix-push.ts)
  ...everyPushCases(),
  // many runs in one project: the wait for a busy project (matrix-busy.ts)
  ...busyProjectCases()
]

/** Every secret form the emulator handed out so far (instant passwords and URLs, platform API keys and passwords). */
export function allSecrets(emu: Emulator, projects: Project[]): string[] {
  const raw: string[] = []
  for (const r of emu.instant.databases.values()) {
    raw.push(r.password)
    if (r.connection_string) raw.push(r.connection_string)
  }
  for (const p of projects) raw.push(p.apiKey, p.password)
  return raw.flatMap(leakForms)
}

/** The places a secret must never appear, for every run of a case and every PR comment. */
function publicPlaces(emu: Emulator, runs: RunResult[], envFiles: string[]): Record<string, string> {
  // every PR's comments: a sweep writes to the comments of other PRs than the case's
  const places: Record<string, string> = {
    comments: [...emu.github.issues.values()]
      .flat()
      .map((c) => c.body)
      .join('\n')
  }
  runs.forEach((r, i) => Object.assign(places, runPlaces(r, envFiles[i], `run ${i + 1} `)))
  return places
}

/** Seed state of one database: 'seeded', 'empty', or 'half-seeded (…)'. */
async function seedState(emu: Emulator, database: string): Promise<string> {
  const rows = await emu.pg.query<{ t: string; n: number }>(
    database,
    `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename = ANY($1)`,
    [Object.keys(SEED_TABLES)]
  )
  if (rows.length === 0) return 'empty'
  const present: string[] = []
  for (const { t } of rows) {
    const [{ n }] = await emu.pg.query<{ n: string }>(database, `SELECT count(*) AS n FROM ${t}`)
    if (Number(n) === SEED_TABLES[t as keyof typeof SEED_TABLES]) present.push(t)
  }
  return present.length === Object.keys(SEED_TABLES).length ? 'seeded' : `half-seeded (${present.join(', ') || 'partial rows'})`
}

/** What the case left that it should not have. */
async function orphans(emu: Emulator, ctx: Ctx, instantBefore: Set<string>): Promise<string[]> {
  const found: string[] = []
  const ok = ctx.runs.filter((r) => r.code === 0)
  const markers = emu.github
    .comments(REPO, ctx.pr)
    .map((c) => /<!-- preview-postgres:v1 (\{.*?\}) -->/.exec(c.body)?.[1])
    .filter((m): m is string => !!m)
    .map((m) => JSON.parse(m) as { databaseId?: string; branchId?: string; provisioningSince?: string })
  for (const m of markers) if (m.provisioningSince) found.push('the PR comment is still a provisioning lock after every run ended')
  const reactions = emu.github.comments(REPO, ctx.pr).flatMap((c) => emu.github.commentReactions(c.id))
  if (reactions.length) found.push(`${reactions.length} lock reaction(s) left on the PR comment after every run ended`)
  for (const [id, rec] of emu.instant.databases) {
    if (instantBefore.has(id)) continue
    const state = await seedState(emu, rec.database)
    const owned = ok.some((r) => r.outputs['database-id'] === id)
    const recorded = markers.some((m) => m.databaseId === id)
    if (state.startsWith('half')) found.push(`instant database ${id} is ${state}`)
    else if (owned && state !== 'seeded') found.push(`instant database ${id} was handed out ${state}`)
    if (recorded && (!owned || state !== 'seeded'))
      found.push(`the comment records instant database ${id}, which is ${state}${owned ? '' : ' and no successful run made'}`)
  }
  for (const b of ctx.project.branches.values()) {
    if (b.default || b.protected || ctx.fixtures.has(b.id)) continue
    const state = await seedState(emu, b.database)
    const owned = ok.some((r) => r.outputs['branch-id'] === b.id)
    // A branch under a final name (not `~seeding`) is what a later run reuses: it must be seeded.
    if (!b.name.endsWith(UNSEEDED_SUFFIX) && state !== 'seeded')
      found.push(`branch ${b.name} (${b.id}) is ${state} under a name a later run would reuse`)
    if (!owned) found.push(`branch ${b.name} (${b.id}) is left by no successful run (${state})`)
    else if (state !== 'seeded') found.push(`branch ${b.name} was handed out ${state}`)
  }
  return found
}

/**
 * The platform traffic of the case against the published spec (emulator/neon/openapi.ts):
 * every request the action sent, and every response but the faults that are
 * off-spec on purpose (malformed JSON, a 2xx missing fields).
 */
function specProblems(emu: Emulator): string[] {
  const API = /^\/api\/v2/
  return emu.platform.server.log
    .filter((q) => API.test(q.path))
    .flatMap((q) => {
      const path = q.path.replace(API, '')
      const onPurpose = q.fault === 'malformed' || (q.fault === 'status' && q.status < 400)
      const response = q.responseText === undefined || onPurpose ? [] : validateResponse(q.method, path, q.status, q.responseText)
      return [...validateRequest(q.method, path, q.query, q.requestText), ...response].map((p) => `spec: ${q.method} ${path}: ${p}`)
    })
}

/** The seed files every case uses: two files, so a half-seeded database can be told from an empty or a seeded one. */
export function writeSeedFiles(work: string): void {
  writeFileSync(
    path.join(work, 'matrix-seed.sql'),
    "CREATE TABLE matrix_seed (id int PRIMARY KEY, note text);\nINSERT INTO matrix_seed VALUES (1, 'a'), (2, 'b'), (3, 'c');\n"
  )
  writeFileSync(path.join(work, 'matrix-more.sql'), 'CREATE TABLE matrix_more (id int);\nINSERT INTO matrix_more VALUES (1), (2);\n')
  writeFileSync(path.join(work, 'matrix-slow.sql'), 'SELECT pg_sleep(3);\n')
  writeFileSync(path.join(work, 'matrix-bad.sql'), 'CREATE TABLE matrix_more (id int);\n\nINSERT INTO matrix_nope VALUES (1);\n')
  writeFileSync(path.join(work, 'matrix-meta.sql'), 'CREATE TABLE matrix_more (id int);\n\\connect other\n')
  writeFileSync(
    path.join(work, 'matrix-gexec.sql'),
    "CREATE TABLE matrix_more (id int);\nSELECT 'CREATE INDEX CONCURRENTLY matrix_gx ON matrix_more (id)' \\gexec\n"
  )
}

let nextPr = 9000

/** Runs one case with a fresh PR and project, then the orphan and secret scans. */
export async function runCase(emu: Emulator, kase: Case, work: string, projects: Project[]): Promise<CaseResult> {
  emu.instant.server.clearFaults()
  emu.platform.server.clearFaults()
  emu.github.server.clearFaults()
  emu.platform.scripts.clear()
  emu.platform.timing = { createBranchMs: 200, startComputeMs: 400, deleteMs: 200 }
  // Every case lists branches two a page, so every lookup follows the cursor (platform spec: pagination.next).
  emu.platform.branchPageSize = 2
  emu.instant.fieldNames = 'live'
  for (const s of [emu.instant.server, emu.platform.server, emu.github.server]) s.log.length = 0
  const pr = nextPr++
  emu.github.openPullRequest(REPO, pr)
  const project = await emu.platform.createProject({ protectedBranch: 'production' })
  projects.push(project)
  const instantBefore = new Set(emu.instant.databases.keys())
  const ctx: Ctx = {
    emu,
    work,
    pr,
    project,
    runs: [],
    envFiles: [],
    fixtures: new Set(),
    run: async (mode, inputs = {}, extra = {}) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'matrix-run-'))
      const base: Record<string, string> =
        mode === 'instant' ? { mode: 'instant', 'instant-url': emu.instant.url } : branchInputs(emu, project)
      const r = await emu.run({
        inputs: {
          ...base,
          'github-token': APP_TOKEN,
          seed: 'matrix-seed.sql\nmatrix-more.sql',
          'env-file': path.join(dir, 'preview.env'),
          ...inputs
        },
        repository: REPO,
        pr: { number: pr },
        cwd: work,
        node: NODE_24,
        timeoutMs: 60_000,
        ...extra
      })
      ctx.runs.push(r)
      ctx.envFiles.push(path.join(dir, 'preview.env'))
      return r
    }
  }
  let observed: string
  let problems: string[]
  try {
    ;({ observed, problems } = await kase.body(ctx))
  } catch (err) {
    observed = `the case threw: ${(err as Error).message}`
    problems = [observed]
  }
  problems.push(...specProblems(emu))
  const orphansFound = await orphans(emu, ctx, instantBefore)
  const secrets = allSecrets(emu, projects)
  const secretsFound = leaks(publicPlaces(emu, ctx.runs, ctx.envFiles), secrets)
  return {
    group: kase.group,
    name: kase.name,
    expected: kase.expected,
    observed,
    problems,
    secretsFound,
    orphansFound,
    passed: problems.length === 0 && secretsFound.length === 0 && orphansFound.length === 0
  }
}

/** The table as Markdown, then `N passed, N failed` and the scan totals. */
export function renderMatrix(results: CaseResult[]): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
  const lines = ['| # | Case | Expected | Observed | Result |', '| --- | --- | --- | --- | --- |']
  results.forEach((r, i) => {
    const extra = [...r.problems, ...r.orphansFound.map((o) => `orphan: ${o}`), ...r.secretsFound]
    lines.push(
      `| ${i + 1} | ${cell(`${r.group}: ${r.name}`)} | ${cell(r.expected)} | ${cell(r.observed)} | ${r.passed ? 'pass' : `FAIL: ${cell(extra.join('; '))}`} |`
    )
  })
  const passed = results.filter((r) => r.passed).length
  lines.push(
    '',
    `Secrets found: ${results.reduce((n, r) => n + r.secretsFound.length, 0)}. Orphans found: ${results.reduce((n, r) => n + r.orphansFound.length, 0)}.`,
    `${passed} passed, ${results.length - passed} failed`
  )
  return lines.join('\n')
}

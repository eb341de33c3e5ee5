/**
 * Anonymized previews through the bundled action (Node 24, as
 * action.yml) against the platform emulator (emulator/neon/platform-anonymized.ts,
 * which masks the branch's real rows with SQL) and a real PostgreSQL 17:
 * masking, nothing handed out before `anonymized`, the error states, reuse
 * only under the same rules, reset refused, and no rule value in any log,
 * comment or summary.
 */
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { NODE_24, type RunResult } from '../../emulator/runner/runner.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { REPO, mainBranch } from '../fixtures/preview.js'
import { leakForms, leaks, publicText } from '../helpers.js'

let emu: Emulator
let work: string
let project: Project

/** The parent's rows: personal data in every column but id and city. */
const PARENT = [
  { id: 1, email: 'ada.lovelace@realmail.test', first_name: 'Augusta', last_name: 'Byron', phone: '+44 20 7946 0958', ssn: '123-45-6789', token: 'tok-aaaa-1111', notes: 'prefers tea', city: 'London' },
  { id: 2, email: 'grace.hopper@realmail.test', first_name: 'Gracie', last_name: 'Murray', phone: '+1 212 555 0199', ssn: '987-65-4321', token: 'tok-bbbb-2222', notes: 'navy', city: 'New York' },
  { id: 3, email: 'edsger@realmail.test', first_name: 'Wybren', last_name: 'Wybe', phone: '+31 20 555 0100', ssn: '555-12-3456', token: 'tok-cccc-3333', notes: 'goto harmful', city: 'Austin' }
]
const MASKED = ['email', 'first_name', 'last_name', 'phone', 'ssn', 'token', 'notes'] as const
const PHONE_VALUE = 'MASKED-PHONE-77319'
const PARTIAL_ARGS = "ssn, 0, 'XXX-XX-', 4"
const RULES = `
- { schema: public, table: customers, column: email, function: anon.fake_email() }
- { schema: public, table: customers, column: first_name, function: anon.fake_first_name() }
- { schema: public, table: customers, column: last_name, function: anon.fake_last_name() }
- { schema: public, table: customers, column: phone, value: "${PHONE_VALUE}" }
- { schema: public, table: customers, column: ssn, function: "anon.partial(${PARTIAL_ARGS})" }
- { schema: public, table: customers, column: token, function: anon.hash(token) }
- { schema: public, table: customers, column: notes, function: anon.random_string(12) }
`
/** Everything of the rules that must never be shown: the literal value and the function arguments. */
const RULE_SECRETS = [PHONE_VALUE, PARTIAL_ARGS].flatMap(leakForms)

/** The parent's rows in each fresh project; the seed adds a row after masking: it must stay as the seed wrote it. */
const suite = branchSuite({
  prefix: 'anonymized-test-',
  firstPr: 2500,
  files: {
    'seed.sql': "INSERT INTO customers VALUES (100, 'seeded@example.com', 'Seed', 'Row', '000', '000-00-0000', 'tok-seed', 'seeded', 'Seedville');\n",
    'rules.yml': RULES
  },
  timeoutMs: 60_000,
  onProject: async (emu, project) => {
    emu.platform.anonymized.timing = { initializeMs: 200, anonymizeMs: 600 }
    emu.platform.anonymized.faults.length = 0
    const main = mainBranch(project)
    await emu.pg.query(
      main.database,
      'CREATE TABLE customers (id int PRIMARY KEY, email text, first_name text, last_name text, phone text, ssn text, token text, notes text, city text)'
    )
    await emu.pg.query(main.database, `ALTER TABLE customers OWNER TO "${project.role}"`)
    for (const r of PARENT) await emu.pg.query(main.database, 'INSERT INTO customers VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', Object.values(r))
  }
})
const { newPr, run, previewBranches } = suite
beforeAll(() => {
  ;({ emu, work } = suite)
})

/** A fresh project whose parent branch holds PARENT's rows (owned by the project's role, as the platform's would be). */
async function freshProject(): Promise<void> {
  project = await suite.freshProject()
}

const rowsOf = async (branchId: string) =>
  emu.pg.query<Record<string, string | number>>(project.branches.get(branchId)!.database, 'SELECT * FROM customers ORDER BY id')
/** No rule value, API key or password in the run's log, summary or any comment. */
const expectNoLeak = (r: RunResult): void => suite.expectNoLeak(r, RULE_SECRETS)

describe('an anonymized preview, created, reused, re-created and refused a reset', () => {
  let pr: number
  let first: RunResult
  beforeAll(async () => {
    await freshProject()
    pr = newPr()
  })

  it('masks the copy before handing it out: no parent value in a masked column, unmasked columns unchanged, the seed after masking', async () => {
    emu.github.openPullRequest(REPO, pr)
    first = await run({ 'masking-rules': RULES, seed: 'seed.sql' }, { pr: { number: pr }, timeOutputs: true })
    expect(first.errors).toEqual([])
    expect(first.outputs).toMatchObject({ created: 'true', anonymized: 'true', 'branch-name': `preview/pr-${pr}-feature-login` })
    const id = first.outputs['branch-id']
    // the request: branch_anonymized with start_anonymization and the rules, the database defaulting to the parent's
    const create = emu.platform.server.requests('POST', /\/branch_anonymized$/)
    expect(create).toHaveLength(1)
    const body = JSON.parse(create[0].requestText)
    const main = [...project.branches.values()].find((b) => b.default)!
    expect(body.start_anonymization).toBe(true)
    expect(body.masking_rules).toHaveLength(7)
    expect(body.masking_rules[0]).toEqual({ database_name: main.database, schema_name: 'public', table_name: 'customers', column_name: 'email', masking_function: 'anon.fake_email()' })
    expect(body.branch_create.branch.name).toBe(`preview/pr-${pr}-feature-login~seeding`)
    expect(emu.platform.server.requests('POST', /\/branches$/)).toHaveLength(0)

    const rows = await rowsOf(id)
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 100])
    for (const [i, parent] of PARENT.entries()) {
      const row = rows[i]
      expect(row.city).toBe(parent.city) // unmasked: unchanged
      for (const c of MASKED) expect(PARENT.map((p) => p[c])).not.toContain(row[c])
      expect(row.email).toMatch(/^user_[0-9a-f]{10}@example\.com$/)
      expect(row.phone).toBe(PHONE_VALUE)
      expect(row.ssn).toBe(`XXX-XX-${parent.ssn.slice(-4)}`)
      expect(row.token).toBe(createHash('sha256').update(parent.token).digest('hex'))
      expect(String(row.notes)).toMatch(/^[0-9a-f]{12}$/)
    }
    // the seed ran after masking: its row is as it wrote it
    expect(rows[3]).toMatchObject({ email: 'seeded@example.com', phone: '000', notes: 'seeded' })
    // nothing was handed out before the platform said `anonymized`
    const history = emu.platform.anonymized.historyOf(id)
    expect(history.map((h) => h.state)).toEqual(['created', 'initialized', 'anonymizing', 'anonymized'])
    const anonymizedAt = history.at(-1)!.at
    expect(first.outputsAt).toBeGreaterThan(anonymizedAt)
    const uriRequests = emu.platform.server.requests('GET', /\/connection_uri$/)
    for (const q of uriRequests) expect(q.at).toBeGreaterThan(anonymizedAt)
    expect(first.stdout.indexOf('Anonymization of branch')).toBeLessThan(first.stdout.indexOf('Seeded 1 file'))
    // the branch lists restore among its restricted actions
    expect(emu.platform.branchView(project, project.branches.get(id)!).restricted_actions).toEqual([{ name: 'restore', reason: expect.any(String) }])
  })

  it('says "anonymized: 7 columns masked" with the columns and function names in the comment and summary, never a value', async () => {
    const comment = emu.github.comments(REPO, pr)[0].body
    for (const text of [comment, first.summary]) {
      expect(text).toContain('anonymized: 7 columns masked')
      expect(text).toContain('| `public.customers.email` | `anon.fake_email` |')
      expect(text).toContain('| `public.customers.ssn` | `anon.partial` |')
      expect(text).toContain('| `public.customers.phone` | a fixed value |')
      expect(text).toContain('https://neon.com/docs/workflows/data-anonymization')
    }
    expectNoLeak(first)
    // the parent's personal data is nowhere either
    const text = Object.values(publicText(emu, first)).join('\n')
    for (const p of PARENT) expect(text).not.toContain(p.email)
    // the rule values and literal arguments were registered for masking
    expect(first.masks).toEqual(expect.arrayContaining([PHONE_VALUE, 'XXX-XX-']))
  })

  it('reuses the branch under the same rules (from a file), after checking its state and rules', async () => {
    const again = await run({ 'masking-rules': '@rules.yml', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(again.errors).toEqual([])
    expect(again.outputs).toMatchObject({ created: 'false', anonymized: 'true', 'branch-id': first.outputs['branch-id'] })
    expect(emu.platform.server.requests('GET', /\/masking_rules$/).length).toBeGreaterThan(0)
    expect(emu.platform.server.requests('GET', /\/anonymized_status$/).length).toBeGreaterThan(0)
    expect(again.summary).toContain('anonymized: 7 columns masked')
    expectNoLeak(again)
  })

  it('deletes and re-creates the branch when the rules changed', async () => {
    const changed = RULES.replace('anon.random_string(12)', 'anon.random_string(20)')
    const again = await run({ 'masking-rules': changed, seed: 'seed.sql' }, { pr: { number: pr } })
    expect(again.errors).toEqual([])
    expect(again.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    expect(again.outputs['branch-id']).not.toBe(first.outputs['branch-id'])
    expect(project.branches.has(first.outputs['branch-id'])).toBe(false)
    expect(again.warnings.join('\n')).toMatch(/Not reusing branch .*its masking rules differ from `masking-rules`/)
    expect(previewBranches().map((b) => b.id)).toEqual([again.outputs['branch-id']])
    const rows = await rowsOf(again.outputs['branch-id'])
    expect(String(rows[0].notes)).toMatch(/^[0-9a-f]{20}$/)
    first = again
    expectNoLeak(again)
  })

  it('refuses command: reset on the anonymized branch, changing nothing and suggesting delete and re-create', async () => {
    const id = first.outputs['branch-id']
    const before = await rowsOf(id)
    emu.platform.server.log.length = 0
    const r = await run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/Cannot reset branch "preview\/pr-\d+-feature-login" .*an anonymized branch cannot be reset\. Nothing was changed\. Delete it with `command: delete` and create it again/)
    expect(emu.platform.server.requests('POST', /\/restore$/)).toHaveLength(0)
    expect(emu.platform.server.log.filter((q) => q.method !== 'GET')).toEqual([])
    expect(project.branches.has(id)).toBe(true)
    expect(await rowsOf(id)).toEqual(before)
    expect(r.outputs['database-url'] ?? '').toBe('')
    expectNoLeak(r)
  })
})

describe('masking that does not finish: the run fails, nothing is handed out, the branch is deleted', () => {
  beforeEach(freshProject)
  it.each([
    ['error', { phase: 'anonymize' as const, message: 'Anonymizing table neondb.public.customers failed: out of memory' }, /could not be anonymized: Neon reports state `error`: "Anonymizing table neondb.public.customers failed: out of memory"/],
    ['initialization_error', { phase: 'initialize' as const, message: 'anon extension could not be initialized' }, /state `initialization_error`: "anon extension could not be initialized"/]
  ])('%s', async (_state, fault, message) => {
    emu.platform.anonymized.faults.push(fault)
    const r = await run({ 'masking-rules': RULES, seed: 'seed.sql' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(message)
    expect(r.outputs['database-url'] ?? '').toBe('')
    expect(r.outputs.anonymized ?? 'false').toBe('false')
    expect(previewBranches()).toEqual([])
    expect(emu.platform.server.requests('DELETE', /\/branches\/[^/]+$/)).toHaveLength(1)
    expectNoLeak(r)
  })

  it('an unknown masking function: the platform (emulator) answers error with its message', async () => {
    const rules = RULES.replace('anon.fake_last_name()', 'anon.fake_surname()')
    const r = await run({ 'masking-rules': rules, seed: 'seed.sql' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/state `error`: "anonymization failed: function anon.fake_surname\(\) does not exist"/)
    expect(previewBranches()).toEqual([])
    expectNoLeak(r)
  })

  it("a value PostgreSQL refuses: the error quotes the platform's message without the rule's value", async () => {
    const value = 'MASKED-ID-55221'
    const rules = `${RULES}- { schema: public, table: customers, column: id, value: "${value}" }\n`
    const r = await run({ 'masking-rules': rules, seed: 'seed.sql' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/state `error`: "anonymization failed: invalid input syntax for type integer: "\*\*\*""/)
    expect(previewBranches()).toEqual([])
    expect(leaks(publicText(emu, r), leakForms(value))).toEqual([])
    expectNoLeak(r)
  })

  it('a timeout while anonymizing: wait-timeout covers the operations and the masking', async () => {
    emu.platform.anonymized.faults.push({ phase: 'anonymize', hang: true })
    const r = await run({ 'masking-rules': RULES, seed: 'seed.sql', 'wait-timeout': '4' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    // the wait-timeout ended the run (only its expiry says this; a hang would be the runner's kill, with no exit code)
    expect(r.errors.join('\n')).toMatch(/was still `anonymizing` when `wait-timeout` \(4 s, covering its operations and its masking\) ran out; nothing was handed out/)
    expect(r.outputs['database-url'] ?? '').toBe('')
    expect(previewBranches()).toEqual([])
    expectNoLeak(r)
  })
})

describe('masking-rules refused before any network call', () => {
  beforeEach(freshProject)
  it.each([
    ['with schema-only', { 'masking-rules': RULES, 'schema-only': 'true' }, /`masking-rules` and `schema-only` cannot be combined: a schema-only branch has none of the parent's rows/],
    ['with both function and value', { 'masking-rules': `- { schema: public, table: customers, column: phone, value: "${PHONE_VALUE}", function: anon.fake_email() }` }, /rule 1, public.customers.phone\): give exactly one of `function`/],
    ['a bad name', { 'masking-rules': '- { schema: public, table: "", column: phone, value: x }' }, /rule 1\): `table` must be a non-empty name/]
  ])('%s', async (_what, inputs, message) => {
    const r = await run({ ...inputs, seed: 'seed.sql' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(message)
    expect(emu.platform.server.log).toEqual([])
    expectNoLeak(r)
  })

  it('in instant mode, saying why', async () => {
    const r = await emu.run({ inputs: { mode: 'instant', 'instant-url': emu.instant.url, 'masking-rules': RULES, 'github-token': APP_TOKEN }, repository: REPO, pr: { number: newPr() }, cwd: work, node: NODE_24 })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/`masking-rules` needs branch mode \(set `project-id`\)/)
    expect(emu.instant.server.requests('POST', /database/)).toEqual([])
  })
})

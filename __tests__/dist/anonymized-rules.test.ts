/**
 * Masking rules through the bundled action (Node 24, as action.yml) against
 * the Neon emulator (emulator/neon/platform-anonymized.ts) and a real PostgreSQL 17:
 * `value:` sent as an SQL literal, Neon's own rule shape (create-branch-action's
 * `masking_rules`) passed through, output `anonymized` on a reuse without
 * rules, which values are masked in the log, no connection to the branch
 * before its anonymization completed, and the anonymized example of
 * docs/anonymized.md run as written.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import YAML from 'yaml'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { BranchRecord, Project } from '../../emulator/neon/platform.js'
import { ROOT, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'
import { branchInputs, freshProject as newProject, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let work: string
let project: Project
const newPr = pullRequests(() => emu, 3100)

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('anonymized-rules-test-'))
})
afterAll(async () => {
  await emu?.stop()
})

/** A fresh project whose branch `onto` (main, or the protected `production`) holds `sql`'s tables, owned by the project's role. */
async function freshProject(sql: string, onto: 'main' | 'production' = 'main'): Promise<BranchRecord> {
  project = await newProject(emu, { createBranchMs: 100, startComputeMs: 200, deleteMs: 100 })
  emu.platform.anonymized.timing = { initializeMs: 100, anonymizeMs: 300 }
  emu.platform.anonymized.faults.length = 0
  const parent = [...project.branches.values()].find((b) => (onto === 'main' ? b.default : b.protected))!
  await emu.pg.query(parent.database, sql)
  await emu.pg.query(
    parent.database,
    `DO $$ DECLARE t record; BEGIN FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
       EXECUTE format('ALTER TABLE public.%I OWNER TO %I', t.tablename, '${project.role}'); END LOOP; END $$`
  )
  return parent
}

const CUSTOMERS = `
CREATE TABLE customers (id int PRIMARY KEY, name text, email text, score int, vip boolean, note text);
INSERT INTO customers VALUES (1, 'Augusta Byron', 'ada@realmail.test', 97, true, 'likes tea'),
                             (2, 'Grace Murray', 'grace@realmail.test', 88, false, 'navy');
`

const run = (pr: number, inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  runAction(emu, work, { ...branchInputs(emu, project), 'github-token': APP_TOKEN, ...inputs }, { pr: { number: pr }, timeoutMs: 60_000, ...extra })
const rowsOf = async (branchId: string) =>
  emu.pg.query<Record<string, unknown>>(project.branches.get(branchId)!.database, 'SELECT * FROM customers ORDER BY id')
const sentRules = (): Record<string, unknown>[] =>
  JSON.parse(emu.platform.server.requests('POST', /\/branch_anonymized$/).at(-1)!.requestText).masking_rules

describe('`value:` is a literal: sent as SQL text that means the value', () => {
  it('a string (quotes doubled), a number, null and a boolean mask the rows as written', async () => {
    await freshProject(CUSTOMERS)
    const rules = `
- { schema: public, table: customers, column: name, value: "O'Brien, CARD HOLDER" }
- { schema: public, table: customers, column: score, value: 0 }
- { schema: public, table: customers, column: email, value: null }
- { schema: public, table: customers, column: vip, value: false }
`
    const r = await run(newPr(), { 'masking-rules': rules })
    expect(r.errors).toEqual([])
    expect(r.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    expect(sentRules().map((x) => x.masking_value)).toEqual(["'O''Brien, CARD HOLDER'", '0', 'NULL', 'false'])
    const rows = await rowsOf(r.outputs['branch-id'])
    for (const row of rows) expect(row).toMatchObject({ name: "O'Brien, CARD HOLDER", score: 0, email: null, vip: false })
    expect(rows.map((x) => x.note)).toEqual(['likes tea', 'navy'])
  })
})

describe("Neon's rule shape (create-branch-action's masking_rules)", () => {
  it('is taken as the API takes it: masking_value as SQL text, passed through', async () => {
    const parent = await freshProject(CUSTOMERS)
    const rules = JSON.stringify([
      { database_name: parent.database, schema_name: 'public', table_name: 'customers', column_name: 'name', masking_value: "'CONFIDENTIAL'" },
      { schema_name: 'public', table_name: 'customers', column_name: 'email', masking_function: 'anon.fake_email()' },
      { database_name: parent.database, schema_name: 'public', table_name: 'customers', column_name: 'score', masking_value: 'NULL' }
    ])
    const r = await run(newPr(), { 'masking-rules': rules })
    expect(r.errors).toEqual([])
    expect(r.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    expect(sentRules()).toEqual([
      { database_name: parent.database, schema_name: 'public', table_name: 'customers', column_name: 'name', masking_value: "'CONFIDENTIAL'" },
      { database_name: parent.database, schema_name: 'public', table_name: 'customers', column_name: 'email', masking_function: 'anon.fake_email()' },
      { database_name: parent.database, schema_name: 'public', table_name: 'customers', column_name: 'score', masking_value: 'NULL' }
    ])
    for (const row of await rowsOf(r.outputs['branch-id'])) {
      expect(row).toMatchObject({ name: 'CONFIDENTIAL', score: null })
      expect(row.email).toMatch(/^user_[0-9a-f]{10}@example\.com$/)
    }
    expect(r.masks).toContain('CONFIDENTIAL')
  })

  it('a rule that mixes both shapes is refused before any request', async () => {
    await freshProject(CUSTOMERS)
    const r = await run(newPr(), { 'masking-rules': '[{"schema_name": "public", "table": "customers", "column_name": "name", "masking_value": "0"}]' })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/rule 1\): unknown key `table`; a rule has `database_name`, `schema_name`/)
    expect(emu.platform.server.log).toEqual([])
  })
})

describe('output `anonymized` says what the branch is', () => {
  it('a later run without masking-rules that reuses the anonymized branch reports true', async () => {
    await freshProject(CUSTOMERS)
    const pr = newPr()
    const first = await run(pr, { 'masking-rules': '- { schema: public, table: customers, column: email, function: anon.fake_email() }' })
    expect(first.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    const again = await run(pr)
    expect(again.errors).toEqual([])
    expect(again.outputs).toMatchObject({ created: 'false', anonymized: 'true', 'branch-id': first.outputs['branch-id'] })
  })

  it('a plain branch reused reports false, without asking for an anonymization status', async () => {
    await freshProject(CUSTOMERS)
    const pr = newPr()
    await run(pr)
    emu.platform.server.log.length = 0
    const again = await run(pr)
    expect(again.outputs).toMatchObject({ created: 'false', anonymized: 'false' })
    expect(emu.platform.server.requests('GET', /\/anonymized_status$/)).toEqual([])
  })
})

describe('what is masked in the log', () => {
  it('no value or argument under 4 characters, no number, boolean, NULL or column name; longer literals are', async () => {
    await freshProject(CUSTOMERS)
    const rules = `
- { schema: public, table: customers, column: score, value: 0 }
- { schema: public, table: customers, column: vip, value: true }
- { schema: public, table: customers, column: note, function: anon.random_string(12) }
- { schema: public, table: customers, column: email, function: anon.hash(email) }
- { schema: public, table: customers, column: name, value: "N/A" }
`
    const r = await run(newPr(), { 'masking-rules': rules })
    expect(r.errors).toEqual([])
    for (const short of ['0', 'true', '12', 'email', 'N/A', "'N/A'"]) expect(r.masks).not.toContain(short)
    // the log keeps its ordinary words: "true" in the outputs, the column names
    expect(r.outputs.anonymized).toBe('true')

    await freshProject(CUSTOMERS)
    const longer = await run(newPr(), {
      'masking-rules': `
- { schema: public, table: customers, column: name, value: "Jane Placeholder" }
- { schema: public, table: customers, column: note, function: "anon.partial(note, 1, 'salted-xyz', 1)" }
`
    })
    expect(longer.errors).toEqual([])
    expect(longer.masks).toEqual(expect.arrayContaining(['Jane Placeholder', 'salted-xyz']))
  })
})

describe('no connection to an anonymized branch before its anonymization completed', () => {
  it("the branch's role is refused while `anonymizing`, and let in once `anonymized`", async () => {
    await freshProject(CUSTOMERS)
    emu.platform.anonymized.timing = { initializeMs: 100, anonymizeMs: 2500 }
    const running = run(newPr(), { 'masking-rules': '- { schema: public, table: customers, column: email, function: anon.fake_email() }' })
    const connect = async (b: BranchRecord): Promise<Record<string, unknown>[]> => {
      const c = new pg.Client({
        host: '127.0.0.1',
        port: emu.pg.port,
        user: project.role,
        password: project.password,
        database: b.database,
        ssl: { rejectUnauthorized: false }
      })
      await c.connect()
      try {
        return (await c.query('SELECT email FROM customers ORDER BY id')).rows
      } finally {
        await c.end()
      }
    }
    let branch: BranchRecord | undefined
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      branch = [...project.branches.values()].find((b) => !b.default && !b.protected)
      if (branch && emu.platform.anonymized.historyOf(branch.id).at(-1)?.state === 'anonymizing') break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(emu.platform.anonymized.historyOf(branch!.id).at(-1)?.state).toBe('anonymizing')
    await expect(connect(branch!)).rejects.toThrow(/permission denied for database|CONNECT privilege/)
    const r = await running
    expect(r.errors).toEqual([])
    const rows = await connect(branch!)
    for (const row of rows) expect(String(row.email)).toMatch(/^user_[0-9a-f]{10}@example\.com$/)
  })
})

describe("docs/anonymized.md's example runs as written", () => {
  it('its `with:` masks the rows of the production branch, seeds after masking, and reports anonymized', async () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'anonymized.md'), 'utf8')
    const yaml = /```yaml\n([\s\S]*?)```/.exec(doc)![1]
    const workflow = YAML.parse(yaml) as { jobs: { preview: { steps: { id?: string; with?: Record<string, unknown> }[] } } }
    const step = workflow.jobs.preview.steps.find((s) => s.id === 'db')!
    await freshProject(
      `CREATE TABLE users (id int PRIMARY KEY, email text, first_name text, last_name text, phone text);
       INSERT INTO users VALUES (1, 'ada@realmail.test', 'Augusta', 'Byron', '+44 20 7946 0958');
       CREATE TABLE payments (id int PRIMARY KEY, user_id int, card_holder text, amount int);
       INSERT INTO payments VALUES (1, 1, 'AUGUSTA A BYRON', 1200);`,
      'production'
    )
    const inputs = Object.fromEntries(
      Object.entries(step.with!).map(([k, v]) => [
        k,
        String(v)
          .replace('${{ secrets.NEON_API_KEY }}', project.apiKey)
          .replace('${{ vars.NEON_PROJECT_ID }}', project.id)
      ])
    )
    expect(Object.values(inputs).join('\n')).not.toContain('${{')
    const dir = mkdtempSync(path.join(os.tmpdir(), 'anonymized-doc-'))
    const seed = String(step.with!.seed)
    mkdirSync(path.join(dir, path.dirname(seed)), { recursive: true })
    writeFileSync(path.join(dir, seed), "INSERT INTO users VALUES (100, 'fixture@example.com', 'Fixture', 'User', '000');\n")
    const r = await run(newPr(), inputs, { cwd: dir })
    expect(r.errors).toEqual([])
    expect(r.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    const db = project.branches.get(r.outputs['branch-id'])!.database
    const [user] = await emu.pg.query<Record<string, string>>(db, 'SELECT * FROM users WHERE id = 1')
    expect(user.email).toMatch(/^user_[0-9a-f]{10}@example\.com$/)
    expect(user.phone).not.toBe('+44 20 7946 0958')
    const [payment] = await emu.pg.query<Record<string, string>>(db, 'SELECT card_holder FROM payments')
    expect(payment.card_holder).toBe('CARD HOLDER')
    expect(await emu.pg.query(db, 'SELECT 1 FROM users WHERE id = 100')).toHaveLength(1)
  })
})

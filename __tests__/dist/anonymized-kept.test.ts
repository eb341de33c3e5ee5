/**
 * An anonymized preview stays anonymized, through the bundled action against
 * the platform emulator (emulator/neon/platform-anonymized.ts, which refuses a
 * restore of an anonymized branch as Neon does): a later run without
 * `masking-rules` reuses it as it is and names the rules it was made with; a
 * rebuild (the seed changed) deletes it and makes it anonymized again under
 * those rules, never restoring it from the unmasked parent.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { RunResult } from '../../emulator/runner/runner.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { mainBranch } from '../fixtures/preview.js'

const PARENT_EMAILS = ['ada.lovelace@realmail.test', 'grace.hopper@realmail.test']
const RULES = `
- { schema: public, table: customers, column: email, function: anon.fake_email() }
- { schema: public, table: customers, column: notes, value: MASKED-NOTE-4471 }
`
const suite = branchSuite({
  prefix: 'anonymized-kept-test-',
  firstPr: 4400,
  files: {
    'seed.sql': "INSERT INTO customers VALUES (100, 'seeded@example.com', 'seeded');\n",
    'seed2.sql': "INSERT INTO customers VALUES (101, 'second@example.com', 'second seed');\n"
  },
  timeoutMs: 60_000,
  onProject: async (emu, project) => {
    emu.platform.anonymized.timing = { initializeMs: 100, anonymizeMs: 300 }
    emu.platform.anonymized.faults.length = 0
    const main = mainBranch(project)
    await emu.pg.query(main.database, 'CREATE TABLE customers (id int PRIMARY KEY, email text, notes text)')
    await emu.pg.query(main.database, `ALTER TABLE customers OWNER TO "${project.role}"`)
    for (const [i, email] of PARENT_EMAILS.entries())
      await emu.pg.query(main.database, 'INSERT INTO customers VALUES ($1, $2, $3)', [i + 1, email, 'personal note'])
  }
})

const rowsOf = (branchId: string) =>
  suite.emu.pg.query<{ id: number; email: string; notes: string }>(
    suite.project.branches.get(branchId)!.database,
    'SELECT * FROM customers ORDER BY id'
  )
/** Expects the branch's parent rows masked: no parent email, the literal note. */
async function expectMasked(branchId: string): Promise<void> {
  const parentRows = (await rowsOf(branchId)).filter((r) => r.id < 100)
  expect(parentRows).toHaveLength(2)
  for (const r of parentRows) {
    expect(PARENT_EMAILS).not.toContain(r.email)
    expect(r.notes).toBe('MASKED-NOTE-4471')
  }
}
const requests = (method: string, path: RegExp): number => suite.emu.platform.server.requests(method, path).length

describe('a run without masking-rules keeps an anonymized preview anonymized', () => {
  let pr: number
  let first: RunResult
  beforeAll(async () => {
    await suite.freshProject()
    pr = suite.newPr()
    first = await suite.run({ 'masking-rules': RULES, seed: 'seed.sql' }, { pr: { number: pr } })
  })

  it('reuses it as it is (output anonymized true) and names the rules it was made with in the log', async () => {
    expect(first.errors).toEqual([])
    expect(first.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    suite.emu.platform.server.log.length = 0
    const again = await suite.run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(again.errors).toEqual([])
    expect(again.code).toBe(0)
    expect(again.outputs).toMatchObject({ created: 'false', anonymized: 'true', 'branch-id': first.outputs['branch-id'] })
    expect(again.stdout).toMatch(
      /is anonymized, made with the masking rules public\.customers\.email \(anon\.fake_email\), public\.customers\.notes \(value\)\. This run gives no `masking-rules`: it is reused as it is/
    )
    expect(requests('POST', /\/restore$/)).toBe(0)
    expect(requests('POST', /\/branch_anonymized$/)).toBe(0)
    // the rules read from Neon are masked in the log as the input's are
    expect(again.masks).toContain('MASKED-NOTE-4471')
    await expectMasked(first.outputs['branch-id'])
    suite.expectNoLeak(again, ['MASKED-NOTE-4471'])
  })

  it('when the seed changed, deletes it and makes it anonymized again under the rules it was made with, never restoring it', async () => {
    suite.emu.platform.server.log.length = 0
    const rebuilt = await suite.run({ seed: 'seed2.sql' }, { pr: { number: pr } })
    expect(rebuilt.errors).toEqual([])
    expect(rebuilt.code).toBe(0)
    expect(rebuilt.outputs.anonymized).toBe('true')
    const id = rebuilt.outputs['branch-id']
    expect(id).not.toBe(first.outputs['branch-id'])
    expect(suite.project.branches.has(first.outputs['branch-id'])).toBe(false)
    expect(requests('POST', /\/restore$/)).toBe(0)
    const created = suite.emu.platform.server.requests('POST', /\/branch_anonymized$/)
    expect(created).toHaveLength(1)
    const database = mainBranch(suite.project).database
    expect(JSON.parse(created[0].requestText).masking_rules).toEqual([
      { database_name: database, schema_name: 'public', table_name: 'customers', column_name: 'email', masking_function: 'anon.fake_email()' },
      { database_name: database, schema_name: 'public', table_name: 'customers', column_name: 'notes', masking_value: "'MASKED-NOTE-4471'" }
    ])
    await expectMasked(id)
    expect((await rowsOf(id)).map((r) => r.id)).toEqual([1, 2, 101])
    expect(suite.previewBranches().map((b) => b.id)).toEqual([id])

    // the next run without rules and the same seed reuses it: the record holds the fingerprint under the rules it was made with
    const next = await suite.run({ seed: 'seed2.sql' }, { pr: { number: pr } })
    expect(next.errors).toEqual([])
    expect(next.outputs).toMatchObject({ created: 'false', anonymized: 'true', 'branch-id': id })
    suite.expectNoLeak(rebuilt, ['MASKED-NOTE-4471'])
  })

  it('`reuse: false` without masking-rules makes it again anonymized under the rules it was made with, not a plain copy', async () => {
    const before = suite.previewBranches()[0].id
    suite.emu.platform.server.log.length = 0
    const r = await suite.run({ seed: 'seed2.sql', reuse: 'false' }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.outputs).toMatchObject({ created: 'true', anonymized: 'true' })
    expect(r.outputs['branch-id']).not.toBe(before)
    expect(requests('POST', /\/branch_anonymized$/)).toBe(1)
    expect(requests('POST', /\/branches$/)).toBe(0)
    expect(r.stdout).toMatch(/is anonymized, made with the masking rules public\.customers\.email \(anon\.fake_email\), public\.customers\.notes \(value\): it is made again under them/)
    await expectMasked(r.outputs['branch-id'])
    expect(suite.previewBranches().map((b) => b.id)).toEqual([r.outputs['branch-id']])
  })

  it('command: reset is refused on it, and the emulated platform refuses its restore as Neon does', async () => {
    const id = suite.previewBranches()[0].id
    const r = await suite.run({ command: 'reset', seed: 'seed.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/an anonymized branch cannot be reset\. Nothing was changed/)
    await expectMasked(id)
    const parent = mainBranch(suite.project)
    const res = await fetch(`${suite.emu.platform.url}/projects/${suite.project.id}/branches/${id}/restore`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${suite.project.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ source_branch_id: parent.id })
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toMatch(/restore is restricted/)
    await expectMasked(id)
  })
})

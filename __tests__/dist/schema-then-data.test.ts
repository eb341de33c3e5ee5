/**
 * Schema before data, through the bundled action against the emulator and a
 * real PostgreSQL 17: on a new (or rebuilt) database the seed files run
 * first, then `migrate-command` (the PR's migrations), then `seed-command`
 * (data that may need the migrated schema); on a reused database only
 * `migrate-command` runs.
 *
 * The commands are the psql stand-ins of __tests__/apps/tools: `migrate.sh`
 * applies migrations/*.sql not yet recorded, `seed.sh` runs one SQL file;
 * each appends its name to order.log, so the test reads what ran, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { ROOT, type RunResult } from '../../emulator/runner/runner.js'
import { branchInputs, instantInputs, previewBranches, pullRequests, REPO, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let project: Project
const newPr = pullRequests(() => emu, 4500)
const TOOLS = path.join(ROOT, '__tests__', 'apps', 'tools')
/** psql reaches the emulator's `*.localhost` hosts through PGHOSTADDR (only Node resolves them, through the test's shim). */
const ENV = { PGHOSTADDR: '127.0.0.1' }
const COMMANDS = { 'migrate-command': 'bash tools/migrate.sh', 'seed-command': 'bash tools/seed.sh db/data.sql' }

beforeAll(async () => {
  ;({ emu } = await startTestEmulator('schema-then-data-'))
  project = await emu.platform.createProject()
})
afterAll(async () => {
  await emu?.stop()
})

/** A checkout: the stand-in tools, one migration that creates `items`, and a data seed that fills it. */
function checkout(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'schema-then-data-'))
  cpSync(TOOLS, path.join(dir, 'tools'), { recursive: true })
  mkdirSync(path.join(dir, 'migrations'))
  mkdirSync(path.join(dir, 'db'))
  writeFileSync(path.join(dir, 'migrations', '001_items.sql'), 'CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL);\n')
  writeFileSync(path.join(dir, 'db', 'data.sql'), "INSERT INTO items (id, name) VALUES (1, 'one'), (2, 'two');\n")
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}
const order = (dir: string): string[] => readFileSync(path.join(dir, 'order.log'), 'utf8').trim().split('\n')
const comments = (pr: number): string[] => emu.github.comments(REPO, pr).map((c) => c.body)

function databaseOf(r: RunResult): string {
  if (r.outputs.mode === 'instant') return emu.instant.databases.get(r.outputs['database-id'])!.database
  return project.branches.get(r.outputs['branch-id'])!.database
}

describe('schema before data', () => {
  it('instant mode: a schema migrate-command and a data seed-command succeed on a new (empty) database; the next push runs migrate-command only', async () => {
    const dir = checkout()
    const pr = newPr()
    const run = (): Promise<RunResult> => runAction(emu, dir, { ...instantInputs(emu), ...COMMANDS }, { pr: { number: pr }, env: ENV })
    const first = await run()
    expect(first.errors).toEqual([])
    expect(first.code).toBe(0)
    expect(first.outputs.created).toBe('true')
    expect(order(dir)).toEqual(['migrate', 'seed'])
    const db = databaseOf(first)
    expect(await emu.pg.query(db, 'SELECT id, name FROM items ORDER BY id')).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' }
    ])
    expect(comments(pr)[0]).toContain('(made by `migrate-command` and `seed-command`)')

    writeFileSync(path.join(dir, 'migrations', '002_price.sql'), 'ALTER TABLE items ADD COLUMN price int;\n')
    const second = await run()
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', reseeded: 'false', 'schema-changed': 'true' })
    expect(databaseOf(second)).toBe(db)
    expect(order(dir)).toEqual(['migrate', 'seed', 'migrate']) // no seed-command on a reused database
    expect((await emu.pg.query(db, 'SELECT count(*)::int AS n FROM items'))[0].n).toBe(2)
  })

  it("branch mode: the PR's data seed uses a column its own migration adds; it succeeds, and only migrate-command's cost is reported", async () => {
    // The seed file is the dump (schema as of main); migration 002 is the PR's; the data seed needs 002's column.
    const dir = checkout({ 'seed.sql': "CREATE TABLE products (id int PRIMARY KEY, name text);\nINSERT INTO products VALUES (1, 'lamp');\n" })
    writeFileSync(path.join(dir, 'migrations', '002_sku.sql'), 'ALTER TABLE products ADD COLUMN sku text;\nALTER TABLE products ALTER COLUMN id TYPE bigint;\n')
    writeFileSync(
      path.join(dir, 'db', 'data.sql'),
      "INSERT INTO items (id, name) VALUES (1, 'one');\nUPDATE products SET sku = 'LAMP-1';\nINSERT INTO products (id, name, sku) VALUES (2, 'desk', 'DESK-1');\n"
    )
    const pr = newPr()
    const run = (seedCommand = COMMANDS['seed-command']): Promise<RunResult> =>
      runAction(
        emu,
        dir,
        { ...branchInputs(emu, project), seed: 'seed.sql', ...COMMANDS, 'seed-command': seedCommand },
        { pr: { number: pr }, env: ENV }
      )
    const first = await run()
    expect(first.errors).toEqual([])
    expect(first.code).toBe(0)
    expect(order(dir)).toEqual(['migrate', 'seed'])
    const db = databaseOf(first)
    expect(await emu.pg.query(db, 'SELECT id::int AS id, sku FROM products ORDER BY id')).toEqual([
      { id: 1, sku: 'LAMP-1' },
      { id: 2, sku: 'DESK-1' }
    ])
    // The branch holds data: what is measured is migrate-command (its rewrite of the parent's copy), not the data seed.
    expect(first.outputs['migration-report']).toBeTruthy()
    expect(comments(pr)[0]).toContain("Measured on this preview's data while `migrate-command` ran:")
    const cost = JSON.parse(readFileSync(first.outputs['migration-report'], 'utf8')) as { rewrites: { table: string; rows: number }[] }
    expect(cost.rewrites).toEqual([expect.objectContaining({ table: 'public.products', rows: 1 })])

    const second = await run()
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', reseeded: 'false' })
    expect(databaseOf(second)).toBe(db)
    expect(order(dir)).toEqual(['migrate', 'seed', 'migrate'])
    expect((await emu.pg.query(db, 'SELECT count(*)::int AS n FROM products'))[0].n).toBe(2)

    // A changed seed-command (part of the fingerprint) rebuilds: seed file, migrations, data again, in that order.
    writeFileSync(path.join(dir, 'db', 'more.sql'), "INSERT INTO products (id, name, sku) VALUES (3, 'chair', 'CHAIR-1');\n")
    const third = await run('bash tools/seed.sh db/more.sql')
    expect(third.errors).toEqual([])
    expect(third.outputs.reseeded).toBe('true')
    expect(order(dir)).toEqual(['migrate', 'seed', 'migrate', 'migrate', 'seed'])
    expect(await emu.pg.query(databaseOf(third), 'SELECT id::int AS id, sku FROM products ORDER BY id')).toEqual([
      { id: 1, sku: null },
      { id: 3, sku: 'CHAIR-1' }
    ])
  })

  it('a data seed that fails after the migrations undoes the new branch: nothing is left for reuse', async () => {
    const dir = checkout()
    writeFileSync(path.join(dir, 'db', 'data.sql'), 'INSERT INTO missing_table VALUES (1);\n')
    const pr = newPr()
    const r = await runAction(emu, dir, { ...branchInputs(emu, project), ...COMMANDS }, { pr: { number: pr }, env: ENV })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/seed-command exited with code 3/)
    expect(order(dir)).toEqual(['migrate'])
    expect(r.outputs['database-url']).toBeUndefined()
    expect(previewBranches(project).filter((b) => b.name.includes(`pr-${pr}`))).toEqual([])
    expect(comments(pr)[0]).toContain('seeding failed')
  })
})

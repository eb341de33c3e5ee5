/**
 * The schema diff through the bundled action, against the
 * emulator and a real PostgreSQL 17: instant mode (what `seed-command`
 * changed), branch mode (the platform's compare_schema against the parent),
 * destructive changes with and without `fail-on-destructive`, no change, a
 * reused database, a diff over the comment limit, and the secret scan.
 * `seed-command` runs real migrations: a Node script with `pg` on
 * DATABASE_URL_DIRECT, as a user's migration tool would.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { ROOT, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'
import { REPO, branchInputs, instantInputs, pullRequests } from '../fixtures/preview.js'
import { leakForms, leaks, publicText } from '../helpers.js'

const COMMENT_LIMIT = 65_536
let emu: Emulator
let work: string
let project: Project

beforeAll(async () => {
  emu = await startEmulator()
  project = await emu.platform.createProject()
  work = mkdtempSync(path.join(os.tmpdir(), 'schema-test-'))
  writeFileSync(
    path.join(work, 'seed.sql'),
    'CREATE TABLE items (id int PRIMARY KEY, name text, code varchar(10));\nINSERT INTO items SELECT g, $$item $$ || g, $$c$$ || g FROM generate_series(1, 5) g;\n'
  )
  // A migration tool in miniature: runs the SQL file given on DATABASE_URL_DIRECT.
  writeFileSync(
    path.join(work, 'migrate.mjs'),
    `import { readFileSync } from 'node:fs'\nimport pg from ${JSON.stringify(path.join(ROOT, 'node_modules', 'pg', 'lib', 'index.js'))}\n` +
      `const c = new pg.Client({ connectionString: process.env.DATABASE_URL_DIRECT })\nawait c.connect()\n` +
      `await c.query(readFileSync(process.argv[2], 'utf8'))\nawait c.end()\nconsole.log('migrated', process.argv[2])\n`
  )
  const migrations: Record<string, string> = {
    'add.sql': 'CREATE TABLE tags (id int PRIMARY KEY, label text NOT NULL);\nALTER TABLE items ADD COLUMN price numeric(10,2);\nCREATE INDEX items_name ON items (name);\n',
    'drop.sql': 'ALTER TABLE items DROP COLUMN name;\nALTER TABLE items ALTER COLUMN code TYPE varchar(4);\nALTER TABLE items ALTER COLUMN code SET NOT NULL;\n',
    'widen.sql': 'ALTER TABLE items ALTER COLUMN code TYPE varchar(40);\n',
    'huge.sql': Array.from({ length: 400 }, (_, i) => `CREATE TABLE wide_${i} (${Array.from({ length: 12 }, (_, j) => `column_with_a_long_name_${j} text`).join(', ')});`).join('\n')
  }
  for (const [name, sql] of Object.entries(migrations)) writeFileSync(path.join(work, name), sql)
})

afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 700)

const migrate = (file: string): string => `node migrate.mjs ${file}`
const comment = (pr: number): string => emu.github.comments(REPO, pr).at(-1)?.body ?? ''

function instant(inputs: Record<string, string>, extra: Partial<RunOptions> = {}): Promise<RunResult> {
  return emu.run({ inputs: { ...instantInputs(emu), seed: 'seed.sql', ...inputs }, repository: REPO, cwd: work, ...extra })
}

function branch(inputs: Record<string, string>, extra: Partial<RunOptions> = {}): Promise<RunResult> {
  return emu.run({
    inputs: { ...branchInputs(emu, project), seed: 'seed.sql', ...inputs },
    repository: REPO,
    cwd: work,
    ...extra
  })
}

const instantSecrets = (): string[] => [...emu.instant.databases.values()].flatMap((d) => leakForms(d.connection_string ?? ''))
const expectNoLeak = (r: RunResult, secrets: string[]): void => expect(leaks(publicText(emu, r), secrets)).toEqual([])

describe('schema diff, instant mode: what seed-command changed', () => {
  it('shows added tables, columns and indexes in the comment, the summary and the outputs', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': migrate('add.sql') }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['schema-changed']).toBe('true')
    expect(r.outputs['schema-destructive']).toBe('false')
    const file = r.outputs['schema-diff']
    expect(existsSync(file)).toBe(true)
    const diff = readFileSync(file, 'utf8')
    expect(diff).toMatch(/^\+ create table "public"\."tags"/m)
    expect(diff).toMatch(/^\+ alter table "public"\."items" add column "price" numeric\(10,2\)/m)
    expect(diff).toMatch(/^\+ CREATE INDEX items_name/mi)
    const body = comment(pr)
    expect(body).toContain('**1 table added, 1 column added, 1 index added** (made by `seed-command`)')
    expect(body).toContain('```diff\n')
    expect(body).toContain(diff.trimEnd())
    expect(r.summary).toContain('1 table added, 1 column added, 1 index added')
    expect(r.summary).toContain(diff.trimEnd())
    expect(r.warnings.filter((w) => /Destructive/.test(w))).toEqual([])
    expectNoLeak(r, instantSecrets())

    // A re-run reuses the database: nothing ran, so nothing changed in this run.
    const again = await instant({ 'seed-command': migrate('add.sql') }, { pr: { number: pr } })
    expect(again.code).toBe(0)
    expect(again.outputs).toMatchObject({ created: 'false', 'schema-changed': 'false', 'schema-destructive': 'false' })
    expect(readFileSync(again.outputs['schema-diff'], 'utf8')).toBe('')
    expect(comment(pr)).toContain('no schema change in this run')
  })

  it('flags a dropped column, a narrowing type change and NOT NULL on a table with rows, and carries on by default', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': migrate('drop.sql') }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    expect(r.outputs['schema-destructive']).toBe('true')
    const destructive = r.warnings.filter((w) => /^Destructive schema change/.test(w))
    expect(destructive).toHaveLength(3)
    expect(destructive).toEqual(
      expect.arrayContaining([
        expect.stringContaining('"public"."items".name: drops a column and its values'),
        expect.stringContaining('"public"."items".code: changes the type from character varying(10) to character varying(4)'),
        expect.stringContaining('"public"."items".code: adds NOT NULL to a column of a table with rows')
      ])
    )
    const body = comment(pr)
    expect(body).toContain('> [!WARNING]\n> 3 destructive changes:')
    expect(body).toMatch(/^- alter table "public"\."items" drop column "name"/m)
    expectNoLeak(r, instantSecrets())
  })

  it('does not flag a widening type change', async () => {
    const r = await instant({ 'seed-command': migrate('widen.sql') }, { pr: { number: newPr() } })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ 'schema-changed': 'true', 'schema-destructive': 'false' })
  })

  it('fails with fail-on-destructive: true, and records nothing for reuse', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': migrate('drop.sql'), 'fail-on-destructive': 'true' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/The schema change is destructive \(3\).*`fail-on-destructive` is true/)
    expect(comment(pr)).toContain('not ready: seeding failed')
    // The next run starts with a fresh database instead of reusing the refused one.
    const next = await instant({ 'seed-command': migrate('widen.sql') }, { pr: { number: pr } })
    expect(next.outputs.created).toBe('true')
    expectNoLeak(r, instantSecrets())
  })

  it('says "no schema change" when seed-command changes nothing', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': 'echo nothing to migrate' }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ 'schema-changed': 'false', 'schema-destructive': 'false' })
    expect(comment(pr)).toContain('**no schema change**')
    expect(comment(pr)).not.toContain('```diff')
  })

  it('cuts a diff over the comment limit, with a pointer; the job summary and the file keep all of it', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': migrate('huge.sql') }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    const diff = readFileSync(r.outputs['schema-diff'], 'utf8')
    expect(diff.length).toBeGreaterThan(COMMENT_LIMIT)
    const body = comment(pr)
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(body).toContain('The diff is cut here')
    expect(body).toContain('**400 tables added**')
    expect(r.summary).toContain(diff.trimEnd())
  })

  it('compare-schema: false skips it and leaves the schema outputs at their defaults', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': migrate('add.sql'), 'compare-schema': 'false' }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ 'schema-changed': 'false', 'schema-diff': '', 'schema-destructive': 'false' })
    expect(comment(pr)).not.toContain('#### Schema')
  })
})

describe('schema diff, branch mode: the platform compares with the parent', () => {
  it("shows the platform's compare_schema diff and our summary; a re-run shows no change", async () => {
    const pr = newPr()
    const r = await branch({ 'seed-command': migrate('add.sql') }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['schema-changed']).toBe('true')
    const diff = readFileSync(r.outputs['schema-diff'], 'utf8')
    // The platform's diff: the parent's DDL against the branch's, unified.
    expect(diff).toMatch(/^--- a\/main/m)
    expect(diff).toMatch(new RegExp(`^\\+\\+\\+ b/${r.outputs['branch-name'].replace(/[/.]/g, '\\$&')}`, 'm'))
    expect(diff).toMatch(/^\+.*create table "public"\."items"/m)
    expect(diff).toMatch(/^\+.*create table "public"\."tags"/m)
    const body = comment(pr)
    // The seed made items and the migration tags (and an index on items): all new to the parent; a new table's indexes count as part of it.
    expect(body).toContain('**2 tables added** (compared with the parent branch `main` by Neon)')
    expect(body).toContain(diff.trimEnd())
    expectNoLeak(r, [project.apiKey, project.password].flatMap(leakForms))

    const again = await branch({ 'seed-command': migrate('add.sql') }, { pr: { number: pr } })
    expect(again.outputs).toMatchObject({ created: 'false', 'schema-changed': 'false' })
    expect(comment(pr)).toContain('no schema change in this run')
  })

  it('fails with fail-on-destructive and deletes the new branch', async () => {
    const main = [...project.branches.values()].find((b) => b.default)!
    await emu.pg.query(main.database, 'CREATE TABLE IF NOT EXISTS legacy (id int, note text); INSERT INTO legacy VALUES (1, $$x$$)')
    const pr = newPr()
    const before = project.branches.size
    const r = await branch({ seed: '', 'seed-command': `node -e "1" && echo 'DROP TABLE legacy;' > drop-legacy.sql && ${migrate('drop-legacy.sql')}`, 'fail-on-destructive': 'true' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/"public"\."legacy": drops a table and its rows/)
    expect(project.branches.size).toBe(before)
    expect(comment(pr)).toContain('not ready: seeding failed')
  })
})

describe('schema diff never costs a preview', () => {
  const DOMAIN =
    "CREATE DOMAIN public.email_address AS text CHECK (VALUE ~ '^[^@\\s]+@[^@\\s]+$');\nCREATE TABLE public.subscriber (id int PRIMARY KEY, email public.email_address NOT NULL);\n"
  // A seed-command that leaves the database unreadable for the inspector: it ends the inspector's open
  // connection, and on the new one every statement times out after 1 ms.
  const BREAK_INSPECTOR = `node migrate.mjs break-inspector.sql`
  beforeAll(() => {
    writeFileSync(path.join(work, 'domain.sql'), DOMAIN)
    writeFileSync(path.join(work, 'break-inspector.sql'), "DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET statement_timeout = 1', current_database()); END$$;\n" +
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'preview-postgres schema diff';\n")
  })

  it('instant mode: a domain made by seed-command is shown, repaired (its `;`), before the table that uses it', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': migrate('domain.sql') }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.warnings).toEqual([])
    const diff = readFileSync(r.outputs['schema-diff'], 'utf8')
    expect(diff).toMatch(/^\+ CHECK \(VALUE ~ .*::text\);$/m)
    expect(diff.indexOf('create domain "public"."email_address"')).toBeLessThan(diff.indexOf('create table "public"."subscriber"'))
    expect(comment(pr)).toContain('**1 table added, 1 type added** (made by `seed-command`)')
  })

  it('branch mode: a domain in the seed loads, the branch is kept, and the summary counts objects', async () => {
    const pr = newPr()
    const before = project.branches.size
    const r = await branch({ seed: 'domain.sql' }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.created).toBe('true')
    expect(project.branches.size).toBe(before + 1)
    expect(r.outputs['schema-changed']).toBe('true')
    expect(comment(pr)).toMatch(/\*\*1 table added, 1 type added\*\* \(compared with the parent branch `main` by Neon\)/)
    expect(readFileSync(r.outputs['schema-diff'], 'utf8')).toMatch(/^\+.*create domain "public"\."email_address"/m)
  })

  it('instant mode: the "before" catalog is read before seed-command and built while it runs, not before it starts', async () => {
    const r = await instant({ 'seed-command': migrate('widen.sql') }, { pr: { number: newPr() } })
    expect(r.code).toBe(0)
    const at = (text: string): number => r.stdout.indexOf(text)
    const started = at('::group::Run seed-command')
    const built = at('Inspected the schema after the SQL seed')
    expect(started).toBeGreaterThan(-1)
    expect(built).toBeGreaterThan(started) // building waited for the command's process
    expect(at('Schema change: ')).toBeGreaterThan(built)
  })

  it('instant mode without seed-command inspects nothing and says "no schema change"', async () => {
    const pr = newPr()
    const r = await instant({ seed: 'domain.sql' }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/Inspected the schema/)
    expect(r.stdout).toMatch(/nothing was inspected/)
    expect(r.outputs).toMatchObject({ 'schema-changed': 'false', 'schema-destructive': 'false' })
    expect(comment(pr)).toContain('**no schema change**')
  })

  it('a failed inspection is a warning: the run succeeds, the branch is kept, and the comment and summary say "schema diff unavailable"', async () => {
    const pr = newPr()
    const before = project.branches.size
    const r = await branch({ seed: 'domain.sql', 'seed-command': BREAK_INSPECTOR }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.created).toBe('true')
    const diffWarnings = r.warnings.filter((w) => w.startsWith('Schema diff unavailable'))
    expect(diffWarnings).toEqual([expect.stringMatching(/^Schema diff unavailable: could not inspect the schema after seeding: canceling statement.*The database is seeded and kept/)])
    // The database's 1 ms statement_timeout applies to each statement of the storage read too (PostgreSQL 13+,
    // simple query protocol): on a loaded machine its BEGIN can outlast 1 ms, which is a second warning, never a failure.
    const others = r.warnings.filter((w) => !diffWarnings.includes(w))
    expect(others.length).toBeLessThanOrEqual(1)
    for (const w of others) expect(w).toMatch(/^Could not read the tables' storage after the command \(canceling statement due to (statement timeout|user request)\)/)
    expect(project.branches.size).toBe(before + 1)
    const kept = [...project.branches.values()].find((b) => b.id === r.outputs['branch-id'])!
    const client = await emu.pg.connect(kept.database)
    try {
      await client.query('SET statement_timeout = 0')
      expect((await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'subscriber'")).rows[0].n).toBe(1)
    } finally {
      await client.end()
    }
    expect(comment(pr)).toContain('**schema diff unavailable**: could not inspect the schema after seeding')
    expect(r.summary).toContain('**schema diff unavailable**')
    expect(r.outputs).toMatchObject({ 'schema-changed': 'false', 'schema-destructive': 'false' })
  })

  it('with fail-on-destructive: true, a change that could not be checked fails closed and says why', async () => {
    const pr = newPr()
    const r = await instant({ 'seed-command': BREAK_INSPECTOR, 'fail-on-destructive': 'true' }, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/could not be checked for destructive changes \(could not inspect the schema after seeding: canceling statement[^)]*\)\. `fail-on-destructive` is true, so the step fails closed/)
    expect(comment(pr)).toContain('not ready: seeding failed')
  })
})

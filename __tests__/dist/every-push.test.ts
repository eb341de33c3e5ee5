/**
 * Every push (the preview follows the PR's head) through the bundled action,
 * in both modes, against the emulator and a real PostgreSQL 17:
 * `migrate-command` on a new and on a reused database, a third run with
 * nothing new, a changed seed file that rebuilds, a failing migration that
 * sets no output and keeps the database, `reseed: never`, and the commands'
 * environment (the direct URL as DATABASE_URL).
 *
 * The migration tool is a miniature of the usual ones: it applies each
 * `migrations/*.sql` not yet recorded in `_migrations`, in one transaction
 * each, on DATABASE_URL, and appends what it applied to `applied.log`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { ROOT, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'
import { leakForms, leaks, publicText } from '../helpers.js'

const REPO = 'acme/shop'
let emu: Emulator
let project: Project
let nextPr = 2900

const MIGRATE_TOOL =
  `import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'\n` +
  `import pg from ${JSON.stringify(path.join(ROOT, 'node_modules', 'pg', 'lib', 'index.js'))}\n` +
  `const e = process.env\n` +
  `writeFileSync('env.json', JSON.stringify({ DATABASE_URL: e.DATABASE_URL, DIRECT_URL: e.DIRECT_URL, DATABASE_URL_DIRECT: e.DATABASE_URL_DIRECT, DATABASE_URL_POOLED: e.DATABASE_URL_POOLED, PGHOST: e.PGHOST }))\n` +
  `const c = new pg.Client({ connectionString: e.DATABASE_URL })\n` +
  `await c.connect()\n` +
  `await c.query('CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY)')\n` +
  `const done = new Set((await c.query('SELECT name FROM _migrations')).rows.map((r) => r.name))\n` +
  `const applied = []\n` +
  `for (const f of readdirSync('migrations').sort()) {\n` +
  `  if (done.has(f)) continue\n` +
  `  await c.query('BEGIN')\n` +
  `  await c.query(readFileSync('migrations/' + f, 'utf8'))\n` +
  `  await c.query('INSERT INTO _migrations VALUES ($1)', [f])\n` +
  `  await c.query('COMMIT')\n` +
  `  applied.push(f)\n` +
  `}\n` +
  `await c.end()\n` +
  `appendFileSync('applied.log', JSON.stringify(applied) + '\\n')\n` +
  `console.log('migrations applied:', applied.join(', ') || 'none')\n`

beforeAll(async () => {
  emu = await startEmulator()
  project = await emu.platform.createProject()
})
afterAll(async () => {
  await emu?.stop()
})

/** A fresh checkout: seed.sql, the tool, and migrations 001. */
function checkout(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'every-push-'))
  writeFileSync(path.join(dir, 'seed.sql'), "CREATE TABLE items (id int PRIMARY KEY, name text);\nINSERT INTO items VALUES (1, 'one'), (2, 'two');\n")
  writeFileSync(path.join(dir, 'migrate.mjs'), MIGRATE_TOOL)
  mkdirSync(path.join(dir, 'migrations'))
  writeFileSync(path.join(dir, 'migrations', '001_tags.sql'), 'CREATE TABLE tags (id int PRIMARY KEY, label text);\n')
  return dir
}

const applied = (dir: string): string[][] =>
  existsSync(path.join(dir, 'applied.log'))
    ? readFileSync(path.join(dir, 'applied.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[])
    : []

function newPr(): number {
  const n = nextPr++
  emu.github.openPullRequest(REPO, n)
  return n
}

const comments = (pr: number): string[] => emu.github.comments(REPO, pr).map((c) => c.body)
const MIGRATE = { 'migrate-command': 'node migrate.mjs' }

type Mode = 'instant' | 'branch'

function runner(mode: Mode, dir: string, pr: number) {
  return (inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
    emu.run({
      inputs: {
        ...(mode === 'instant'
          ? { 'instant-url': emu.instant.url }
          : { 'api-url': emu.platform.url, 'api-key': project.apiKey, 'project-id': project.id, 'poll-interval': '0.2' }),
        seed: 'seed.sql',
        ...MIGRATE,
        ...inputs
      },
      repository: REPO,
      cwd: dir,
      pr: { number: pr },
      ...extra
    })
}

/** The database a run handed out (by its id), and a query on it as its owner. */
function databaseOf(mode: Mode, r: RunResult): string {
  if (mode === 'instant') return emu.instant.databases.get(r.outputs['database-id'])!.database
  return project.branches.get(r.outputs['branch-id'])!.database
}
const query = async (database: string, sql: string): Promise<Record<string, unknown>[]> => emu.pg.query(database, sql)
const tables = async (database: string): Promise<string[]> =>
  (await query(database, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).map((r) => String(r.tablename))

const secrets = (): string[] =>
  [...[...emu.instant.databases.values()].map((d) => d.connection_string ?? ''), project.apiKey, project.password].filter(Boolean).flatMap(leakForms)
const expectNoLeak = (r: RunResult): void => expect(leaks(publicText(emu, r), secrets())).toEqual([])

describe.each(['instant', 'branch'] as const)('every push, %s mode', (mode) => {
  it('runs migrate-command on a new database after the seed, on the 2nd push applies only the new migration, and a 3rd run changes nothing', async () => {
    const dir = checkout()
    const pr = newPr()
    const run = runner(mode, dir, pr)

    const first = await run()
    expect(first.errors).toEqual([])
    expect(first.code).toBe(0)
    expect(first.outputs).toMatchObject({ created: 'true', reseeded: 'false', 'schema-changed': 'true' })
    const db = databaseOf(mode, first)
    expect(await tables(db)).toEqual(['_migrations', 'items', 'tags'])
    expect(applied(dir)).toEqual([['001_tags.sql']])
    expect(comments(pr)).toHaveLength(1)

    // The commands see the direct connection as DATABASE_URL (and DIRECT_URL), the pooled one by its own name.
    const env = JSON.parse(readFileSync(path.join(dir, 'env.json'), 'utf8')) as Record<string, string>
    expect(env.DATABASE_URL).toBe(first.outputs['database-url-direct'])
    expect(env.DIRECT_URL).toBe(first.outputs['database-url-direct'])
    expect(env.DATABASE_URL_DIRECT).toBe(first.outputs['database-url-direct'])
    expect(env.DATABASE_URL_POOLED).toBe(first.outputs['database-url'])
    expect(env.DATABASE_URL).not.toBe(env.DATABASE_URL_POOLED)
    expect(env.PGHOST).toBe(first.outputs['database-host-direct'])

    // Second push: a new migration; the seed is unchanged, so the database is reused and migrated.
    await query(db, "INSERT INTO items VALUES (3, 'added by the app')")
    writeFileSync(path.join(dir, 'migrations', '002_price.sql'), 'ALTER TABLE items ADD COLUMN price numeric(10,2);\n')
    const second = await run()
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', reseeded: 'false', 'schema-changed': 'true' })
    expect(databaseOf(mode, second)).toBe(db)
    expect(applied(dir).at(-1)).toEqual(['002_price.sql'])
    const columns = await query(db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'items' ORDER BY ordinal_position")
    expect(columns.map((c) => c.column_name)).toEqual(['id', 'name', 'price'])
    expect((await query(db, 'SELECT count(*)::int AS n FROM items'))[0].n).toBe(3) // the data is kept
    expect(comments(pr)).toHaveLength(1) // after the first run no run creates a comment
    const body = comments(pr)[0]
    expect(body).toMatch(/1 column added/)
    expect(body).toContain('"price" numeric(10,2)')
    if (mode === 'branch') expect(body).toMatch(/total change against/i)

    // Third run, nothing new: migrate-command runs and applies nothing; the schema did not change.
    const third = await run()
    expect(third.errors).toEqual([])
    expect(third.outputs).toMatchObject({ created: 'false', reseeded: 'false', 'schema-changed': 'false' })
    expect(databaseOf(mode, third)).toBe(db)
    expect(applied(dir).at(-1)).toEqual([])
    expect((await query(db, 'SELECT count(*)::int AS n FROM items'))[0].n).toBe(3)
    expect(comments(pr)).toHaveLength(1)
    expectNoLeak(third)
  })

  it('rebuilds when a seed file changed, says why, and migrates the rebuilt database', async () => {
    const dir = checkout()
    const pr = newPr()
    const run = runner(mode, dir, pr)
    const first = await run()
    expect(first.code).toBe(0)
    const db = databaseOf(mode, first)
    await query(db, "INSERT INTO items VALUES (9, 'old data')")

    writeFileSync(path.join(dir, 'seed.sql'), "CREATE TABLE items (id int PRIMARY KEY, name text);\nINSERT INTO items VALUES (1, 'new seed');\n")
    const second = await run()
    expect(second.errors).toEqual([])
    expect(second.code).toBe(0)
    expect(second.outputs.reseeded).toBe('true')
    if (mode === 'branch') {
      // the same branch (name and id), reset to its parent and seeded again: the old data is gone
      expect(second.outputs['branch-name']).toBe(first.outputs['branch-name'])
      expect(second.outputs['branch-id']).toBe(first.outputs['branch-id'])
      expect([...project.branches.values()].filter((b) => b.name.startsWith(first.outputs['branch-name']))).toHaveLength(1)
    } else {
      expect(second.outputs['database-id']).not.toBe(first.outputs['database-id'])
      expect(second.outputs.created).toBe('true')
    }
    const rebuilt = databaseOf(mode, second)
    expect(await query(rebuilt, 'SELECT id, name FROM items ORDER BY id')).toEqual([{ id: 1, name: 'new seed' }])
    expect(await tables(rebuilt)).toEqual(['_migrations', 'items', 'tags']) // migrate-command ran on the rebuilt database
    expect(comments(pr)).toHaveLength(1)
    expect(comments(pr)[0]).toMatch(/rebuilt because the seed changed/i)

    // The next run with the same seed reuses the rebuilt database.
    const third = await run()
    expect(third.outputs).toMatchObject({ created: 'false', reseeded: 'false' })
    expect(databaseOf(mode, third)).toBe(rebuilt)
    expectNoLeak(third)
  })

  it('with reseed: never, reuses the database although the seed changed', async () => {
    const dir = checkout()
    const pr = newPr()
    const run = runner(mode, dir, pr)
    const first = await run({ reseed: 'never' })
    expect(first.code).toBe(0)
    writeFileSync(path.join(dir, 'seed.sql'), "CREATE TABLE items (id int PRIMARY KEY, name text);\nINSERT INTO items VALUES (7, 'changed');\n")
    const second = await run({ reseed: 'never' })
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'false', reseeded: 'false' })
    expect(databaseOf(mode, second)).toBe(databaseOf(mode, first))
    expect(await query(databaseOf(mode, second), 'SELECT id FROM items ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('a failing migration on a reused database: fails, sets no database output, keeps the database; the next run applies the fixed one', async () => {
    const dir = checkout()
    const pr = newPr()
    const run = runner(mode, dir, pr)
    const first = await run()
    expect(first.code).toBe(0)
    const db = databaseOf(mode, first)
    await query(db, "INSERT INTO items VALUES (5, 'keep me')")

    writeFileSync(path.join(dir, 'migrations', '002_broken.sql'), 'ALTER TABLE nope ADD COLUMN x int;\n')
    const failed = await run()
    expect(failed.code).toBe(1)
    expect(failed.errors.join('\n')).toMatch(/migrate-command exited with code 1/)
    for (const name of ['database-url', 'database-url-direct', 'database-password', 'database-host', 'database-name', 'branch-id', 'database-id'])
      expect(failed.outputs[name]).toBeUndefined()
    expect(comments(pr)).toHaveLength(1)
    expect(comments(pr)[0]).toMatch(/migrations failed at commit `a1b2c3d`.*exit code 1/is)
    expect((await query(db, 'SELECT count(*)::int AS n FROM items WHERE id = 5'))[0].n).toBe(1) // kept, with its data
    expectNoLeak(failed)

    writeFileSync(path.join(dir, 'migrations', '002_broken.sql'), 'ALTER TABLE items ADD COLUMN x int;\n')
    const fixed = await run()
    expect(fixed.errors).toEqual([])
    expect(fixed.outputs).toMatchObject({ created: 'false', reseeded: 'false', 'schema-changed': 'true' })
    expect(databaseOf(mode, fixed)).toBe(db)
    expect(applied(dir).at(-1)).toEqual(['002_broken.sql'])
    expect((await query(db, 'SELECT count(*)::int AS n FROM items WHERE id = 5'))[0].n).toBe(1)
    expect(comments(pr)[0]).not.toMatch(/migrations failed/i)
  })

  it('a failing migration on a new database fails like a failed seed: nothing is handed out or recorded', async () => {
    const dir = checkout()
    writeFileSync(path.join(dir, 'migrations', '002_broken.sql'), 'SELECT 1/0;\n')
    const pr = newPr()
    const run = runner(mode, dir, pr)
    const r = await run()
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/migrate-command exited with code 1/)
    expect(r.outputs['database-url']).toBeUndefined()
    expect(comments(pr)[0]).toContain('seeding failed')
    if (mode === 'branch') expect([...project.branches.values()].filter((b) => b.name.includes(`pr-${pr}-`))).toEqual([])
    rmSync(path.join(dir, 'migrations', '002_broken.sql'))
    const next = await run()
    expect(next.errors).toEqual([])
    expect(next.outputs.created).toBe('true')
  })
})

describe('reseed, branch mode, a branch the platform cannot restore from its parent', () => {
  it('schema-only: a changed seed deletes the branch and creates it again under the same name, then migrates it', async () => {
    const dir = checkout()
    const pr = newPr()
    const run = runner('branch', dir, pr)
    const first = await run({ 'schema-only': 'true' })
    expect(first.errors).toEqual([])
    writeFileSync(path.join(dir, 'seed.sql'), "CREATE TABLE items (id int PRIMARY KEY, name text);\nINSERT INTO items VALUES (4, 'four');\n")
    const second = await run({ 'schema-only': 'true' })
    expect(second.errors).toEqual([])
    expect(second.outputs).toMatchObject({ created: 'true', reseeded: 'true', 'branch-name': first.outputs['branch-name'] })
    expect(project.branches.has(first.outputs['branch-id'])).toBe(false)
    const db = databaseOf('branch', second)
    expect(await query(db, 'SELECT id FROM items')).toEqual([{ id: 4 }])
    expect(await tables(db)).toEqual(['_migrations', 'items', 'tags'])
    expect(comments(pr)[0]).toMatch(/rebuilt because the seed changed/i)
  })
})

describe('reseed', () => {
  it('refuses any other value before any request, naming the values', async () => {
    const dir = checkout()
    const before = emu.instant.server.log.length
    const r = await emu.run({ inputs: { 'instant-url': emu.instant.url, reseed: 'always' }, repository: REPO, cwd: dir, pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual(['Input `reseed` must be one of on-change, never; got "always".'])
    expect(emu.instant.server.log.length).toBe(before)
  })
})

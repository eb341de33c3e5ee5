/**
 * The seed loader through the bundled action (Node 24, the runtime in
 * action.yml) against the emulator's real PostgreSQL 17: real dumps
 * (pagila, northwind), every quoting form, COPY, meta-commands, refusals,
 * and errors that point at file:line:column without leaking data.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import { NODE_24, ROOT, type RunResult } from '../../emulator/runner.js'
import { emulatorSecrets, leaks, publicText } from '../helpers.js'
import { DumpSource } from '../pg-dump-source.js'

const FIXTURES = path.resolve(ROOT, '..', 'shared', 'fixtures')
let emu: Emulator
let work: string

beforeAll(async () => {
  emu = await startEmulator()
  work = mkdtempSync(path.join(os.tmpdir(), 'seed-test-'))
})
afterAll(async () => {
  await emu?.stop()
})

const write = (name: string, text: string): string => {
  writeFileSync(path.join(work, name), text)
  return name
}
const run = (seed: string, pr?: { number: number }): Promise<RunResult> =>
  emu.run({
    inputs: { 'instant-url': emu.instant.url, 'github-token': APP_TOKEN, seed },
    cwd: work,
    node: NODE_24,
    pr
  })
const database = (r: RunResult) => emu.instant.databases.get(r.outputs['database-id']) ?? [...emu.instant.databases.values()].at(-1)!
const q = async (r: RunResult, sql: string) => emu.pg.query(database(r).database, sql)
const publicTables = async (r: RunResult): Promise<number> =>
  Number((await q(r, "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'"))[0].n)
const expectNoLeak = (r: RunResult): void => expect(leaks(publicText(emu, r), emulatorSecrets(emu))).toEqual([])

/** Rows per table of every COPY block in a dump. */
function copyRows(dump: string): Map<string, number> {
  const rows = new Map<string, number>()
  const lines = dump.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^COPY ([\w."]+) .*FROM stdin;$/.exec(lines[i])
    if (!m) continue
    let n = 0
    while (lines[++i] !== '\\.') n++
    rows.set(m[1], (rows.get(m[1]) ?? 0) + n)
  }
  return rows
}

describe('seeding through the bundle', () => {
  it('loads pagila (schema, then 21 COPY blocks): every table has the dump\'s row count; OWNER TO postgres is skipped and counted', async () => {
    const r = await run(`${FIXTURES}/pagila/pagila-schema.sql\n${FIXTURES}/pagila/pagila-data.sql`)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const expected = copyRows(readFileSync(`${FIXTURES}/pagila/pagila-data.sql`, 'utf8'))
    expect(expected.size).toBe(21)
    expect([...expected.values()].reduce((a, b) => a + b, 0)).toBe(49_636)
    for (const [table, n] of expected) {
      const [{ count }] = await q(r, `SELECT count(*) AS count FROM ONLY ${table}`)
      expect([table, Number(count)]).toEqual([table, n])
    }
    expect(r.stdout).toMatch(/Skipped 57 statement\(s\) that name roles this database does not have \(postgres\)/)
    expect(r.stdout).toMatch(/49636 COPY row\(s\)/)
    expectNoLeak(r)
  })

  it('loads northwind (plain INSERTs, SET lines, DROP TABLE IF EXISTS)', async () => {
    const dump = readFileSync(`${FIXTURES}/northwind/northwind.sql`, 'utf8')
    const r = await run(`${FIXTURES}/northwind/northwind.sql`)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    for (const table of ['orders', 'customers', 'products', 'order_details']) {
      const inserts = (dump.match(new RegExp(`^INSERT INTO ${table} `, 'gm')) ?? []).length
      expect(inserts).toBeGreaterThan(0)
      const [{ n }] = await q(r, `SELECT count(*) AS n FROM ${table}`)
      expect([table, Number(n)]).toEqual([table, inserts])
    }
  })

  it('splits every quoting form as PostgreSQL does, and honours \\restrict/\\unrestrict', async () => {
    const f = write(
      'quoting.sql',
      [
        '\\restrict q1w2e3',
        '-- a comment; with a semicolon',
        'CREATE TABLE t (id int, v text, "odd;name" text);',
        "INSERT INTO t VALUES (1, 'it''s; quoted', 'x'), (2, E'back\\\\slash \\' and ;', 'y');",
        '/* outer /* nested ; */ still a comment ; */ INSERT INTO t VALUES (3, $$dollar; $inner$ body$$, $tag$;$tag$);',
        'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $fn$',
        'BEGIN',
        '  RETURN 42; -- ; inside',
        'END;',
        '$fn$;',
        'COPY t (id, v, "odd;name") FROM stdin;',
        '4\ttab\\there\t\\N',
        '5\tback\\\\slash\tz',
        '\\.',
        'INSERT INTO t VALUES (6, f()::text, NULL)',
        '\\unrestrict q1w2e3',
        ''
      ].join('\n')
    )
    const r = await run(f)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const rows = await q(r, 'SELECT id, v, "odd;name" AS o FROM t ORDER BY id')
    expect(rows).toEqual([
      { id: 1, v: "it's; quoted", o: 'x' },
      { id: 2, v: "back\\slash ' and ;", o: 'y' },
      { id: 3, v: 'dollar; $inner$ body', o: ';' },
      { id: 4, v: 'tab\there', o: null },
      { id: 5, v: 'back\\slash', o: 'z' },
      { id: 6, v: '42', o: null }
    ])
  })

  // The load pass does not count COPY data lines, so the errors below sit after a COPY block: their lines come from an exact rescan.
  it('a failing statement in the middle of the third file leaves nothing, and names file:line:column', async () => {
    const files = [
      write('a1.sql', 'CREATE TABLE a (id int);\nINSERT INTO a VALUES (1);\n'),
      write('a2.sql', 'CREATE TABLE b (id int);\n'),
      write('a3.sql', 'COPY b (id) FROM stdin;\n10\n11\n12\n\\.\nINSERT INTO b VALUES (1);\n-- next one fails\nINSERT INTO b\n  SELECT id FROM missing_table;\nINSERT INTO b VALUES (2);\n')
    ]
    const r = await run(files.join('\n'))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Seed failed at a3\.sql:9:18: relation "missing_table" does not exist\. Statement: "INSERT INTO b"\. Nothing was kept/)
    expect(await publicTables(r)).toBe(0)
  })

  it('a runtime error without a position is traced to its statement', async () => {
    const r = await run(write('dup.sql', 'CREATE TABLE u (id int PRIMARY KEY);\nCOPY u (id) FROM stdin;\n2\n3\n\\.\nINSERT INTO u VALUES (1);\n\n  INSERT INTO u VALUES (1);\n'))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Seed failed at dup\.sql:8:3: duplicate key value violates unique constraint "u_pkey"; detail: Key \(id\)=\(1\) already exists\./)
    expect(await publicTables(r)).toBe(0)
  })

  it('a bad COPY row is reported at its line, without its values', async () => {
    const secretValue = 'sensitive-customer-value'
    const f = write(
      'copy.sql',
      `CREATE TABLE c (id int, note text);\nCOPY c (id, note) FROM stdin;\n-1\tfirst block\n-2\tfirst block\n\\.\nCOPY c (id, note) FROM stdin;\n1\tok\n2\tok\nnot-a-number\t${secretValue}\n\\.\n`
    )
    const r = await run(f)
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Seed failed at copy\.sql:9: invalid input syntax for type integer: "…".*in the data of "COPY c \(id, note\) FROM stdin;"/)
    expect(r.stdout + r.stderr).not.toContain(secretValue)
    expect(r.stdout + r.stderr).not.toContain('not-a-number')
    expect(await publicTables(r)).toBe(0)
  })

  it.each([
    ['\\connect other', /copy-me\.sql:7: psql meta-command \\connect is not supported/],
    ['\\i other.sql', /psql meta-command \\i is not supported/],
    ['\\! rm -rf /', /psql meta-command \\! is not supported/],
    ['\\set ON_ERROR_STOP 0', /psql meta-command \\set is not supported/],
    ['CREATE DATABASE other;', /"CREATE DATABASE other;" cannot work on a provisioned database/],
    ['DROP DATABASE neondb;', /"DROP DATABASE neondb;" cannot work on a provisioned database/],
    ['CREATE INDEX CONCURRENTLY i ON t (id);', /copy-me\.sql:7:1: "CREATE INDEX CONCURRENTLY i ON t \(id\);" cannot run inside a transaction block/],
    ['VACUUM t;', /"VACUUM t;" cannot run inside a transaction block/],
    ['COMMIT;', /"COMMIT;" is transaction control/]
  ])('refuses %s before anything runs, or any database is created', async (line, message) => {
    const before = write('first.sql', 'CREATE TABLE must_not_exist (id int);\n')
    // A COPY block first: the check pass skips COPY data, so the line must come from its exact rescan.
    const f = write('copy-me.sql', `CREATE TABLE t (id int);\nCOPY t (id) FROM stdin;\n1\n2\n\\.\n\n${line}\n`)
    const databases = emu.instant.databases.size
    const r = await run(`${before}\n${f}`)
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(message)
    expect(r.errors[0]).toMatch(/Nothing was run\..* No database was created or changed\./)
    expect(emu.instant.databases.size).toBe(databases)
  })

  it('refuses a bad seed on a re-run that reuses the database, and leaves that database as it was', async () => {
    const pr = { number: 4401 }
    emu.github.openPullRequest('acme/shop', pr.number)
    const first = await run(write('reuse-ok.sql', 'CREATE TABLE kept (id int);\nINSERT INTO kept VALUES (1);\n'), pr)
    expect(first.code).toBe(0)
    const databases = emu.instant.databases.size
    const githubRequests = emu.github.server.log.length
    const second = await run(write('reuse-bad.sql', 'CREATE TABLE kept2 (id int);\n\\! echo hi\n'), pr)
    expect(second.code).toBe(1)
    // refused before the PR's comment lock is claimed: no GitHub request, and the comment keeps its record
    expect(emu.github.server.log.length).toBe(githubRequests)
    expect(second.errors[0]).toMatch(/Seed refused at reuse-bad\.sql:2: psql meta-command \\! is not supported.*No database was created or changed\./)
    expect(emu.instant.databases.size).toBe(databases)
    expect(await q(first, 'SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 1 }])
    expect(await q(first, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'kept2'")).toEqual([{ n: 0 }])
  })

  it('keeps GRANT to a role that exists and skips one to a role that does not', async () => {
    const r = await run(write('grants.sql', 'CREATE TABLE g (id int);\nGRANT SELECT ON g TO PUBLIC;\nGRANT SELECT ON g TO app_reader;\nALTER TABLE g OWNER TO "Somebody";\n'))
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Skipped 2 statement\(s\) that name roles this database does not have \(app_reader, Somebody\)/)
    const [{ acl }] = await q(r, "SELECT relacl::text AS acl FROM pg_class WHERE relname = 'g'")
    expect(acl).toContain('=r/')
  })
})

describe("a dump made by this machine's pg_dump", () => {
  let source: DumpSource
  let dumpFile: string
  const checksum = (table: string): string =>
    `SELECT count(*) || ':' || md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')) AS sum FROM ONLY ${table} t`
  const TRICKY = [
    'SET search_path = public;',
    'CREATE ROLE reporting;',
    'CREATE TABLE tricky (id serial PRIMARY KEY, t text, b bytea, j jsonb, a text[], n numeric, ts timestamptz);',
    "INSERT INTO tricky (t, b, j, a, n, ts) VALUES",
    "  (E'tab\\there\\nnewline \\\\ backslash', '\\x00ff10'::bytea, '{\"k\": [1, \"two\", null]}', ARRAY['a,b', 'c\"d', NULL], 1e-20, '2026-01-01 12:00+02'),",
    "  (NULL, NULL, NULL, NULL, NULL, NULL), ('\\N literally', '', '\"s\"', '{}', -0.5, 'infinity'),",
    "  ($$dollar 'quoted' ; text$$, 'x', '[]', ARRAY[''], 'NaN', NULL);",
    'CREATE FUNCTION tricky_count() RETURNS bigint LANGUAGE sql AS $body$ SELECT count(*) FROM tricky; $body$;',
    'CREATE VIEW tricky_view AS SELECT id, t FROM tricky;',
    'GRANT SELECT ON tricky, tricky_view TO reporting;',
    "COMMENT ON TABLE tricky IS 'a table; with a semicolon';"
  ].join('\n')

  beforeAll(async () => {
    source = await DumpSource.start()
    const tricky = path.join(work, 'tricky-source.sql')
    writeFileSync(tricky, TRICKY)
    source.psqlFiles('postgres', [`${FIXTURES}/pagila/pagila-schema.sql`, `${FIXTURES}/pagila/pagila-data.sql`, tricky])
    dumpFile = path.join(work, 'staging.sql')
    source.dump('postgres', dumpFile)
  })
  afterAll(async () => {
    await source?.stop()
  })

  it('carries \\restrict, owners and grants, and loads so that every table equals its source row for row', async () => {
    const dump = readFileSync(dumpFile, 'utf8')
    expect(dump).toMatch(/^\\restrict \S+$/m)
    expect(dump).toMatch(/^\\unrestrict \S+$/m)
    expect(dump).toContain('OWNER TO postgres;')
    expect(dump).toContain('TO reporting;')

    const r = await run(path.basename(dumpFile))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Skipped \d+ statement\(s\) that name roles this database does not have \(postgres, reporting\)/)

    const tables = source.query('postgres', "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    expect(tables.length).toBeGreaterThan(20)
    for (const table of tables) {
      const [want] = source.query('postgres', checksum(table))
      const [{ sum: got }] = await q(r, checksum(table))
      expect([table, got]).toEqual([table, want])
    }
    const [{ n }] = await q(r, 'SELECT tricky_count() AS n')
    expect(Number(n)).toBe(4)
    expectNoLeak(r)
  })
})

/**
 * The seed loader through the bundled action (Node 24, the runtime in
 * action.yml) against the emulator's real PostgreSQL 17: real dumps (this
 * machine's pg_dump of data we generate, __tests__/fixtures/generate.ts),
 * every quoting form, COPY, meta-commands, refusals, and errors that point at
 * file:line:column without leaking data.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import { NODE_24, type RunResult } from '../../emulator/runner/runner.js'
import { emulatorSecrets, leaks, publicText } from '../helpers.js'
import { TABLES_QUERY, checksumQuery, generateDump } from '../fixtures/generate.js'
import { DumpSource } from '../pg-dump-source.js'

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

describe('seeding through the bundle', () => {
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

  // Batches and COPY blocks are pipelined (src/seed/pipeline.ts): the messages sent after a failure must not move its place.
  it.each([
    [
      'a runtime error in a batch, with COPY blocks and a \\copy already sent behind it',
      'CREATE TABLE u (id int PRIMARY KEY);\nINSERT INTO u VALUES (1);\nINSERT INTO u VALUES (1);\nCOPY u (id) FROM stdin;\n2\n\\.\nCOPY u (id) FROM stdin;\n3\n\\.\n\\copy u (id) from stdin\n4\n\\.\nINSERT INTO u VALUES (5);\n',
      /Seed failed at pipe\.sql:3:1: duplicate key value violates unique constraint "u_pkey"/
    ],
    [
      'a COPY that fails at its start, between two that would load',
      'CREATE TABLE u (id int);\nCOPY u (id) FROM stdin;\n1\n\\.\nCOPY missing (id) FROM stdin;\n2\n\\.\nCOPY u (id) FROM stdin;\n3\n\\.\n',
      /Seed failed at pipe\.sql:5: relation "…" does not exist \(in the data of "COPY missing \(id\) FROM stdin;"\)/
    ],
    [
      'a bad row in the first of three COPY blocks, with statements after them',
      'CREATE TABLE u (id int);\nCOPY u (id) FROM stdin;\n1\nx\n\\.\nCOPY u (id) FROM stdin;\n2\n\\.\nINSERT INTO u VALUES (3);\nCOPY u (id) FROM stdin;\n4\n\\.\n',
      /Seed failed at pipe\.sql:4: invalid input syntax for type integer: "…"/
    ],
    [
      'a deferred constraint that fails at COMMIT',
      'CREATE TABLE p (id int PRIMARY KEY);\nCREATE TABLE c (p int REFERENCES p DEFERRABLE INITIALLY DEFERRED);\nCOPY c (p) FROM stdin;\n7\n\\.\n',
      /Seeding failed: insert or update on table "c" violates foreign key constraint/
    ],
    [
      'a COPY … FROM stdin that only a variable makes one, sent in a batch with more messages behind it',
      'CREATE TABLE t (id int);\n\\set src stdin\nCOPY t FROM :src;\nCREATE TABLE after_it (id int);\nCOPY t FROM stdin;\n1\n\\.\n',
      /Seed failed at pipe\.sql:3:1: COPY from stdin failed: COPY FROM STDIN is not expected in this statement batch\. Statement: "COPY t FROM stdin;"/
    ]
  ])('pipelined: %s fails the seed with its own error (at its file:line where it has one), and nothing is kept', async (_name, text, message) => {
    const r = await run(write('pipe.sql', text))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(message)
    expect(r.errors[0]).toMatch(/Nothing was kept|rolled back/)
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
    ['\\i other.sql', /copy-me\.sql:7: \\i other\.sql: no such file/],
    ['\\! rm -rf /', /psql meta-command \\! is not supported/],
    ['\\set ON_ERROR_STOP 0', /copy-me\.sql:7: ON_ERROR_STOP is always on/],
    ['CREATE DATABASE other;', /"CREATE DATABASE other;" cannot work on a provisioned database/],
    ['DROP DATABASE neondb;', /"DROP DATABASE neondb;" cannot work on a provisioned database/],
    ['CREATE INDEX CONCURRENTLY i ON t (id);', /copy-me\.sql:7:1: "CREATE INDEX CONCURRENTLY i ON t \(id\);" cannot run inside a transaction block/],
    ['VACUUM t;', /"VACUUM t;" cannot run inside a transaction block/],
    ['ROLLBACK;', /copy-me\.sql:7:1: "ROLLBACK;" would change the outcome of the seed/],
    ["PREPARE TRANSACTION 'x';", /"PREPARE TRANSACTION 'x';" would change the outcome of the seed/],
    ['SELECT 1; \\o out.txt', /copy-me\.sql:7: psql meta-command \\o is not supported: it writes query output to a file on the runner/],
    ["\\lo_import '/etc/hostname'", /copy-me\.sql:7: psql meta-command \\lo_import is not supported/],
    ["\\copy t from program 'cat ids.txt'", /copy-me\.sql:7: psql meta-command \\copy … from program is not supported: it runs a shell command/],
    ['\\if `test -f x`', /copy-me\.sql:7: \\if with a backtick expression runs a shell command on the runner/],
    ['\\setenv PGHOST elsewhere', /copy-me\.sql:7: psql meta-command \\setenv is not supported/],
    ['\\crosstabview', /copy-me\.sql:7: psql meta-command \\crosstabview is not supported: the loader runs \\echo/],
    ["\\set db 'other' \\\\ CREATE DATABASE :db;", /copy-me\.sql:7:\d+: "CREATE DATABASE other;" cannot work on a provisioned database/]
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

describe("a dump that this machine's pg_dump makes of generated data", () => {
  let source: DumpSource
  const dumpFile = (name: string): string => path.join(work, name)
  const SCALE = 2800

  beforeAll(async () => {
    source = await DumpSource.start()
    generateDump(source, 'shop', SCALE, dumpFile('shop.sql'))
    source.dump('shop', dumpFile('shop-inserts.sql'), ['--inserts', '--clean', '--if-exists'])
    source.createDatabase('shop_psql')
    source.psqlFiles('shop_psql', [dumpFile('shop-inserts.sql')])
  })
  afterAll(async () => {
    await source?.stop()
  })

  /** Every table, view and sequence of the loaded database equals database `db` of the source: rows (count and md5, in C order), and last values. */
  async function expectSameAsSource(r: RunResult, db = 'shop'): Promise<void> {
    const tables = source.query(db, TABLES_QUERY)
    expect(tables).toHaveLength(7)
    const relations = [...tables, 'sales.customer_totals', 'sales.daily']
    for (const table of relations) {
      const [want] = source.query(db, checksumQuery(table))
      const [{ sum: got }] = await q(r, checksumQuery(table))
      expect([table, got]).toEqual([table, want])
    }
    const sequences =
      "SELECT string_agg(format('%s.%s=%s', schemaname, sequencename, last_value), ',' ORDER BY schemaname, sequencename) AS s FROM pg_sequences"
    const [{ s }] = await q(r, sequences)
    expect(s).toBe(source.query(db, sequences)[0])
    expect(await q(r, 'SELECT last_value, is_called FROM ticket_seq')).toEqual([{ last_value: String(SCALE + 41), is_called: false }])
    const [{ n }] = await q(r, 'SELECT order_count(1) AS n')
    expect(String(n)).toBe(source.query(db, 'SELECT order_count(1)')[0])
    const [{ total }] = await q(r, 'SELECT line_total(3, 2.5) AS total')
    expect(total).toBe('7.5')
  }

  it('loads it as pg_dump wrote it (\\restrict, COPY blocks, BEGIN ATOMIC bodies, owners, grants, default privileges): every table equals its source row for row; statements naming missing roles are skipped and counted', async () => {
    const dump = readFileSync(dumpFile('shop.sql'), 'utf8')
    expect(dump).toMatch(/^\\restrict \S+$/m)
    expect(dump).toMatch(/^\\unrestrict \S+$/m)
    expect(dump).toContain('OWNER TO app_owner;')
    expect(dump).toMatch(/^ {4}BEGIN ATOMIC$/m)
    expect(dump).toContain('ALTER DEFAULT PRIVILEGES FOR ROLE app_owner IN SCHEMA sales GRANT SELECT ON TABLES  TO reporting;')
    // the roles the emulator's database lacks: pg_dump's user, and the two the generator made
    const skipped = dump
      .split('\n')
      .filter((l) => / OWNER TO (postgres|app_owner);$/.test(l) || /^GRANT .* TO reporting;$/.test(l) || /^ALTER DEFAULT PRIVILEGES FOR ROLE app_owner /.test(l)).length
    expect(skipped).toBeGreaterThan(30)

    const r = await run('shop.sql')
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const missing = /Skipped (\d+) statement\(s\) that name roles this database does not have \(([^)]*)\)/.exec(r.stdout)
    expect(missing && [Number(missing[1]), missing[2].split(', ').sort()]).toEqual([skipped, ['app_owner', 'postgres', 'reporting']])
    const rows = source.query('shop', TABLES_QUERY).reduce((sum, t) => sum + Number(source.query('shop', `SELECT count(*) FROM ONLY ${t}`)[0]), 0)
    expect(rows).toBeGreaterThan(40_000)
    expect(r.stdout).toContain(`${rows} COPY row(s)`)
    await expectSameAsSource(r)
    expectNoLeak(r)
  })

  // Compared with psql's load of the same file, not with the source: pg_dump --inserts writes real -0 as `-0`, which both read back as 0.
  it('loads its --inserts --clean --if-exists form (INSERT statements, DROP … IF EXISTS, SET lines) to what psql loads from it', async () => {
    const dump = readFileSync(dumpFile('shop-inserts.sql'), 'utf8')
    expect(dump).toMatch(/^DROP TABLE IF EXISTS sales\.orders;$/m)
    expect((dump.match(/^INSERT INTO /gm) ?? []).length).toBeGreaterThan(40_000)
    expect(dump).not.toMatch(/^COPY /m)
    const r = await run('shop-inserts.sql')
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    await expectSameAsSource(r, 'shop_psql')
  })
})

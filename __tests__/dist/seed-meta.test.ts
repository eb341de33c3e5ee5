/**
 * psql's meta-commands in a seed, each case loaded through the
 * bundled action and by psql (`psql -X -v ON_ERROR_STOP=1 -1`) from the same
 * folder, and the databases compared (__tests__/psql-compare.ts). Where psql
 * loads, both databases must be equal; where the loader refuses, it refuses
 * before any database exists, with the reason and `seed-command`.
 */
import { describe, expect, it } from '@jest/globals'
import { psqlComparison } from '../psql-compare.js'

const { loadBoth, expectSameAsPsql, q, emulator } = psqlComparison()
const lines = (...l: string[]): string => `${l.join('\n')}\n`

describe('psql meta-commands run as psql runs them, in the seed transaction', () => {
  it('\\echo, \\qecho, \\warn print in the log; \\timing, \\pset, \\x are ignored; \\set ON_ERROR_STOP on is accepted', async () => {
    const both = await expectSameAsPsql([
      ['main.sql', lines('\\set ON_ERROR_STOP on', '\\timing on', '\\pset format unaligned', '\\x', "\\echo 'LOADING' people", 'CREATE TABLE people (id int);', "\\qecho 'it''s' done", '\\warn careful \\\\ INSERT INTO people VALUES (1);')]
    ])
    expect(both.ours.stdout).toContain('LOADING people')
    expect(both.ours.stdout).toContain("it's done")
    expect(both.ours.stdout).toContain('careful')
    expect(both.ours.stdout).toContain('Ignored \\pset format unaligned: it only changes how psql shows results')
    expect(await q(both, 'SELECT id FROM people')).toEqual([{ id: 1 }])
  })

  it('\\set ON_ERROR_STOP off is refused before any database exists, with the reason', async () => {
    const databases = emulator().instant.databases.size
    const both = await loadBoth([['main.sql', lines('CREATE TABLE t (id int);', '\\set ON_ERROR_STOP off', 'CREATE TABLE u (id int);')]])
    expect(both.psql.ok).toBe(true)
    expect(both.ours.code).toBe(1)
    expect(both.ours.errors[0]).toMatch(/Seed refused at main\.sql:2: ON_ERROR_STOP is always on: the seed runs in one transaction.*Nothing was run\. No database was created/)
    expect(emulator().instant.databases.size).toBe(databases)
  })

  it('an \\ir tree (\\i from the working directory, \\ir from the including file) with a COPY block in an included file', async () => {
    const both = await expectSameAsPsql(
      [
        ['db/main.sql', lines('\\echo schema', '\\ir schema/tables.sql', '\\i db/data/load.sql', 'INSERT INTO city VALUES (3, \'Lyon\');')],
        ['db/schema/tables.sql', lines('CREATE TABLE city (id int PRIMARY KEY, name text);', '\\ir ../schema/more.sql')],
        ['db/schema/more.sql', lines('CREATE TABLE road (a int REFERENCES city, b int REFERENCES city)')],
        ['db/data/load.sql', lines('COPY city (id, name) FROM stdin;', '1\tParis', '2\tNice', '\\.', '\\ir roads.sql')],
        ['db/data/roads.sql', lines('INSERT INTO road VALUES (1, 2);')]
      ],
      {},
      ['db/main.sql']
    )
    expect(await q(both, 'SELECT name FROM city ORDER BY id')).toEqual([{ name: 'Paris' }, { name: 'Nice' }, { name: 'Lyon' }])
    expect(await q(both, 'SELECT count(*)::int AS n FROM road')).toEqual([{ n: 1 }])
  })

  it('an error in an included file names its line and column and where it was included from', async () => {
    const both = await loadBoth([['main.sql', lines('CREATE TABLE t (id int);', '\\ir inc.sql')], ['inc.sql', lines('INSERT INTO t VALUES (1);', 'INSERT INTO t VALUES (oops);')]], {}, ['main.sql'])
    expect(both.psql.ok).toBe(false)
    expect(both.ours.code).toBe(1)
    expect(both.ours.errors[0]).toMatch(/Seed failed at inc\.sql:2:23 \(included from main\.sql:2\): column "oops" does not exist.*Nothing was kept/)
  })

  it('an include cycle and a missing included file are refused before any database exists', async () => {
    const databases = emulator().instant.databases.size
    const cycle = await loadBoth([['a.sql', lines('CREATE TABLE t (id int);', '\\ir b.sql')], ['b.sql', lines('\\ir a.sql')]], {}, ['a.sql'])
    expect(cycle.ours.code).toBe(1)
    expect(cycle.ours.errors[0]).toMatch(/Seed refused at b\.sql:1 \(included from a\.sql:2\): include cycle: a\.sql → b\.sql → a\.sql\..*Nothing was run/)
    expect(cycle.psql.ok).toBe(false) // psql recurses until it runs out of file handles or stack
    const missing = await loadBoth([['a.sql', lines('CREATE TABLE t (id int);', '\\i nowhere.sql')]])
    expect(missing.psql.ok).toBe(false)
    expect(missing.ours.errors[0]).toMatch(/Seed refused at a\.sql:2: \\i nowhere\.sql: no such file/)
    expect(emulator().instant.databases.size).toBe(databases)
  })

  it('\\copy … from a CSV file with a header (relative to the working directory), and \\copy … from stdin with inline data', async () => {
    const csv = ['id,name,note', '1,Ada,"has, comma"', '2,Grace,', ...Array.from({ length: 500 }, (_, k) => `${k + 3},n${k},x`)].join('\n') + '\n'
    const both = await expectSameAsPsql(
      [
        ['seed/main.sql', lines('CREATE TABLE person (id int, name text, note text);', "\\copy person (id, name, note) FROM 'data/people.csv' WITH (FORMAT csv, HEADER)", 'CREATE TABLE tag (t text);', '\\copy tag from stdin', 'red', 'blue', '\\.', 'INSERT INTO tag VALUES (\'green\');')],
        ['data/people.csv', csv]
      ],
      {},
      ['seed/main.sql']
    )
    expect(await q(both, 'SELECT count(*)::int AS n, max(note) AS m FROM person')).toEqual([{ n: 502, m: 'x' }])
    expect(await q(both, "SELECT note FROM person WHERE name = 'Ada'")).toEqual([{ note: 'has, comma' }])
    expect((await q(both, 'SELECT t FROM tag ORDER BY t')).map((r) => r.t)).toEqual(['blue', 'green', 'red'])
  })

  it('a bad row in a \\copy file fails the seed at the \\copy line (the file\'s line named), a bad inline row at its own line, values hidden; a missing \\copy file is refused before any database exists', async () => {
    const bad = await loadBoth([
      ['main.sql', lines('CREATE TABLE n (v int);', 'COPY n FROM stdin;', '1', '\\.', "\\copy n from 'n.csv' csv")],
      ['n.csv', '2\nsecret-value\n']
    ], {}, ['main.sql'])
    expect(bad.psql.ok).toBe(false)
    expect(bad.ours.code).toBe(1)
    expect(bad.ours.errors[0]).toMatch(/Seed failed at main\.sql:5: invalid input syntax for type integer: "…".*\(\\copy from n\.csv, line 2\)\. Nothing was kept/)
    expect(bad.ours.stdout + bad.ours.stderr).not.toContain('secret-value')
    const inline = await loadBoth([['in.sql', lines('CREATE TABLE n (v int);', 'COPY n FROM stdin;', '1', '\\.', '\\copy n from stdin', '2', '3', 'secret-value', '\\.')]])
    expect(inline.psql.ok).toBe(false)
    expect(inline.ours.errors[0]).toMatch(/Seed failed at in\.sql:8: invalid input syntax for type integer: "…" \(in the data of \\copy n from stdin\)\. Nothing was kept/)
    expect(inline.ours.stdout + inline.ours.stderr).not.toContain('secret-value')
    const databases = emulator().instant.databases.size
    const missing = await loadBoth([['main.sql', lines('CREATE TABLE n (v int);', "\\copy n from 'nowhere.csv'")]])
    expect(missing.psql.ok).toBe(false)
    expect(missing.ours.errors[0]).toMatch(/Seed refused at main\.sql:2: \\copy … from 'nowhere\.csv': no such file/)
    expect(emulator().instant.databases.size).toBe(databases)
  })

  it('\\gset on a query that returns no row fails the seed as psql fails it, at its line', async () => {
    const both = await loadBoth([['g.sql', lines('CREATE TABLE e (v int);', 'COPY e FROM stdin;', '1', '\\.', 'SELECT v FROM e WHERE v > 5 \\gset')]])
    expect(both.psql.ok).toBe(false)
    expect(both.psql.stderr).toContain('no rows returned for \\gset')
    expect(both.ours.errors[0]).toMatch(/Seed failed at g\.sql:5: no rows returned for \\gset.*Nothing was kept/)
  })

  it('variables: \\set and \\unset, :name, :\'name\' and :"name" in identifiers and literals, and an undefined variable left as written', async () => {
    const both = await expectSameAsPsql([
      [
        'vars.sql',
        lines(
          '\\set tbl my_table',
          "\\set quoted 'Mixed Case'",
          "\\set owner 'O''Brien \\\\ co'",
          '\\set n 4 2',
          'CREATE TABLE :tbl (id int, label text);',
          'CREATE TABLE :"quoted" (v text);',
          "INSERT INTO :tbl VALUES (:n, :'owner'), (1, ':n stays in quotes');",
          'INSERT INTO :"quoted" VALUES (:\'quoted\');',
          '\\unset n',
          "SELECT ':n' AS untouched;"
        )
      ]
    ])
    expect(await q(both, 'SELECT id, label FROM my_table ORDER BY id')).toEqual([{ id: 1, label: ':n stays in quotes' }, { id: 42, label: "O'Brien \\ co" }])
    expect(await q(both, 'SELECT v FROM "Mixed Case"')).toEqual([{ v: 'Mixed Case' }])
  })

  it('an undefined variable is sent as written: the server reports it at its file:line, as psql does', async () => {
    const both = await loadBoth([['undef.sql', lines('CREATE TABLE t (id int);', 'INSERT INTO t VALUES (:nothing);')]])
    expect(both.psql.ok).toBe(false)
    expect(both.psql.stderr).toContain('syntax error at or near ":"')
    expect(both.ours.code).toBe(1)
    expect(both.ours.errors[0]).toMatch(/Seed failed at undef\.sql:2:23: syntax error at or near ":".*Nothing was kept/)
  })

  it('\\gset then \\if / \\elif / \\else / \\endif on its value, evaluated at load time', async () => {
    const both = await expectSameAsPsql([
      [
        'cond.sql',
        lines(
          'CREATE TABLE flags (name text, on_ boolean);',
          "SELECT :SERVER_VERSION_NUM >= 170000 AS is17, 'x' AS label \\gset",
          '\\if :is17',
          "  INSERT INTO flags VALUES ('seventeen', true);",
          '  \\if false',
          "    INSERT INTO flags VALUES ('never', false);",
          '  \\endif',
          '\\elif true',
          "  INSERT INTO flags VALUES ('older', true);",
          '\\else',
          "  INSERT INTO flags VALUES ('else', true);",
          '\\endif',
          "SELECT 3 AS n \\gset p_",
          '\\if :{?p_n}',
          "  INSERT INTO flags VALUES (:'label' || :p_n, true);",
          '\\endif'
        )
      ]
    ])
    expect((await q(both, 'SELECT name FROM flags ORDER BY name')).map((r) => r.name)).toEqual(['seventeen', 'x3'])
  })

  it('an unbalanced \\if is refused before any database exists', async () => {
    const databases = emulator().instant.databases.size
    const both = await loadBoth([['open.sql', lines('CREATE TABLE t (id int);', '\\if true', 'CREATE TABLE u (id int);')]])
    expect(both.psql.ok).toBe(false)
    expect(both.ours.errors[0]).toMatch(/Seed refused at open\.sql:2: the \\if at line 2 has no \\endif before the end of open\.sql/)
    const stray = await loadBoth([['stray.sql', lines('CREATE TABLE t (id int);', '\\endif')]])
    expect(stray.psql.ok).toBe(false)
    expect(stray.ours.errors[0]).toMatch(/Seed refused at stray\.sql:2: \\endif: no matching \\if/)
    expect(emulator().instant.databases.size).toBe(databases)
  })

  it('\\gexec grants on every table: each non-null cell runs, row by row, in the seed transaction', async () => {
    const both = await expectSameAsPsql([
      [
        'grant.sql',
        lines(
          'CREATE TABLE a (id int);',
          'CREATE TABLE b (id int);',
          "SELECT format('GRANT SELECT ON %I TO PUBLIC', tablename), NULL, format('COMMENT ON TABLE %I IS %L', tablename, 'granted')",
          "  FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
          '\\gexec'
        )
      ]
    ])
    expect(await q(both, "SELECT relname, relacl::text AS acl, obj_description(oid) AS c FROM pg_class WHERE relname IN ('a', 'b') ORDER BY relname")).toEqual([
      { relname: 'a', acl: expect.stringContaining('=r/'), c: 'granted' },
      { relname: 'b', acl: expect.stringContaining('=r/'), c: 'granted' }
    ])
  })

  it('\\gexec, \\gset and \\g on a line of their own send the file\'s previous query again, as psql does', async () => {
    const both = await expectSameAsPsql([
      [
        'again.sql',
        lines(
          'CREATE TABLE hits (n int);',
          'INSERT INTO hits VALUES (1);',
          '\\g',
          "SELECT 'INSERT INTO hits VALUES (' || count(*) + 10 || ')' FROM hits;",
          '\\gexec',
          'SELECT count(*) AS c FROM hits;',
          '\\gset',
          "INSERT INTO hits VALUES (100 + :c);"
        )
      ]
    ])
    expect((await q(both, 'SELECT n FROM hits ORDER BY n')).map((r) => r.n)).toEqual([1, 1, 12, 103])
  })

  it('\\gexec with no query before it in its file sends nothing, as psql sends an empty query', async () => {
    const both = await expectSameAsPsql([['first.sql', lines('CREATE TABLE t (id int);', 'INSERT INTO t VALUES (1);')], ['alone.sql', lines('\\gexec', '\\gset')]])
    expect(both.ours.stdout).toContain('\\gexec at alone.sql:1 has no query before it in its file: nothing sent')
    expect(await q(both, 'SELECT count(*)::int AS n FROM t')).toEqual([{ n: 1 }])
  })

  it('a \\gexec statement that cannot run in a transaction fails the seed and rolls it back, with file:line and the generated text', async () => {
    const both = await loadBoth([['gx.sql', lines('CREATE TABLE a (id int);', "SELECT 'CREATE INDEX CONCURRENTLY a_id ON a (id)' \\gexec")]])
    expect(both.psql.ok).toBe(false)
    expect(both.ours.code).toBe(1)
    expect(both.ours.errors[0]).toMatch(/Seed failed at gx\.sql:2: "CREATE INDEX CONCURRENTLY a_id ON a \(id\)" \(generated by \\gexec\) cannot run inside a transaction block.*Nothing was kept/)
    expect(await q(both, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'a'")).toEqual([{ n: 0 }])
  })

  it('\\! and \\connect are refused before any database exists, naming seed-command', async () => {
    const databases = emulator().instant.databases.size
    const shell = await loadBoth([['shell.sql', lines('CREATE TABLE t (id int);', '\\! echo hi')]])
    expect(shell.psql.ok).toBe(true)
    expect(shell.ours.errors[0]).toMatch(/Seed refused at shell\.sql:2: psql meta-command \\! is not supported: it runs a shell command on the runner\. Run it from `seed-command`/)
    const connect = await loadBoth([['conn.sql', lines('CREATE TABLE t (id int);', '\\connect postgres')]])
    expect(connect.ours.errors[0]).toMatch(/Seed refused at conn\.sql:2: psql meta-command \\connect is not supported: it connects to another database.*`seed-command`/)
    const copyTo = await loadBoth([['to.sql', lines('CREATE TABLE t (id int);', "\\copy t TO 'out.csv'")]])
    expect(copyTo.ours.errors[0]).toMatch(/Seed refused at to\.sql:2: psql meta-command \\copy … to is not supported/)

    expect(emulator().instant.databases.size).toBe(databases)
  })
})

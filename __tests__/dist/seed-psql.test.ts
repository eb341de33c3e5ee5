/**
 * The seed loader against psql, class by class: each file, SQL of
 * our own, is loaded through the bundled action (Node 24, emulator,
 * PostgreSQL 17) and by `psql -X -v ON_ERROR_STOP=1 -1` into a fresh database
 * of a second PostgreSQL 17 as a non-superuser owner; then both databases are
 * compared (bench/snapshot.ts: rows per table by count and md5, columns with
 * types and defaults, function bodies, views, indexes, constraints, triggers,
 * sequences, comments, extensions).
 */
import { describe, expect, it } from '@jest/globals'
import { psqlComparison } from '../psql-compare.js'

const { loadBoth, expectSameAsPsql, q } = psqlComparison()

describe('the loader loads what psql loads, byte for byte', () => {
  it('1. a file that declares SET client_encoding = LATIN1: defaults, function bodies, comments, INSERT and COPY keep every character', async () => {
    const text = [
      "SET client_encoding = 'LATIN1';",
      "CREATE TABLE café (id int PRIMARY KEY, name text DEFAULT 'señor', note text);",
      "COMMENT ON TABLE café IS 'Información: ¿qué?';",
      "CREATE FUNCTION saludo() RETURNS text LANGUAGE sql AS $$ SELECT 'olá, ¿qué tal? ÿ' $$;",
      "INSERT INTO café (id, note) VALUES (1, 'naïve über');",
      'COPY café (id, name, note) FROM stdin;',
      '2\tJosé\tAçaí',
      '\\.',
      ''
    ].join('\n')
    const both = await expectSameAsPsql([['latin1.sql', Buffer.from(text, 'latin1')]])
    expect(await q(both, 'SELECT name, note, saludo() AS s FROM café ORDER BY id')).toEqual([
      { name: 'señor', note: 'naïve über', s: 'olá, ¿qué tal? ÿ' },
      { name: 'José', note: 'Açaí', s: 'olá, ¿qué tal? ÿ' }
    ])
    expect(await q(both, "SELECT obj_description('café'::regclass) AS d")).toEqual([{ d: 'Información: ¿qué?' }])
  })

  it('1. Latin-1 bytes in a file that declares no encoding: refused by the server as psql is, nothing kept', async () => {
    const both = await loadBoth([['undeclared.sql', Buffer.from("CREATE TABLE t (v text);\nINSERT INTO t VALUES ('señor');\n", 'latin1')]])
    expect(both.psql.ok).toBe(false)
    expect(both.psql.stderr).toContain('invalid byte sequence for encoding "UTF8": 0xf1')
    expect(both.ours.code).toBe(1)
    expect(both.ours.errors[0]).toMatch(/Seed failed at undeclared\.sql:2:\d+: invalid byte sequence for encoding "UTF8": 0xf1.*Nothing was kept/)
    expect(await q(both, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([{ n: 0 }])
  })

  it('2. SQL-standard function bodies (BEGIN ATOMIC … END, with CASE … END inside) are not split at their semicolons', async () => {
    const both = await expectSameAsPsql([
      [
        'atomic.sql',
        [
          'CREATE TABLE counter (n int);',
          'INSERT INTO counter VALUES (0);',
          'CREATE FUNCTION sign_of(x int) RETURNS text LANGUAGE sql IMMUTABLE',
          'BEGIN ATOMIC',
          "  SELECT CASE WHEN x > 0 THEN 'positive' WHEN x < 0 THEN 'negative' ELSE 'zero' END;",
          'END;',
          'CREATE OR REPLACE PROCEDURE bump(by_n int) LANGUAGE sql',
          'BEGIN ATOMIC',
          '  UPDATE counter SET n = n + by_n;',
          '  UPDATE counter SET n = n * 2; -- a second statement; inside',
          'END;',
          'CALL bump(5);',
          ''
        ].join('\n')
      ]
    ])
    expect(await q(both, 'SELECT n, sign_of(-3) AS s FROM counter')).toEqual([{ n: 10, s: 'negative' }])
  })

  it("3. SET standard_conforming_strings = off, then 'O\\'Reilly': lexed and parsed with the setting in force", async () => {
    const both = await expectSameAsPsql([
      [
        'escapes.sql',
        [
          'SET standard_conforming_strings = off;',
          'CREATE TABLE people (id int, name text);',
          "INSERT INTO people VALUES (1, 'O\\'Reilly'), (2, 'back\\\\slash; and a semicolon');",
          'SET standard_conforming_strings = on;',
          "INSERT INTO people VALUES (3, 'C:\\path\\n'), (4, 'it''s');",
          ''
        ].join('\n')
      ]
    ])
    expect((await q(both, 'SELECT name FROM people ORDER BY id')).map((r) => r.name)).toEqual(["O'Reilly", 'back\\slash; and a semicolon', 'C:\\path\\n', "it's"])
  })

  it('4. ALTER DEFAULT PRIVILEGES FOR ROLE <missing role> is skipped and counted, like OWNER TO', async () => {
    const files: [string, string][] = [
      [
        'defaults.sql',
        [
          'CREATE TABLE kept (id int);',
          'ALTER DEFAULT PRIVILEGES FOR ROLE app_migrator IN SCHEMA public GRANT SELECT ON TABLES TO app_reader;',
          'ALTER DEFAULT PRIVILEGES FOR ROLE app_migrator REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;',
          'CREATE TABLE after_defaults (id int);',
          ''
        ].join('\n')
      ]
    ]
    // psql stops at the missing role; once the roles exist it loads, and the rest is the same
    const asIs = await loadBoth(files)
    expect(asIs.psql.ok).toBe(false)
    expect(asIs.psql.stderr).toMatch(/role "app_(migrator|reader)" does not exist/)
    const both = await expectSameAsPsql(files, { createRoles: true })
    expect(both.psql.rolesCreated.sort()).toEqual(['app_migrator', 'app_reader'])
    expect(both.ours.stdout).toMatch(/Skipped 2 statement\(s\) that name roles this database does not have \(app_migrator, app_reader\)/)
  })

  it('5. backslashes inside quotes, dollar quotes and comments are statement text, not meta-commands', async () => {
    const both = await expectSameAsPsql([
      [
        'backslashes.sql',
        [
          'CREATE TABLE m (v text);',
          "INSERT INTO m VALUES ('a \\gset b'), (E'tab\\\\there'), ($$ \\echo in dollars $$), ($t$ \\i x $t$); -- \\echo in a comment",
          '/* \\i nothing.sql */ INSERT INTO m VALUES (\'\\\\\');',
          "CREATE FUNCTION f() RETURNS text LANGUAGE plpgsql AS $body$ BEGIN RETURN '\\x'; END $body$;",
          "SELECT 'x' AS \"\\gexec\";",
          ''
        ].join('\n')
      ]
    ])
    expect((await q(both, 'SELECT v FROM m ORDER BY v')).length).toBe(5)
  })

  it('5. a meta-command after a statement on the same line sends it, as psql does (\\gexec runs the rows it returns)', async () => {
    const both = await expectSameAsPsql([['meta.sql', "CREATE TABLE t (id int);\nSELECT 'CREATE TABLE u (id int)' \\gexec\n"]])
    expect(await q(both, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('t', 'u')")).toEqual([{ n: 2 }])
  })

  it('6. BEGIN … COMMIT wrappers, START TRANSACTION … END and a lone trailing COMMIT are ignored with a notice; the seed stays all or nothing', async () => {
    const both = await expectSameAsPsql([
      ['01-begin.sql', 'BEGIN;\nCREATE TABLE w (id int);\nINSERT INTO w VALUES (1);\nCOMMIT;\n'],
      ['02-start.sql', 'START TRANSACTION ISOLATION LEVEL READ COMMITTED;\nINSERT INTO w VALUES (2);\nEND;\n'],
      ['03-lone.sql', 'INSERT INTO w VALUES (3);\nCOMMIT;\n']
    ])
    expect(await q(both, 'SELECT count(*)::int AS n FROM w')).toEqual([{ n: 3 }])
    expect(both.ours.stdout).toMatch(/::notice::Ignored 5 transaction-control statement\(s\) \(BEGIN, START TRANSACTION, COMMIT, END; the first at 01-begin\.sql:1: "BEGIN;"\)/)
  })

  it('7. a file whose last statement has no semicolon ends it there: the next file starts its own statement', async () => {
    const both = await expectSameAsPsql([
      ['V1__init.sql', 'CREATE TABLE v (id int);\nINSERT INTO v VALUES (1)'],
      ['V2__more.sql', 'INSERT INTO v VALUES (2);\nINSERT INTO v VALUES (3) -- no semicolon, a comment after it\n'],
      ['V3__last.sql', '/* only a comment */\n']
    ])
    expect(await q(both, 'SELECT count(*)::int AS n FROM v')).toEqual([{ n: 3 }])
  })

  it('COMMENT ON EXTENSION plpgsql (pg_dump 9.x and 10) is skipped and logged: on a managed database the platform owns plpgsql, and psql stops there', async () => {
    const both = await loadBoth([
      ['old-dump.sql', "CREATE EXTENSION IF NOT EXISTS plpgsql WITH SCHEMA pg_catalog;\nCOMMENT ON EXTENSION plpgsql IS 'PL/pgSQL procedural language';\nCREATE TABLE o (id int);\nCOMMENT ON TABLE o IS 'kept';\n"]
    ])
    expect(both.psql.ok).toBe(false)
    expect(both.psql.stderr).toContain('must be owner of extension plpgsql')
    expect(both.ours.code).toBe(0)
    expect(both.ours.stdout).toMatch(/Skipped old-dump\.sql:2 "COMMENT ON EXTENSION plpgsql IS 'PL\/pgSQL procedural language';": extension plpgsql belongs to the database's platform role/)
    expect(await q(both, "SELECT obj_description('o'::regclass) AS d")).toEqual([{ d: 'kept' }])
  })
})

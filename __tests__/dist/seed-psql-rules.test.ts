/**
 * psql's own rules that decide what a seed's data is: `\if` inside a
 * statement's text, meta-command arguments in a client encoding other than
 * UTF8, psql's built-in variables, and the meta-commands and forms psql
 * accepts (an unset `\if` variable, `\set NAME`, `\COPY`, `\;`, COPY data
 * to the end of the file, `:{?name}`, a value that holds a meta-command,
 * `\q`, output-only settings) or refuses (`\gset` into `?column?`). Each
 * case is loaded through the bundled action and by psql from the same
 * folder, and the databases compared (__tests__/psql-compare.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { psqlComparison } from '../psql-compare.js'

const { loadBoth, expectSameAsPsql, q } = psqlComparison()
const lines = (...l: string[]): string => `${l.join('\n')}\n`

describe('no silent difference in the data', () => {
  it('\\if inside a statement: the text of the inactive branch is dropped, as psql drops it', async () => {
    const both = await expectSameAsPsql([
      [
        'rows.sql',
        lines(
          'CREATE TABLE t (a int, b text);',
          '\\set extra false',
          "INSERT INTO t VALUES (1, 'x')",
          '\\if :extra',
          "  , (2, 'y')",
          '\\endif',
          "  , (3, 'z');",
          'CREATE TABLE picked AS SELECT * FROM t',
          '\\if :extra',
          '  WHERE a = 2',
          '\\else',
          '  WHERE a <> 2',
          '\\endif',
          ';',
          'INSERT INTO t VALUES (4,',
          '\\if true',
          "  'yes'",
          '\\elif true',
          "  'elif'",
          '\\else',
          "  'no'",
          '\\endif',
          ');'
        )
      ]
    ])
    expect(await q(both, 'SELECT a, b FROM t ORDER BY a')).toEqual([
      { a: 1, b: 'x' },
      { a: 3, b: 'z' },
      { a: 4, b: 'yes' }
    ])
    expect((await q(both, 'SELECT a FROM picked ORDER BY a')).map((r) => r.a)).toEqual([1, 3])
  })

  it("meta-command arguments under client_encoding LATIN1 are the file's bytes, as psql keeps them", async () => {
    const latin1 = Buffer.from(
      lines(
        "SET client_encoding = 'LATIN1';",
        'CREATE TABLE l (v text, w text);',
        "\\set label 'café crème'",
        '\\set other déjà',
        "INSERT INTO l VALUES (:'label', :'other');",
        "INSERT INTO l VALUES ('à la', 'x');"
      ),
      'latin1'
    )
    const both = await expectSameAsPsql([['latin1.sql', latin1]])
    expect(await q(both, 'SELECT v, w FROM l ORDER BY w')).toEqual([
      { v: 'café crème', w: 'déjà' },
      { v: 'à la', w: 'x' }
    ])
  })

  it("psql's built-in variables: VERSION_NUM, SERVER_VERSION_NUM, ROW_COUNT, ERROR, SQLSTATE, LAST_ERROR_*, ENCODING, DBNAME, USER, …", async () => {
    const both = await expectSameAsPsql([
      [
        'vars.sql',
        lines(
          'CREATE TABLE v (k text, val text);',
          "INSERT INTO v VALUES ('set', concat_ws(',', :{?VERSION_NUM}, :{?VERSION_NAME}, :{?VERSION}, :{?DBNAME}, :{?USER}, :{?HOST}, :{?PORT}, :{?nope}));",
          "INSERT INTO v VALUES ('psql15+', (:VERSION_NUM >= 150000)::text), ('server', :'SERVER_VERSION_NUM');",
          '\\if :{?SERVER_VERSION_NUM}',
          "  INSERT INTO v VALUES ('branch', 'server version known');",
          '\\endif',
          "INSERT INTO v SELECT 'r' || g, 'x' FROM generate_series(1, 3) g;",
          "INSERT INTO v VALUES ('rowcount', :'ROW_COUNT'), ('error', :'ERROR'), ('sqlstate', :'SQLSTATE');",
          '\\if :ERROR',
          "  INSERT INTO v VALUES ('err', 'true');",
          '\\else',
          "  INSERT INTO v VALUES ('err', 'false');",
          '\\endif',
          "SET client_encoding = 'LATIN1';",
          "INSERT INTO v VALUES ('enc', :'ENCODING'), ('lem', :'LAST_ERROR_MESSAGE'), ('les', :'LAST_ERROR_SQLSTATE');",
          'RESET client_encoding;',
          "INSERT INTO v VALUES ('enc2', :'ENCODING'), ('ac', :'AUTOCOMMIT'), ('fc', :'FETCH_COUNT'), ('verbosity', :'VERBOSITY');",
          'COPY v FROM stdin;',
          'c1\tv1',
          'c2\tv2',
          '\\.',
          "INSERT INTO v VALUES ('copied', :'ROW_COUNT');",
          'SELECT 1 AS one \\gset',
          "INSERT INTO v VALUES ('gset', :'ROW_COUNT');"
        )
      ]
    ])
    const rows = Object.fromEntries((await q(both, 'SELECT k, val FROM v')).map((r) => [r.k, r.val]))
    expect(rows).toMatchObject({
      set: 't,t,t,t,t,t,t,f',
      'psql15+': 'true',
      branch: 'server version known',
      rowcount: '3',
      error: 'false',
      sqlstate: '00000',
      err: 'false',
      enc: 'LATIN1',
      lem: '',
      les: '00000',
      enc2: 'UTF8',
      ac: 'on',
      copied: '2',
      gset: '1'
    })
  })
})

describe('what psql accepts, the loader loads the same way', () => {
  it('\\if on a variable never set is false, with a warning; \\set NAME with no value is empty (on for ON_ERROR_STOP)', async () => {
    const both = await expectSameAsPsql([
      [
        'unset.sql',
        lines(
          'CREATE TABLE u (k text, val text);',
          '\\if :never_set',
          "  INSERT INTO u VALUES ('never', 'then');",
          '\\else',
          "  INSERT INTO u VALUES ('never', 'else');",
          '\\endif',
          '\\set empty',
          '\\set ON_ERROR_STOP',
          "INSERT INTO u VALUES ('empty', :'empty'), ('stop', :'ON_ERROR_STOP');"
        )
      ]
    ])
    expect(both.ours.stdout).toMatch(/unset\.sql:2: \\if: unrecognized value ":never_set" for "\\if expression": Boolean expected/)
    expect(await q(both, 'SELECT k, val FROM u ORDER BY k')).toEqual([
      { k: 'empty', val: '' },
      { k: 'never', val: 'else' },
      { k: 'stop', val: 'on' }
    ])
  })

  it('\\COPY in capitals, \\; inside a statement, and COPY data that runs to the end of its file without \\.', async () => {
    const both = await expectSameAsPsql(
      [
        [
          'main.sql',
          lines(
            'CREATE TABLE c (a int, b text);',
            '\\COPY c FROM stdin',
            '1\tone',
            '\\.',
            "INSERT INTO c VALUES (2, 'two')\\; INSERT INTO c VALUES (3, 'three');",
            '\\i tail.sql',
            "INSERT INTO c VALUES (6, 'after');"
          )
        ],
        ['tail.sql', 'COPY c FROM stdin;\n4\tfour\n5\tfive']
      ],
      {},
      ['main.sql']
    )
    expect((await q(both, 'SELECT b FROM c ORDER BY a')).map((r) => r.b)).toEqual(['one', 'two', 'three', 'four', 'five', 'after'])
  })

  it(':{?name} in SQL, and a variable whose value is a meta-command or several statements (psql re-scans it)', async () => {
    const both = await expectSameAsPsql([
      [
        'rescan.sql',
        lines(
          'CREATE TABLE regions (id int, name text);',
          "\\set load_regions '\\\\copy regions from ''regions.csv'' csv header'",
          ':load_regions',
          "INSERT INTO regions VALUES (3, 'East');",
          "\\set two 'INSERT INTO regions VALUES (4, ''a;b''); INSERT INTO regions VALUES (5, ''W'')'",
          ':two;',
          "INSERT INTO regions VALUES (6, :{?two}::text), (7, :{?missing}::text);"
        )
      ],
      ['regions.csv', 'id,name\n1,North\n2,South\n']
    ], {}, ['rescan.sql'])
    expect((await q(both, 'SELECT name FROM regions ORDER BY id')).map((r) => r.name)).toEqual(['North', 'South', 'East', 'a;b', 'W', 'true', 'false'])
  })

  it('\\q ends its file (the next file still loads); \\t, \\a, \\f, \\C, \\H change only the output and are ignored', async () => {
    const both = await expectSameAsPsql([
      ['a.sql', lines('CREATE TABLE q (a int);', '\\t', '\\a', "\\f ','", '\\C title', '\\H', 'INSERT INTO q VALUES (1);', '\\if true', '  \\q', '\\endif', 'INSERT INTO q VALUES (2);')],
      ['b.sql', lines('INSERT INTO q VALUES (3);')]
    ])
    expect(both.ours.stdout).toContain('Ignored \\C title: it only changes how psql shows results')
    expect((await q(both, 'SELECT a FROM q ORDER BY a')).map((r) => r.a)).toEqual([1, 3])
  })
})

describe('what psql refuses, the loader refuses at the same file and line', () => {
  it('\\gset into a column without a usable name (?column?) stops with "invalid variable name"', async () => {
    const both = await loadBoth([['g.sql', lines('CREATE TABLE g (a int);', 'SELECT 1 AS a, 2 \\gset', 'INSERT INTO g VALUES (:a);')]])
    expect(both.psql.ok).toBe(false)
    expect(both.psql.stderr).toContain('g.sql:2: error: invalid variable name: "?column?"')
    expect(both.ours.code).toBe(1)
    expect(both.ours.errors[0]).toMatch(/Seed failed at g\.sql:2: \\gset: invalid variable name: "\?column\?".*Nothing was kept/)
    expect(await q(both, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'g'")).toEqual([{ n: 0 }])
  })
})

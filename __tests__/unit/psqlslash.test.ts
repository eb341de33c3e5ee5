/**
 * psql's backslash-command rules (src/psql/psqlslash.ts) against what psql 17
 * does with the same text (psqlscanslash.l, variables.c, copy.c).
 */
import { describe, expect, it } from '@jest/globals'
import {
  UNKNOWN,
  byteText,
  interpolate,
  parseBool,
  parseSlashCopy,
  quoteLiteral,
  slashCommand,
  slashOptions
} from '../../src/psql/psqlslash.js'

const vars: Record<string, string> = { t: 'my table', q: "O'Brien", b: 'a\\b', n: '42' }
const lookup = (name: string) => vars[name]

describe('psql backslash commands', () => {
  it('end at an unquoted backslash: \\\\ is eaten and SQL goes on; another backslash starts the next command', () => {
    expect(slashCommand('\\echo a b')).toEqual({ command: 'echo', args: 'a b', resume: -1 })
    expect(slashCommand('\\echo a \\\\ SELECT 1;')).toEqual({ command: 'echo', args: 'a', resume: 10 })
    expect(slashCommand('\\echo a \\echo b')).toEqual({ command: 'echo', args: 'a', resume: 8 })
    expect(slashCommand("\\echo 'a \\\\ b' \\\\ x")).toMatchObject({ args: "'a \\\\ b'", resume: 17 })
    expect(slashCommand("\\echo :'q' x")).toMatchObject({ args: ":'q' x", resume: -1 })
    expect(slashCommand('\\copy t from stdin \\\\ x')).toEqual({ command: 'copy', args: 't from stdin \\\\ x', resume: -1 })
    expect(slashCommand('\\i\\echo x')).toMatchObject({ command: 'i', args: '', resume: 2 })
  })

  it('read arguments as psql does: \'…\' loses its quotes and takes escapes, "…" keeps them, variables are filled in', () => {
    expect(slashOptions("a 'b c' 'it''s' 'tab\\tx\\101\\x41' \"Q d\" :n :'q' :\"t\" :{?n} :{?zz} :zz", lookup).options).toEqual([
      'a',
      'b c',
      "it's",
      'tab\txAA',
      '"Q d"',
      '42',
      "'O''Brien'",
      '"my table"',
      'TRUE',
      'FALSE',
      ':zz'
    ])
    expect(slashOptions("x:n'y'", lookup).options).toEqual(['x42y'])
    expect(slashOptions('`date`', lookup).backtick).toBe(true)
    expect(slashOptions(':later', () => UNKNOWN).unknown).toBe(true)
  })

  it('quote literals as PQescapeLiteral does', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'")
    expect(quoteLiteral('a\\b')).toBe(" E'a\\\\b'")
  })

  it('take booleans as ParseVariableBool does', () => {
    for (const v of ['true', 'TR', 't', 'yes', 'Y', 'on', 'ON', '1']) expect([v, parseBool(v)]).toEqual([v, true])
    for (const v of ['false', 'f', 'no', 'n', 'off', 'OF', '0']) expect([v, parseBool(v)]).toEqual([v, false])
    for (const v of ['', 'o', 'maybe', '2', 'truee', 'onn']) expect([v, parseBool(v)]).toEqual([v, undefined])
  })

  it('read \\copy as copy.c does: table or query, from/to, the file or stdin, the options as written', () => {
    expect(parseSlashCopy("person (id, name) FROM 'data/p.csv' WITH (FORMAT csv, HEADER)")).toEqual({
      direction: 'from',
      target: 'file',
      file: 'data/p.csv',
      sql: 'COPY person (id, name) FROM STDIN WITH (FORMAT csv, HEADER)'
    })
    expect(parseSlashCopy("t from 'it''s.csv'")).toMatchObject({ file: "it's.csv" })
    expect(parseSlashCopy('"from" from data.csv csv header')).toEqual({
      direction: 'from',
      target: 'file',
      file: 'data.csv',
      sql: 'COPY "from" FROM STDIN csv header'
    })
    expect(parseSlashCopy('t from pstdin')).toMatchObject({ target: 'pstdin', sql: 'COPY t FROM STDIN' })
    expect(parseSlashCopy('(select 1 from x) to stdout')).toMatchObject({ direction: 'to', target: 'stdout' })
    expect(parseSlashCopy("t from program 'gunzip -c x.gz'")).toMatchObject({ target: 'program' })
    expect(parseSlashCopy('t')).toBeUndefined()
  })

  it('fill variables into SQL outside quotes, comments and dollar quotes; leave unset ones as written', () => {
    const sql = "SELECT :n, :'q', :\"t\", ':n', $$:n$$, x::int, :zz -- :n\n;"
    expect(interpolate(Buffer.from(sql), true, lookup).toString()).toBe(
      "SELECT 42, 'O''Brien', \"my table\", ':n', $$:n$$, x::int, :zz -- :n\n;"
    )
    expect(interpolate(Buffer.from("SELECT :'b';"), true, lookup).toString()).toBe("SELECT  E'a\\\\b';")
    const same = Buffer.from('SELECT :zz;')
    expect(interpolate(same, true, lookup)).toBe(same)
  })

  it(':{?name} is TRUE or FALSE; values are bytes in any client encoding; \\COPY is \\copy', () => {
    expect(interpolate(Buffer.from("SELECT :{?n}, :{?zz}, ':{?n}';"), true, lookup).toString()).toBe("SELECT TRUE, FALSE, ':{?n}';")
    // 0xE9 is é in LATIN1: the value goes out as the same byte, whatever the encoding
    const latin1 = Buffer.from([0x27, 0x63, 0x61, 0x66, 0xe9, 0x27])
    const value = slashOptions(byteText(latin1), () => undefined).options[0]
    expect(interpolate(Buffer.from("SELECT :'v';"), true, () => value)).toEqual(
      Buffer.concat([Buffer.from("SELECT 'caf"), Buffer.from([0xe9]), Buffer.from("';")])
    )
    // 0xA0 ends a UTF-8 letter (à is C3 A0): it is not whitespace to psql
    expect(slashCommand(byteText(Buffer.from('\\set x à'))).args).toBe(byteText(Buffer.from('x à')))
    expect(slashCommand('\\COPY t FROM stdin').command).toBe('copy')
  })
})

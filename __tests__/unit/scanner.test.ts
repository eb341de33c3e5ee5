/**
 * The seed scanner reads bytes, not lines: whatever the read size, it must
 * yield the same statements, meta-commands and COPY bytes, at the same lines.
 * The dumps are real pg_dump output of data we generate
 * (__tests__/fixtures/generate.ts), made by this machine's pg_dump.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { classify, loadGrammar } from '../../src/seed/grammar.js'
import { exactStatement } from '../../src/seed/rescan.js'
import { type CopyDataMode, type ScanEvent, type StatementEvent, scanFile, statementHead } from '../../src/psql/scanner.js'
import { TABLES_QUERY, generateDump } from '../fixtures/generate.js'
import { DumpSource } from '../pg-dump-source.js'

const dumps = mkdtempSync(path.join(os.tmpdir(), 'scanner-dumps-'))
/** A dump of about 4 MiB (7 COPY blocks, about 50,000 rows), and one of about 60 KiB for one-byte reads. */
const LARGE = path.join(dumps, 'large.sql')
const SMALL = path.join(dumps, 'small.sql')
/** Rows per table in the source of each dump (`schema.table` → count). */
const sourceRows: Record<string, Map<string, number>> = {}

beforeAll(async () => {
  const source = await DumpSource.start()
  try {
    for (const [file, scale] of [
      [LARGE, 2800],
      [SMALL, 30]
    ] as const) {
      const db = path.basename(file, '.sql')
      generateDump(source, db, scale, file)
      const rows = new Map<string, number>()
      for (const table of source.query(db, TABLES_QUERY)) rows.set(table, Number(source.query(db, `SELECT count(*) FROM ONLY ${table}`)[0]))
      sourceRows[file] = rows
    }
  } finally {
    await source.stop()
  }
})
afterAll(() => rmSync(dumps, { recursive: true, force: true }))

/** Events with each COPY block's data joined, so read sizes that cut it differently compare equal. */
async function normalized(file: string, readChunkBytes?: number, copyData: CopyDataMode = 'lines'): Promise<unknown[]> {
  const out: unknown[] = []
  let copy: { firstLine: number; lines: number; data: Buffer[] } | null = null
  for await (const ev of scanFile(file, { readChunkBytes, copyData }) as AsyncGenerator<ScanEvent>) {
    if (ev.kind === 'copy-data') {
      copy ??= { firstLine: ev.firstLine, lines: 0, data: [] }
      copy.lines += ev.lines
      copy.data.push(ev.data)
      continue
    }
    if (copy) {
      out.push({ kind: 'copy', firstLine: copy.firstLine, lines: copy.lines, data: Buffer.concat(copy.data).toString('latin1') })
      copy = null
    }
    out.push(ev)
  }
  return out
}

const TRICKY = [
  '-- café ☕ in a comment',
  "INSERT INTO t VALUES ('é;😀');\r",
  'COPY t (a, b) FROM stdin;',
  'one\t\\N\r',
  'two\\\\\tñ 😀',
  '\\.',
  '\\restrict abc\r',
  'SELECT $x$ ; $x$;',
  'COPY u FROM stdin;',
  '\\.\r',
  'SELECT 1; SELECT',
  '2;',
  'COPY v FROM stdin;',
  'last',
  '\\.'
].join('\n')

describe('scanFile', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scanner-'))
  const tricky = path.join(dir, 'tricky.sql')
  writeFileSync(tricky, TRICKY)

  it('yields the same events at every read size, down to one byte (UTF-8, CRLF, \\. at the end with no newline)', async () => {
    const reference = await normalized(tricky)
    expect(reference.map((e) => (e as { kind: string }).kind)).toEqual([
      'statement',
      'statement',
      'copy',
      'copy-end',
      'meta',
      'statement',
      'statement',
      'copy-end',
      'statement',
      'statement',
      'statement',
      'copy',
      'copy-end'
    ])
    expect(reference[2]).toEqual({
      kind: 'copy',
      firstLine: 4,
      lines: 2,
      data: Buffer.from('one\t\\N\r\ntwo\\\\\tñ 😀\n').toString('latin1')
    })
    expect(reference[0]).toMatchObject({ sql: "-- café ☕ in a comment\nINSERT INTO t VALUES ('é;😀');", line: 1, column: 1 })
    expect(reference[4]).toMatchObject({ kind: 'meta', command: 'restrict', args: 'abc', line: 7 })
    expect(reference[3]).toEqual({ kind: 'copy-end', line: 6 })
    expect(reference[9]).toMatchObject({ sql: ' SELECT\n2;', line: 11, column: 10 })
    expect(reference[7]).toEqual({ kind: 'copy-end', line: 10 })
    expect(reference[11]).toEqual({ kind: 'copy', firstLine: 14, lines: 1, data: 'last\n' })
    for (const size of [1, 2, 3, 5, 7, 64]) expect([size, await normalized(tricky, size)]).toEqual([size, reference])
  })

  it.each([
    ['small', SMALL, [1, 2, 3, 7, 64, 4096]],
    ['large', LARGE, [4096, 65536, 1 << 20]]
  ])('hands on every COPY block of a generated pg_dump (%s) byte for byte, at its line, whatever the read size', async (_, file, sizes) => {
    const lines = readFileSync(file, 'latin1').split('\n')
    const expected: { firstLine: number; lines: number; data: string }[] = []
    const rows = new Map<string, number>()
    for (let i = 0; i < lines.length; i++) {
      const m = /^COPY (\S+) .* FROM stdin;$/.exec(lines[i])
      if (!m) continue
      const first = i + 2
      let j = i + 1
      while (lines[j] !== '\\.') j++
      expected.push({
        firstLine: first,
        lines: j - i - 1,
        data: lines
          .slice(i + 1, j)
          .map((l) => l + '\n')
          .join('')
      })
      rows.set(m[1], j - i - 1)
      i = j
    }
    // every table of the source, with its row count, is in the dump's COPY blocks
    expect(rows).toEqual(sourceRows[file])
    expect(expected).toHaveLength(7)
    for (const size of sizes) {
      const got = (await normalized(file, size)).filter((e) => (e as { kind: string }).kind === 'copy')
      expect([size, got]).toEqual([size, expected.map((e) => ({ kind: 'copy', ...e }))])
    }
  })

  /** Events without line numbers (and COPY blocks without their line counts), for comparing modes. */
  const withoutLines = (evs: unknown[]): unknown[] =>
    evs.map((e) => {
      const ev = e as { kind: string }
      return ev.kind === 'copy' ? { ...ev, firstLine: 0, lines: 0 } : 'line' in ev ? { ...ev, line: 0 } : ev
    })

  it("in 'skip' mode, yields the same statements and meta-commands, and no COPY data, at every read size", async () => {
    const noCopy = (evs: unknown[]): unknown[] => withoutLines(evs).filter((e) => (e as { kind: string }).kind !== 'copy')
    const reference = noCopy(await normalized(tricky))
    for (const size of [1, 2, 3, 5, 7, 64, 1 << 20]) {
      const fast = await normalized(tricky, size, 'skip')
      expect(fast.some((e) => (e as { kind: string }).kind === 'copy')).toBe(false)
      expect([size, withoutLines(fast)]).toEqual([size, reference])
    }
    for (const file of [SMALL, LARGE]) expect(noCopy(await normalized(file, 4096, 'skip'))).toEqual(noCopy(await normalized(file)))
  })

  it("in 'bytes' mode, hands on every COPY block byte for byte and the same statements, at every read size", async () => {
    const reference = withoutLines(await normalized(tricky))
    for (const size of [1, 2, 3, 5, 7, 64, 1 << 20])
      expect([size, withoutLines(await normalized(tricky, size, 'bytes'))]).toEqual([size, reference])
    for (const size of [1, 7, 4096])
      expect(withoutLines(await normalized(SMALL, size, 'bytes'))).toEqual(withoutLines(await normalized(SMALL)))
    for (const size of [4096, 1 << 20])
      expect(withoutLines(await normalized(LARGE, size, 'bytes'))).toEqual(withoutLines(await normalized(LARGE)))
  })

  it('exactStatement finds, by its index from any mode, a statement at its exact line and column, and where its COPY data starts', async () => {
    for (const file of [tricky, SMALL, LARGE]) {
      const exact = await normalized(file)
      const fast = (await normalized(file, 4096, 'bytes')).filter((e): e is StatementEvent => (e as { kind: string }).kind === 'statement')
      expect(fast.length).toBeGreaterThan(3)
      // the large dump: every COPY statement, every statement after the last COPY block, and every 10th other one (each rescan reads the file)
      const lastCopy = fast.filter((ev) => ev.copyFromStdin).at(-1)?.index ?? 0
      const sample = file === LARGE ? fast.filter((ev) => ev.copyFromStdin || ev.index > lastCopy || ev.index % 10 === 0) : fast
      for (const ev of sample) {
        const at = exact.findIndex((e) => (e as StatementEvent).kind === 'statement' && (e as StatementEvent).index === ev.index)
        const next = exact[at + 1] as { kind: string; firstLine?: number; line?: number }
        const found = await exactStatement(file, ev.index)
        expect(found.statement).toEqual(exact[at])
        expect(found.copyDataLine).toBe(ev.copyFromStdin ? (next.kind === 'copy' ? next.firstLine : next.line) : undefined)
      }
    }
    // after the first COPY block the fast pass lags, which is why exactStatement exists
    const lagging = (await normalized(LARGE, 4096, 'bytes'))
      .filter((e) => (e as { kind: string }).kind === 'statement')
      .at(-1) as StatementEvent
    expect((await exactStatement(LARGE, lagging.index)).statement.line).toBeGreaterThan(lagging.line)
    await expect(exactStatement(tricky, 999)).rejects.toThrow(/statement 1000 not found on rescan/)
  })

  it('ends a COPY block with no \\. line at the end of its file, as psql does', async () => {
    const file = path.join(dir, 'open.sql')
    writeFileSync(file, 'SELECT 1;\nCOPY t FROM stdin;\na\nb')
    const events = (await normalized(file, 3)) as { kind: string; data?: string }[]
    expect(events.map((e) => e.kind)).toEqual(['statement', 'statement', 'copy', 'copy-end'])
    expect(events[2].data).toBe('a\nb')
  })
})

describe('splitting as psql splits (psqlscan.l rules)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'psqlscan-'))
  /** The statements (text from their first keyword, trimmed) and meta-commands of `text`, lexed with the grammar's help. */
  async function split(text: string): Promise<string[]> {
    const file = path.join(dir, `f${Math.random().toString(36).slice(2)}.sql`)
    writeFileSync(file, text)
    await loadGrammar()
    const out: string[] = []
    for (const size of [1, 3, 1 << 20]) {
      const got: string[] = []
      for await (const ev of scanFile(file, { classify, readChunkBytes: size })) {
        if (ev.kind === 'statement') got.push(`${ev.terminated ? '' : '(no ;) '}${statementHead(ev.sql).trim()}`)
        if (ev.kind === 'meta') got.push(`\\${ev.command} ${ev.args}`.trim())
      }
      if (size === 1) out.push(...got)
      else expect(got).toEqual(out)
    }
    return out
  }

  it('keeps BEGIN ATOMIC … END (and CASE … END in it) whole, and parentheses', async () => {
    expect(
      await split(
        'CREATE OR REPLACE FUNCTION f(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN x > 0 THEN 1 END; SELECT 2; END;\n' +
          'CREATE RULE r AS ON INSERT TO t DO ALSO (INSERT INTO u VALUES (1); INSERT INTO u VALUES (2));\n' +
          'BEGIN; END;\n'
      )
    ).toEqual([
      'CREATE OR REPLACE FUNCTION f(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN x > 0 THEN 1 END; SELECT 2; END;',
      'CREATE RULE r AS ON INSERT TO t DO ALSO (INSERT INTO u VALUES (1); INSERT INTO u VALUES (2));',
      'BEGIN;',
      'END;'
    ])
  })

  it('follows SET standard_conforming_strings in the file', async () => {
    expect(
      await split(
        "SET standard_conforming_strings = off;\nSELECT 'a\\'; b';\nSET standard_conforming_strings TO on;\nSELECT 'c\\'; SELECT 'd';\n"
      )
    ).toEqual([
      'SET standard_conforming_strings = off;',
      "SELECT 'a\\'; b';",
      'SET standard_conforming_strings TO on;',
      "SELECT 'c\\';",
      "SELECT 'd';"
    ])
  })

  it('finds meta-commands anywhere outside quotes and comments, and not inside them', async () => {
    expect(
      await split(
        "SELECT 1 \\gset\nSELECT 'x\\y', $$\\z$$ /* \\c */ -- \\d\n;\nSELECT 2; \\echo a \\\\ SELECT 3;\nSELECT 4 \\; SELECT 5;\n"
      )
    ).toEqual([
      // \\gset sends the statement before it, as `;` would
      'SELECT 1',
      '\\gset',
      "SELECT 'x\\y', $$\\z$$ /* \\c */ -- \\d\n;",
      'SELECT 2;',
      '\\echo a',
      'SELECT 3;',
      // psql sends `\;` as a `;` that does not end the statement
      'SELECT 4 ; SELECT 5;'
    ])
  })

  it('notes psql variables outside quotes, and takes their quotes for no string quotes', async () => {
    const file = path.join(dir, 'vars.sql')
    writeFileSync(file, "SELECT a[1:2], x::text, :'DBNAME', :\"USER\", :ENCODING, ':DBNAME', $$:HOST$$; -- :PORT\nSELECT 'a;b';\n")
    const got: unknown[] = []
    for await (const ev of scanFile(file)) if (ev.kind === 'statement') got.push([statementHead(ev.sql).trim(), ev.psqlVariables])
    expect(got).toEqual([
      ["SELECT a[1:2], x::text, :'DBNAME', :\"USER\", :ENCODING, ':DBNAME', $$:HOST$$;", [':2', ":'DBNAME'", ':"USER"', ':ENCODING']],
      ["SELECT 'a;b';", undefined]
    ])
  })

  it("ends a file's last statement at the end of the file, without a semicolon", async () => {
    expect(await split('SELECT 1;\nSELECT 2 -- no semicolon\n-- trailing comment\n')).toEqual([
      'SELECT 1;',
      '(no ;) SELECT 2 -- no semicolon\n-- trailing comment'
    ])
    expect(await split('SELECT 1;\n-- only a comment\n')).toEqual(['SELECT 1;'])
  })
})

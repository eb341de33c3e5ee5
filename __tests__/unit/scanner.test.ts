/**
 * The seed scanner reads bytes, not lines: whatever the read size, it must
 * yield the same statements, meta-commands and COPY bytes, at the same lines.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type CopyDataMode, type ScanEvent, type StatementEvent, exactStatement, scanFile } from '../../src/seed/scanner.js'

const PAGILA_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/pagila/pagila-data.sql')

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
  '\\restrict abc',
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
      'statement', 'statement', 'copy', 'copy-end', 'meta', 'statement', 'statement', 'copy-end', 'statement', 'statement', 'statement', 'copy', 'copy-end'
    ])
    expect(reference[2]).toEqual({ kind: 'copy', firstLine: 4, lines: 2, data: Buffer.from('one\t\\N\r\ntwo\\\\\tñ 😀\n').toString('latin1') })
    expect(reference[0]).toMatchObject({ sql: "-- café ☕ in a comment\nINSERT INTO t VALUES ('é;😀');", line: 1, column: 1 })
    expect(reference[3]).toEqual({ kind: 'copy-end', line: 6 })
    expect(reference[9]).toMatchObject({ sql: ' SELECT\n2;', line: 11, column: 10 })
    expect(reference[7]).toEqual({ kind: 'copy-end', line: 10 })
    expect(reference[11]).toEqual({ kind: 'copy', firstLine: 14, lines: 1, data: 'last\n' })
    for (const size of [1, 2, 3, 5, 7, 64]) expect([size, await normalized(tricky, size)]).toEqual([size, reference])
  })

  it('hands on every COPY block of pagila byte for byte, at its line, whatever the read size', async () => {
    const lines = readFileSync(PAGILA_DATA, 'latin1').split('\n')
    const expected: { firstLine: number; lines: number; data: string }[] = []
    for (let i = 0; i < lines.length; i++) {
      if (!/^COPY .* FROM stdin;$/.test(lines[i])) continue
      const first = i + 2
      let j = i + 1
      while (lines[j] !== '\\.') j++
      expected.push({ firstLine: first, lines: j - i - 1, data: lines.slice(i + 1, j).map((l) => l + '\n').join('') })
      i = j
    }
    expect(expected).toHaveLength(21)
    for (const size of [4096, 1 << 20]) {
      const got = (await normalized(PAGILA_DATA, size)).filter((e) => (e as { kind: string }).kind === 'copy')
      expect(got).toEqual(expected.map((e) => ({ kind: 'copy', ...e })))
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
    expect(noCopy(await normalized(PAGILA_DATA, 4096, 'skip'))).toEqual(noCopy(await normalized(PAGILA_DATA)))
  })

  it("in 'bytes' mode, hands on every COPY block byte for byte and the same statements, at every read size", async () => {
    const reference = withoutLines(await normalized(tricky))
    for (const size of [1, 2, 3, 5, 7, 64, 1 << 20]) expect([size, withoutLines(await normalized(tricky, size, 'bytes'))]).toEqual([size, reference])
    for (const size of [4096, 1 << 20]) {
      expect(withoutLines(await normalized(PAGILA_DATA, size, 'bytes'))).toEqual(withoutLines(await normalized(PAGILA_DATA)))
    }
  })

  it('exactStatement finds, by its index from any mode, a statement at its exact line and column, and where its COPY data starts', async () => {
    for (const file of [tricky, PAGILA_DATA]) {
      const exact = await normalized(file)
      const fast = (await normalized(file, 4096, 'bytes')).filter((e): e is StatementEvent => (e as { kind: string }).kind === 'statement')
      expect(fast.length).toBeGreaterThan(3)
      for (const ev of fast) {
        const at = exact.findIndex((e) => (e as StatementEvent).index === ev.index)
        const next = exact[at + 1] as { kind: string; firstLine?: number; line?: number }
        const found = await exactStatement(file, ev.index)
        expect(found.statement).toEqual(exact[at])
        expect(found.copyDataLine).toBe(ev.copyFromStdin ? (next.kind === 'copy' ? next.firstLine : next.line) : undefined)
      }
    }
    // after the first COPY block the fast pass lags, which is why exactStatement exists
    const lagging = (await normalized(PAGILA_DATA, 4096, 'bytes')).filter((e) => (e as { kind: string }).kind === 'statement').at(-1) as StatementEvent
    expect((await exactStatement(PAGILA_DATA, lagging.index)).statement.line).toBeGreaterThan(lagging.line)
    await expect(exactStatement(tricky, 999)).rejects.toThrow(/statement 1000 not found on rescan/)
  })

  it('fails on a COPY block with no \\. line, naming the line it started on', async () => {
    const file = path.join(dir, 'open.sql')
    writeFileSync(file, 'SELECT 1;\nCOPY t FROM stdin;\na\nb\n')
    await expect(normalized(file, 3)).rejects.toThrow(/COPY block started at line 2 has no terminating "\\\." line/)
  })
})

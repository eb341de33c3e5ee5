/**
 * Streams a SQL file into what psql would act on: statements split as
 * PostgreSQL splits them (the `postgres-semicolons` lexer: quoted strings,
 * `E''` strings, dollar quotes, nested comments), `COPY … FROM stdin` data up
 * to `\.`, and backslash meta-commands. Memory holds one pending statement
 * and one chunk of COPY data, whatever the file's size.
 */
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseSplits } from 'postgres-semicolons'

/** A statement with the 1-based line and column of its first character (which may be whitespace or a comment). */
export interface StatementEvent {
  kind: 'statement'
  /** Raw text from the end of the previous statement through its `;`. */
  sql: string
  line: number
  column: number
  /** A `COPY … FROM stdin` statement: `copy-data` events follow until `copy-end`. */
  copyFromStdin: boolean
}

/** Lines of COPY data, each ending in `\n`, exactly as in the file. */
export interface CopyDataEvent {
  kind: 'copy-data'
  text: string
  /** File line of the first line in `text`. */
  firstLine: number
  lines: number
}

export interface CopyEndEvent {
  kind: 'copy-end'
  line: number
}

/** A psql meta-command such as `\restrict KEY`. */
export interface MetaEvent {
  kind: 'meta'
  command: string
  args: string
  line: number
}

export type ScanEvent = StatementEvent | CopyDataEvent | CopyEndEvent | MetaEvent

/** COPY data lines sent per chunk. */
const COPY_CHUNK_LINES = 1000

/** The first keyword-bearing text of a statement: leading whitespace and comments removed. */
export function statementHead(sql: string): string {
  let s = sql
  for (;;) {
    const t = s.replace(/^\s+/, '')
    if (t.startsWith('--')) {
      const nl = t.indexOf('\n')
      s = nl < 0 ? '' : t.slice(nl + 1)
    } else if (t.startsWith('/*')) {
      let depth = 0
      let i = 0
      for (; i < t.length; i++) {
        if (t.startsWith('/*', i)) { depth++; i++ } else if (t.startsWith('*/', i)) { depth--; i++; if (depth === 0) break }
      }
      s = t.slice(i + 1)
    } else {
      return t
    }
  }
}

const COPY_FROM_STDIN = /^COPY\b[\s\S]*\bFROM\s+STDIN\b/i

/** True when text holds only whitespace and `--` comment lines. */
const blank = (text: string): boolean => /^(\s*(--[^\n]*)?\n?)*$/.test(text)

/**
 * Reads `file` and yields its events in order.
 * @throws Error for a COPY block that never ends (no `\.`).
 */
export async function* scanFile(file: string, standardConformingStrings = true): AsyncGenerator<ScanEvent> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })
  let pending = ''
  let pendingLine = 1
  let pendingCol = 1
  let lineNo = 0
  let copy: { chunk: string[]; first: number } | null = null

  for await (const line of lines) {
    lineNo++
    if (copy) {
      if (line === '\\.') {
        if (copy.chunk.length) yield { kind: 'copy-data', text: copy.chunk.join('\n') + '\n', firstLine: copy.first, lines: copy.chunk.length }
        yield { kind: 'copy-end', line: lineNo }
        copy = null
        continue
      }
      if (copy.chunk.length === 0) copy.first = lineNo
      copy.chunk.push(line)
      if (copy.chunk.length >= COPY_CHUNK_LINES) {
        yield { kind: 'copy-data', text: copy.chunk.join('\n') + '\n', firstLine: copy.first, lines: copy.chunk.length }
        copy.chunk = []
      }
      continue
    }
    // As in psql, a backslash outside a quoted string or comment starts a meta-command, even mid-statement.
    if (line.startsWith('\\') && (blank(pending) || !parseSplits(pending, standardConformingStrings).unterminated)) {
      const m = /^\\(\S*)\s*(.*)$/.exec(line)!
      yield { kind: 'meta', command: m[1], args: m[2].trim(), line: lineNo }
      if (blank(pending)) pending = ''
      continue
    }
    if (pending === '') {
      pendingLine = lineNo
      pendingCol = 1
    }
    pending += line + '\n'
    if (!line.includes(';')) continue
    const splits = parseSplits(pending, standardConformingStrings)
    if (splits.unterminated) continue
    let start = 0
    let line0 = pendingLine
    let col0 = pendingCol
    for (const p of splits.positions) {
      if (typeof p !== 'number') continue
      const sql = pending.slice(start, p + 1)
      const isCopy = COPY_FROM_STDIN.test(statementHead(sql))
      if (sql.trim() !== ';') yield { kind: 'statement', sql, line: line0, column: col0, copyFromStdin: isCopy }
      // advance the position past this statement
      const nl = sql.split('\n')
      line0 += nl.length - 1
      col0 = nl.length > 1 ? nl[nl.length - 1].length + 1 : col0 + sql.length
      start = p + 1
      if (isCopy) {
        copy = { chunk: [], first: lineNo + 1 }
        break
      }
    }
    pending = copy || blank(pending.slice(start)) ? '' : pending.slice(start)
    pendingLine = line0
    pendingCol = col0
  }
  if (copy) throw new Error(`${file}: the COPY block started before line ${copy.first} has no terminating "\\." line.`)
  if (!blank(pending) && statementHead(pending) !== '') {
    yield { kind: 'statement', sql: pending, line: pendingLine, column: pendingCol, copyFromStdin: false }
  }
}

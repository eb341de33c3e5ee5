/**
 * Streams a SQL file into what psql would act on: statements split as
 * PostgreSQL splits them (the `postgres-semicolons` lexer: quoted strings,
 * `E''` strings, dollar quotes, nested comments), `COPY … FROM stdin` data up
 * to `\.`, and backslash meta-commands. Memory holds two read chunks (one
 * read ahead), one pending statement and one chunk of COPY data, whatever the
 * file's size.
 */
import { open } from 'node:fs/promises'
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
  /** 0-based ordinal among the file's statements, the same in every {@link CopyDataMode}: see {@link exactStatement}. */
  index: number
}

/**
 * COPY data, the file's bytes as they are. In `lines` mode whole lines, each
 * with its newline; in `bytes` mode any cut of the block (the server's COPY
 * reads a byte stream, so a row may span two events).
 */
export interface CopyDataEvent {
  kind: 'copy-data'
  data: Buffer
  /** File line of the first line in `data`; 0 unless the mode is `lines`. */
  firstLine: number
  /** Lines in `data`; 0 unless the mode is `lines`. */
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

/** Bytes read from the file at a time: events of `lines` and `bytes` mode hold slices of each read. */
const READ_CHUNK_BYTES = 1 << 20
/** The same in `skip` mode, which keeps nothing of a read, so two buffers serve every read. */
const SKIP_READ_CHUNK_BYTES = 4 << 20
/** COPY data handed on per event, at most (bytes; a longer single row is handed on whole). */
const COPY_CHUNK_BYTES = 1 << 18

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
 * How scanFile treats COPY data:
 * - `lines`: whole lines, counted, so every event carries its exact file line;
 * - `bytes`: the block's bytes in slices of the read buffer, found by looking
 *   only for the `\.` line (nothing per row: the load pass, where the row count
 *   comes from the server);
 * - `skip`: not handed on at all (the check pass).
 *
 * In `bytes` and `skip` modes, lines after a file's first COPY block lag (its
 * data lines are not counted); {@link exactStatement} finds the exact ones.
 */
export type CopyDataMode = 'lines' | 'bytes' | 'skip'

/** Options of scanFile. */
export interface ScanOptions {
  /** As the server setting; true for every supported server. */
  standardConformingStrings?: boolean
  /** Read size in bytes (tests make it tiny to cross every boundary). */
  readChunkBytes?: number
  /** Default `lines`. */
  copyData?: CopyDataMode
}

/**
 * Reads `file` and yields its events in order. COPY data is handed on as the
 * file's own bytes (CR, tabs, backslashes and `\N` untouched, as psql sends
 * them), never split into per-line strings; only statement lines are decoded.
 * @throws Error for a COPY block that never ends (no `\.`).
 */
export async function* scanFile(file: string, options: ScanOptions = {}): AsyncGenerator<ScanEvent> {
  const mode = options.copyData ?? 'lines'
  const scanner = new Scanner(file, options.standardConformingStrings ?? true, mode)
  const size = options.readChunkBytes ?? (mode === 'skip' ? SKIP_READ_CHUNK_BYTES : READ_CHUNK_BYTES)
  // Events of `lines` and `bytes` mode hand on slices of what was read, so each read gets a new buffer;
  // `skip` mode keeps no slice past push() (the scanner copies its carry), so two buffers take turns.
  const pair = mode === 'skip' ? [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)] : undefined
  const handle = await open(file)
  // One read ahead: the next chunk is copied in (by libuv's thread pool) while this one is scanned.
  let turn = 0
  let position = 0
  const readNext = () => handle.read(pair?.[turn++ % 2] ?? Buffer.allocUnsafe(size), 0, size, position)
  let next = readNext()
  try {
    for (;;) {
      const { bytesRead, buffer } = await next
      if (bytesRead === 0) break
      position += bytesRead
      next = readNext()
      scanner.push(buffer.subarray(0, bytesRead))
      yield* scanner.take()
    }
  } finally {
    await next.catch(() => undefined)
    await handle.close()
  }
  scanner.end()
  yield* scanner.take()
}

const NL = 0x0a
const CR = 0x0d
const BACKSLASH = 0x5c
const DOT = 0x2e

/** True when bytes [start, end) are the COPY terminator line `\.` (a CR before the newline allowed, as psql allows it). */
function isCopyEnd(b: Buffer, start: number, end: number): boolean {
  const n = end - start
  return b[start] === BACKSLASH && b[start + 1] === DOT && (n === 2 || (n === 3 && b[start + 2] === CR))
}

const COPY_END = Buffer.from('\\.')

/** Start of the first `\.` line at or after `pos` (a line start) in `b`, or -1 if this chunk holds none whole. */
function copyEndFrom(b: Buffer, pos: number): number {
  for (let k = b.indexOf(COPY_END, pos); k >= 0; k = b.indexOf(COPY_END, k + 1)) {
    if ((k === pos || b[k - 1] === NL) && (b[k + 2] === NL || (b[k + 2] === CR && b[k + 3] === NL))) return k
  }
  return -1
}

/** The state machine behind scanFile: bytes in (push), events out (take). */
class Scanner {
  private out: ScanEvent[] = []
  /** Pieces of a line that began in an earlier chunk and has not ended yet. */
  private carry: Buffer[] = []
  private lineNo = 0
  private pending = ''
  private pendingLine = 1
  private pendingCol = 1
  /** An open COPY block: data bytes gathered but not handed on yet. */
  private copy: { parts: Buffer[]; bytes: number; first: number; lines: number; openedAt: number } | null = null
  private statements = 0

  constructor(
    private readonly file: string,
    private readonly standardConformingStrings: boolean,
    private readonly copyData: CopyDataMode
  ) {}

  take(): ScanEvent[] {
    const out = this.out
    this.out = []
    return out
  }

  push(data: Buffer): void {
    let pos = 0
    /** Start of a run of COPY data lines inside `data` not yet added to copy.parts. */
    let run = -1
    for (;;) {
      if (this.copy && this.copyData !== 'lines' && !this.carry.length) {
        // Jump to the `\.` line, or past the last whole line of this chunk
        // (lineNo then lags: see CopyDataMode), handing on what it jumped over.
        const end = copyEndFrom(data, pos)
        const stop = end < 0 ? Math.max(pos, data.lastIndexOf(NL) + 1) : end
        if (this.copyData === 'bytes') this.passCopyBytes(data, pos, stop)
        pos = stop
        if (end < 0) break
      }
      const nl = data.indexOf(NL, pos)
      if (nl < 0) break
      if (this.carry.length) {
        const line = Buffer.concat([...this.carry, data.subarray(pos, nl + 1)])
        this.carry = []
        this.line(line, 0, line.length - 1)
      } else if (this.copy) {
        // Fast path: COPY data lines stay bytes of this chunk, gathered as one run.
        this.lineNo++
        if (isCopyEnd(data, pos, nl)) {
          if (run >= 0) this.addCopy(data.subarray(run, pos), 0)
          run = -1
          this.endCopy()
        } else {
          if (run < 0) run = pos
          if (this.copy.lines === 0) this.copy.first = this.lineNo
          this.copy.lines++
          if (this.copy.bytes + (nl + 1 - run) >= COPY_CHUNK_BYTES) {
            this.addCopy(data.subarray(run, nl + 1), 0)
            run = -1
            this.emitCopy()
          }
        }
      } else {
        this.line(data, pos, nl)
      }
      pos = nl + 1
    }
    if (run >= 0) this.addCopy(data.subarray(run, pos), 0)
    if (pos < data.length) this.carry.push(this.copyData === 'skip' ? Buffer.from(data.subarray(pos)) : data.subarray(pos))
  }

  /** At end of file: the last line (if it has no newline), then an unterminated COPY is an error. */
  end(): void {
    if (this.carry.length) {
      const line = Buffer.concat(this.carry)
      this.carry = []
      this.line(line, 0, line.length)
    }
    if (this.copy) {
      throw new Error(`${this.file}: the COPY block started at line ${this.copy.openedAt} has no terminating "\\." line.`)
    }
    if (!blank(this.pending) && statementHead(this.pending) !== '') {
      this.out.push({ kind: 'statement', sql: this.pending, line: this.pendingLine, column: this.pendingCol, copyFromStdin: false, index: this.statements++ })
    }
  }

  private addCopy(bytes: Buffer, lines: number): void {
    const c = this.copy!
    c.parts.push(bytes)
    c.bytes += bytes.length
    c.lines += lines
  }

  /** `bytes` mode: hands on bytes [start, end) of `b` as they are, in slices of at most COPY_CHUNK_BYTES. */
  private passCopyBytes(b: Buffer, start: number, end: number): void {
    for (let i = start; i < end; i += COPY_CHUNK_BYTES) {
      this.out.push({ kind: 'copy-data', data: b.subarray(i, Math.min(end, i + COPY_CHUNK_BYTES)), firstLine: 0, lines: 0 })
    }
  }

  private emitCopy(): void {
    const c = this.copy!
    if (c.lines > 0) {
      const data = c.parts.length === 1 ? c.parts[0] : Buffer.concat(c.parts, c.bytes)
      this.out.push({ kind: 'copy-data', data, firstLine: c.first, lines: c.lines })
    }
    c.parts = []
    c.bytes = 0
    c.lines = 0
  }

  private endCopy(): void {
    this.emitCopy()
    this.out.push({ kind: 'copy-end', line: this.lineNo })
    this.copy = null
  }

  /** One whole line, bytes [start, end) of `b` without its newline (a line that began in an earlier chunk). */
  private line(b: Buffer, start: number, end: number): void {
    this.lineNo++
    if (this.copy) {
      if (isCopyEnd(b, start, end)) return this.endCopy()
      if (this.copyData === 'skip') return
      if (this.copyData === 'bytes') return this.passCopyBytes(b, start, Math.min(end + 1, b.length))
      if (this.copy.lines === 0) this.copy.first = this.lineNo
      // keep the newline, if the line had one
      this.addCopy(b.subarray(start, Math.min(end + 1, b.length)), 1)
      if (this.copy.bytes >= COPY_CHUNK_BYTES) this.emitCopy()
      return
    }
    // Statement text: decoded, a CR kept (psql sends it: it may sit inside a quoted string, as user data).
    const line = b.toString('utf8', start, end)
    this.statementLine(line)
  }

  private statementLine(line: string): void {
    const lineNo = this.lineNo
    // As in psql, a backslash outside a quoted string or comment starts a meta-command, even mid-statement.
    if (line.startsWith('\\') && (blank(this.pending) || !parseSplits(this.pending, this.standardConformingStrings).unterminated)) {
      const m = /^\\(\S*)\s*([\s\S]*)$/.exec(line)!
      this.out.push({ kind: 'meta', command: m[1], args: m[2].trim(), line: lineNo })
      if (blank(this.pending)) this.pending = ''
      return
    }
    if (this.pending === '') {
      this.pendingLine = lineNo
      this.pendingCol = 1
    }
    this.pending += line + '\n'
    if (!line.includes(';')) return
    const splits = parseSplits(this.pending, this.standardConformingStrings)
    if (splits.unterminated) return
    let start = 0
    let line0 = this.pendingLine
    let col0 = this.pendingCol
    for (const p of splits.positions) {
      if (typeof p !== 'number') continue
      const sql = this.pending.slice(start, p + 1)
      const isCopy = COPY_FROM_STDIN.test(statementHead(sql))
      if (sql.trim() !== ';') this.out.push({ kind: 'statement', sql, line: line0, column: col0, copyFromStdin: isCopy, index: this.statements++ })
      // advance the position past this statement
      const nl = sql.split('\n')
      line0 += nl.length - 1
      col0 = nl.length > 1 ? nl[nl.length - 1].length + 1 : col0 + sql.length
      start = p + 1
      if (isCopy) {
        this.copy = { parts: [], bytes: 0, first: lineNo + 1, lines: 0, openedAt: lineNo }
        break
      }
    }
    this.pending = this.copy || blank(this.pending.slice(start)) ? '' : this.pending.slice(start)
    this.pendingLine = line0
    this.pendingCol = col0
  }
}

/** A statement at its exact place, and where its COPY data starts. */
export interface ExactStatement {
  statement: StatementEvent
  /** For a `COPY … FROM stdin`: file line of its first data line (what the server calls "line 1"). */
  copyDataLine?: number
}

/**
 * Rescans `file` in `lines` mode for the statement with ordinal `index` (as
 * yielded in any mode), to report its exact line and column after a pass that
 * did not count COPY data lines. Reads the file up to that statement.
 * @throws Error if the file has fewer statements (it changed since).
 */
export async function exactStatement(file: string, index: number, options: Omit<ScanOptions, 'copyData'> = {}): Promise<ExactStatement> {
  let found: StatementEvent | undefined
  for await (const ev of scanFile(file, { ...options, copyData: 'lines' })) {
    if (found) {
      // the event after a COPY statement: its first data line, or the `\.` line that follows it directly
      return { statement: found, copyDataLine: ev.kind === 'copy-data' ? ev.firstLine : ev.kind === 'copy-end' ? ev.line : undefined }
    }
    if (ev.kind !== 'statement' || ev.index !== index) continue
    if (!ev.copyFromStdin) return { statement: ev }
    found = ev
  }
  if (found) return { statement: found }
  throw new Error(`${file}: statement ${index + 1} not found on rescan (did the file change while seeding?)`)
}

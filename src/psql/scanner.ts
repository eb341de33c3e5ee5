/**
 * Streams a SQL file into what psql would act on: statements split where
 * psql splits them (its lexer's rules, {@link PsqlLexer}), each statement's
 * bytes as the file has them, `COPY … FROM stdin` data up to `\.`, and
 * backslash meta-commands wherever they stand outside quotes. A file's last
 * statement may lack its `;`: it ends at the end of the file, as in psql.
 * Memory holds two read chunks (one read ahead), one pending statement and
 * one chunk of COPY data, whatever the file's size.
 */
import { open } from 'node:fs/promises'
import type { CopyDataMode, LexingChange, MetaEvent, ScanEvent, ScanOptions, StatementEvent } from './events.js'
import { PsqlLexer, Stop } from './psqlscan.js'
import { byteText, parseSlashCopy, slashCommand } from './psqlslash.js'

export type {
  CopyDataEvent,
  CopyDataMode,
  CopyEndEvent,
  LexingChange,
  MetaEvent,
  ScanEvent,
  ScanOptions,
  StatementEvent
} from './events.js'

/** Backslash commands that send the query buffer (psql: \\g and its kin). */
const SENDS_BUFFER = new Set(['g', 'gx', 'gset', 'gexec'])

/** Bytes read from the file at a time: events of `lines` and `bytes` mode hold slices of each read. */
const READ_CHUNK_BYTES = 1 << 20
/** The same in `skip` mode, which keeps nothing of a read, so two buffers serve every read. */
const SKIP_READ_CHUNK_BYTES = 4 << 20
/** Bytes of a read the scanner is given at a time (the events of a whole read at once outlive V8's young collections). */
const PUSH_BYTES = 1 << 16
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
        if (t.startsWith('/*', i)) {
          depth++
          i++
        } else if (t.startsWith('*/', i)) {
          depth--
          i++
          if (depth === 0) break
        }
      }
      s = t.slice(i + 1)
    } else {
      return t
    }
  }
}

/** A statement's first keyword, lower-cased (what the lexer reports as its first word). */
export const firstWordOf = (sql: string): string =>
  statementHead(sql)
    .split(/[\s;(]/)[0]
    .toLowerCase()

const COPY_FROM_STDIN = /^COPY\b[\s\S]*\bFROM\s+STDIN\b/i

/**
 * Reads `file` and yields its events in order. COPY data is handed on as the
 * file's own bytes (CR, tabs, backslashes and `\N` untouched, as psql sends
 * them), never split into per-line strings; only statement lines are decoded.
 */
export async function* scanFile<C extends LexingChange = LexingChange>(
  file: string,
  options: ScanOptions<C> = {}
): AsyncGenerator<ScanEvent<C>> {
  const mode = options.copyData ?? 'lines'
  const scanner = new Scanner<C>(options, mode)
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
      // in pieces, each piece's events taken before the next, so few events are alive at a time (peak RSS)
      for (let at = 0; at < bytesRead; at += PUSH_BYTES) {
        scanner.push(buffer.subarray(at, Math.min(bytesRead, at + PUSH_BYTES)))
        yield* scanner.take()
      }
    }
  } finally {
    await next.catch(() => undefined)
    await handle.close()
  }
  scanner.end()
  yield* scanner.take()
}

/**
 * Scans `text` as psql re-scans a variable's value it interpolated into SQL
 * (psqlscan.l pushes the value as new input): its statements, meta-commands
 * and COPY data, in order; lines count from 1.
 */
export function scanText<C extends LexingChange = LexingChange>(text: Buffer, options: ScanOptions<C> = {}): ScanEvent<C>[] {
  const scanner = new Scanner<C>(options, 'lines')
  scanner.push(text)
  scanner.end()
  return scanner.take()
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
class Scanner<C extends LexingChange> {
  private out: ScanEvent<C>[] = []
  /** Pieces of a line that began in an earlier chunk and has not ended yet. */
  private carry: Buffer[] = []
  private lineNo = 0
  /** Bytes of the statement being read (copies: read buffers are reused). */
  private pending: Buffer[] = []
  private pendingLine = 1
  /** Where meta-commands stood inside the pending statement (see StatementEvent.cuts). */
  private cuts: { offset: number; meta: number }[] = []
  private pendingCol = 1
  /** An open COPY block: data bytes gathered but not handed on yet. */
  private copy: { parts: Buffer[]; bytes: number; first: number; lines: number } | null = null
  private statements = 0
  private metas = 0
  private readonly lexer = new PsqlLexer()
  private readonly lexing: { standardConformingStrings: boolean }

  constructor(
    private readonly options: ScanOptions<C>,
    private readonly copyData: CopyDataMode
  ) {
    this.lexing = options.lexing ?? { standardConformingStrings: true }
    this.lexer.standardConformingStrings = this.lexing.standardConformingStrings
  }

  take(): ScanEvent<C>[] {
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
    // COPY data that runs to the end of the file ends there, as psql ends it (copy.c, handleCopyIn: EOF ends the data)
    if (this.copy) this.endCopy()
    // psql runs what is left at the end of a file as its last statement
    if (this.lexer.hasContent) this.emitStatement(false)
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
    this.statementLine(b, start, end < b.length ? end + 1 : end)
  }

  /**
   * Statement text: bytes [start, end) of one line, its newline included if
   * it has one, lexed as psql lexes it. Every byte is kept (a CR too: it may
   * sit inside a quoted string, as user data).
   */
  private statementLine(b: Buffer, start: number, end: number): void {
    let pos = start
    while (pos < end) {
      if (!this.pending.length) {
        this.pendingLine = this.lineNo
        this.pendingCol = codePoints(b, start, pos) + 1
      }
      const stop = this.lexer.scan(b, pos, end)
      if (stop === undefined) {
        this.pending.push(this.statementBytes(b, pos, end))
        return
      }
      const at = this.lexer.at
      if (stop === Stop.Semicolon) {
        this.pending.push(this.statementBytes(b, pos, at + 1))
        pos = at + 1
        if (this.emitStatement(true)) return // COPY data starts on the next line
        continue
      }
      // A meta-command: to the end of the line, or to where psql's lexer goes on after it.
      if (at > pos) this.pending.push(this.statementBytes(b, pos, at))
      const text = byteText(b, at, end).replace(/\r?\n$/, '')
      const cmd = slashCommand(text)
      // \g, \gx, \gset and \gexec send what the buffer holds, as `;` does
      const copyData = SENDS_BUFFER.has(cmd.command) && this.lexer.hasContent && this.emitStatement(true, cmd.command)
      const meta: MetaEvent = { kind: 'meta', command: cmd.command, args: cmd.args, line: this.lineNo, index: this.metas++ }
      if (this.lexer.hasContent) {
        // inside a statement: psql may drop the text on either side of it (an \if branch)
        meta.inStatement = true
        this.cuts.push({ offset: this.pending.reduce((n, p) => n + p.length, 0), meta: meta.index })
      } else this.pending = []
      this.out.push(meta)
      if (copyData) return
      if (cmd.command === 'copy') {
        const copy = parseSlashCopy(cmd.args)
        // `\copy … from stdin` reads the lines that follow, up to `\.`, as a COPY block does
        if (copy?.direction === 'from' && (copy.target === 'stdin' || copy.target === 'pstdin')) {
          this.copy = { parts: [], bytes: 0, first: this.lineNo + 1, lines: 0 }
        }
      }
      if (cmd.resume < 0) return
      pos = at + cmd.resume
    }
  }

  /** A copy of bytes [start, end) of `b`, without the backslashes of `\;` and `\:` (psql sends the character alone). */
  private statementBytes(b: Buffer, start: number, end: number): Buffer {
    const dropped = this.lexer.dropped
    if (!dropped.length) return Buffer.from(b.subarray(start, end))
    const parts: Buffer[] = []
    let from = start
    for (const at of dropped) {
      parts.push(b.subarray(from, at))
      from = at + 1
    }
    parts.push(b.subarray(from, end))
    this.lexer.dropped = []
    return Buffer.concat(parts)
  }

  /** Hands on the pending statement. @returns true when it is a `COPY … FROM stdin` (its data follows). */
  private emitStatement(terminated: boolean, endedBy?: string): boolean {
    const raw = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending)
    const sql = raw.toString('utf8')
    const firstWord = this.lexer.firstWord
    const variables = this.lexer.variables
    this.pending = []
    this.lexer.reset()
    // (an unterminated one at the end of a file has no data: it goes to the server as a plain statement)
    const isCopy = terminated && firstWord === 'copy' && COPY_FROM_STDIN.test(statementHead(sql))
    const ev: StatementEvent<C> = {
      kind: 'statement',
      sql,
      raw,
      terminated,
      firstWord,
      line: this.pendingLine,
      column: this.pendingCol,
      copyFromStdin: isCopy,
      index: this.statements++
    }
    if (variables.length) {
      ev.psqlVariables = variables
      ev.standardConformingStrings = this.lexer.standardConformingStrings
    }
    if (endedBy) ev.endedBy = endedBy
    if (this.cuts.length) {
      ev.cuts = this.cuts
      this.cuts = []
    }
    if (this.options.classify) {
      ev.classified = this.options.classify(sql, firstWord)
      const std = ev.classified.standardConformingStrings
      if (std !== undefined) this.lexer.standardConformingStrings = this.lexing.standardConformingStrings = std
    }
    this.out.push(ev)
    if (isCopy) this.copy = { parts: [], bytes: 0, first: this.lineNo + 1, lines: 0 }
    return isCopy
  }
}

/** Characters in bytes [start, end) of UTF-8 text (bytes that do not continue a character). */
function codePoints(b: Buffer, start: number, end: number): number {
  let n = 0
  for (let i = start; i < end; i++) if ((b[i] & 0xc0) !== 0x80) n++
  return n
}

/**
 * What the load sends in one round trip: a batch of plain statements as the
 * files' bytes, and the fixed texts that move the seed's savepoint and end
 * the seed.
 */
import type { SeedSource } from './check.js'
import type { SeedStatement } from './grammar.js'

/** A batch ends once it holds this many bytes (1 MiB). */
export const MAX_BATCH_BYTES = 1 << 20

/**
 * Each batch moves the savepoint to its start, in the same round trip, so a
 * failed batch can be rolled back to its start and replayed one statement at
 * a time. A batch the server rejects whole (bytes invalid in the client
 * encoding: it converts the text before parsing) leaves the previous one.
 */
export const NEXT_SAVEPOINT = Buffer.from('RELEASE SAVEPOINT preview_postgres_seed; SAVEPOINT preview_postgres_seed;\n')

/**
 * The seed's end, sent behind its last messages without waiting for them:
 * after a failure, RELEASE fails too (the transaction is aborted) and the
 * rest of the Query is skipped, so COMMIT never turns a failed seed into a
 * rollback the failure's replay could not use.
 */
export const END = Buffer.from('RELEASE SAVEPOINT preview_postgres_seed; COMMIT')

/** One statement of a batch, as a failure's replay and message need it. */
export interface BatchStatement {
  src: SeedSource
  /** Its bytes, as sent. */
  raw: Buffer
  /** The same, decoded as UTF-8 (for messages). */
  sql: string
  /** Its ordinal in its file (StatementEvent.index), for the rescan that finds its exact place. */
  index: number
  /** Its character offset in the batch's text, after the prefix the batch was sent with. */
  offset: number
}

/** Bytes a batch's buffer starts with; it doubles as statements are added. */
const FIRST_CAPACITY = 1 << 14

/**
 * A batch of plain statements sent in one round trip, as the files' bytes.
 * The statements' bytes are copied into one buffer as they are added, and
 * each keeps only numbers (where it starts, its ordinal) and its file: a
 * batch stays alive until the server has answered it (for a failure's
 * replay), and thousands of statement objects per batch (a dump of INSERTs)
 * would outlive V8's young collections and fill its old generation.
 */
export class Batch {
  /** Characters so far (the server's error positions count characters), and bytes. */
  chars = 0
  bytes = 0
  private buffer: Buffer
  /** Per statement: its file, its ordinal in that file, its byte and character offsets in the text. */
  private readonly sources: SeedSource[] = []
  private readonly indexes: number[] = []
  private readonly starts: number[] = []
  private readonly offsets: number[] = []

  /** @param prefix bytes the text starts with, before the statements (NEXT_SAVEPOINT), or none */
  constructor(private readonly prefix: Buffer = Buffer.alloc(0)) {
    this.buffer = Buffer.allocUnsafe(Math.max(FIRST_CAPACITY, prefix.length * 2))
    prefix.copy(this.buffer)
  }

  /** Statements added. */
  get size(): number {
    return this.indexes.length
  }

  /** Adds a statement, and a newline after it if it has none (the next one starts on a line of its own). */
  add(src: SeedSource, ev: SeedStatement): void {
    const newline = ev.raw[ev.raw.length - 1] !== 0x0a
    const at = this.prefix.length + this.bytes
    this.reserve(at + ev.raw.length + 1)
    this.sources.push(src)
    this.indexes.push(ev.index)
    this.starts.push(this.bytes)
    this.offsets.push(this.chars)
    ev.raw.copy(this.buffer, at)
    this.bytes += ev.raw.length
    this.chars += ev.sql.length
    if (newline) {
      this.buffer[at + ev.raw.length] = 0x0a
      this.bytes++
      this.chars++
    }
  }

  /** The batch's text as sent: the prefix, then every statement (a view of the batch's buffer). */
  text(): Buffer {
    return this.buffer.subarray(0, this.prefix.length + this.bytes)
  }

  /** Its statements, each rebuilt from the text (for locating a failure). */
  statements(): BatchStatement[] {
    const base = this.prefix.length
    return this.indexes.map((index, k) => {
      const raw = this.buffer.subarray(base + this.starts[k], base + (this.starts[k + 1] ?? this.bytes))
      return { src: this.sources[k], raw, sql: raw.toString('utf8'), index, offset: this.offsets[k] }
    })
  }

  /**
   * Makes room for `bytes` bytes: the buffer doubles, up to a full batch and
   * a statement more (so a batch holds at most twice its text), or grows to
   * fit one longer statement.
   */
  private reserve(bytes: number): void {
    if (bytes <= this.buffer.length) return
    const full = this.prefix.length + MAX_BATCH_BYTES + FIRST_CAPACITY * 4
    let size = this.buffer.length
    while (size < bytes) size = Math.min(size * 2, Math.max(full, bytes))
    const grown = Buffer.allocUnsafe(size)
    this.buffer.copy(grown, 0, 0, this.prefix.length + this.bytes)
    this.buffer = grown
  }
}

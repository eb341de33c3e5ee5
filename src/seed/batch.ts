/**
 * What the load sends in one round trip: a batch of plain statements as the
 * files' bytes, and the fixed texts that move the seed's savepoint and end
 * the seed.
 */
import type { SeedSource } from './check.js'
import type { SeedStatement } from './grammar.js'

const NEWLINE = Buffer.from('\n')

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

/** A batch of plain statements sent in one round trip, as the files' bytes. */
export class Batch {
  /** Each statement, with its character offset in the batch's text (kept after sending, for a replay). */
  items: { src: SeedSource; ev: SeedStatement; offset: number }[] = []
  parts: Buffer[] = []
  /** Characters so far (the server's error positions count characters), and bytes. */
  chars = 0
  bytes = 0

  /** Adds a statement, and a newline after it if it has none (the next one starts on a line of its own). */
  add(src: SeedSource, ev: SeedStatement): void {
    this.items.push({ src, ev, offset: this.chars })
    this.parts.push(ev.raw)
    this.chars += ev.sql.length
    this.bytes += ev.raw.length
    if (ev.raw[ev.raw.length - 1] !== 0x0a) this.push(NEWLINE)
  }

  private push(text: Buffer): void {
    this.parts.push(text)
    this.chars += text.length
    this.bytes += text.length
  }
}

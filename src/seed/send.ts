/**
 * The load's one way to the server. Plain statements go out in batches and
 * COPY blocks as their bytes, pipelined (pipeline.ts): nothing waits for the
 * server until the seed's end, or until a meta-command needs an answer
 * ({@link Sender.flushAll}, then a query of the client's own). A failure the
 * server reports is turned into the SeedError that names its file and line.
 */
import path from 'node:path'
import type pg from 'pg'
import { readable } from '../psql/psqlslash.js'
import type { MetaEvent } from '../psql/scanner.js'
import { Batch, END, MAX_BATCH_BYTES, NEXT_SAVEPOINT } from './batch.js'
import type { SeedSource } from './check.js'
import { describe, failBatch, failCopy, failMeta } from './failure.js'
import type { SeedStatement } from './grammar.js'
import { copyFromFile } from './meta-run.js'
import { Pipeline, type PipelineFailure, UnexpectedCopyIn } from './pipeline.js'
import { type RowSet, rawQuery, rawRows } from './raw-query.js'
import { statementHead } from '../psql/scanner.js'

/** What a pipelined message was: a batch, or a COPY block (`\copy … from stdin` for a meta event), or the seed's end. */
type Sent = { batch: Batch } | { src: SeedSource; ev: SeedStatement | MetaEvent } | { commit: true }

/** Sends a seed's statements and COPY data on one client, inside the transaction the loader opened. */
export class Sender {
  /** Statements the server ran (a COPY block counts as one). */
  statements = 0
  /** Rows COPY blocks and `\copy` loaded, as the server counted them. */
  copyRows = 0
  private batch = new Batch(NEXT_SAVEPOINT)
  private pipe: Pipeline<Sent> | null = null
  /** The command tag of the last statement the server completed, once one has (psql's ROW_COUNT comes from it). */
  lastTag: string | undefined
  /** A COPY block is open: `copy-data` events go to it. */
  private copying = false

  constructor(private readonly client: pg.Client) {}

  /**
   * Adds a plain statement to the batch; sends the batch when it is full or
   * when `endBatch` (the server parses a whole batch before running it, so a
   * batch ends where the way text is read changes).
   */
  async statement(src: SeedSource, ev: SeedStatement, endBatch: boolean): Promise<void> {
    this.batch.add(src, ev)
    if (this.batch.bytes >= MAX_BATCH_BYTES || endBatch) await this.flush()
  }

  /** Opens a COPY block: `sql` is its `COPY … FROM STDIN` text; {@link copyData} and {@link copyEnd} follow. */
  async startCopy(src: SeedSource, ev: SeedStatement | MetaEvent, sql: Buffer): Promise<void> {
    await this.flush()
    ;(await this.pipeline()).copy(sql, { src, ev })
    this.copying = true
  }

  /** COPY data, exactly as the file has it (not split into rows: the server counts them). */
  async copyData(data: Buffer): Promise<void> {
    if (!this.copying || !this.pipe) return
    await this.pipe.copyData(data)
    await this.check()
  }

  /** The COPY block's `\.`: its answer is read with the others. */
  async copyEnd(): Promise<void> {
    if (!this.copying || !this.pipe) return
    this.pipe.copyDone()
    this.copying = false
    this.statements++
    await this.check()
  }

  /** Sends the batch and waits for every answer: before the client runs a query of its own. */
  async flushAll(): Promise<void> {
    await this.flush()
    await this.settle()
  }

  /** Runs `raw` on its own (call {@link flushAll} first). @throws pg.DatabaseError from the server */
  async query(raw: Buffer): Promise<void> {
    this.lastTag = (await rawQuery(this.client, raw)) ?? ''
    this.statements++
  }

  /** Runs `raw` on its own and returns its rows (call {@link flushAll} first). @throws pg.DatabaseError from the server */
  async rows(raw: Buffer): Promise<RowSet> {
    const rows = await rawRows(this.client, raw)
    this.lastTag = rows.tag ?? ''
    this.statements++
    return rows
  }

  /**
   * `\copy … from 'file'`: streams `file` as `sql` after the answers to what was sent before.
   * @throws SeedError at the meta-command's line (the server's message, COPY values hidden)
   */
  async copyFile(src: SeedSource, ev: MetaEvent, sql: string, file: string): Promise<void> {
    await this.flushAll()
    try {
      const rows = await copyFromFile(this.client, sql, file)
      this.copyRows += rows
      this.lastTag = `COPY ${rows}`
      this.statements++
    } catch (err) {
      const e = err as pg.DatabaseError
      const row = /line (\d+)/.exec(e.where ?? '')?.[1]
      await failMeta(src, ev, `${describe(e, true)} (\\copy from ${path.relative(process.cwd(), file)}${row ? `, line ${row}` : ''}).`)
    }
  }

  /** Sends the rest and COMMIT, and waits. @throws SeedError of the first failure; COMMIT's own error (a deferred constraint) */
  async commit(): Promise<void> {
    await this.flush()
    ;(await this.pipeline()).query(END, { commit: true })
    await this.settle()
  }

  /** The client encoding now (`SHOW client_encoding`, after what was sent before): psql's ENCODING. Not a statement of the seed. */
  async clientEncoding(): Promise<string> {
    await this.flushAll()
    return (await rawRows(this.client, Buffer.from('SHOW client_encoding'))).rows[0][0] ?? 'UTF8'
  }

  /** After a failure: waits until the client is free again (to roll back). Never throws. */
  async abandon(): Promise<void> {
    await this.pipe?.settle()
  }

  private async pipeline(): Promise<Pipeline<Sent>> {
    return (this.pipe ??= await Pipeline.open<Sent>(this.client))
  }

  private async flush(): Promise<void> {
    if (!this.batch.size) return
    const current = this.batch
    this.batch = new Batch(NEXT_SAVEPOINT)
    const p = await this.pipeline()
    p.query(current.text(), { batch: current }) // the batch stays until answered, for a replay
    this.statements += current.size
    await p.room()
    await this.check()
  }

  /** Waits for every answer. @throws SeedError of the first failure */
  private async settle(): Promise<void> {
    if (!this.pipe) return
    const p = this.pipe
    this.pipe = null
    const failure = await p.settle()
    this.copyRows += p.copyRows
    if (p.lastTag !== undefined) this.lastTag = p.lastTag
    if (failure) await this.locate(failure)
  }

  /** Settles as soon as the server has failed a message (the messages after it take no effect). */
  private async check(): Promise<void> {
    if (this.pipe?.failure) await this.settle()
  }

  /** Throws the SeedError of a pipelined message the server failed: its statement, or its COPY row. */
  private async locate({ tag, err }: PipelineFailure<Sent>): Promise<never> {
    if (!tag || 'commit' in tag) throw err // COMMIT's own failure (a deferred constraint): the server rolled back
    if ('batch' in tag) {
      if (err instanceof UnexpectedCopyIn) {
        // the statement that became `COPY … FROM stdin` (by a psql variable): located as a server error at its first character
        const it = tag.batch.statements().find((i) => /^COPY\b[\s\S]*\bFROM\s+P?STDIN\b/i.test(statementHead(i.sql)))
        if (it)
          return failBatch(
            this.client,
            tag.batch,
            0,
            Object.assign(new Error(err.message), { position: String(it.offset + 1) }) as unknown as pg.DatabaseError
          )
      }
      // not the server's error (the session ended): there is nothing to replay on
      if ((err as pg.DatabaseError).severity === undefined) throw err
      return failBatch(this.client, tag.batch, NEXT_SAVEPOINT.length, err as pg.DatabaseError)
    }
    if (tag.ev.kind === 'meta') {
      const e = err as pg.DatabaseError
      const row = /line (\d+)/.exec(e.where ?? '')?.[1]
      // the data starts on the line after the \copy: the server's "line N" is N lines below it
      return failMeta(tag.src, tag.ev, `${describe(e, true)} (in the data of \\copy ${readable(tag.ev.args)}).`, row ? Number(row) : 0)
    }
    return failCopy(tag.src, tag.ev, err as pg.DatabaseError)
  }
}

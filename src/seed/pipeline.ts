/**
 * Pipelined simple-protocol queries for the seed loader: the
 * statement batches and COPY blocks of a seed are written one after another
 * without waiting for the server between them, so a COPY block costs no
 * round trip of its own (it cost three: the batch before it, the COPY's
 * start, its end).
 *
 * PostgreSQL reads a connection's messages in order, so this is what the
 * protocol allows (PostgreSQL docs, "Message Flow", "Simple Query" and "COPY
 * Operations"): each Query message is answered in turn, ending with
 * ReadyForQuery; CopyData may follow a COPY's Query before its
 * CopyInResponse arrives, since the server reads it only once in copy-in
 * mode; and when a statement fails, the server answers ErrorResponse and
 * ReadyForQuery, every later Query fails too (the transaction is aborted:
 * nothing after the failure takes effect), and CopyData, CopyDone and
 * CopyFail outside copy-in mode are ignored (postgres.c, PostgresMain).
 * So the first error belongs to the first message that failed; the loader
 * then waits for the rest ({@link Pipeline.settle}) and locates it.
 *
 * node-postgres sends one query at a time and routes the server's answers to
 * its active query; a Pipeline makes itself that query (a submittable, the
 * interface `client.query` gives custom queries) and stays active across
 * ReadyForQuery messages until every message it sent is answered.
 */
import type pg from 'pg'
import { queryMessage } from './raw-query.js'

/** The parts of node-postgres' Connection a Pipeline uses. */
interface Connection {
  _send(buffer: Buffer): boolean
  sendCopyFail(message: string): void
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean }
}

/** The parts of node-postgres' Client a Pipeline uses (its query routing). */
interface ClientInternals {
  _activeQuery: unknown
  readyForQuery: boolean
}

/** One Query message sent, whatever the loader tags it with (a batch, a COPY block). */
interface Sent<T> {
  tag: T
  copy: boolean
  /** Bytes of statement text this message holds (for {@link Pipeline.room}). */
  bytes: number
}

/** The first message the server failed, and its error. */
export interface PipelineFailure<T> {
  tag: T
  /** A pg.DatabaseError, or the driver's error when the connection ended. */
  err: Error
}

/** A batch the server answered with CopyInResponse while more messages were sent behind it (the session was ended). */
export class UnexpectedCopyIn extends Error {}

const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]) // 'c', Int32 4 (PostgreSQL docs, "Message Formats": CopyDone)

/** Bytes of statements sent but not yet answered above which {@link Pipeline.room} waits (about two full batches). */
const MAX_UNANSWERED_BYTES = 2 << 20

/**
 * Queries and COPY blocks written without waiting, answered in order.
 * Open with {@link Pipeline.open}; close with {@link Pipeline.settle} before
 * the client runs any other query. `T`: what the caller needs to locate a
 * failure (the failed message's tag).
 */
export class Pipeline<T> {
  /** COPY rows the server counted ("COPY n") so far. */
  copyRows = 0
  /** The command tag of the last statement the server completed (`INSERT 0 3`), for psql's ROW_COUNT. */
  lastTag: string | undefined
  /** Set by the first error; nothing sent after it takes effect. */
  failure: PipelineFailure<T> | null = null
  private readonly sent: Sent<T>[] = []
  private unansweredBytes = 0
  private connection: Connection | null = null
  private closing = false
  private ended = false
  private wake: (() => void) | null = null
  private readonly ready: Promise<void>
  private onReady!: () => void
  private readonly done: Promise<void>
  private onDone!: () => void

  private constructor(private readonly client: pg.Client) {
    this.ready = new Promise((resolve) => (this.onReady = resolve))
    this.done = new Promise((resolve) => (this.onDone = resolve))
  }

  /** Takes over `client` (connected, with no query running) for pipelined messages. */
  static async open<T>(client: pg.Client): Promise<Pipeline<T>> {
    const p = new Pipeline<T>(client)
    client.query(p as unknown as pg.QueryConfig)
    await Promise.race([p.ready, p.done]) // done: the client could not run it (closed): every send is then a no-op
    return p
  }

  /** Sends `text` (bytes, any number of statements) as one Query message. */
  query(text: Buffer, tag: T): void {
    this.send(text, tag, false)
  }

  /** Sends a `COPY … FROM STDIN` statement; its data follows with {@link copyData} and {@link copyDone}. */
  copy(text: Buffer, tag: T): void {
    this.send(text, tag, true)
  }

  /** Sends COPY data as written (CopyData messages); resolves when the socket can take more. */
  async copyData(data: Buffer): Promise<void> {
    const c = this.connection
    if (!c || this.failure) return
    const head = Buffer.allocUnsafe(5)
    head[0] = 0x64 // 'd'
    head.writeInt32BE(data.length + 4, 1)
    c._send(head)
    if (!c._send(data) && c.stream.writable) await this.waitFor(() => !c.stream.writableNeedDrain, 'drain')
  }

  /** Ends the current COPY's data (CopyDone). */
  copyDone(): void {
    if (this.connection && !this.failure) this.connection._send(COPY_DONE)
  }

  /** Waits until few enough statements are unanswered (the bytes held for a failure's replay stay bounded). */
  async room(): Promise<void> {
    await this.waitFor(() => this.unansweredBytes <= MAX_UNANSWERED_BYTES || this.failure !== null)
  }

  /**
   * Waits until every message sent is answered and gives `client` back.
   * @returns the first failure, or null
   */
  async settle(): Promise<PipelineFailure<T> | null> {
    this.closing = true
    if (!this.sent.length && !this.ended) {
      // nothing unanswered: no ReadyForQuery will hand the client back, so do what it would
      const c = this.client as unknown as ClientInternals & { _pulseQueryQueue(): void }
      if (c._activeQuery === this) {
        c._activeQuery = null
        c.readyForQuery = true
      }
      this.release()
      c._pulseQueryQueue()
    }
    await this.done
    return this.failure
  }

  private send(text: Buffer, tag: T, copy: boolean): void {
    if (!this.connection || this.failure) return
    this.sent.push({ tag, copy, bytes: text.length })
    this.unansweredBytes += text.length
    this.connection._send(queryMessage(text))
  }

  /** Resolves once `ok()` holds, checked after each answer (and at the socket's `event`). */
  private async waitFor(ok: () => boolean, event?: string): Promise<void> {
    const stream = this.connection?.stream
    while (!ok() && !this.ended) {
      await new Promise<void>((resolve) => {
        const go = (): void => {
          this.wake = null
          if (event) stream?.off(event, go)
          resolve()
        }
        this.wake = go
        if (event) stream?.once(event, go)
      })
    }
  }

  /** Lets node-postgres run its own queries again (it made this query inactive at the last ReadyForQuery). */
  private release(): void {
    if (this.ended) return
    this.ended = true
    this.wake?.()
    this.onDone()
  }

  /** Keeps node-postgres routing the server's answers here after an ErrorResponse or a ReadyForQuery. */
  private stayActive(): void {
    const c = this.client as unknown as ClientInternals
    c._activeQuery = this
    c.readyForQuery = false
  }

  submit(connection: Connection): void {
    this.connection = connection
    this.onReady()
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  handleCommandComplete(msg: { text?: string }): void {
    this.lastTag = msg?.text
    const m = /^COPY (\d+)/.exec(msg?.text ?? '')
    if (m && this.sent[0]?.copy) this.copyRows += Number(m[1])
  }

  /**
   * A batch never holds `COPY … FROM STDIN` (the scanner sends those as COPY
   * blocks); refused if one does. When messages were sent behind that batch,
   * the server would read them as COPY data and lose count of the answers:
   * the session is then ended (the server rolls back) rather than left to hang.
   */
  handleCopyInResponse(connection: Connection): void {
    if (this.sent[0]?.copy) return
    const why = 'COPY FROM STDIN is not expected in this statement batch'
    connection.sendCopyFail(why)
    if (this.sent.length > 1) {
      // (the server's own words when the CopyFail reaches it: "COPY from stdin failed: …")
      this.failure ??= { tag: this.sent[0]?.tag as T, err: new UnexpectedCopyIn(`COPY from stdin failed: ${why}`) }
      ;(connection.stream as unknown as { destroy(): void }).destroy()
    }
  }

  handleError(err: Error): void {
    this.failure ??= { tag: this.sent[0]?.tag as T, err }
    if ((err as { severity?: string }).severity === undefined) {
      // the connection ended (a cancel, a lost link): no ReadyForQuery will come
      this.sent.length = 0
      this.release()
      return
    }
    this.stayActive() // its ReadyForQuery follows
    this.wake?.()
  }

  handleReadyForQuery(): void {
    const answered = this.sent.shift()
    if (answered) this.unansweredBytes -= answered.bytes
    if (this.sent.length || !this.closing) this.stayActive()
    else this.release()
    this.wake?.()
  }
}

/**
 * Statement text sent as the file's own bytes. node-postgres encodes query
 * strings as UTF-8; psql sends a file's bytes as they are, in the client
 * encoding the file declares (`SET client_encoding`), and the server
 * converts them or rejects invalid ones. These submittables (the interface
 * node-postgres gives `client.query` for custom queries, as pg-copy-streams
 * uses it) write the simple-protocol Query message themselves.
 * Protocol: PostgreSQL docs, "Message Formats": Query is 'Q', Int32 length
 * (itself included), the query string, a NUL byte.
 */
import type pg from 'pg'
import type { from as copyFrom } from 'pg-copy-streams'

/** The parts of node-postgres' Connection these queries use. */
interface Connection {
  _send(buffer: Buffer): boolean
  sendCopyFail(message: string): void
}

/** A Query message holding `text` as it is. */
export function queryMessage(text: Buffer): Buffer {
  const m = Buffer.allocUnsafe(text.length + 6)
  m[0] = 0x51 // 'Q'
  m.writeInt32BE(text.length + 5, 1)
  text.copy(m, 5)
  m[m.length - 1] = 0
  return m
}

/** The last result set a {@link RawQuery} collected: column names, and rows of text values (null for NULL). */
export interface RowSet {
  fields: string[]
  rows: (string | null)[][]
  /** The last statement's command tag (`SELECT 1`). */
  tag?: string
}

/**
 * One simple-protocol query of raw bytes (any number of statements). Rows
 * are discarded, unless {@link collect} is set (then the last result set is kept). `done` resolves at ReadyForQuery, or rejects with the
 * server's error (the first: the server skips the rest of the query) (a pg.DatabaseError, with its position in `text`).
 */
export class RawQuery {
  readonly done: Promise<void>
  private settle!: (err?: Error) => void
  /** The command tag of the last statement completed (`SELECT 1`). */
  tag: string | undefined
  /** When set, the last result set's columns and rows (`\\gset`, `\\gexec`). */
  collect: RowSet | null = null

  constructor(private readonly text: Buffer) {
    this.done = new Promise((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve())
    })
  }

  submit(connection: Connection): void {
    connection._send(queryMessage(this.text))
  }

  handleRowDescription(msg: { fields: { name: string }[] }): void {
    if (this.collect) this.collect = { fields: msg.fields.map((f) => f.name), rows: [] }
  }
  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.collect?.rows.push(msg.fields)
  }
  handleCommandComplete(msg: { text?: string }): void {
    this.tag = msg?.text
  }
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  /** A `COPY … FROM STDIN` reached here has no data to send: the loader sends those with {@link rawCopy}. */
  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('COPY FROM STDIN is not expected in this statement batch')
  }

  /** node-postgres drops the query on an error (ReadyForQuery then goes to no query), so it settles here. */
  handleError(err: Error): void {
    this.settle(err)
  }

  handleReadyForQuery(): void {
    this.settle()
  }
}

/** Runs `text` (bytes) on `client`. @returns the last statement's command tag @throws pg.DatabaseError as the server reported it. */
export async function rawQuery(client: pg.Client, text: Buffer): Promise<string | undefined> {
  const q = new RawQuery(text)
  client.query(q as unknown as pg.QueryConfig)
  await q.done
  return q.tag
}

/** Runs `text` (bytes) on `client` and keeps its last result set (empty when it returns none). @throws pg.DatabaseError */
export async function rawRows(client: pg.Client, text: Buffer): Promise<RowSet> {
  const q = new RawQuery(text)
  q.collect = { fields: [], rows: [] }
  client.query(q as unknown as pg.QueryConfig)
  await q.done
  return { ...q.collect, tag: q.tag }
}

/** A pg-copy-streams COPY FROM STDIN whose statement text is sent as the file's bytes. */
export function rawCopy(stream: ReturnType<typeof copyFrom>, text: Buffer): ReturnType<typeof copyFrom> {
  const s = stream as unknown as { submit(c: Connection): void; connection?: Connection }
  s.submit = (connection: Connection) => {
    s.connection = connection
    connection._send(queryMessage(text))
  }
  return stream
}

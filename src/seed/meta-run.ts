/**
 * The load's side of psql's meta-commands that need the database: `\copy …
 * from 'file'` (streamed), `\gset` (variables from a row) and the cells
 * `\gexec` runs. psql 17's rules (psql reference; src/bin/psql/common.c:
 * StoreQueryTuple, ExecQueryTuples; copy.c).
 */
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { MetaRefusal, type PsqlSession } from '../psql/session.js'
import { type RowSet, rawCopy } from './raw-query.js'

/**
 * Streams `file` to the server as `sql` (`COPY … FROM STDIN …`, the `\copy`
 * command's own options), through pg-copy-streams with backpressure: memory
 * holds one read chunk (64 KiB), whatever the file's size.
 * @returns the rows the server copied
 * @throws pg.DatabaseError from the server (its `where` names the data line); Error if the file cannot be read
 */
export async function copyFromFile(client: pg.Client, sql: string, file: string): Promise<number> {
  const stream = client.query(rawCopy(copyFrom(sql), Buffer.from(sql)))
  await pipeline(createReadStream(file), stream)
  return stream.rowCount
}

/**
 * `\gset [prefix]`: sets prefix + column name to each value of the one row
 * `result` holds; a NULL unsets it (psql: StoreQueryTuple).
 * @throws MetaRefusal when there is not exactly one row (psql's errors, which stop the seed)
 */
export function gset(session: PsqlSession, result: RowSet, prefix: string): void {
  if (result.rows.length === 0) throw new MetaRefusal("no rows returned for \\gset (psql's error; it stops the seed).")
  if (result.rows.length > 1) throw new MetaRefusal("more than one row returned for \\gset (psql's error; it stops the seed).")
  result.fields.forEach((name, k) => {
    const value = result.rows[0][k]
    if (value === null) session.variables.delete(prefix + name)
    else session.variables.set(prefix + name, value)
  })
}

/** `\gexec`'s statements: each non-null cell, row by row, then column by column (psql: ExecQueryTuples). */
export function* gexecCells(result: RowSet): Generator<string> {
  for (const row of result.rows) for (const cell of row) if (cell !== null) yield cell
}

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
import * as core from '@actions/core'
import { asByteText, readable, textBytes, validVariableName } from '../psql/psqlslash.js'
import { HOOKED_VARIABLES } from '../psql/variables.js'
import { MetaRefusal, type PsqlSession } from '../psql/session.js'
import { type RowSet, rawCopy } from './raw-query.js'

/**
 * Streams `file` to the server as `sql` (`COPY … FROM STDIN …`, the `\copy`
 * command's own options, as psql's bytes: psqlslash.ts byteText), through pg-copy-streams with backpressure: memory
 * holds one read chunk (64 KiB), whatever the file's size.
 * @returns the rows the server copied
 * @throws pg.DatabaseError from the server (its `where` names the data line); Error if the file cannot be read
 */
export async function copyFromFile(client: pg.Client, sql: string, file: string): Promise<number> {
  const stream = client.query(rawCopy(copyFrom(readable(sql)), textBytes(sql)))
  await pipeline(createReadStream(file), stream)
  return stream.rowCount
}

/**
 * `\gset [prefix]`: sets prefix + column name to each value of the one row
 * `result` holds; a NULL unsets it; a variable psql treats specially is left
 * alone, with psql's warning (psql: StoreQueryTuple).
 * @throws MetaRefusal when there is not exactly one row, or a column's name is not a valid variable name (psql's errors, which stop the seed)
 */
export function gset(session: PsqlSession, result: RowSet, prefix: string): void {
  if (result.rows.length === 0) throw new MetaRefusal("no rows returned for \\gset (psql's error; it stops the seed).")
  if (result.rows.length > 1) throw new MetaRefusal("more than one row returned for \\gset (psql's error; it stops the seed).")
  for (const [k, field] of result.fields.entries()) {
    const name = prefix + asByteText(field)
    if (HOOKED_VARIABLES.has(name)) {
      core.warning(`attempt to \\gset into specially treated variable "${readable(name)}" ignored (psql's warning).`)
      continue
    }
    // a column without a usable name (`?column?`) is not a variable name: psql stops there (variables.c, SetVariable)
    if (!validVariableName(name))
      throw new MetaRefusal(
        `\\gset: invalid variable name: "${readable(name)}" (psql's error; it stops the seed). Name the column: SELECT … AS name.`
      )
    const value = result.rows[0][k]
    if (value === null) session.variables.delete(name)
    else session.variables.set(name, asByteText(value))
  }
}

/** `\gexec`'s statements: each non-null cell, row by row, then column by column (psql: ExecQueryTuples). */
export function* gexecCells(result: RowSet): Generator<string> {
  for (const row of result.rows) for (const cell of row) if (cell !== null) yield cell
}

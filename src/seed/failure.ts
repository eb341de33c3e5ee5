/**
 * Where a failed load failed: the statement of a failed batch (by the
 * server's error position, or by replaying the batch one statement at a
 * time), the file line of a bad COPY row, and the server's message with COPY
 * values hidden, the line of a meta-command that failed. Each throws the
 * SeedError that names file:line[:column].
 */
import type pg from 'pg'
import { type SeedSource, SeedError, firstLine, locate, place, rescanOptions, startOf } from './check.js'
import { exactMetaLine, exactStatement } from './rescan.js'
import { rawQuery } from './raw-query.js'
import type { SeedStatement } from './grammar.js'
import type { Batch, BatchStatement } from './batch.js'
import type { MetaEvent } from '../psql/scanner.js'

/** Keeps PostgreSQL's message but hides quoted values (COPY data must not reach the log). */
function redactValues(text: string | undefined): string | undefined {
  return text?.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/=\([^)]*\)/g, '=(…)')
}

/** The server's message, detail and hint in one line; `redact` hides quoted values (for COPY data). */
export function describe(err: pg.DatabaseError, redact: boolean): string {
  const message = redact ? redactValues(err.message) : err.message
  const detail = redact ? redactValues(err.detail) : err.detail
  return [message, detail && `detail: ${detail}`, err.hint && `hint: ${err.hint}`].filter(Boolean).join('; ')
}

/** Throws the SeedError of a failed COPY: the file line of the bad row (from the server's "COPY t, line N"), values hidden. */
export async function failCopy(src: SeedSource, ev: SeedStatement, err: pg.DatabaseError): Promise<never> {
  const exact = await exactStatement(src.file, ev.index, rescanOptions(src))
  const rowLine = /line (\d+)/.exec(err.where ?? '')?.[1]
  const line = rowLine && exact.copyDataLine ? exact.copyDataLine + Number(rowLine) - 1 : startOf(exact.statement).line
  throw new SeedError(
    `Seed failed at ${place(src, line)}: ${describe(err, true)} (in the data of "${firstLine(ev.sql)}"). Nothing was kept: the whole seed was rolled back.`,
    src.shown,
    line
  )
}

/** Finds which statement of a failed batch failed, and throws its SeedError. */
export async function failBatch(client: pg.Client, batch: Batch, prefixLength: number, err: pg.DatabaseError): Promise<never> {
  const items = batch.statements()
  let culprit: BatchStatement | undefined
  let error = err
  let position = err.position ? Number(err.position) - prefixLength : undefined
  if (position !== undefined && position > 0) {
    culprit = [...items].reverse().find((it) => it.offset < position!)
    if (culprit) position -= culprit.offset
  } else {
    // No position (a runtime error): replay the batch one statement at a time to find it.
    await client.query('ROLLBACK TO SAVEPOINT preview_postgres_seed')
    for (const it of items) {
      try {
        await rawQuery(client, it.raw)
      } catch (e) {
        culprit = it
        error = e as pg.DatabaseError
        position = error.position ? Number(error.position) : undefined
        break
      }
    }
  }
  if (!culprit) throw new SeedError(`Seeding failed: ${describe(err, false)}. Nothing was kept: the whole seed was rolled back.`)
  const { statement } = await exactStatement(culprit.src.file, culprit.index, rescanOptions(culprit.src))
  const where = position ? locate(statement.sql, position, statement.line, statement.column) : startOf(statement)
  throw new SeedError(
    `Seed failed at ${place(culprit.src, where.line, where.column)}: ${describe(error, false)}. Statement: "${firstLine(culprit.sql)}". ` +
      'Nothing was kept: the whole seed was rolled back.',
    culprit.src.shown,
    where.line,
    where.column
  )
}

/**
 * Throws the SeedError of a meta-command that failed, at its exact line (a
 * rescan: lines after a COPY block lag in the load), or `below` lines under
 * it (a row of its inline data).
 */
export async function failMeta(src: SeedSource, ev: MetaEvent, why: string, below = 0): Promise<never> {
  const line = (await exactMetaLine(src.file, ev.index, ev.line, rescanOptions(src))) + below
  throw new SeedError(`Seed failed at ${place(src, line)}: ${why} Nothing was kept: the whole seed was rolled back.`, src.shown, line)
}

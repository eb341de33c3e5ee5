/**
 * Seeding: runs SQL files on a new database in one session and one
 * transaction, all of it or none of it.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { type Connection, directClientConfig } from '../connection.js'

/** A seed that failed. The database is as it was before seeding (rolled back). */
export class SeedError extends Error {
  constructor(
    message: string,
    /** File (as given to the loader), 1-based line and column of the failing statement, when known. */
    readonly file?: string,
    readonly line?: number,
    readonly column?: number
  ) {
    super(message)
    this.name = 'SeedError'
  }
}

/** 1-based line and column of a 1-based character position in `text`. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, position - 1))
  const lines = before.split('\n')
  return { line: lines.length, column: lines[lines.length - 1].length + 1 }
}

/** Fields of a server error that help the user; never the statement's data. */
function serverDetail(err: pg.DatabaseError): string {
  return [err.detail && `detail: ${err.detail}`, err.hint && `hint: ${err.hint}`].filter(Boolean).join('; ')
}

/** What {@link seedDatabase} did. */
export interface SeedResult {
  files: number
  /** Milliseconds from connect to commit. */
  durationMs: number
}

/**
 * Runs `files` in order on the direct connection of `connection`, inside
 * one `BEGIN … COMMIT`. On any error the transaction is rolled back.
 * @throws SeedError naming the file, line and column, the server's message,
 *   detail and hint; never quoting data.
 */
export async function seedDatabase(connection: Connection, files: string[], cwd = process.cwd()): Promise<SeedResult> {
  const started = Date.now()
  const client = new pg.Client(directClientConfig(connection, 'preview-postgres seed'))
  try {
    await client.connect()
  } catch (err) {
    throw new SeedError(`Seeding could not connect to the new database: ${(err as Error).message}`)
  }
  try {
    await client.query('BEGIN')
    for (const file of files) {
      const shown = path.relative(cwd, file) || file
      const sql = await readFile(file, 'utf8')
      try {
        await client.query(sql)
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined)
        const e = err as pg.DatabaseError
        const where = e.position ? lineAndColumn(sql, Number(e.position)) : undefined
        const at = where ? `${shown}:${where.line}:${where.column}` : shown
        const extra = serverDetail(e)
        throw new SeedError(
          `Seed failed at ${at}: ${e.message}${extra ? ` (${extra})` : ''}. Nothing was kept: the whole seed was rolled back.`,
          shown,
          where?.line,
          where?.column
        )
      }
    }
    await client.query('COMMIT')
    return { files: files.length, durationMs: Date.now() - started }
  } finally {
    await client.end().catch(() => undefined)
  }
}

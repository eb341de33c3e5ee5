/**
 * Schema snapshots of a preview database: `@pgkit/schemainspect` (a port of
 * the maintained Python schemainspect) reads the catalog over our own `pg`
 * client (the run's one session, shared with the seed loader: session.ts).
 */
import type { Queryable } from '@pgkit/client'
import { PostgreSQL } from '@pgkit/schemainspect'
import pg from 'pg'
import type { Connection } from '../connection.js'
import { leaseSession } from '../session.js'

/** The schema of one database at one moment (tables, columns, indexes, constraints, functions, views, …). */
export type SchemaSnapshot = PostgreSQL

/** The query methods schemainspect calls (`any`, `oneFirst`, …), over a `pg` client. */
export function queryable(client: pg.Client): Queryable {
  type Q = { sql: string; values?: unknown[] }
  const any = async (q: Q): Promise<Record<string, unknown>[]> => (await client.query(q.sql, (q.values ?? []) as unknown[])).rows
  const first = (row: Record<string, unknown>): unknown => Object.values(row)[0]
  const maybeOne = async (q: Q) => (await any(q))[0] ?? null
  const one = async (q: Q) => {
    const row = await maybeOne(q)
    if (row === null) throw new Error('schema inspection: a query returned no row')
    return row
  }
  const methods = {
    query: async (q: Q) => ({ rows: await any(q) }),
    any,
    many: any,
    maybeOne,
    one,
    oneFirst: async (q: Q) => first(await one(q)),
    maybeOneFirst: async (q: Q) => {
      const row = await maybeOne(q)
      return row === null ? null : first(row)
    },
    anyFirst: async (q: Q) => (await any(q)).map(first),
    manyFirst: async (q: Q) => (await any(q)).map(first)
  }
  return methods as unknown as Queryable
}

/**
 * Inspects the database's schema over its direct connection.
 * @throws the driver's error when the database cannot be reached or read
 */
export async function inspectSchema(connection: Connection): Promise<SchemaSnapshot> {
  const lease = await leaseSession(connection) // the run's one session (session.ts)
  try {
    return await PostgreSQL.create(queryable(lease.client))
  } finally {
    lease.release()
  }
}

/**
 * Whether `table` (a quoted `"schema"."name"`) has at least one row now.
 * Used to flag `SET NOT NULL` on a table with rows as destructive.
 */
export async function tablesWithRows(connection: Connection, tables: string[]): Promise<Set<string>> {
  const found = new Set<string>()
  if (tables.length === 0) return found
  const lease = await leaseSession(connection)
  try {
    for (const table of tables) {
      const { rows } = await lease.client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`)
      if (rows[0]?.any) found.add(table)
    }
  } finally {
    lease.release()
  }
  return found
}

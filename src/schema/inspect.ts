/**
 * Schema snapshots of a preview database: `@pgkit/schemainspect` (a port of
 * the maintained Python schemainspect) builds them from catalog rows that
 * catalog.ts reads over the run's one session, shared with the seed loader
 * (pg-sessions.ts).
 *
 * Nearly free: schemainspect runs its ~15 catalog queries one
 * after another, a round trip each. catalog.ts sends them all as one simple-protocol
 * batch (one round trip; the server version comes from the startup
 * ParameterStatus, PostgreSQL protocol docs, "server_version" is reported at
 * startup) and we answer schemainspect's calls from those results.
 */
import { type Queryable, sql } from '@pgkit/client'
import { PostgreSQL } from '@pgkit/schemainspect'
import type pg from 'pg'
import { type CatalogRows, readCatalog } from './catalog.js'

/** The schema of one database at one moment (tables, columns, indexes, constraints, functions, views, …). */
export type SchemaSnapshot = PostgreSQL

type Row = Record<string, unknown>
type Q = { sql: string; values?: unknown[] }

/**
 * The query methods schemainspect calls (`any`, `oneFirst`, …), over a `pg`
 * client. `answered` maps a query's text to rows already fetched (the batch).
 */
export function queryable(client: pg.Client, answered: Map<string, Row[]> = new Map()): Queryable {
  const any = async (q: Q): Promise<Row[]> => answered.get(q.sql) ?? (await client.query(q.sql, (q.values ?? []) as unknown[])).rows
  const first = (row: Row): unknown => Object.values(row)[0]
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

let lazyNames = false

/**
 * Makes `@pgkit/client`'s `sql.raw` name its query on first read of `name`
 * instead of at once. schemainspect wraps each of its ~15 catalog queries in
 * `sql.raw` (`PostgreSQL#execute`), whose eager `name` (`nameQuery`) parses
 * the query with pgsql-ast-parser's nearley grammar to make a nickname: about
 * half the CPU of building a snapshot (`node --cpu-prof`), for a name
 * our {@link queryable} never reads. Anything that reads `name` gets the
 * same value as before. Idempotent.
 */
export function nameQueriesLazily(): void {
  if (lazyNames) return
  lazyNames = true
  const eager = sql.raw
  sql.raw = ((query: string, values: unknown[] = []) => {
    let named: ReturnType<typeof eager> | undefined
    const made = {
      sql: query,
      parse: (input: unknown) => input,
      token: 'sql',
      values,
      segments: () => [query],
      templateArgs: () => [[query]]
    }
    return Object.defineProperty(made, 'name', {
      enumerable: true,
      configurable: true,
      get: () => (named ??= eager(query, values as never)).name
    })
  }) as typeof eager
}

/**
 * Builds the snapshot's objects from rows catalog.ts read: CPU only,
 * no database access, so it can run while the database changes.
 * schemainspect's calls are answered by query name (its own texts, which
 * catalog.ts read with the same texts). This is `PostgreSQL.create` without
 * its version query: the version comes with the rows, and `create` writes
 * that query with `@pgkit/client`'s `sql` tag, which names it by parsing it
 * with pgsql-ast-parser's nearley grammar (the first parse of a process:
 * about 25 ms of CPU, `node --cpu-prof`), for a name nothing reads.
 * @throws Error from schemainspect when the rows are not what it expects, or it runs a query the batch did not read
 */
export async function buildSnapshot(catalog: CatalogRows): Promise<SchemaSnapshot> {
  nameQueriesLazily()
  const answered = new Map<string, Row[]>()
  const offline = {
    query: () => Promise.reject(new Error('schema inspection: a catalog query outside the batch'))
  } as unknown as pg.Client
  // The constructor only builds the version's query texts; it reads nothing. Its type is private: `create` is the public way.
  const Inspector = PostgreSQL as unknown as new (c: Queryable, version: string) => SchemaSnapshot & Record<string, unknown>
  const snapshot = new Inspector(queryable(offline, answered), catalog.serverVersion)
  for (const [name, rows] of catalog.rows) {
    const text = snapshot[name]
    if (typeof text === 'string') answered.set(text, rows)
  }
  await snapshot.load_all_async()
  return snapshot
}

/**
 * Reads and builds a whole snapshot over `client` (one round trip).
 * @throws the driver's error when a catalog query fails
 */
export async function inspectOver(client: pg.Client, serverVersion?: string): Promise<SchemaSnapshot> {
  return buildSnapshot(await readCatalog(client, serverVersion))
}

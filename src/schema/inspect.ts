/**
 * Schema snapshots of a preview database: `@pgkit/schemainspect` (a port of
 * the maintained Python schemainspect) reads the catalog over our own `pg`
 * client: the run's one session, shared with the seed loader (pg-sessions.ts).
 *
 * Nearly free: schemainspect runs its ~15 catalog queries one
 * after another, a round trip each. We send them all as one simple-protocol
 * batch (one round trip; the server version comes from the startup
 * ParameterStatus, PostgreSQL protocol docs, "server_version" is reported at
 * startup) and answer schemainspect's calls from those results.
 */
import { type Queryable, sql } from '@pgkit/client'
import { PostgreSQL } from '@pgkit/schemainspect'
import pg from 'pg'
import type { Connection } from '../connection.js'
import { leaseSession } from '../pg-sessions.js'

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

/** The catalog queries schemainspect runs (`PostgreSQL#execute` names). */
const QUERIES = [
  'SCHEMAS_QUERY',
  'ENUMS_QUERY',
  'ALL_RELATIONS_QUERY',
  'INDEXES_QUERY',
  'SEQUENCES_QUERY',
  'CONSTRAINTS_QUERY',
  'EXTENSIONS_QUERY',
  'FUNCTIONS_QUERY',
  'PRIVILEGES_QUERY',
  'TRIGGERS_QUERY',
  'COLLATIONS_QUERY',
  'RLSPOLICIES_QUERY',
  'TYPES_QUERY',
  'DOMAINS_QUERY',
  'DEPS_QUERY'
] as const
const VERSION_QUERY = "select current_setting('server_version') server_version"

/** The catalog's rows for one snapshot, read but not yet built into objects. */
export type CatalogRows = Map<string, Row[]>

/**
 * Reads the catalog rows of a whole snapshot over `client` in one batch (one round trip).
 * @param serverVersion `server_version` as the server reported it ("17.2"); read with a query when absent
 * @throws the driver's error when a catalog query fails
 */
export async function readCatalog(client: pg.Client, serverVersion?: string): Promise<CatalogRows> {
  const version = serverVersion ?? String((await client.query<{ server_version: string }>(VERSION_QUERY)).rows[0]?.server_version)
  // The constructor only builds the version's query texts; it reads nothing.
  const Inspector = PostgreSQL as unknown as new (c: Queryable, version: string) => Record<string, string | null>
  const texts = new Inspector(queryable(client), version)
  const batch = QUERIES.map((name) => texts[name]).filter((q): q is string => typeof q === 'string')
  const results = (await client.query(batch.join('\n;\n'))) as unknown as pg.QueryResult[] | pg.QueryResult
  const list = Array.isArray(results) ? results : [results]
  if (list.length !== batch.length) throw new Error(`schema inspection: ${batch.length} catalog queries gave ${list.length} results`)
  const answered: CatalogRows = new Map(batch.map((q, i) => [q, list[i]!.rows as Row[]]))
  answered.set(VERSION_QUERY, [{ server_version: version }])
  return answered
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
 * Builds the snapshot's objects from rows {@link readCatalog} read: CPU only,
 * no database access, so it can run while the database changes.
 * @throws Error from schemainspect when the rows are not what it expects
 */
export function buildSnapshot(rows: CatalogRows): Promise<SchemaSnapshot> {
  nameQueriesLazily()
  const offline = {
    query: () => Promise.reject(new Error('schema inspection: a catalog query outside the batch'))
  } as unknown as pg.Client
  return PostgreSQL.create(queryable(offline, rows))
}

/**
 * Reads and builds a whole snapshot over `client` (one round trip).
 * @throws the driver's error when a catalog query fails
 */
export async function inspectOver(client: pg.Client, serverVersion?: string): Promise<SchemaSnapshot> {
  return buildSnapshot(await readCatalog(client, serverVersion))
}

/**
 * The catalog's view of the run's one PostgreSQL session (pg-sessions.ts, shared
 * with the seed loader: one handshake a run). Each use leases the
 * session and gives it back, so it holds no connection of its own; a session
 * the server ended (say, while `seed-command` ran) is replaced at the next lease.
 */
export class CatalogSession {
  private constructor(private readonly connection: Connection) {}

  /** Never connects by itself: the first {@link read} leases the session. */
  static open(connection: Connection): Promise<CatalogSession> {
    return Promise.resolve(new CatalogSession(connection))
  }

  /** Always false: pg-sessions.ts opens a new connection when the last one ended. */
  readonly ended = false

  /** The catalog rows of the schema now, in one batch of catalog queries ({@link buildSnapshot} makes the snapshot). @throws the driver's error */
  async read(): Promise<CatalogRows> {
    const lease = await leaseSession(this.connection)
    try {
      return await readCatalog(lease.client, lease.serverVersion())
    } finally {
      lease.release()
    }
  }

  /**
   * Which of `tables` (quoted `"schema"."name"`) have at least one row now,
   * in one query. Used to flag `SET NOT NULL` on a table with rows as destructive.
   * @throws the driver's error
   */
  async tablesWithRows(tables: string[]): Promise<Set<string>> {
    const found = new Set<string>()
    if (tables.length === 0) return found
    const select = tables.map((t, i) => `EXISTS (SELECT 1 FROM ${t}) AS "${i}"`).join(', ')
    const lease = await leaseSession(this.connection)
    try {
      const row = (await lease.client.query<Record<string, boolean>>(`SELECT ${select}`)).rows[0] ?? {}
      tables.forEach((t, i) => {
        if (row[String(i)]) found.add(t)
      })
    } finally {
      lease.release()
    }
    return found
  }

  /** Nothing to close: main.ts ends the run's sessions (pg-sessions.ts endSessions). Never throws. */
  async close(): Promise<void> {}
}

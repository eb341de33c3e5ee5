/**
 * The catalog reads of the schema diff, apart from the inspector: the texts
 * of schemainspect's catalog queries (its `queries` module, a plain map of
 * SQL texts, without the inspector, the differ and the SQL grammar they pull
 * in), sent as one batch, and the session they are read over. This module
 * is part of the main bundle, so a snapshot's rows can be read before the
 * schema tools' chunk is loaded; inspect.ts builds them into a snapshot.
 */
import { queries } from '@pgkit/schemainspect/dist/queries.js'
import type pg from 'pg'
import type { Connection } from '../connection.js'
import { leaseSession } from '../pg-sessions.js'

type Row = Record<string, unknown>

/** The catalog queries schemainspect runs (`PostgreSQL#execute` names), in its order. */
export const CATALOG_QUERIES = [
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
export type CatalogQuery = (typeof CATALOG_QUERIES)[number]

/**
 * Queries not sent, answered with no rows: grants are neither counted
 * (changes.ts) nor rendered (render.ts applies no `privileges` group of
 * migra's), and nothing else of schemainspect's reads them. Saves the
 * server a scan of every object's ACL in each snapshot.
 */
const NOT_READ: ReadonlySet<CatalogQuery> = new Set(['PRIVILEGES_QUERY'])

/** Each query's file in schemainspect's `queries` map. */
const FILES: Record<CatalogQuery, string> = {
  SCHEMAS_QUERY: 'schemas.sql',
  ENUMS_QUERY: 'enums.sql',
  ALL_RELATIONS_QUERY: 'relations.sql',
  INDEXES_QUERY: 'indexes.sql',
  SEQUENCES_QUERY: 'sequences.sql',
  CONSTRAINTS_QUERY: 'constraints.sql',
  EXTENSIONS_QUERY: 'extensions.sql',
  FUNCTIONS_QUERY: 'functions.sql',
  PRIVILEGES_QUERY: 'privileges.sql',
  TRIGGERS_QUERY: 'triggers.sql',
  COLLATIONS_QUERY: 'collations.sql',
  RLSPOLICIES_QUERY: 'rlspolicies.sql',
  TYPES_QUERY: 'types.sql',
  DOMAINS_QUERY: 'domains.sql',
  DEPS_QUERY: 'deps.sql'
}

/**
 * The texts schemainspect 0.6.1's `PostgreSQL` constructor makes for a
 * server version (without `include_internal`): its markers replaced as it
 * replaces them (`-- SKIP_INTERNAL`, `-- 11_AND_LATER` or `-- 10_AND_EARLIER`,
 * `-- 12_ONLY` or `-- PRE_12` in the relations query, `\:` → `:`), with its
 * two casts to text for node-postgres (enum labels, policy roles); before
 * PostgreSQL 10, its `9` variants and no policies query. A unit test checks
 * them against the constructor's, text for text.
 * @param serverVersion `server_version` ("17.2")
 * @returns the text of each query, absent where schemainspect runs none
 * @throws Error when the version does not start with a number
 */
export function catalogTexts(serverVersion: string): Partial<Record<CatalogQuery, string>> {
  const major = Number.parseInt(serverVersion.split('.')[0]!, 10)
  if (Number.isNaN(major)) throw new Error(`Unexpected server version: ${serverVersion}`)
  const processed = (q: string): string =>
    q
      .replaceAll('-- SKIP_INTERNAL', '')
      .replaceAll(major >= 11 ? '-- 11_AND_LATER' : '-- 10_AND_EARLIER', '')
      .replaceAll('\\:', ':')
  const texts: Partial<Record<CatalogQuery, string>> = {}
  for (const name of CATALOG_QUERIES) {
    let file = FILES[name]
    if (major <= 9 && name === 'RLSPOLICIES_QUERY') continue
    if (major <= 9 && (name === 'ALL_RELATIONS_QUERY' || name === 'COLLATIONS_QUERY')) file = file.replace('.sql', '9.sql')
    let text = queries[file as keyof typeof queries] as string
    // schemainspect's own deviations for node-postgres, which parses neither enum arrays nor unknown types
    if (name === 'ENUMS_QUERY') text = text.replace('SELECT e.enumlabel', 'SELECT e.enumlabel::text')
    if (name === 'RLSPOLICIES_QUERY') text = text.replace('pg_get_userbyid(o)', 'pg_get_userbyid(o)::text')
    if (major > 9 && name === 'ALL_RELATIONS_QUERY') text = text.replaceAll(major >= 12 ? '-- 12_ONLY' : '-- PRE_12', '')
    texts[name] = processed(text)
  }
  return texts
}

/** The catalog's rows for one snapshot, by query, read but not yet built into objects; with the server version they were read from. */
export interface CatalogRows {
  serverVersion: string
  rows: Map<CatalogQuery, Row[]>
}

const VERSION_QUERY = "select current_setting('server_version') server_version"

/**
 * Reads the catalog rows of a whole snapshot over `client` in one batch (one
 * round trip); the queries in {@link NOT_READ} get no rows.
 * @param serverVersion `server_version` as the server reported it ("17.2"); read with a query when absent
 * @throws the driver's error when a catalog query fails
 */
export async function readCatalog(client: pg.Client, serverVersion?: string): Promise<CatalogRows> {
  const version = serverVersion ?? String((await client.query<{ server_version: string }>(VERSION_QUERY)).rows[0]?.server_version)
  const texts = catalogTexts(version)
  const names = CATALOG_QUERIES.filter((name) => texts[name] !== undefined && !NOT_READ.has(name))
  const results = (await client.query(names.map((name) => texts[name]).join('\n;\n'))) as unknown as pg.QueryResult[] | pg.QueryResult
  const list = Array.isArray(results) ? results : [results]
  if (list.length !== names.length) throw new Error(`schema inspection: ${names.length} catalog queries gave ${list.length} results`)
  const rows = new Map<CatalogQuery, Row[]>(names.map((name, i) => [name, list[i]!.rows as Row[]]))
  for (const name of NOT_READ) if (texts[name] !== undefined) rows.set(name, [])
  return { serverVersion: version, rows }
}

/**
 * The catalog's view of the run's one PostgreSQL session (pg-sessions.ts, shared
 * with the seed loader: one handshake a run). Each use leases the
 * session and gives it back, so it holds no connection of its own; a session
 * the server ended (say, while `seed-command` ran) is replaced at the next lease.
 */
export class CatalogSession {
  constructor(private readonly connection: Connection) {}

  /** The catalog rows of the schema now, in one batch of catalog queries (inspect.ts builds the snapshot). @throws the driver's error */
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
}

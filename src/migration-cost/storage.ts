/**
 * Which tables a user command rewrote: one catalog query before the command
 * and one after, compared by each table's `relfilenode`.
 *
 * PostgreSQL docs, Storage File Layout: a table's data lives in the file
 * named by `pg_class.relfilenode`; "some operations, such as TRUNCATE,
 * REINDEX, CLUSTER and some forms of ALTER TABLE, can change the filenode
 * while preserving the OID". A table (same OID) whose filenode changed had
 * its storage replaced: a rewrite (ALTER COLUMN … TYPE, ADD COLUMN with a
 * volatile DEFAULT, SET LOGGED/UNLOGGED, VACUUM FULL, CLUSTER, REFRESH
 * MATERIALIZED VIEW) or a TRUNCATE (the new file is empty: the rows are
 * gone, nothing was copied). Tables created or dropped by the command have
 * no "before" or no "after" and are neither. Temporary tables are left out.
 *
 * The query reads the catalog, sizes and statistics only, never a row's
 * values; see {@link SNAPSHOT_SQL} for how rows are counted.
 */
import type pg from 'pg'

/** One table, view of the catalog at one moment. */
export interface StoredTable {
  /** `pg_class.oid`: stays the same through a rewrite. */
  oid: number
  schema: string
  name: string
  /** `pg_class.relkind`: `r` table, `p` partitioned table (no storage of its own), `m` materialized view. */
  kind: 'r' | 'p' | 'm'
  /** `pg_class.relfilenode` (0 for a partitioned table). */
  filenode: number
  /** Rows: exact or the planner's estimate (see {@link SNAPSHOT_SQL}). */
  rows: number
  /** `pg_total_relation_size`: the table with its indexes and TOAST, in bytes. */
  bytes: number
  /** `pg_relation_size`: the main fork alone, in bytes (0 once truncated). */
  mainBytes: number
}

/** Tables by OID. */
export type StorageSnapshot = Map<number, StoredTable>

/** A table whose storage the command replaced, with its rows and size BEFORE the command. */
export interface ReplacedTable {
  /** `schema.name`, quoted where SQL needs it. */
  table: string
  rows: number
  /** Bytes before, `pg_total_relation_size`. */
  bytes: number
}

/**
 * A table of at most this many bytes (main fork) whose row count the
 * statistics do not know (never vacuumed or analyzed, and no cumulative
 * statistics) is counted with `count(*)`; a larger one is estimated from its
 * size and its columns' widths, as the planner does for such a table.
 */
export const EXACT_COUNT_MAX_BYTES = 32 * 1024 * 1024

/**
 * The one catalog query of a snapshot; `$1` is {@link EXACT_COUNT_MAX_BYTES}.
 * Rows, in order of preference:
 * 1. `pg_class.reltuples` when it is known (≥ 0; PostgreSQL 14+ says -1 for
 *    a table never vacuumed or analyzed): the planner's estimate, kept by
 *    VACUUM, ANALYZE and CREATE INDEX; what autovacuum keeps current on a
 *    production table.
 * 2. `pg_stat_user_tables.n_live_tup` when positive (cumulative statistics).
 * 3. 0 when the main fork is empty.
 * 4. `count(*)` (through `query_to_xml`, so the snapshot stays one query)
 *    when the table is small and readable to the role.
 * 5. Else pages × rows per page, rows per page from the column widths plus
 *    the tuple header and line pointer (28 bytes), 32 bytes for a
 *    variable-width column: the planner's own fallback (plancat.c,
 *    `estimate_rel_size`).
 */
export const SNAPSHOT_SQL = `SELECT c.oid::int8 AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind,
  c.relfilenode::int8 AS filenode, pg_total_relation_size(c.oid) AS bytes, pg_relation_size(c.oid) AS main_bytes,
  CASE
    WHEN c.reltuples >= 0 THEN round(c.reltuples)::int8
    WHEN coalesce(s.n_live_tup, 0) > 0 THEN s.n_live_tup
    WHEN pg_relation_size(c.oid) = 0 THEN 0
    WHEN pg_relation_size(c.oid) <= $1 AND has_table_privilege(c.oid, 'SELECT') THEN
      (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', n.nspname, c.relname), false, true, '')))[1]::text::int8
    ELSE (pg_relation_size(c.oid) / current_setting('block_size')::int8) * floor((current_setting('block_size')::int8 - 24) / (28 +
      coalesce((SELECT sum(CASE WHEN a.attlen > 0 THEN a.attlen ELSE 32 END) FROM pg_attribute a
                WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), 0)))::int8
  END AS rows
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
WHERE c.relkind IN ('r', 'p', 'm') AND c.relpersistence <> 't'
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp_)'`

/** `schema.name`, each part double-quoted when SQL would need it (as `regclass` prints names). */
export function qualifiedName(schema: string, name: string): string {
  const q = (s: string): string => (/^[a-z_][a-z0-9_$]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`)
  return `${q(schema)}.${q(name)}`
}

/** {@link SNAPSHOT_SQL} with its parameter in the text, for the simple query protocol (several statements in one message). */
export const SNAPSHOT_SQL_INLINE = SNAPSHOT_SQL.replace('$1', String(EXACT_COUNT_MAX_BYTES))

/** Tries of {@link takeSnapshot} that a statement timeout ends before it is lifted. */
const SNAPSHOT_TRIES = 3

/**
 * Reads every user table's storage in one round trip on `client` (a session
 * others use too): in a read-only transaction of its own with no statement
 * timeout (`SET LOCAL`, so the session keeps its settings), because the
 * command may have set one on the database or role. The `BEGIN` and the
 * `SET LOCAL` still run under that timeout (PostgreSQL applies it to each
 * statement of a simple query, PostgreSQL docs, statement_timeout), so one
 * of a millisecond can end them on a busy server: a cancel by the timeout
 * (SQLSTATE 57014) is tried again, {@link SNAPSHOT_TRIES} times in all.
 * @throws the driver's error when the query fails (the transaction is rolled back)
 */
export async function takeSnapshot(client: pg.ClientBase): Promise<StorageSnapshot> {
  for (let attempt = 1; ; attempt++) {
    try {
      const results = (await client.query(
        `BEGIN READ ONLY; SET LOCAL statement_timeout = 0; ${SNAPSHOT_SQL_INLINE}; COMMIT`
      )) as unknown as pg.QueryResult<Record<string, string>>[]
      return snapshotOf(results[2].rows)
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined)
      if ((err as { code?: string }).code !== '57014' || attempt >= SNAPSHOT_TRIES) throw err
    }
  }
}

/** The snapshot of {@link SNAPSHOT_SQL}'s rows (int8 columns arrive as strings). */
export function snapshotOf(rows: Record<string, string>[]): StorageSnapshot {
  const tables: StorageSnapshot = new Map()
  for (const r of rows) {
    const t: StoredTable = {
      oid: Number(r.oid),
      schema: r.schema,
      name: r.name,
      kind: r.kind as StoredTable['kind'],
      filenode: Number(r.filenode),
      rows: Math.max(0, Number(r.rows)),
      bytes: Number(r.bytes),
      mainBytes: Number(r.main_bytes)
    }
    tables.set(t.oid, t)
  }
  return tables
}

/**
 * The tables present before and after whose filenode changed. A table whose
 * main fork is empty after, but was not before, was truncated; every other
 * one was rewritten. Sorted by bytes before, largest first.
 */
export function replacedTables(
  before: StorageSnapshot,
  after: StorageSnapshot
): { rewrites: ReplacedTable[]; truncations: ReplacedTable[] } {
  const rewrites: ReplacedTable[] = []
  const truncations: ReplacedTable[] = []
  for (const [oid, b] of before) {
    const a = after.get(oid)
    if (!a || a.filenode === b.filenode || b.filenode === 0) continue
    const entry = { table: qualifiedName(b.schema, b.name), rows: b.rows, bytes: b.bytes }
    if (a.mainBytes === 0 && b.mainBytes > 0) truncations.push(entry)
    else rewrites.push(entry)
  }
  const order = (x: ReplacedTable, y: ReplacedTable): number => y.bytes - x.bytes || x.table.localeCompare(y.table)
  return { rewrites: rewrites.sort(order), truncations: truncations.sort(order) }
}

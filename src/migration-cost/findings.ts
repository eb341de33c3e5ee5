/**
 * What a user command cost on the data it ran on: the `migration-report`
 * JSON file, and the warnings for the PR comment and the job summary.
 * Names, counts, sizes and durations only: never a row's values.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Hold } from './holds.js'
import { type ReplacedTable, type StorageSnapshot, type StoredTable, qualifiedName } from './storage.js'

/** The `migration-report` file's content. */
export interface MigrationCost {
  /** Tables rewritten (new storage, data copied), with rows and bytes before, largest first. */
  rewrites: ReplacedTable[]
  /** Per relation and lock mode, the longest time seen held by the command's sessions (ms), longest first. */
  locks: { relation: string; mode: string; heldMs: number }[]
  /** Tables emptied by TRUNCATE (new, empty storage: nothing copied, the rows are gone), with rows and bytes before. */
  truncations: ReplacedTable[]
  /** Why lock holds are missing or end early (the watcher could not watch to the end), when they are. */
  locksUnavailable?: string
}

/** A table counts as large above this many rows. */
export const LARGE_TABLE_ROWS = 10_000
/** A lock that blocks others counts as long from this many milliseconds. */
export const LONG_HOLD_MS = 100

/** The lock modes that block a table's writes (SHARE and stronger; PostgreSQL docs, Table-Level Lock Modes). */
const BLOCKS_WRITES = new Set(['ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'])

/**
 * The report of one command: tables replaced (storage.ts) and holds
 * (holds.ts) named from the snapshots (a relation in neither, such as an
 * index, a sequence or a table created and dropped by the command, is left
 * out).
 */
export function migrationCost(
  replaced: { rewrites: ReplacedTable[]; truncations: ReplacedTable[] },
  holds: Hold[],
  before: StorageSnapshot,
  after: StorageSnapshot | undefined,
  locksUnavailable?: string
): MigrationCost {
  const locks: MigrationCost['locks'] = []
  for (const h of holds) {
    const t = before.get(h.oid) ?? after?.get(h.oid)
    if (t) locks.push({ relation: qualifiedName(t.schema, t.name), mode: h.mode, heldMs: h.heldMs })
  }
  locks.sort((a, b) => b.heldMs - a.heldMs || a.relation.localeCompare(b.relation) || a.mode.localeCompare(b.mode))
  return { rewrites: replaced.rewrites, locks, truncations: replaced.truncations, ...(locksUnavailable ? { locksUnavailable } : {}) }
}

/** Where the report is written (the `migration-report` output). */
export function migrationReportPath(): string {
  const dir = process.env.RUNNER_TEMP || os.tmpdir()
  mkdirSync(dir, { recursive: true })
  return path.join(dir, 'preview-postgres-migration-report.json')
}

/** Writes `cost` as JSON to {@link migrationReportPath}. @returns the path */
export function writeMigrationReport(cost: MigrationCost): string {
  const file = migrationReportPath()
  writeFileSync(file, JSON.stringify(cost, null, 2) + '\n')
  return file
}

/** A table name as Markdown code (a backtick in the name would end the span). */
const code = (name: string): string => `\`${name.replace(/`/g, "'")}\``

/** "300,000". */
const count = (n: number): string => Math.round(n).toLocaleString('en-US')

/** Bytes as `pg_size_pretty` prints them (1024-based): "8192 bytes", "12 MB". */
export function prettySize(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB']
  let v = bytes
  let u = 0
  while (Math.abs(v) >= 10 * 1024 - 0.5 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return `${Math.round(v)} ${units[u]}`
}

/** "240 ms", "1.3 s", "2 min 5 s". */
export function prettyDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

const LOCK_NAMES: Record<string, string> = {
  AccessExclusiveLock: 'ACCESS EXCLUSIVE',
  ExclusiveLock: 'EXCLUSIVE',
  ShareRowExclusiveLock: 'SHARE ROW EXCLUSIVE',
  ShareLock: 'SHARE'
}

/** What to do instead, from PostgreSQL's documentation, by what was seen. */
const INSTEAD = {
  rewrite:
    'a table rewrite (`ALTER COLUMN … TYPE`, `ADD COLUMN` with a volatile `DEFAULT`, `SET LOGGED`, `VACUUM FULL`, `CLUSTER`) holds ACCESS EXCLUSIVE throughout: ' +
    'add a new column, backfill it in batches, then switch to it; a type change needs no rewrite when the old type is binary coercible to the new one (`varchar(n)` → `text`) (PostgreSQL docs, ALTER TABLE, Notes)',
  matview: 'use `REFRESH MATERIALIZED VIEW CONCURRENTLY` (needs a unique index; reads go on) (PostgreSQL docs, REFRESH MATERIALIZED VIEW)',
  accessExclusive:
    'no rewrite, so most likely a scan that validates every row: add the constraint `NOT VALID`, then `VALIDATE CONSTRAINT` in a later transaction (SHARE UPDATE EXCLUSIVE: reads and writes go on); ' +
    'for `SET NOT NULL`, a validated `CHECK (col IS NOT NULL)` lets it skip the scan (PostgreSQL docs, ALTER TABLE)',
  share:
    'most likely `CREATE INDEX`: use `CREATE INDEX CONCURRENTLY` (writes go on) (PostgreSQL docs, CREATE INDEX, Building Indexes Concurrently)',
  shareRowExclusive:
    'most likely `ADD FOREIGN KEY` or `CREATE TRIGGER`: add a foreign key `NOT VALID`, then `VALIDATE CONSTRAINT` (PostgreSQL docs, ALTER TABLE)',
  exclusive: 'writes wait while it is held'
}

/**
 * One Markdown line per finding, for the comment and the job summary; []
 * when the command rewrote nothing and held no blocking lock for long:
 * - each rewrite of a table over {@link LARGE_TABLE_ROWS} rows (table,
 *   rows and size before, how long ACCESS EXCLUSIVE was seen held), then
 *   one line counting the rewrites of smaller tables;
 * - each table over {@link LARGE_TABLE_ROWS} rows, not rewritten, whose
 *   ACCESS EXCLUSIVE or other write-blocking lock (SHARE and stronger) was
 *   held over {@link LONG_HOLD_MS} ms: the strongest such lock;
 * - each table that TRUNCATE emptied of rows.
 * Each says what to do instead where PostgreSQL's documentation names it.
 * @param before the "before" snapshot: rows, sizes and kinds of the tables
 */
export function costLines(cost: MigrationCost, before: StorageSnapshot): string[] {
  const byName = new Map([...before.values()].map((t) => [qualifiedName(t.schema, t.name), t]))
  const rowsOf = (table: string): StoredTable | undefined => byName.get(table)
  const lines: string[] = []
  const strongest = new Map<string, { mode: string; heldMs: number }>()
  const rank = ['ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock']
  for (const l of cost.locks) {
    if (!BLOCKS_WRITES.has(l.mode)) continue
    const had = strongest.get(l.relation)
    if (!had || rank.indexOf(l.mode) > rank.indexOf(had.mode)) strongest.set(l.relation, l)
  }
  const held = (table: string): string => {
    const ae = cost.locks.find((l) => l.relation === table && l.mode === 'AccessExclusiveLock')
    return ae ? `, under an ACCESS EXCLUSIVE lock seen held ${prettyDuration(ae.heldMs)} (reads and writes wait)` : ''
  }
  let small = 0
  const rewritten = new Set<string>()
  for (const r of cost.rewrites) {
    rewritten.add(r.table)
    if (r.rows <= LARGE_TABLE_ROWS) {
      small++
      continue
    }
    const matview = rowsOf(r.table)?.kind === 'm'
    lines.push(
      `- ${code(r.table)} (${count(r.rows)} rows, ${prettySize(r.bytes)}): **rewritten**${held(r.table)}. Instead: ${matview ? INSTEAD.matview : INSTEAD.rewrite}.`
    )
  }
  for (const [table, l] of strongest) {
    const t = rowsOf(table)
    if (rewritten.has(table) || !t || t.rows <= LARGE_TABLE_ROWS || l.heldMs <= LONG_HOLD_MS) continue
    const instead =
      l.mode === 'AccessExclusiveLock'
        ? INSTEAD.accessExclusive
        : l.mode === 'ShareLock'
          ? INSTEAD.share
          : l.mode === 'ShareRowExclusiveLock'
            ? INSTEAD.shareRowExclusive
            : INSTEAD.exclusive
    const waits = l.mode === 'AccessExclusiveLock' ? 'reads and writes wait' : 'writes wait'
    lines.push(
      `- ${code(table)} (${count(t.rows)} rows, ${prettySize(t.bytes)}): **${LOCK_NAMES[l.mode]} lock** seen held ${prettyDuration(l.heldMs)} (${waits}). Instead: ${instead}.`
    )
  }
  for (const r of cost.truncations) {
    if (r.rows === 0) continue
    lines.push(
      `- ${code(r.table)} (${count(r.rows)} rows, ${prettySize(r.bytes)}): **emptied by TRUNCATE** (new empty storage, not a rewrite: its rows are gone).`
    )
  }
  if (small > 0)
    lines.push(
      `- ${small} more rewrite${small === 1 ? '' : 's'} of table${small === 1 ? '' : 's'} of ${count(LARGE_TABLE_ROWS)} rows or fewer (listed in the \`migration-report\` file).`
    )
  return lines
}

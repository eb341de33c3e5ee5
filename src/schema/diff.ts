/**
 * What a pull request does to the database's schema: two
 * schema snapshots compared object by object (changes.ts), summarised in
 * one line, with destructive changes flagged, and shown as a diff.
 *
 * Instant mode compares the schema after `seed` with the schema after
 * `seed-command` (what the PR's migrations changed). Branch mode compares the
 * new branch as created (its parent's schema) with the branch after `seed`
 * and `seed-command`, and shows the platform's own compare_schema diff
 * against the parent.
 *
 * The diff shown is, in order of preference: the platform's compare_schema
 * text (branch mode); migra's script, repaired (render.ts); a listing made
 * from the snapshots, with a note saying why migra's script is not shown.
 */
import { type ChangeKind, type ObjectChange, type ObjectKind, NOT_NULL_ON_ROWS, compareSnapshots } from './changes.js'
import type { CatalogRows } from './catalog.js'
import { type SchemaSnapshot, buildSnapshot } from './inspect.js'
import { checkParses, migraStatements, renderListing, renderStatements } from './render.js'

/** The schema change of one run. */
export interface SchemaDiff {
  changed: boolean
  /** The objects that differ, from the catalog snapshots. */
  objects: ObjectChange[]
  /** One line: "1 table added, 2 columns added, 1 column dropped" or "no schema change". */
  summary: string
  /** The diff shown to reviewers (body of a ```diff block), whole. */
  diff: string
  /** Where `diff` comes from: migra's script, the platform's compare_schema endpoint, or a listing of the snapshots' objects. */
  source: 'migra' | 'platform' | 'listing'
  /** Why migra's script is not shown (it threw, or did not parse); set with `source: 'listing'` or when the platform's diff stood in. */
  note?: string
  /** One line per destructive change: what it does and why it is destructive. */
  destructive: string[]
}

const PLURAL: Record<ObjectKind, string> = {
  table: 'tables',
  column: 'columns',
  index: 'indexes',
  constraint: 'constraints',
  view: 'views',
  'materialized view': 'materialized views',
  function: 'functions',
  trigger: 'triggers',
  type: 'types',
  sequence: 'sequences',
  policy: 'policies',
  extension: 'extensions'
}

/** "2 tables added, 1 column dropped": objects, not statements, kinds in a fixed order. */
export function summarise(objects: ObjectChange[]): string {
  const parts: string[] = []
  for (const kind of Object.keys(PLURAL) as ObjectKind[]) {
    for (const change of ['added', 'changed', 'dropped'] as ChangeKind[]) {
      const n = objects.filter((s) => s.kind === kind && s.change === change).length
      if (n > 0) parts.push(`${n} ${n === 1 ? kind : PLURAL[kind]} ${change}`)
    }
  }
  return parts.length ? parts.join(', ') : 'no schema change'
}

/** migra's script as diff lines, or why it cannot be shown. */
async function migraRendering(before: SchemaSnapshot, after: SchemaSnapshot): Promise<{ diff: string } | { note: string }> {
  try {
    const statements = await migraStatements(before, after)
    try {
      await checkParses(statements.join('\n\n'))
    } catch (err) {
      return { note: `the generated migration script is not valid SQL (${(err as Error).message})` }
    }
    return { diff: renderStatements(statements) }
  } catch (err) {
    return { note: `the migration script could not be generated (${(err as Error).message})` }
  }
}

/**
 * Compares two snapshots of one database.
 * @param rowsIn returns which of the given tables (quoted names) have rows after the change
 * @param platformDiff the platform's compare_schema text, shown instead of ours when given
 * @throws what `rowsIn` throws (the caller turns it into "schema diff unavailable")
 */
export async function diffSchemas(
  before: SchemaSnapshot,
  after: SchemaSnapshot,
  rowsIn: (tables: string[]) => Promise<Set<string>>,
  platformDiff?: string
): Promise<SchemaDiff> {
  const objects = compareSnapshots(before, after)
  const notNull = objects.filter((o) => o.notNull && o.table)
  const rows = await rowsIn([...new Set(notNull.map((o) => o.table!))])
  const label = (o: ObjectChange): string => (o.table && !o.name.startsWith(o.table) ? `${o.table}.${o.name}` : o.name)
  const destructive = objects.flatMap((o) => [
    ...(o.destructive ? [`${label(o)}: ${o.destructive}`] : []),
    ...(o.notNull && rows.has(o.table!) ? [`${label(o)}: ${NOT_NULL_ON_ROWS}`] : [])
  ])
  const usePlatform = platformDiff !== undefined && platformDiff.trim() !== ''
  const base = { changed: objects.length > 0 || usePlatform, objects, summary: summarise(objects), destructive }
  if (usePlatform) return { ...base, diff: platformDiff!.trimEnd(), source: 'platform' }
  if (objects.length === 0) return { ...base, diff: '', source: 'migra' }
  const rendered = await migraRendering(before, after)
  if ('diff' in rendered) return { ...base, diff: rendered.diff, source: 'migra' }
  return { ...base, diff: renderListing(objects), source: 'listing', note: rendered.note }
}

/** Above this many catalog rows in "before", {@link warmUpDiffer} does nothing (its work grows with the schema). */
const WARM_UP_MAX_ROWS = 600

/**
 * Runs the differ once, from an empty schema to `before`, and throws the
 * result away, so that the real comparison later finds its code compiled
 * and its lazy parts made: in a fresh process the first migra script costs
 * several times the next one (about 80 against 40 ms for 11 tables on a
 * loaded 2-core machine). Meant to run where the CPU is otherwise idle
 * (while `seed-command` runs). Does nothing for a schema of more than
 * {@link WARM_UP_MAX_ROWS} catalog rows. Never throws.
 * @param rows the rows `before` was built from (their version and size)
 */
export async function warmUpDiffer(before: SchemaSnapshot, rows: CatalogRows): Promise<void> {
  let n = 0
  for (const list of rows.rows.values()) n += list.length
  if (n > WARM_UP_MAX_ROWS) return
  try {
    const empty = await buildSnapshot({ serverVersion: rows.serverVersion, rows: new Map([...rows.rows.keys()].map((k) => [k, []])) })
    await migraRendering(empty, before)
  } catch {
    // only a warm-up
  }
}

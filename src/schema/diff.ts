/**
 * What a pull request does to the database's schema (issue 15): two schema
 * snapshots compared with `@pgkit/migra` (a port of the maintained migra),
 * its statements classified with the PostgreSQL grammar, summarised in one
 * line and shown as a diff.
 *
 * Instant mode compares the schema after `seed` with the schema after
 * `seed-command` (what the PR's migrations changed). Branch mode compares the
 * new branch as created (its parent's schema) with the branch after `seed`
 * and `seed-command`, and shows the platform's own compare_schema diff
 * against the parent.
 */
import { Migration } from '@pgkit/migra'
import { type ChangeKind, type ClassifiedStatement, type ObjectKind, NOT_NULL_ON_ROWS, classifyScript } from './classify.js'
import type { SchemaSnapshot } from './inspect.js'

/** The schema change of one run. */
export interface SchemaDiff {
  changed: boolean
  statements: ClassifiedStatement[]
  /** One line: "1 table added, 2 columns added, 1 column dropped" or "no schema change". */
  summary: string
  /** The diff shown to reviewers (body of a ```diff block), whole. */
  diff: string
  /** Where `diff` comes from: our comparison, or the platform's compare_schema endpoint. */
  source: 'migra' | 'platform'
  /** One line per destructive statement: what it does and why it is destructive. */
  destructive: string[]
}

const PLURAL: Record<ObjectKind, [string, string]> = {
  table: ['table', 'tables'],
  column: ['column', 'columns'],
  index: ['index', 'indexes'],
  constraint: ['constraint', 'constraints'],
  function: ['function', 'functions'],
  view: ['view', 'views'],
  other: ['other statement', 'other statements']
}

/** "2 tables added, 1 column dropped" (kinds in a fixed order; follow-up statements not counted). */
export function summarise(statements: ClassifiedStatement[]): string {
  const parts: string[] = []
  for (const kind of Object.keys(PLURAL) as ObjectKind[]) {
    for (const change of ['added', 'changed', 'dropped'] as ChangeKind[]) {
      const n = statements.filter((s) => s.kind === kind && s.change === change && !s.followUp).length
      if (n > 0) parts.push(`${n} ${PLURAL[kind][n === 1 ? 0 : 1]} ${change}`)
    }
  }
  return parts.length ? parts.join(', ') : 'no schema change'
}

/** The statements as diff lines: `+` adds, `-` drops, `~` changes; each statement's lines kept together. */
export function renderStatements(statements: ClassifiedStatement[]): string {
  const mark: Record<ChangeKind, string> = { added: '+', dropped: '-', changed: '~' }
  const seen = new Set<string>()
  const lines: string[] = []
  for (const s of statements) {
    if (seen.has(s.sql)) continue // one ALTER TABLE with several commands is one statement
    seen.add(s.sql)
    const m = mark[s.change]
    for (const line of s.sql.split('\n')) if (line.trim()) lines.push(`${m} ${line.replace(/^ {2}/, '')}`)
  }
  return lines.join('\n')
}

type Columns = Record<string, string>
function columnTypes(snapshot: SchemaSnapshot, table: string): Columns | undefined {
  const t = snapshot.tables[table] as unknown as { columns?: Record<string, { dbtypestr?: string }> } | undefined
  if (!t?.columns) return undefined
  return Object.fromEntries(Object.entries(t.columns).map(([name, c]) => [name, String(c.dbtypestr ?? '')]))
}

/**
 * Compares two snapshots of one database.
 * @param rowsIn returns which of the given tables (quoted names) have rows after the change
 * @param platformDiff the platform's compare_schema text, shown instead of ours when given
 */
export async function diffSchemas(
  before: SchemaSnapshot,
  after: SchemaSnapshot,
  rowsIn: (tables: string[]) => Promise<Set<string>>,
  platformDiff?: string
): Promise<SchemaDiff> {
  const migration = await Migration.create(before, after, {})
  migration.set_safety(false)
  migration.add_all_changes()
  const statements = await classifyScript(migration.sql, {
    columnTypes: (t) => columnTypes(before, t),
    newColumnTypes: (t) => columnTypes(after, t),
    functionExisted: (name) => Object.keys(before.functions).some((k) => k.startsWith(`${name}(`))
  })
  const notNull = statements.filter((s) => s.notNull && s.table)
  const rows = await rowsIn([...new Set(notNull.map((s) => s.table!))])
  for (const s of notNull) if (rows.has(s.table!)) s.destructive = NOT_NULL_ON_ROWS
  const destructive = statements.filter((s) => s.destructive).map((s) => `${s.table ?? s.name ?? ''}${s.name && s.table ? `.${s.name}` : ''}: ${s.destructive}`)
  const ours = renderStatements(statements)
  const usePlatform = platformDiff !== undefined && platformDiff.trim() !== ''
  return {
    changed: statements.length > 0 || usePlatform,
    statements,
    summary: summarise(statements),
    diff: usePlatform ? platformDiff!.trimEnd() : ours,
    source: usePlatform ? 'platform' : 'migra',
    destructive
  }
}

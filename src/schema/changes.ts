/**
 * What a schema change does, read from the two catalog snapshots' structured
 * objects, not from re-parsing generated DDL: which objects were
 * added, changed or dropped, and which changes are destructive for a
 * database with data.
 *
 * Counted: tables, columns (type, nullability, default, identity, generated,
 * collation), constraints, indexes, views, materialized views, functions,
 * triggers, types (enum, domain, composite), sequences, extensions and
 * row-level security policies. A new table's own columns, indexes and
 * constraints are part of it (its triggers and policies are counted); a
 * dropped table's parts all go with it. Not counted: sequences
 * owned by a column (part of the column), grants, settings, comments.
 *
 * Destructive: dropped tables or columns; column type changes that
 * may rewrite the table or narrow values; `SET NOT NULL` on a table that has
 * rows (the caller checks the rows); dropped constraints (data may rely on them).
 */
import type { SchemaSnapshot } from './inspect.js'

/** The kinds the one-line summary counts, in its order. */
export type ObjectKind =
  | 'table'
  | 'column'
  | 'index'
  | 'constraint'
  | 'view'
  | 'materialized view'
  | 'function'
  | 'trigger'
  | 'type'
  | 'sequence'
  | 'policy'
  | 'extension'
export type ChangeKind = 'added' | 'changed' | 'dropped'

/** One object that differs between the snapshots. */
export interface ObjectChange {
  kind: ObjectKind
  change: ChangeKind
  /** Quoted name as the catalog reads (`"public"."items"`, `"public"."f"(integer)`, `pgcrypto`). */
  name: string
  /** Quoted `"schema"."table"` for columns, constraints, indexes, triggers and policies. */
  table?: string
  /** Why the change can lose or reject data; absent when it cannot. */
  destructive?: string
  /** Nullability went to NOT NULL: destructive when the table has rows ({@link NOT_NULL_ON_ROWS}). */
  notNull?: boolean
  /** What changed, for the listing ("type character varying(10) → character varying(4)"). */
  detail?: string
}

/**
 * A type change that neither rewrites the table nor narrows values
 * (PostgreSQL docs, ALTER TABLE: "changing the type of an existing column
 * will normally cause the entire table to be rewritten", except binary
 * coercible widenings): varchar(n) → varchar(m ≥ n), varchar or text,
 * numeric(p,s) → numeric(p' ≥ p, s) or unconstrained numeric.
 */
export function isSafeWidening(from: string, to: string): boolean {
  if (from === to) return true
  const varchar = /^character varying(?:\((\d+)\))?$/
  const f = varchar.exec(from)
  if (f) {
    if (to === 'text') return true
    const t = varchar.exec(to)
    return !!t && (!t[1] || (!!f[1] && Number(t[1]) >= Number(f[1])))
  }
  const numeric = /^numeric(?:\((\d+),(\d+)\))?$/
  const nf = numeric.exec(from)
  const nt = numeric.exec(to)
  if (nf && nt) return !nt[1] || (!!nf[1] && Number(nt[1]) >= Number(nf[1]) && nt[2] === nf[2])
  return false
}

/** A `SET NOT NULL` is destructive only on a table with rows: classification marks it, the caller checks the rows. */
export const NOT_NULL_ON_ROWS = 'adds NOT NULL to a column of a table with rows'

type Obj = Record<string, unknown> & { equals?(o: unknown): boolean; create_statement?: string }
type Column = {
  dbtypestr?: string
  not_null?: boolean
  default?: string | null
  collation?: string | null
  is_identity?: boolean
  is_identity_always?: boolean
  is_generated?: boolean
}
type Table = Obj & { columns: Record<string, Column>; schema: string; name: string }

const tableOf = (o: Obj): string => `"${String(o.schema)}"."${String(o.table_name)}"`
const same = (a: Obj, b: Obj): boolean => (typeof a.equals === 'function' ? a.equals(b) : JSON.stringify(a) === JSON.stringify(b))

/** Keys added, dropped and present in both, of two name → object maps. */
function keyed<T>(before: Record<string, T>, after: Record<string, T>): { added: string[]; dropped: string[]; both: string[] } {
  const b = Object.keys(before)
  const a = Object.keys(after)
  return { added: a.filter((k) => !(k in before)), dropped: b.filter((k) => !(k in after)), both: a.filter((k) => k in before) }
}

/** Columns of a table present in both snapshots. */
function columnChanges(table: string, before: Table, after: Table): ObjectChange[] {
  const out: ObjectChange[] = []
  const { added, dropped, both } = keyed(before.columns, after.columns)
  for (const c of added) out.push({ kind: 'column', change: 'added', table, name: c })
  for (const c of dropped) out.push({ kind: 'column', change: 'dropped', table, name: c, destructive: 'drops a column and its values' })
  for (const c of both) {
    const x = before.columns[c]!
    const y = after.columns[c]!
    const details: string[] = []
    let destructive: string | undefined
    if (x.dbtypestr !== y.dbtypestr) {
      details.push(`type ${x.dbtypestr} → ${y.dbtypestr}`)
      if (!isSafeWidening(String(x.dbtypestr), String(y.dbtypestr)))
        destructive = `changes the type from ${x.dbtypestr} to ${y.dbtypestr}, which may rewrite the table or narrow values`
    }
    if (!!x.not_null !== !!y.not_null) details.push(y.not_null ? 'NOT NULL' : 'nullable')
    if ((x.default ?? null) !== (y.default ?? null)) details.push(y.default ? `default ${y.default}` : 'no default')
    if (x.collation !== y.collation) details.push(`collation ${y.collation ?? 'default'}`)
    if (!!x.is_identity !== !!y.is_identity || !!x.is_identity_always !== !!y.is_identity_always)
      details.push(y.is_identity ? 'identity' : 'not identity')
    if (!!x.is_generated !== !!y.is_generated) details.push(y.is_generated ? 'generated' : 'not generated')
    if (details.length === 0) continue
    out.push({
      kind: 'column',
      change: 'changed',
      table,
      name: c,
      destructive,
      notNull: !x.not_null && !!y.not_null,
      detail: details.join(', ')
    })
  }
  return out
}

const TABLE_PROPS = ['rowsecurity', 'forcerowsecurity', 'partition_def', 'parent_table', 'persistence'] as const

/**
 * Compares two snapshots object by object.
 * @returns the changed objects, kinds in summary order; owned sequences, grants, settings and comments left out
 */
export function compareSnapshots(before: SchemaSnapshot, after: SchemaSnapshot): ObjectChange[] {
  const out: ObjectChange[] = []
  const B = before as unknown as Record<string, Record<string, Obj>>
  const A = after as unknown as Record<string, Record<string, Obj>>
  const get = (s: Record<string, Record<string, Obj>>, k: string): Record<string, Obj> => s[k] ?? {}

  const tables = keyed(get(B, 'tables'), get(A, 'tables'))
  const whole = new Set([...tables.added, ...tables.dropped]) // their parts are part of them
  for (const t of tables.added) out.push({ kind: 'table', change: 'added', name: t })
  for (const t of tables.dropped) out.push({ kind: 'table', change: 'dropped', name: t, destructive: 'drops a table and its rows' })
  for (const t of tables.both) {
    const x = get(B, 'tables')[t] as Table
    const y = get(A, 'tables')[t] as Table
    const props = TABLE_PROPS.filter((p) => JSON.stringify(x[p] ?? null) !== JSON.stringify(y[p] ?? null))
    if (props.length) out.push({ kind: 'table', change: 'changed', name: t, detail: props.join(', ') })
    out.push(...columnChanges(t, x, y))
  }

  // Parts of relations: a new or dropped relation's own parts are part of it.
  const relations = keyed(get(B, 'relations'), get(A, 'relations'))
  const wholeRel = new Set([...whole, ...relations.added, ...relations.dropped])
  const constraintIndexes = new Set<string>()
  for (const snap of [B, A])
    for (const c of Object.values(get(snap, 'constraints')))
      if (c.index) constraintIndexes.add(`"${String(c.schema)}"."${String(c.index)}"`)
  const parts = (
    kind: 'index' | 'constraint' | 'trigger' | 'policy',
    key: string,
    skip?: (k: string) => boolean,
    dropReason?: string
  ): void => {
    const bx = get(B, key)
    const ax = get(A, key)
    const k = keyed(bx, ax)
    // Triggers and policies are counted on a new table too; a dropped table's go with it.
    const partOfNew = (t: string): boolean => (kind === 'index' || kind === 'constraint') && wholeRel.has(t)
    for (const n of k.added)
      if (!partOfNew(tableOf(ax[n]!)) && !skip?.(n)) out.push({ kind, change: 'added', name: n, table: tableOf(ax[n]!) })
    for (const n of k.dropped)
      if (!wholeRel.has(tableOf(bx[n]!)) && !skip?.(n))
        out.push({ kind, change: 'dropped', name: n, table: tableOf(bx[n]!), destructive: dropReason })
    for (const n of k.both) if (!skip?.(n) && !same(bx[n]!, ax[n]!)) out.push({ kind, change: 'changed', name: n, table: tableOf(ax[n]!) })
  }
  parts('index', 'indexes', (n) => constraintIndexes.has(n)) // a constraint's index is the constraint
  parts('constraint', 'constraints', undefined, 'drops a constraint that data may rely on')

  const plain = (kind: ObjectKind, key: string, compare: (x: Obj, y: Obj) => boolean = same, skip?: (o: Obj) => boolean): void => {
    const bx = get(B, key)
    const ax = get(A, key)
    const k = keyed(bx, ax)
    for (const n of k.added) if (!skip?.(ax[n]!)) out.push({ kind, change: 'added', name: n })
    for (const n of k.dropped) if (!skip?.(bx[n]!)) out.push({ kind, change: 'dropped', name: n })
    for (const n of k.both) if (!skip?.(ax[n]!) && !compare(bx[n]!, ax[n]!)) out.push({ kind, change: 'changed', name: n })
  }
  const definition = (x: Obj, y: Obj): boolean => x.definition === y.definition
  plain('view', 'views', definition)
  plain('materialized view', 'materialized_views', definition)
  plain('function', 'functions')
  parts('trigger', 'triggers')
  for (const key of ['enums', 'domains', 'composite_types']) plain('type', key, (x, y) => x.create_statement === y.create_statement)
  plain('sequence', 'sequences', same, (s) => !!s.table_name) // owned by a column: part of it
  parts('policy', 'rlspolicies')
  plain('extension', 'extensions')

  const order: ObjectKind[] = [
    'table',
    'column',
    'index',
    'constraint',
    'view',
    'materialized view',
    'function',
    'trigger',
    'type',
    'sequence',
    'policy',
    'extension'
  ]
  // A constraint dropped and re-added under the same name is a change, not a drop: `same` already says "changed".
  return out.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind))
}

/**
 * What each statement of a schema migration does, read with the real
 * PostgreSQL grammar (`libpg-query`): which kind of object it adds, changes
 * or drops, and whether it is destructive for a database with data.
 *
 * Destructive (issue 15): dropped tables or columns; column type changes that
 * may rewrite the table or narrow values; `SET NOT NULL` on a table that has
 * rows; dropped constraints (data may rely on them). A constraint dropped and
 * re-added under the same name on the same table is a change, not a drop.
 */
import { restoreDirname } from '../seed/wasm-dirname.js'
import { loadModule, parseSync } from 'libpg-query'

/** The kinds the one-line summary counts. */
export type ObjectKind = 'table' | 'column' | 'index' | 'constraint' | 'function' | 'view' | 'other'
export type ChangeKind = 'added' | 'changed' | 'dropped'

/** One migration statement, classified. */
export interface ClassifiedStatement {
  sql: string
  kind: ObjectKind
  change: ChangeKind
  /** Quoted `"schema"."table"` for table-level statements. */
  table?: string
  /** The column, constraint or function name the statement is about. */
  name?: string
  /** Why the statement can lose or reject data; absent when it cannot. */
  destructive?: string
  /** Part of another change (VALIDATE CONSTRAINT after ADD … NOT VALID; a new table's own indexes and constraints): not counted. */
  followUp?: boolean
  /** A `SET NOT NULL`: destructive when the table has rows. */
  notNull?: boolean
}

/** Facts about the schema before and after that classification needs. */
export interface SchemaFacts {
  /** `"schema"."table"` → column name → type as the catalog shows it (`character varying(3)`). */
  columnTypes(table: string): Record<string, string> | undefined
  /** Type of the column after the migration. */
  newColumnTypes(table: string): Record<string, string> | undefined
  /** Functions (`"schema"."name"`) that existed before. */
  functionExisted(name: string): boolean
}

type Node = Record<string, unknown>
const str = (n: unknown): string => ((n as { String?: { sval?: string } })?.String?.sval ?? '')
const quoted = (schema: string | undefined, name: string): string => `"${schema || 'public'}"."${name}"`
const relation = (r: unknown): string => {
  const rel = r as { schemaname?: string; relname: string }
  return quoted(rel.schemaname, rel.relname)
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

/**
 * Splits a migration script into statements where the PostgreSQL grammar
 * ends them (so semicolons in function bodies do not split), and classifies
 * each. `SET NOT NULL` statements get `notNull: true`; the caller decides
 * from the table's rows whether they are destructive ({@link NOT_NULL_ON_ROWS}).
 * @throws Error when the script does not parse
 */
export async function classifyScript(script: string, facts: SchemaFacts): Promise<ClassifiedStatement[]> {
  await loadModule().then(restoreDirname)
  if (script.trim() === '') return []
  const bytes = Buffer.from(script, 'utf8')
  const parsed = parseSync(script) as { stmts?: { stmt: Node; stmt_location?: number; stmt_len?: number }[] }
  const out: ClassifiedStatement[] = []
  for (const { stmt, stmt_location = 0, stmt_len } of parsed.stmts ?? []) {
    const end = stmt_len ? stmt_location + stmt_len : bytes.length
    const sql = bytes.subarray(stmt_location, end).toString('utf8').trim()
    const [type, body] = Object.entries(stmt)[0] ?? ['', {}]
    out.push(...classifyOne(sql, type, body as Node, facts))
  }
  // A new table's own indexes and constraints (its primary key, say) are part of adding it.
  const newTables = new Set(out.filter((s) => s.kind === 'table' && s.change === 'added').map((s) => s.table))
  for (const s of out) if ((s.kind === 'index' || s.kind === 'constraint') && s.change === 'added' && newTables.has(s.table)) s.followUp = true
  // A constraint dropped and added again under the same name is a changed constraint.
  for (const drop of out.filter((s) => s.kind === 'constraint' && s.change === 'dropped')) {
    const add = out.find((s) => s.kind === 'constraint' && s.change === 'added' && !s.followUp && s.table === drop.table && s.name === drop.name)
    if (add) {
      drop.change = 'changed'
      drop.destructive = undefined
      add.change = 'changed'
      add.followUp = true
    }
  }
  return out
}

function classifyOne(sql: string, type: string, body: Node, facts: SchemaFacts): ClassifiedStatement[] {
  switch (type) {
    case 'CreateStmt':
      return [{ sql, kind: 'table', change: 'added', table: relation(body.relation) }]
    case 'ViewStmt':
      return [{ sql, kind: 'view', change: body.replace ? 'changed' : 'added', table: relation(body.view) }]
    case 'IndexStmt':
      return [{ sql, kind: 'index', change: 'added', name: String(body.idxname ?? ''), table: relation(body.relation) }]
    case 'CreateFunctionStmt': {
      const parts = (body.funcname as unknown[]).map(str)
      const name = quoted(parts.length > 1 ? parts[0] : undefined, parts.at(-1)!)
      return [{ sql, kind: 'function', change: facts.functionExisted(name) ? 'changed' : 'added', name }]
    }
    case 'DropStmt': {
      const kinds: Record<string, ObjectKind> = { OBJECT_TABLE: 'table', OBJECT_INDEX: 'index', OBJECT_FUNCTION: 'function', OBJECT_VIEW: 'view', OBJECT_MATVIEW: 'view' }
      const kind = kinds[String(body.removeType)] ?? 'other'
      const first = (body.objects as Node[] | undefined)?.[0] ?? {}
      const parts = ((first.List as { items?: unknown[] })?.items ?? (first.ObjectWithArgs as { objname?: unknown[] })?.objname ?? []).map(str)
      const name = parts.length ? quoted(parts.length > 1 ? parts[0] : undefined, parts.at(-1)!) : undefined
      if (kind === 'table') return [{ sql, kind, change: 'dropped', table: name, destructive: 'drops a table and its rows' }]
      return [{ sql, kind, change: 'dropped', name }]
    }
    case 'AlterTableStmt':
      return ((body.cmds as Node[]) ?? []).map((c) => classifyAlter(sql, relation(body.relation), c.AlterTableCmd as Node, facts))
    default:
      return [{ sql, kind: 'other', change: 'changed' }]
  }
}

function classifyAlter(sql: string, table: string, cmd: Node, facts: SchemaFacts): ClassifiedStatement {
  const name = String(cmd.name ?? (cmd.def as { Constraint?: { conname?: string } })?.Constraint?.conname ?? '')
  switch (cmd.subtype) {
    case 'AT_AddColumn':
      return { sql, kind: 'column', change: 'added', table, name: String((cmd.def as { ColumnDef?: { colname?: string } })?.ColumnDef?.colname ?? '') }
    case 'AT_DropColumn':
      return { sql, kind: 'column', change: 'dropped', table, name, destructive: 'drops a column and its values' }
    case 'AT_AlterColumnType': {
      const from = facts.columnTypes(table)?.[name]
      const to = facts.newColumnTypes(table)?.[name]
      const safe = from !== undefined && to !== undefined && isSafeWidening(from, to)
      return {
        sql,
        kind: 'column',
        change: 'changed',
        table,
        name,
        destructive: safe ? undefined : `changes the type${from && to ? ` from ${from} to ${to}` : ''}, which may rewrite the table or narrow values`
      }
    }
    case 'AT_SetNotNull':
      return { sql, kind: 'column', change: 'changed', table, name, notNull: true }
    case 'AT_AddConstraint':
      return { sql, kind: 'constraint', change: 'added', table, name }
    case 'AT_ValidateConstraint':
      return { sql, kind: 'constraint', change: 'added', table, name, followUp: true }
    case 'AT_DropConstraint':
      return { sql, kind: 'constraint', change: 'dropped', table, name, destructive: 'drops a constraint that data may rely on' }
    default:
      return { sql, kind: 'column', change: 'changed', table, name }
  }
}

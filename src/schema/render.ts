/**
 * The schema change as text for reviewers: a rendering only; the
 * summary and the destructive warnings come from the catalog comparison
 * (changes.ts).
 *
 * `@pgkit/migra` 0.6.1 writes the migration script. Two of its faults are
 * repaired here, where that is safe:
 * - `create domain … CHECK (…)` has no terminating `;` (schemainspect's
 *   InspectedDomain.create_statement): we add it;
 * - domains are created after the tables that use them (migra's
 *   add_all_changes order): we create them right after enums and sequences,
 *   before any table (a domain's base type is a built-in or an enum).
 * - PostgreSQL 17 lists a domain's NOT NULL among its constraints, so the
 *   check clause repeats it (`not null` then `NOT NULL CHECK (…)`), which
 *   would add a second NOT NULL constraint: we drop the repeat;
 * - a constraint that is NOT VALID in "after" gets `… NOT VALID not valid`
 *   and then `validate constraint` (InspectedConstraint's
 *   safer_create_statements), which fails on the rows it does not hold for,
 *   and differs from "after": we keep it NOT VALID.
 * The repaired script is then parsed with PostgreSQL's grammar
 * (`libpg-query`); when migra throws or its script still does not parse, the
 * caller shows another rendering and says why.
 */
import { Migration } from '@pgkit/migra/dist/migra.js' // its own module: the package's index also loads migra's command line
import { loadParser, parseSql } from '../sql-parser.js'
import type { ChangeKind, ObjectChange } from './changes.js'
import type { SchemaSnapshot } from './inspect.js'

/** migra's change groups (`Migration#changes`), in the order we apply them: migra's own, with domain creations moved before tables. */
const ORDER: [string, Record<string, boolean>][] = [
  ['schemas', { creations_only: true }],
  ['extensions', { creations_only: true, modifications: false }],
  ['extensions', { modifications_only: true, modifications: true }],
  ['collations', { creations_only: true }],
  ['enums', { creations_only: true, modifications: false }],
  ['sequences', { creations_only: true }],
  ['triggers', { drops_only: true }],
  ['rlspolicies', { drops_only: true }],
  ['non_pk_constraints', { drops_only: true }],
  ['mv_indexes', { drops_only: true }],
  ['non_table_selectable_drops', {}],
  ['pk_constraints', { drops_only: true }],
  ['non_mv_indexes', { drops_only: true }],
  ['domains', { creations_only: true }], // migra: after the tables that use them
  ['tables_only_selectables', {}],
  ['sequences', { drops_only: true }],
  ['enums', { drops_only: true, modifications: false }],
  ['extensions', { drops_only: true, modifications: false }],
  ['domains', { drops_only: true }],
  ['non_mv_indexes', { creations_only: true }],
  ['pk_constraints', { creations_only: true }],
  ['non_pk_constraints', { creations_only: true }],
  ['non_table_selectable_creations', {}],
  ['mv_indexes', { creations_only: true }],
  ['rlspolicies', { creations_only: true }],
  ['triggers', { creations_only: true }],
  ['collations', { drops_only: true }],
  ['schemas', { drops_only: true }]
]

/** A statement of migra's with its terminating `;` (migra leaves it off `create domain`). */
export function terminate(statement: string): string {
  const s = statement.trimEnd()
  return s === '' || s.endsWith(';') ? s : `${s};`
}

/** A `create domain` of migra's without the repeated NOT NULL of PostgreSQL 17's catalog; other statements as they are. */
export function dropRepeatedNotNull(statement: string): string {
  return /^create domain /.test(statement)
    ? statement.replace(/^not null\nNOT NULL(?: |;|$)/m, (m) => `not null\n${m.slice('not null\nNOT NULL'.length).trimStart()}`)
    : statement
}

/**
 * Statements for constraints NOT VALID in "after": `… NOT VALID not valid;`
 * becomes `… NOT VALID;`, and their `validate constraint` is left out.
 */
export function keepNotValid(statements: string[], notValid: { table: string; name: string }[]): string[] {
  const validates = new Set(notValid.map((c) => `alter table ${c.table} validate constraint "${c.name}";`))
  return statements.filter((s) => !validates.has(s)).map((s) => s.replace(/ NOT VALID not valid;$/, ' NOT VALID;'))
}

/**
 * migra's migration from `before` to `after`, repaired (see the module doc):
 * one string per statement, in the order to run them.
 * @throws Error from migra when it cannot compare the snapshots
 */
export async function migraStatements(before: SchemaSnapshot, after: SchemaSnapshot): Promise<string[]> {
  const m = await Migration.create(before, after, {})
  m.set_safety(false)
  const changes = m.changes as unknown as Record<string, (o: Record<string, boolean>) => unknown>
  for (const [group, options] of ORDER) m.add(changes[group]!.call(m.changes, options) as Parameters<typeof m.add>[0])
  const list = (m.statements as unknown as { array: string[] }).array
  const constraints = Object.values(
    after.constraints as unknown as Record<string, { schema: string; table_name: string; name: string; definition?: string }>
  )
  const notValid = constraints
    .filter((c) => /\bNOT VALID$/.test(c.definition ?? ''))
    .map((c) => ({ table: `"${c.schema}"."${c.table_name}"`, name: c.name }))
  return keepNotValid(
    list.map((s) => dropRepeatedNotNull(terminate(s))),
    notValid
  ).filter((s) => s.trim() !== '')
}

/**
 * Checks a script with PostgreSQL's grammar.
 * @throws Error (the parser's message) when it does not parse
 */
export async function checkParses(script: string): Promise<void> {
  await loadParser()
  if (script.trim() !== '') parseSql(script)
}

const MARK: Record<ChangeKind, string> = { added: '+', dropped: '-', changed: '~' }

/** The statements as diff lines: `+` creates, `-` drops, `~` anything else; each statement's lines kept together. */
export function renderStatements(statements: string[]): string {
  const lines: string[] = []
  for (const s of statements) {
    const m = /^\s*(create|alter\s+table\s+\S+\s+add\b)/i.test(s) ? '+' : /^\s*(drop|alter\s+table\s+\S+\s+drop\b)/i.test(s) ? '-' : '~'
    for (const line of s.split('\n')) if (line.trim()) lines.push(`${m} ${line.replace(/^ {2}/, '')}`)
  }
  return lines.join('\n')
}

/** A listing of the changed objects, one a line ("+ table "public"."items""), made from the snapshots' comparison. */
export function renderListing(changes: ObjectChange[]): string {
  return changes
    .map(
      (c) =>
        `${MARK[c.change]} ${c.kind} ${c.table && !c.name.startsWith(c.table) ? `${c.table}.` : ''}${c.name}${c.detail ? ` (${c.detail})` : ''}`
    )
    .join('\n')
}

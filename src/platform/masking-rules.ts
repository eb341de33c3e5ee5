/**
 * The `masking-rules` input: YAML or JSON in the input, or `@path/to/file`,
 * a list of rules in either of two shapes (each rule one or the other):
 *
 * - ours: `{database?, schema, table, column, function | value}`, where
 *   `value` is a literal: a YAML string goes out as an SQL string literal
 *   (quotes doubled), a number as a number, `null` as `NULL`, a boolean as
 *   `true`/`false`;
 * - Neon's (the API's MaskingRule, as neondatabase/create-branch-action's
 *   `masking_rules` takes it): `{database_name?, schema_name, table_name,
 *   column_name, masking_function | masking_value}`, where `masking_value`
 *   is SQL text passed through as is (Neon docs, data anonymization: a static
 *   literal value such as `'REDACTED'`, `0` or `NULL`).
 *
 * Parsed and validated before any network call; the result maps 1:1 onto
 * Neon's MaskingRule (Neon API spec, `public-v2-for-users.gen.yaml`).
 *
 * The spec marks every MaskingRule field `x-sensitive`; a value or a
 * function's literal argument could carry real data (a salt), so
 * {@link ruleSecrets} names them for the runner's log masking, leaving out
 * what masking would only garble the log with: strings under 4 characters,
 * numbers, booleans, NULL and column names (which the comment shows).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import type { MaskingRuleInput } from '../settings.js'

/** Platform spec, MaskingRule. */
export interface MaskingRule {
  database_name: string
  schema_name: string
  table_name: string
  column_name: string
  masking_function?: string
  masking_value?: string
}

/** A `masking-rules` input the action refuses; the message names the input, the rule and what to fix. */
export class MaskingRulesError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MaskingRulesError'
  }
}

const KEYS = ['database', 'schema', 'table', 'column', 'function', 'value'] as const
/** Neon API spec, MaskingRule: the keys of Neon's shape, in the order of {@link KEYS}. */
const NEON_KEYS = ['database_name', 'schema_name', 'table_name', 'column_name', 'masking_function', 'masking_value'] as const

/** PostgreSQL's identifier limit: NAMEDATALEN - 1 = 63 bytes. */
const MAX_IDENTIFIER_BYTES = 63

/** A function call: an optionally schema-qualified name, then `(arguments)`. */
const CALL = /^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*\s*\(([\s\S]*)\)$/

function fail(where: string, what: string): never {
  throw new MaskingRulesError(`Input \`masking-rules\`${where}: ${what}`)
}

function identifier(v: unknown, key: string, where: string): string {
  if (typeof v !== 'string' || v === '') fail(where, `\`${key}\` must be a non-empty name; got ${JSON.stringify(v) ?? 'nothing'}.`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(v) || v !== v.trim())
    fail(where, `\`${key}\` ${JSON.stringify(v)} must have no control characters and no leading or trailing spaces.`)
  if (Buffer.byteLength(v) > MAX_IDENTIFIER_BYTES)
    fail(where, `\`${key}\` "${v}" is longer than PostgreSQL's ${MAX_IDENTIFIER_BYTES} bytes.`)
  return v
}

/** An SQL literal for a YAML/JSON scalar: a string quoted (quotes doubled), a finite number, `true`/`false`, `NULL`; undefined for anything else. */
export function sqlLiteral(v: unknown): string | undefined {
  if (v === null) return 'NULL'
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v === 'boolean') return String(v)
  return undefined
}

/** One entry of the list, checked; `e` in our shape or in Neon's (keys named by `keys`). */
function ruleOf(entry: unknown, i: number): MaskingRuleInput {
  const where = ` (rule ${i + 1})`
  if (!entry || typeof entry !== 'object' || Array.isArray(entry))
    fail(
      where,
      "each rule must be a mapping {schema, table, column, function | value} (or Neon's {schema_name, table_name, column_name, masking_function | masking_value})."
    )
  const e = entry as Record<string, unknown>
  const neon = Object.keys(e).some((k) => (NEON_KEYS as readonly string[]).includes(k))
  const keys: readonly string[] = neon ? NEON_KEYS : KEYS
  const [dbKey, schemaKey, tableKey, columnKey, functionKey, valueKey] = keys
  const unknown = Object.keys(e).filter((k) => !keys.includes(k))
  if (unknown.length)
    fail(
      where,
      `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `\`${k}\``).join(', ')}; a rule has ${keys.map((k) => `\`${k}\``).join(', ')}` +
        (neon ? " (Neon's shape; do not mix it with `schema`, `table`, …)" : '') +
        '.'
    )
  const rule: MaskingRuleInput = {
    schema: identifier(e[schemaKey], schemaKey, where),
    table: identifier(e[tableKey], tableKey, where),
    column: identifier(e[columnKey], columnKey, where)
  }
  if (e[dbKey] !== undefined) rule.database = identifier(e[dbKey], dbKey, where)
  const at = ` (rule ${i + 1}, ${rule.schema}.${rule.table}.${rule.column})`
  const hasFunction = e[functionKey] !== undefined && e[functionKey] !== null
  const hasValue = e[valueKey] !== undefined
  if (hasFunction === hasValue)
    fail(
      at,
      `give exactly one of \`${functionKey}\` (for example anon.fake_email()) or \`${valueKey}\` (${neon ? "SQL text such as 'REDACTED' or 0" : 'a literal'}).`
    )
  if (hasFunction) {
    const f = typeof e[functionKey] === 'string' ? e[functionKey].trim() : ''
    if (!CALL.test(f)) fail(at, `\`${functionKey}\` must be a call such as anon.fake_email() or anon.partial(column, 2, '***', 2).`)
    rule.function = f
  } else if (neon) {
    // Neon's masking_value is SQL text: sent as given.
    if (typeof e.masking_value !== 'string' || e.masking_value.trim() === '')
      fail(at, "`masking_value` must be SQL text such as 'REDACTED', 0 or NULL (quote it in YAML).")
    rule.value = e.masking_value
  } else {
    const sql = sqlLiteral(e.value)
    if (sql === undefined) fail(at, '`value` must be a string, a number, a boolean or null.')
    rule.value = sql
  }
  return rule
}

/**
 * Parses the `masking-rules` input.
 * @param text the input: YAML or JSON, or `@path` (relative to `cwd`)
 * @param cwd the directory `@path` is relative to (the workspace)
 * @returns the rules in input order; an empty list when the input is empty.
 * @throws MaskingRulesError for an unreadable file, bad YAML/JSON, a wrong
 *   shape, a bad name, neither or both of `function`/`value`, or a column named twice.
 */
export function parseMaskingRules(text: string, cwd = process.cwd()): MaskingRuleInput[] {
  let source = text.trim()
  if (source === '') return []
  let origin = ''
  if (source.startsWith('@')) {
    const file = path.resolve(cwd, source.slice(1).trim())
    origin = ` (file ${source.slice(1).trim()})`
    try {
      source = readFileSync(file, 'utf8')
    } catch (err) {
      fail(origin, `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`)
    }
  }
  let doc: unknown
  try {
    doc = parse(source) // YAML 1.2 is a superset of JSON
  } catch (err) {
    fail(origin, `not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`)
  }
  if (!Array.isArray(doc) || doc.length === 0)
    fail(origin, 'must be a non-empty list of rules, each {schema, table, column, function | value}.')
  const rules = doc.map(ruleOf)
  const seen = new Set<string>()
  for (const r of rules) {
    const key = JSON.stringify([r.database ?? '', r.schema, r.table, r.column])
    if (seen.has(key)) fail(origin, `column ${r.schema}.${r.table}.${r.column} has more than one rule.`)
    seen.add(key)
  }
  return rules
}

/** Shortest string worth masking in the log: shorter ones (`0`, `N/A`) would garble it and carry nothing personal. */
const MIN_SECRET = 4

/** A number, a boolean or NULL in SQL: a replacement constant, nothing to mask. */
const CONSTANT = /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|true|false|null)$/i

/** A plain or quoted identifier (a column name, which the comment shows). */
const NAME = /^(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")$/

/** Splits `a, 'b, c', 3` into its arguments, keeping quoted strings whole. */
function splitArguments(text: string): string[] {
  const out: string[] = []
  let cur = ''
  let quote = ''
  let depth = 0
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = ''
    } else if (ch === "'" || ch === '"') quote = ch
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (ch === ',' && depth === 0) {
      out.push(cur.trim())
      cur = ''
      continue
    }
    cur += ch
  }
  if (cur.trim() !== '') out.push(cur.trim())
  return out
}

/**
 * What of one SQL text (a value, an argument) to mask: a string literal's
 * content (and its quoted spelling, when it has a doubled quote), or the text;
 * nothing for a constant, a name or under 4 characters.
 */
function secretsOf(sql: string): string[] {
  const text = sql.trim()
  const quoted = /^'((?:[^']|'')*)'$/.exec(text)
  const forms = quoted ? [quoted[1].replace(/''/g, "'"), quoted[1]] : CONSTANT.test(text) || NAME.test(text) ? [] : [text]
  return forms.filter((f) => f.trim().length >= MIN_SECRET)
}

/**
 * The strings to mask in the log (Neon API spec: MaskingRule fields are
 * x-sensitive): each value and each argument of each function, as their text
 * (a string literal's content), except strings under 4 characters, numbers,
 * booleans, NULL and column names.
 */
export function ruleSecrets(rules: MaskingRuleInput[]): string[] {
  const out = new Set<string>()
  const texts = rules.flatMap((r) => [
    ...(r.value !== undefined ? [r.value] : []),
    ...splitArguments((r.function && CALL.exec(r.function)?.[2]) || '')
  ])
  for (const t of texts) for (const s of secretsOf(t)) out.add(s)
  return [...out]
}

/** The rules as Neon's API takes them (MaskingRule), `database` defaulting to `database`. */
export function toPlatformRules(rules: MaskingRuleInput[], database: string): MaskingRule[] {
  return rules.map((r) => ({
    database_name: r.database ?? database,
    schema_name: r.schema,
    table_name: r.table,
    column_name: r.column,
    ...(r.function !== undefined ? { masking_function: r.function } : { masking_value: r.value })
  }))
}

/**
 * Neon's rules (a branch's `masking_rules`) in the input's shape: the inverse
 * of {@link toPlatformRules}. `withDatabase` false leaves `database` out, as an
 * input that named none gave them.
 */
export function fromPlatformRules(rules: MaskingRule[], withDatabase: boolean): MaskingRuleInput[] {
  return rules.map((r) => ({
    ...(withDatabase ? { database: r.database_name } : {}),
    schema: r.schema_name,
    table: r.table_name,
    column: r.column_name,
    ...(r.masking_function !== undefined ? { function: r.masking_function } : { value: r.masking_value })
  }))
}

/** The function's name without its arguments (`anon.partial`), or `value` for a literal: what the comment may show. */
export function maskingLabel(r: Pick<MaskingRule, 'masking_function' | 'masking_value'>): string {
  if (r.masking_function !== undefined) return r.masking_function.replace(/\s*\([\s\S]*$/, '')
  return 'value'
}

/**
 * Whether two rule sets are the same, in any order (platform spec,
 * updateMaskingRules: a PATCH replaces the whole set, so the set is what counts).
 */
export function sameRules(a: MaskingRule[], b: MaskingRule[]): boolean {
  const key = (r: MaskingRule): string =>
    JSON.stringify([r.database_name, r.schema_name, r.table_name, r.column_name, r.masking_function ?? null, r.masking_value ?? null])
  const ka = a.map(key).sort()
  const kb = b.map(key).sort()
  return ka.length === kb.length && ka.every((k, i) => k === kb[i])
}

/**
 * The `masking-rules` input: YAML or JSON in the input, or
 * `@path/to/file`, a list of `{database?, schema, table, column, function | value}`.
 * Parsed and validated before any network call; the result maps 1:1 onto the
 * platform's MaskingRule (platform spec, `public-v2-for-users.gen.yaml`:
 * `database_name`, `schema_name`, `table_name`, `column_name`, and
 * `masking_function` or `masking_value`).
 *
 * The spec marks every MaskingRule field `x-sensitive`; the values and the
 * functions' arguments are what could carry real data (a literal, a salt),
 * so {@link maskRuleValues} registers them with the runner's log masking.
 * Names of schemas, tables and columns are shown in the comment and summary.
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

/** One entry of the list, checked. */
function ruleOf(entry: unknown, i: number): MaskingRuleInput {
  const where = ` (rule ${i + 1})`
  if (!entry || typeof entry !== 'object' || Array.isArray(entry))
    fail(where, 'each rule must be a mapping {schema, table, column, function | value}.')
  const e = entry as Record<string, unknown>
  const unknown = Object.keys(e).filter((k) => !(KEYS as readonly string[]).includes(k))
  if (unknown.length)
    fail(
      where,
      `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `\`${k}\``).join(', ')}; a rule has ${KEYS.map((k) => `\`${k}\``).join(', ')}.`
    )
  const rule: MaskingRuleInput = {
    schema: identifier(e.schema, 'schema', where),
    table: identifier(e.table, 'table', where),
    column: identifier(e.column, 'column', where)
  }
  if (e.database !== undefined) rule.database = identifier(e.database, 'database', where)
  const name = `${rule.schema}.${rule.table}.${rule.column}`
  const hasFunction = e.function !== undefined && e.function !== null
  const hasValue = e.value !== undefined
  if (hasFunction === hasValue)
    fail(` (rule ${i + 1}, ${name})`, 'give exactly one of `function` (for example anon.fake_email()) or `value` (a literal).')
  if (hasFunction) {
    const f = typeof e.function === 'string' ? e.function.trim() : ''
    if (!CALL.test(f))
      fail(` (rule ${i + 1}, ${name})`, "`function` must be a call such as anon.fake_email() or anon.partial(column, 2, '***', 2).")
    rule.function = f
  } else {
    // The spec's masking_value is a string; YAML scalars such as 0 or true are sent as their text. null stays SQL NULL's spelling.
    if (e.value === null || !['string', 'number', 'boolean'].includes(typeof e.value)) {
      fail(` (rule ${i + 1}, ${name})`, '`value` must be a string, number or boolean (quote it in YAML).')
    }
    rule.value = String(e.value)
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

/**
 * The strings to mask in the log (spec: MaskingRule fields are x-sensitive):
 * each `value`, and the argument text of each `function` (between its parentheses), when not empty.
 */
export function ruleSecrets(rules: MaskingRuleInput[]): string[] {
  const out = new Set<string>()
  for (const r of rules) {
    if (r.value !== undefined && r.value.trim() !== '') out.add(r.value)
    const args = r.function ? CALL.exec(r.function)?.[2]?.trim() : undefined
    if (args) out.add(args)
  }
  return [...out]
}

/** The rules as the platform takes them, `database` defaulting to `database`. */
export function toPlatformRules(rules: MaskingRuleInput[], database: string): MaskingRule[] {
  return rules.map((r) => ({
    database_name: r.database ?? database,
    schema_name: r.schema,
    table_name: r.table,
    column_name: r.column,
    ...(r.function !== undefined ? { masking_function: r.function } : { masking_value: r.value })
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

/**
 * The `masking-rules` input: parsing, validation, the strings
 * masked in the log, and its refusals in readSettings.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { maskingLabel, parseMaskingRules, ruleSecrets, sameRules, toPlatformRules } from '../../src/platform/masking-rules.js'
import { readSettings } from '../../src/inputs.js'

const set = (inputs: Record<string, string>): void => {
  for (const [k, v] of Object.entries(inputs)) process.env[`INPUT_${k.toUpperCase()}`] = v
}
afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith('INPUT_')) delete process.env[k]
})

const YAML = `
- schema: public
  table: users
  column: email
  function: anon.fake_email()
- { schema: public, table: users, column: phone, value: "000-000" }
- database: app
  schema: public
  table: users
  column: name
  function: anon.partial(name, 1, '***', 1)
`

describe('parseMaskingRules', () => {
  it('reads YAML, JSON and @file alike', () => {
    const rules = parseMaskingRules(YAML)
    expect(rules).toEqual([
      { schema: 'public', table: 'users', column: 'email', function: 'anon.fake_email()' },
      { schema: 'public', table: 'users', column: 'phone', value: "'000-000'" },
      { database: 'app', schema: 'public', table: 'users', column: 'name', function: "anon.partial(name, 1, '***', 1)" }
    ])
    expect(parseMaskingRules(JSON.stringify([{ schema: 's', table: 't', column: 'c', value: 7 }]))).toEqual([
      { schema: 's', table: 't', column: 'c', value: '7' }
    ])
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rules-'))
    writeFileSync(path.join(dir, 'rules.yml'), YAML)
    expect(parseMaskingRules('@rules.yml', dir)).toEqual(rules)
    expect(parseMaskingRules('   ')).toEqual([])
  })

  it.each([
    ['a missing file', '@nope.yml', /file nope.yml\): cannot read the file: ENOENT/],
    ['bad YAML', '- schema: [', /not valid YAML or JSON/],
    ['a mapping instead of a list', 'schema: public', /non-empty list of rules/],
    ['an empty list', '[]', /non-empty list of rules/],
    ['a scalar rule', '- hello', /rule 1\): each rule must be a mapping/],
    ['an unknown key', '- {schema: s, table: t, column: c, value: x, colour: red}', /rule 1\): unknown key `colour`/],
    ['a missing column', '- {schema: s, table: t, value: x}', /rule 1\): `column` must be a non-empty name/],
    ['a name with a newline', '- {schema: "s\\n", table: t, column: c, value: x}', /`schema` .* control characters/],
    ['a name over 63 bytes', `- {schema: s, table: ${'t'.repeat(64)}, column: c, value: x}`, /longer than PostgreSQL's 63 bytes/],
    ['neither function nor value', '- {schema: s, table: t, column: c}', /rule 1, s.t.c\): give exactly one of `function`/],
    ['both function and value', '- {schema: s, table: t, column: c, value: x, function: anon.fake_email()}', /exactly one of `function`/],
    ['a function that is not a call', '- {schema: s, table: t, column: c, function: "drop table x"}', /`function` must be a call/],
    ['a list value', '- {schema: s, table: t, column: c, value: [1]}', /`value` must be a string, a number, a boolean or null/],
    ['an infinite value', '- {schema: s, table: t, column: c, value: .inf}', /`value` must be a string, a number, a boolean or null/],
    [
      'both shapes in one rule',
      '- {schema_name: s, table: t, column_name: c, masking_value: "0"}',
      /rule 1\): unknown key `table`; a rule has `database_name`, .*Neon's shape/
    ],
    ['a Neon rule without its value', '- {schema_name: s, table_name: t, column_name: c}', /give exactly one of `masking_function`/],
    ['an empty masking_value', '- {schema_name: s, table_name: t, column_name: c, masking_value: ""}', /`masking_value` must be SQL text/],
    [
      'a column twice',
      '- {schema: s, table: t, column: c, value: x}\n- {schema: s, table: t, column: c, value: y}',
      /column s.t.c has more than one rule/
    ]
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseMaskingRules(text, os.tmpdir())).toThrow(message)
  })

  it('never quotes a value in its errors', () => {
    expect(() => parseMaskingRules('- {schema: s, table: t, column: c, value: secret-value-1, function: anon.hash(c)}')).toThrow(
      /^(?!.*secret-value-1)/s
    )
  })

  it('turns `value` into an SQL literal: a string quoted with quotes doubled, a number, NULL, a boolean', () => {
    const values = parseMaskingRules(
      `- {schema: s, table: t, column: a, value: "CARD HOLDER"}
- {schema: s, table: t, column: b, value: "O'Brien"}
- {schema: s, table: t, column: c, value: 0}
- {schema: s, table: t, column: d, value: -2.5}
- {schema: s, table: t, column: e, value: null}
- {schema: s, table: t, column: f, value: true}
- {schema: s, table: t, column: g, value: "0"}`
    ).map((r) => r.value)
    expect(values).toEqual(["'CARD HOLDER'", "'O''Brien'", '0', '-2.5', 'NULL', 'true', "'0'"])
  })

  it("takes Neon's shape (the API's MaskingRule) and passes masking_value through as SQL text", () => {
    const rules = parseMaskingRules(
      JSON.stringify([
        { database_name: 'app', schema_name: 'public', table_name: 'users', column_name: 'name', masking_value: "'CONFIDENTIAL'" },
        { schema_name: 'public', table_name: 'users', column_name: 'email', masking_function: 'anon.fake_email()' }
      ])
    )
    expect(rules).toEqual([
      { database: 'app', schema: 'public', table: 'users', column: 'name', value: "'CONFIDENTIAL'" },
      { schema: 'public', table: 'users', column: 'email', function: 'anon.fake_email()' }
    ])
    expect(toPlatformRules(rules, 'neondb')[1].database_name).toBe('neondb')
  })

  it('masks string values and literal arguments of 4 characters or more; not numbers, booleans, NULL, names or short strings', () => {
    expect(ruleSecrets(parseMaskingRules(YAML))).toEqual(['000-000'])
    const rules = parseMaskingRules(`
- {schema: s, table: t, column: a, value: 0}
- {schema: s, table: t, column: b, value: true}
- {schema: s, table: t, column: c, function: anon.random_string(12)}
- {schema: s, table: t, column: d, function: anon.hash(email)}
- {schema: s, table: t, column: e, value: "N/A"}
- {schema: s, table: t, column: f, value: null}
- {schema: s, table: t, column: g, value: "O'Brien-Smith"}
- {schema: s, table: t, column: h, function: "anon.hash_salted(d, 'pepper-1')"}
- {schema_name: s, table_name: t, column_name: i, masking_value: "'CONFIDENTIAL'"}
- {schema_name: s, table_name: t, column_name: j, masking_value: "upper('quiet-salt') || now()::text"}
`)
    expect(ruleSecrets(rules)).toEqual([
      "O'Brien-Smith",
      "O''Brien-Smith",
      'pepper-1',
      'CONFIDENTIAL',
      "upper('quiet-salt') || now()::text"
    ])
  })

  it("maps onto the spec's MaskingRule, shows only function names, compares as a set", () => {
    const platform = toPlatformRules(parseMaskingRules(YAML), 'neondb')
    expect(platform[0]).toEqual({
      database_name: 'neondb',
      schema_name: 'public',
      table_name: 'users',
      column_name: 'email',
      masking_function: 'anon.fake_email()'
    })
    expect(platform[2].database_name).toBe('app')
    expect(platform.map(maskingLabel)).toEqual(['anon.fake_email', 'value', 'anon.partial'])
    expect(sameRules(platform, [...platform].reverse())).toBe(true)
    expect(sameRules(platform, platform.slice(1))).toBe(false)
    expect(sameRules(platform, [{ ...platform[0], masking_function: 'anon.hash(email)' }, platform[1], platform[2]])).toBe(false)
  })
})

describe('readSettings: masking-rules', () => {
  const RULE = '- {schema: public, table: users, column: email, function: anon.fake_email()}'
  it('is parsed in branch mode', () => {
    set({ 'project-id': 'p-1', 'api-key': 'k', 'masking-rules': RULE })
    expect(readSettings().maskingRules).toHaveLength(1)
  })
  it('is refused in instant mode, saying why', () => {
    set({ mode: 'instant', 'masking-rules': RULE })
    expect(() => readSettings()).toThrow(/`masking-rules` needs branch mode \(set `project-id`\).*nothing to mask/)
  })
  it('is refused with schema-only, saying why', () => {
    set({ 'project-id': 'p-1', 'api-key': 'k', 'masking-rules': RULE, 'schema-only': 'true' })
    expect(() => readSettings()).toThrow(
      /`masking-rules` and `schema-only` cannot be combined: a schema-only branch has none of the parent's rows/
    )
  })
  it('is empty when not given', () => {
    expect(readSettings().maskingRules).toEqual([])
  })
})

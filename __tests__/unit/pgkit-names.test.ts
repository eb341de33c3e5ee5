/**
 * emulator/neon/pgkit-names.ts: `@pgkit/client`'s `sql.raw` and `sql` tag name
 * their queries through the naming module's `nameQuery` export (the wiring
 * the replacement relies on), and once replaced, a query is named by its
 * keyword and the MD5 of its text, the library's own suffix, without the
 * library's parse.
 */
import { expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { sql } from '@pgkit/client'
import { nameQueriesWithoutParsing, namingExports as naming, plainQueryName } from '../../emulator/neon/pgkit-names.js'

const md5 = (text: string): string => createHash('md5').update(text).digest('hex').slice(0, 7)

it('names sql.raw and the sql tag by keyword and hash, without calling the library’s parsing nameQuery', () => {
  const catalogQuery = "select relname, relkind from pg_class where relnamespace = 'pg_catalog'::regnamespace"
  const original = naming.nameQuery
  // The library's own name carries the words its parse found, and the same hash.
  const parsed = original([catalogQuery])
  expect(parsed).toBe(`select-pg_class_${md5(catalogQuery)}`)
  let calls = 0
  naming.nameQuery = (parts: readonly string[], keyword?: string) => {
    calls++
    return original(parts, keyword)
  }
  try {
    // The wiring: both forms ask the exported nameQuery at each call.
    expect(sql.raw(catalogQuery).name).toBe(parsed)
    expect(calls).toBe(1)
    nameQueriesWithoutParsing()
    nameQueriesWithoutParsing()
    expect(sql.raw(catalogQuery).name).toBe(`select_${md5(catalogQuery)}`)
    expect(sql.raw(catalogQuery, [1]).name).toBe(`select_${md5(catalogQuery)}`)
    expect(sql`select current_setting('server_version') server_version`.name).toBe(
      `select_${md5("select current_setting('server_version') server_version")}`
    )
    expect(calls).toBe(1)
  } finally {
    naming.nameQuery = original
  }
  expect(plainQueryName(['  WITH x AS (SELECT 1) SELECT * FROM x'])).toBe(`SELECT_${md5('  WITH x AS (SELECT 1) SELECT * FROM x')}`)
  expect(plainQueryName(['show server_version'])).toBe(`sql_${md5('show server_version')}`)
  expect(plainQueryName(['show server_version'], 'query')).toBe(`query_${md5('show server_version')}`)
})

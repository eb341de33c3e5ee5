/**
 * emulator/neon/pgkit-names.ts: `@pgkit/client`'s `sql.raw` and `sql` tag name
 * their queries through the naming module's `nameQuery` export (the wiring
 * the memo relies on), the memo gives the library's own names, and a text
 * is named (parsed) once however often it is sent.
 */
import { expect, it } from '@jest/globals'
import { sql } from '@pgkit/client'
import { memoizeQueryNames, namedTexts, namingExports as naming } from '../../emulator/neon/pgkit-names.js'

it('names each text once, with the library’s own names, for sql.raw and the sql tag', () => {
  const catalogQuery =
    'select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = $1'
  const expected = naming.nameQuery([catalogQuery])
  const tagged = sql`select current_setting('server_version') server_version`.name
  const calls: string[][] = []
  const original = naming.nameQuery
  naming.nameQuery = (parts: readonly string[], keyword?: string) => {
    calls.push([...parts])
    return original(parts, keyword)
  }
  try {
    memoizeQueryNames()
    memoizeQueryNames()
    const names = [sql.raw(catalogQuery).name, sql.raw(catalogQuery).name, sql.raw(catalogQuery, [1]).name]
    expect(names).toEqual([expected, expected, expected])
    expect(sql`select current_setting('server_version') server_version`.name).toBe(tagged)
    expect(sql`select current_setting('server_version') server_version`.name).toBe(tagged)
    // One call of the library's nameQuery per distinct text: the first sql.raw, the first tag.
    expect(calls).toHaveLength(2)
    expect(calls[0]).toEqual([catalogQuery])
    expect(namedTexts.size).toBe(2)
  } finally {
    naming.nameQuery = original
  }
})

/**
 * Query names for the emulator's compare_schema (schema-compare.ts) without
 * parsing the queries. `@pgkit/client` 0.6.1 names every query it is given
 * (`sql.raw`, the `sql` tag: `nameQuery` in dist/naming.js) from a parse
 * with pgsql-ast-parser's nearley grammar: tens of milliseconds for each of
 * schemainspect's long catalog queries, about a second of CPU in every test
 * file whose runs diff schemas (jest gives each file its own modules, so a
 * memo per process did not carry from one file to the next). The name is
 * only a label: the client prefixes its error messages with it (dist/errors.js,
 * `[name]: message`) and sends the query without it. So the emulator names a
 * query as the library does when its parse finds no words: the query's first
 * SQL keyword (or `sql`) and the first 7 hex digits of the MD5 of its text.
 *
 * The replacing relies on how the library's CommonJS calls it: sql.js reads
 * `naming_1.nameQuery` from the naming module's `exports` at each call, so
 * replacing that property is seen by every caller. Checked by
 * __tests__/unit/pgkit-names.test.ts.
 */
import { createHash } from 'node:crypto'
import naming from '@pgkit/client/dist/naming.js'

/** The naming module's CommonJS `exports`, whose `nameQuery` the library's callers read at each call. */
export const namingExports = naming as { nameQuery: typeof naming.nameQuery }

/** The keywords the library looks for at a query's start (dist/naming.js `nameQuery`). */
const KEYWORD = /(select|insert|update|delete|create|drop|alter|truncate|grant|revoke|begin|commit|rollback|savepoint|release)/i

/**
 * A query's name without a parse: `<keyword>_<md5 of the text, 7 hex digits>`.
 * @param parts the query's text segments (a tag's strings; `sql.raw`: the text)
 * @param defaultKeyword when the text starts with none of the keywords (the library's default: `sql`)
 */
export function plainQueryName(parts: readonly string[], defaultKeyword = 'sql'): string {
  const keyword = KEYWORD.exec((parts[0] ?? '').trim())?.[0] ?? defaultKeyword
  return `${keyword}_${createHash('md5').update(parts.join('')).digest('hex').slice(0, 7)}`
}

/** Makes `@pgkit/client` name its queries with {@link plainQueryName}. Idempotent. */
export function nameQueriesWithoutParsing(): void {
  namingExports.nameQuery = plainQueryName
}

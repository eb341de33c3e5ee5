/**
 * Memoizes `@pgkit/client`'s query names for the emulator's compare_schema
 * (schema-compare.ts). `@pgkit/client` 0.6.1 names every query it is given
 * (`sql.raw`, the `sql` tag: `nameQuery` in dist/naming.js) by parsing it
 * with pgsql-ast-parser's nearley grammar, tens of milliseconds for each of
 * schemainspect's long catalog queries: in `node --cpu-prof` of a test file
 * that diffs schemas, about two thirds of the test process's CPU. A name is a
 * function of the query's text alone, and the emulator sends the same ~15
 * texts again and again, so each text is parsed once a process.
 *
 * The wrapping relies on how the library's CommonJS calls it: sql.js reads
 * `naming_1.nameQuery` from the naming module's `exports` at each call, so
 * replacing that property is seen by every caller. Checked by
 * __tests__/unit/pgkit-names.test.ts (same names; one parse per text).
 */
import naming from '@pgkit/client/dist/naming.js'

/** The naming module's CommonJS `exports`, whose `nameQuery` the library's callers read at each call. */
export const namingExports = naming as { nameQuery: typeof naming.nameQuery }

let memoized = false

/** The names given since {@link memoizeQueryNames}, by its arguments (one entry a distinct query text; read by its test). */
export const namedTexts = new Map<string, string>()

/**
 * Replaces `nameQuery` of `@pgkit/client` with a memo of itself, keyed by
 * its arguments (`parts`: the query's text segments; the default keyword).
 * Idempotent; returns the same names as before.
 */
export function memoizeQueryNames(): void {
  if (memoized) return
  memoized = true
  const nameQuery = namingExports.nameQuery
  namingExports.nameQuery = (parts: readonly string[], defaultKeyword?: string): string => {
    const key = JSON.stringify([parts, defaultKeyword ?? null])
    let name = namedTexts.get(key)
    if (name === undefined) namedTexts.set(key, (name = nameQuery(parts, defaultKeyword)))
    return name
  }
}

/**
 * Lets libpg-query find its WebAssembly file in the bundle. Its emscripten
 * loader looks for `libpg-query.wasm` in `__dirname`, a CommonJS variable
 * that the action's ES module bundle does not have (Node then throws "Cannot
 * determine intended module format"). Imported before libpg-query, this sets
 * a global `__dirname` to the folder that holds the file: the bundle's own
 * (dist/, where `npm run package` copies it) or, from source, the package's.
 * {@link restoreDirname} removes it once the parser is loaded.
 *
 * It also keeps V8 from optimizing WebAssembly with TurboFan (set before the
 * module compiles; at run time Node 24 needs all three flags, `--liftoff-only`
 * alone does not imply the others there): optimizing the parser's grammar
 * function took about 500 MB of memory and a core for a second or two (peak
 * RSS 640 MiB against 110 MiB with Liftoff alone, pagila, measured), and the
 * loader parses few statements.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'

for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering']) v8.setFlagsFromString(flag)

const WASM = 'libpg-query.wasm'
const here = path.dirname(fileURLToPath(import.meta.url)) + path.sep
const g = globalThis as { __dirname?: string }
const set = g.__dirname === undefined
if (set) g.__dirname = existsSync(here + WASM) ? here : path.dirname(createRequire(import.meta.url).resolve('libpg-query'))

/** Removes the global this module set, if it set one. */
export function restoreDirname(): void {
  if (set) delete g.__dirname
}

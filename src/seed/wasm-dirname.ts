/**
 * Lets libpg-query find its WebAssembly file in the bundle. Its emscripten
 * loader looks for `libpg-query.wasm` in `__dirname`, a CommonJS variable
 * that the action's ES module bundle does not have (Node then throws "Cannot
 * determine intended module format"). Imported before libpg-query, this sets
 * a global `__dirname` to the folder that holds the file: the bundle's own
 * (dist/, where `npm run package` copies it) or, from source, the package's.
 * {@link restoreDirname} removes it once the parser is loaded.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const WASM = 'libpg-query.wasm'
const here = path.dirname(fileURLToPath(import.meta.url)) + path.sep
const g = globalThis as { __dirname?: string }
const set = g.__dirname === undefined
if (set) g.__dirname = existsSync(here + WASM) ? here : path.dirname(createRequire(import.meta.url).resolve('libpg-query'))

/** Removes the global this module set, if it set one. */
export function restoreDirname(): void {
  if (set) delete g.__dirname
}

/**
 * PostgreSQL's own SQL parser (libpg-query: the server's grammar, PostgreSQL
 * 17, compiled to WebAssembly), loaded once per process for whoever needs it:
 * the seed's statement kinds (seed/grammar.ts) and the schema diff's script
 * check (schema/render.ts). The library is imported only by
 * {@link loadParser}, so the bundle keeps it in a chunk of its own, read only
 * when a run parses SQL.
 *
 * Two things the library needs before it loads:
 * - its emscripten loader looks for `libpg-query.wasm` in `__dirname`, a
 *   CommonJS variable that the action's ES module bundle does not have (Node
 *   then throws "Cannot determine intended module format"): a global
 *   `__dirname` is set, while it loads, to the folder that holds the file (the
 *   bundle's own, dist/, where `npm run package` copies it, or from source the
 *   package's);
 * - V8 must not optimize WebAssembly with TurboFan (set before the module
 *   compiles; at run time Node 24 needs all three flags, `--liftoff-only` alone
 *   does not imply the others there): optimizing the parser's grammar function
 *   took about 500 MB of memory and a core for a second or two (peak RSS 640 MiB
 *   against 110 MiB with Liftoff alone, pagila, measured), and the action
 *   parses few statements.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'

type Library = typeof import('libpg-query')

const WASM = 'libpg-query.wasm'

let loading: Promise<void> | undefined
let library: Library | undefined

/** Loads the parser (about 20 ms, once per process; later calls return the same promise). Call before {@link parseSql}. */
export function loadParser(): Promise<void> {
  loading ??= load()
  return loading
}

async function load(): Promise<void> {
  for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering']) v8.setFlagsFromString(flag)
  const g = globalThis as { __dirname?: string }
  const set = g.__dirname === undefined
  if (set) {
    const here = path.dirname(fileURLToPath(import.meta.url)) + path.sep
    g.__dirname = existsSync(here + WASM) ? here : path.dirname(createRequire(import.meta.url).resolve('libpg-query'))
  }
  try {
    const lib = await import('libpg-query')
    await lib.loadModule()
    library = lib
  } finally {
    if (set) delete g.__dirname
  }
}

/**
 * Parses `sql` (one or more statements) into libpg-query's tree: `{ stmts: [{ stmt }] }`.
 * @throws Error (the parser's message) when it does not parse, or when {@link loadParser} has not finished
 */
export function parseSql(sql: string): unknown {
  if (!library) throw new Error('The SQL parser is not loaded (call loadParser first).')
  return library.parseSync(sql)
}

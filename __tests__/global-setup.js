// jest's globalSetup: one folder for the run's initdb templates
// (emulator/postgres/initdb-template.ts), named in PREVIEW_PG_TEMPLATE_DIR, which
// jest's workers inherit; the first cluster of each kind runs initdb there
// and every other copies its result. And one for V8's code cache of the
// bundle (NODE_COMPILE_CACHE, which the emulated runner hands to the action's
// processes on Node 24): the first run of dist/ compiles it, the others read
// the cache, which cut the CPU of a run by about a sixth (docs/development.md,
// "The test suite"). global-teardown.js removes both.
import { chmodSync, mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export default function globalSetup() {
  if (!process.env.NODE_COMPILE_CACHE) {
    process.env.NODE_COMPILE_CACHE = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-code-cache-'))
    process.env.PREVIEW_PG_CODE_CACHE_OWNED = '1'
  }
  if (process.env.PREVIEW_PG_TEMPLATE_DIR) return
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-templates-'))
  // As root the clusters run as the user postgres, which must reach the templates inside.
  chmodSync(dir, 0o755)
  process.env.PREVIEW_PG_TEMPLATE_DIR = dir
  process.env.PREVIEW_PG_TEMPLATE_DIR_OWNED = '1'
}

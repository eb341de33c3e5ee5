// jest's globalTeardown: removes the run's temporary folder (global-setup.js),
// with the initdb templates, the code cache and whatever the tests left in it,
// and gives the process its own TMPDIR back.
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  const run = process.env.PREVIEW_PG_TESTS_TMPDIR
  if (!run) return
  rmSync(run, { recursive: true, force: true })
  if (process.env.PREVIEW_PG_TESTS_OUTER_TMPDIR) process.env.TMPDIR = process.env.PREVIEW_PG_TESTS_OUTER_TMPDIR
  else delete process.env.TMPDIR
  if (process.env.PREVIEW_PG_CODE_CACHE_OWNED === '1') delete process.env.NODE_COMPILE_CACHE
  if (process.env.PREVIEW_PG_TEMPLATE_DIR_OWNED === '1') delete process.env.PREVIEW_PG_TEMPLATE_DIR
  for (const name of [
    'PREVIEW_PG_TESTS_TMPDIR',
    'PREVIEW_PG_TESTS_OUTER_TMPDIR',
    'PREVIEW_PG_CODE_CACHE_OWNED',
    'PREVIEW_PG_TEMPLATE_DIR_OWNED'
  ])
    delete process.env[name]
}

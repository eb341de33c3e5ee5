// jest's globalTeardown: removes the run's temporary folder (global-setup.js),
// with the initdb templates, the code cache and whatever the tests left in it,
// and gives the process its own TMPDIR back.
import { rmSync } from 'node:fs'
import path from 'node:path'

export default function globalTeardown() {
  const run = process.env.PREVIEW_PG_TESTS_TMPDIR
  if (!run) return
  rmSync(run, { recursive: true, force: true })
  if (process.env.PREVIEW_PG_TESTS_OUTER_TMPDIR) process.env.TMPDIR = process.env.PREVIEW_PG_TESTS_OUTER_TMPDIR
  else delete process.env.TMPDIR
  // The code cache and the templates globalSetup made are inside the folder; one the caller named is not.
  for (const name of ['NODE_COMPILE_CACHE', 'PREVIEW_PG_TEMPLATE_DIR'])
    if (process.env[name]?.startsWith(run + path.sep)) delete process.env[name]
  delete process.env.PREVIEW_PG_TESTS_TMPDIR
  delete process.env.PREVIEW_PG_TESTS_OUTER_TMPDIR
}

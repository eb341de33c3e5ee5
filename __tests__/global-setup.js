// jest's globalSetup: one temporary folder for the whole run, made the
// temporary folder (TMPDIR) of every worker and of what they start, so that
// everything the tests write there (clusters, work folders, runner files) is
// removed by global-teardown.js, whatever a test left; inside it, one folder
// for the run's initdb templates (emulator/postgres/initdb-template.ts),
// named in PREVIEW_PG_TEMPLATE_DIR: the first cluster of each kind runs
// initdb there and every other copies its result; and one for V8's code
// cache of the bundle (NODE_COMPILE_CACHE, which the emulated runner hands to
// the action's processes on Node 24): the first run of dist/ compiles it, the
// others read the cache, which cut the CPU of a run by about a sixth
// (docs/development.md, "The test suite").
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export default function globalSetup() {
  const run = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-tests-'))
  // As root the clusters run as the user postgres, which must reach and write their folders inside, as in /tmp.
  chmodSync(run, 0o1777)
  process.env.PREVIEW_PG_TESTS_TMPDIR = run
  process.env.PREVIEW_PG_TESTS_OUTER_TMPDIR = process.env.TMPDIR ?? ''
  process.env.TMPDIR = run
  if (!process.env.NODE_COMPILE_CACHE) {
    process.env.NODE_COMPILE_CACHE = path.join(run, 'code-cache')
    mkdirSync(process.env.NODE_COMPILE_CACHE)
  }
  if (process.env.PREVIEW_PG_TEMPLATE_DIR) return
  const templates = path.join(run, 'templates')
  mkdirSync(templates)
  chmodSync(templates, 0o755) // whatever the umask
  process.env.PREVIEW_PG_TEMPLATE_DIR = templates
}

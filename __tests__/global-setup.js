// jest's globalSetup: one folder for the run's initdb templates
// (emulator/postgres/initdb-template.ts), named in PREVIEW_PG_TEMPLATE_DIR, which
// jest's workers inherit; the first cluster of each kind runs initdb there
// and every other copies its result. global-teardown.js removes it.
import { chmodSync, mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export default function globalSetup() {
  if (process.env.PREVIEW_PG_TEMPLATE_DIR) return
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-templates-'))
  // As root the clusters run as the user postgres, which must reach the templates inside.
  chmodSync(dir, 0o755)
  process.env.PREVIEW_PG_TEMPLATE_DIR = dir
  process.env.PREVIEW_PG_TEMPLATE_DIR_OWNED = '1'
}

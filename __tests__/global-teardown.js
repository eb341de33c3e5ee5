// jest's globalTeardown: removes the run's initdb templates and code cache (global-setup.js).
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  if (process.env.PREVIEW_PG_CODE_CACHE_OWNED === '1' && process.env.NODE_COMPILE_CACHE) {
    rmSync(process.env.NODE_COMPILE_CACHE, { recursive: true, force: true })
    delete process.env.NODE_COMPILE_CACHE
    delete process.env.PREVIEW_PG_CODE_CACHE_OWNED
  }
  if (process.env.PREVIEW_PG_TEMPLATE_DIR_OWNED !== '1' || !process.env.PREVIEW_PG_TEMPLATE_DIR) return
  rmSync(process.env.PREVIEW_PG_TEMPLATE_DIR, { recursive: true, force: true })
  delete process.env.PREVIEW_PG_TEMPLATE_DIR
  delete process.env.PREVIEW_PG_TEMPLATE_DIR_OWNED
}

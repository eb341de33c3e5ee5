/**
 * Cold start: the bundle's entry, dist/index.js, holds only what
 * the input check and the post step's "anything to undo?" need; the main
 * flow and the post step's undo are chunks loaded afterwards. Shown by
 * running the entry alone, without its chunks, through the emulated runner:
 * a refused input is reported as before and the post step has nothing to do,
 * while a valid input needs the chunks. The timing itself is measured by
 * `npm run bench:start`, since this machine is too noisy for a timed test.
 */
import { describe, expect, it } from '@jest/globals'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ACTION_YML, ROOT, runAction } from '../../emulator/runner.js'

/** action.yml with dist/index.js and dist/package.json only: no chunk, no WebAssembly. */
function entryOnly(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'entry-only-'))
  mkdirSync(path.join(dir, 'dist'))
  copyFileSync(ACTION_YML, path.join(dir, 'action.yml'))
  for (const f of ['index.js', 'package.json']) copyFileSync(path.join(ROOT, 'dist', f), path.join(dir, 'dist', f))
  return dir
}

const run = (dir: string, inputs: Record<string, string>) =>
  runAction({ inputs, actionYml: path.join(dir, 'action.yml'), githubApiUrl: 'http://127.0.0.1:9', caCertFile: '/dev/null', timeoutMs: 30_000 })

describe('the entry chunk', () => {
  it('the bundle is split: the entry is not the whole action', () => {
    const chunks = readdirSync(path.join(ROOT, 'dist')).filter((f) => /^\d+\.index\.js$/.test(f))
    expect(chunks.length).toBeGreaterThan(0)
    // 2.0 MB before the entry was split; 1.05 MiB after, nearly all of it @actions/core's HTTP client (undici)
    expect(statSync(path.join(ROOT, 'dist', 'index.js')).size).toBeLessThan(1.5 * 1048576)
  })

  it('refuses a bad input without loading any chunk, with the same error; the post step then does nothing', async () => {
    const r = await run(entryOnly(), { command: 'nope' })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual([expect.stringMatching(/^Input `command` must be one of/)])
    expect(r.stderr).toBe('')
    expect(r.post?.code).toBe(0)
    expect(r.post?.stdout.trim()).toBe('')
  })

  it('needs its chunks once the input is valid (the main flow is one of them)', async () => {
    const r = await run(entryOnly(), { 'instant-url': 'http://127.0.0.1:9', comment: 'false' })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/Cannot find module .*\d+\.index\.js/)
  })
})

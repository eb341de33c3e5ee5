/**
 * Cold start: the bundle's entry, dist/index.js, holds only the step
 * state's names; each step's code is a chunk loaded afterwards: the main
 * step's input check, then the main flow; the post step's undo only when
 * the main step left something to undo. Shown by running the bundle with
 * chunks left out, through the emulated runner and as the runner runs the
 * post step: a refused input is reported without the main flow's chunk, the
 * post step after a main step that left nothing to undo needs no chunk at
 * all, and a valid input needs the main flow. The timing itself is measured
 * by `npm run bench:start`, since this machine is too noisy for a timed test.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ACTION_YML, NODE_24, ROOT, runAction } from '../../emulator/runner/runner.js'

const chunks = readdirSync(path.join(ROOT, 'dist')).filter((f) => /^\d+\.index\.js$/.test(f))

/** action.yml and dist/ with only the chunks `keep` accepts (and no WebAssembly). */
function bundleWith(keep: (chunk: string) => boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'entry-only-'))
  mkdirSync(path.join(dir, 'dist'))
  copyFileSync(ACTION_YML, path.join(dir, 'action.yml'))
  for (const f of ['index.js', 'package.json', ...chunks.filter(keep)]) copyFileSync(path.join(ROOT, 'dist', f), path.join(dir, 'dist', f))
  return dir
}

/** The chunk of the main flow (main.ts): the one that logs the trace ("Where the time went:" and the phases). */
const isMainFlow = (chunk: string): boolean => readFileSync(path.join(ROOT, 'dist', chunk), 'utf8').includes('Where the time went:\\n')

const run = (dir: string, inputs: Record<string, string>) =>
  runAction({ inputs, actionYml: path.join(dir, 'action.yml'), githubApiUrl: 'http://127.0.0.1:9', caCertFile: '/dev/null', timeoutMs: 30_000 })

/** The post step as the runner starts it: `STATE_<name>` for each value main saved. */
function post(dir: string, state: Record<string, string>): { code: number | null; out: string } {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
  for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
  const r = spawnSync(NODE_24, [path.join(dir, 'dist', 'index.js')], { env, encoding: 'utf8', timeout: 30_000 })
  return { code: r.status, out: r.stdout + r.stderr }
}

describe('the entry chunk', () => {
  it('the bundle is split: the entry holds none of the action', () => {
    expect(chunks.length).toBeGreaterThan(0)
    expect(chunks.filter(isMainFlow)).toHaveLength(1)
    // 2.0 MB before the first split, 1.4 MB while it held @actions/core and its HTTP client (undici)
    expect(statSync(path.join(ROOT, 'dist', 'index.js')).size).toBeLessThan(64 * 1024)
  })

  it("holds migra's schema diff but not its command line (trpc-cli, tRPC, zod's JSON schema), which every run would load", () => {
    const bundle = chunks.map((c) => readFileSync(path.join(ROOT, 'dist', c), 'utf8')).join('\n')
    expect(bundle).toContain('class Migration')
    expect(bundle.match(/trpc-cli|TRPCError|zodToJsonSchema/g) ?? []).toEqual([])
  })

  it('refuses a bad input without the main flow, with the same error; the post step then does nothing', async () => {
    const r = await run(bundleWith((c) => !isMainFlow(c)), { command: 'nope' })
    expect(r.code).toBe(1)
    expect(r.errors).toEqual([expect.stringMatching(/^Input `command` must be one of/)])
    expect(r.stderr).toBe('')
    expect(r.post?.code).toBe(0)
    expect(r.post?.stdout.trim()).toBe('')
  })

  it('the post step after a main step that left nothing to undo loads no chunk; with something to undo, it needs its chunks', () => {
    const dir = bundleWith(() => false)
    expect(post(dir, { isPost: 'true', unseededBranch: '', lockComment: '' })).toEqual({ code: 0, out: '' })
    const undo = post(dir, { isPost: 'true', lockComment: JSON.stringify({ reaction: 1 }) })
    expect(undo.code).not.toBe(0)
    expect(undo.out).toMatch(/Cannot find module .*\d+\.index\.js/)
  })

  it('needs the main flow once the input is valid', async () => {
    const r = await run(bundleWith((c) => !isMainFlow(c)), { 'instant-url': 'http://127.0.0.1:9', comment: 'false' })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/Cannot find module .*\d+\.index\.js/)
  })
})

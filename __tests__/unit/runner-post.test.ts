/**
 * emulator/runner/runner.ts runs `runs.post` the way GitHub does: after main, even
 * when main failed or was killed, with `STATE_<name>` for every value main
 * saved through GITHUB_STATE (written here by @actions/core's own saveState,
 * the writer the bundle uses), and nothing of the kind without `runs.post`.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, runAction } from '../../emulator/runner/runner.js'

/** @actions/core as the bundle uses it (its package exports only an ESM entry). */
const core = pathToFileURL(path.join(ROOT, 'node_modules', '@actions', 'core', 'lib', 'core.js')).href

/** A tiny JavaScript action: main saves state then ends as `ending` says; post prints its state. */
function action(withPost: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'post-action-'))
  writeFileSync(
    path.join(dir, 'action.yml'),
    `name: t\ndescription: post test\ninputs:\n  ending:\n    description: "ok, fail or hang"\n    default: ok\nruns:\n  using: node24\n  main: main.mjs\n${withPost ? '  post: post.mjs\n' : ''}`
  )
  writeFileSync(
    path.join(dir, 'main.mjs'),
    `import * as core from ${JSON.stringify(core)}
core.saveState('branch', JSON.stringify({ id: 'br-x', name: 'a<<b' }))
core.saveState('multi', 'line 1\\nline 2')
core.saveState('cleared', 'soon gone')
core.saveState('cleared', '')
const ending = core.getInput('ending')
console.log('main ready')
if (ending === 'fail') core.setFailed('main failed')
if (ending === 'hang') setInterval(() => undefined, 1000)
`
  )
  writeFileSync(
    path.join(dir, 'post.mjs'),
    `console.log('post ' + JSON.stringify({ branch: process.env.STATE_branch, multi: process.env.STATE_multi, cleared: process.env.STATE_cleared, input: process.env.INPUT_ENDING }))\n`
  )
  return path.join(dir, 'action.yml')
}

const run = (actionYml: string, ending: string, extra: { killOn?: RegExp } = {}) =>
  runAction({
    actionYml,
    inputs: { ending },
    githubApiUrl: 'http://127.0.0.1:9',
    caCertFile: '/dev/null',
    cwd: path.dirname(actionYml),
    timeoutMs: 20_000,
    ...extra
  })

const stateOf = (stdout: string) => JSON.parse(/^post (.*)$/m.exec(stdout)![1])
const expected = { branch: JSON.stringify({ id: 'br-x', name: 'a<<b' }), multi: 'line 1\nline 2', cleared: '', input: 'ok' }

describe('runs.post in the emulated runner', () => {
  it('runs after a successful main with the saved state and the same inputs', async () => {
    const r = await run(action(true), 'ok')
    expect(r.code).toBe(0)
    expect(r.post?.code).toBe(0)
    expect(stateOf(r.post!.stdout)).toEqual(expected)
  })

  it('runs after main failed', async () => {
    const r = await run(action(true), 'fail')
    expect(r.code).toBe(1)
    expect(r.errors).toEqual(['main failed'])
    expect(stateOf(r.post!.stdout)).toEqual({ ...expected, input: 'fail' })
  })

  it('runs after main was killed (SIGKILL), with what main had saved', async () => {
    const r = await run(action(true), 'hang', { killOn: /main ready/ })
    expect(r.code).toBeNull()
    expect(r.post?.code).toBe(0)
    expect(stateOf(r.post!.stdout)).toEqual({ ...expected, input: 'hang' })
  })

  it('runs nothing after main without runs.post', async () => {
    const r = await run(action(false), 'ok')
    expect(r.post).toBeUndefined()
  })
})

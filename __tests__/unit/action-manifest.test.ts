/**
 * action.yml as GitHub loads it, and the interface it declares against what
 * the code reads. The strict loader is GitHub's own parser
 * (@actions/workflow-parser), so these tests hold action.yml against an
 * artifact we did not write.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ActionManifestError, inputEnvironment, inputVariable, loadActionManifest } from '../../emulator/runner/action-manifest.js'
import { ACTION_YML, ROOT } from '../../emulator/runner/runner.js'
import { readSettings } from '../../src/inputs.js'

const original = readFileSync(ACTION_YML, 'utf8')

/** Writes a variant of action.yml next to a copy of dist/ (runs.main must exist) and loads it. */
function loadVariant(edit: (text: string) => string): () => unknown {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'action-yml-'))
  writeFileSync(path.join(dir, 'action.yml'), edit(original))
  writeFileSync(path.join(dir, 'index.js'), '')
  return () => loadActionManifest(path.join(dir, 'action.yml'))
}
const mainHere = (t: string): string => t.replace('main: dist/index.js', 'main: index.js').replace('post: dist/index.js', 'post: index.js')

describe('action.yml, loaded as GitHub loads it', () => {
  it('loads, runs on node24 and names an existing runs.main', () => {
    const m = loadActionManifest(ACTION_YML)
    expect(m.runs).toEqual({ using: 'node24', main: path.join(ROOT, 'dist', 'index.js'), post: path.join(ROOT, 'dist', 'index.js') })
    expect(m.inputs.map((i) => i.name)).toContain('github-token')
    expect(m.inputs.find((i) => i.name === 'github-token')?.default).toBe('${{ github.token }}')
    for (const i of m.inputs) expect(i.description.length).toBeGreaterThan(10)
    for (const o of m.outputs) expect(o.description.length).toBeGreaterThan(5)
  })

  it('refuses a plain scalar holding ": " (the bug that made GitHub refuse the action)', () => {
    const load = loadVariant((t) =>
      mainHere(t).replace(/description: "Parent branch id or name([^"]*)"/, 'description: Parent branch id or name$1')
    )
    expect(load).toThrow(ActionManifestError)
    expect(load).toThrow(/Nested mappings are not allowed in compact mappings at line \d+, column 18/)
  })

  it('refuses duplicate keys, also input names that differ only in case', () => {
    expect(loadVariant((t) => mainHere(t).replace('name: Preview Postgres', 'name: Preview Postgres\nname: Again'))).toThrow(
      /'name' is already defined/
    )
    expect(loadVariant((t) => mainHere(t).replace('inputs:\n', 'inputs:\n  MODE:\n    description: "the mode again"\n'))).toThrow(
      /'mode' is already defined/i
    )
  })

  it('refuses a key the runner does not know on an input', () => {
    expect(loadVariant((t) => mainHere(t).replace('    default: auto', '    default: auto\n    type: string'))).toThrow(
      /input `mode`: unexpected key `type`/
    )
  })

  it('refuses another runtime than node24, and a runs.main or runs.post that does not exist', () => {
    expect(loadVariant((t) => mainHere(t).replace('using: node24', 'using: node99'))).toThrow(/Unexpected value 'node99'/)
    expect(loadVariant((t) => mainHere(t).replace('using: node24', 'using: node20'))).toThrow(/runs.using is "node20"/)
    expect(loadVariant((t) => t)).toThrow(/runs.main: dist\/index.js does not exist/)
    expect(loadVariant((t) => mainHere(t).replace('post: index.js', 'post: cleanup.js'))).toThrow(/runs.post: cleanup.js does not exist/)
  })
})

describe('the INPUT_* environment, as the runner builds it', () => {
  const manifest = loadActionManifest(ACTION_YML)

  it('names variables INPUT_ + upper case, spaces to _, hyphens kept', () => {
    expect(inputVariable('github-token')).toBe('INPUT_GITHUB-TOKEN')
    expect(inputVariable('my input')).toBe('INPUT_MY_INPUT')
  })

  it('sets every declared input: the given value, else the default with ${{ github.token }} evaluated, else empty', () => {
    const env = inputEnvironment(manifest, { seed: 'a.sql' }, { githubToken: 'ghs_job' })
    expect(Object.keys(env).sort()).toEqual(manifest.inputs.map((i) => inputVariable(i.name)).sort())
    expect(env['INPUT_SEED']).toBe('a.sql')
    expect(env['INPUT_GITHUB-TOKEN']).toBe('ghs_job')
    expect(env['INPUT_MODE']).toBe('auto')
    expect(env['INPUT_API-KEY']).toBe('')
  })

  it('refuses an input action.yml does not declare', () => {
    expect(() => inputEnvironment(manifest, { 'api-token': 'x' }, { githubToken: '' })).toThrow(/Unexpected input\(s\) 'api-token'/)
  })
})

describe('readSettings against action.yml', () => {
  const manifest = loadActionManifest(ACTION_YML)
  const saved = process.env
  afterEach(() => {
    process.env = saved
  })

  /** Runs readSettings over `env`, recording every INPUT_* variable it reads. */
  function readWith(env: Record<string, string>): { settings: ReturnType<typeof readSettings>; read: Set<string> } {
    const read = new Set<string>()
    process.env = new Proxy(
      { ...env },
      {
        get(target, key) {
          if (typeof key === 'string' && key.startsWith('INPUT_')) read.add(key)
          return Reflect.get(target, key)
        }
      }
    )
    return { settings: readSettings(), read }
  }

  it('reads exactly the inputs action.yml declares', () => {
    const { read } = readWith(inputEnvironment(manifest, {}, { githubToken: 'ghs_job' }))
    expect([...read].sort()).toEqual(manifest.inputs.map((i) => inputVariable(i.name)).sort())
  })

  it("has the same defaults as action.yml (the code's fallbacks agree with the declared defaults)", () => {
    const fromManifest = readWith(inputEnvironment(manifest, {}, { githubToken: '' })).settings
    const fromCode = readWith({}).settings
    expect(fromCode).toEqual(fromManifest)
  })
})

/**
 * Seed files stay in the workspace, through the bundled action: `seed`
 * patterns, `\i`, `\ir`, `\include`, `\include_relative` and `\copy … from`
 * that reach out of `GITHUB_WORKSPACE` (an absolute path, `..`, a symlink
 * pointing out) are refused before any database exists, with the file and
 * line; paths that stay inside (also through `..` or a symlink within) load.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { instantInputs, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let work: string
/** A folder beside the workspace: a runner file the seed must never read. */
let outside: string
const SECRET = 'runner-secret-5b7d'

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('seed-workspace-test-'))
  outside = mkdtempSync(path.join(os.tmpdir(), 'seed-workspace-outside-'))
  writeFileSync(path.join(outside, 'secret.sql'), `CREATE TABLE leaked AS SELECT '${SECRET}' AS v;\n`)
  writeFileSync(path.join(outside, 'secret.csv'), `${SECRET}\n`)
  mkdirSync(path.join(work, 'db'))
  writeFileSync(path.join(work, 'db', 'inner.sql'), 'CREATE TABLE inner_t (v text);\n')
  writeFileSync(path.join(work, 'db', 'rows.csv'), 'inside\n')
  symlinkSync(path.join(outside, 'secret.sql'), path.join(work, 'link-out.sql'))
  symlinkSync(path.join(outside, 'secret.csv'), path.join(work, 'db', 'link-out.csv'))
  symlinkSync(outside, path.join(work, 'dir-out'))
  symlinkSync(path.join(work, 'db', 'inner.sql'), path.join(work, 'link-in.sql'))
})
afterAll(async () => {
  await emu?.stop()
})

const seed = (name: string, text: string): string => {
  writeFileSync(path.join(work, name), text)
  return name
}
const run = (seedInput: string): Promise<RunResult> => runAction(emu, work, { ...instantInputs(emu), seed: seedInput })

/** Expects the run refused with `pattern` in its first error, no database made, and the runner file's text nowhere. */
async function expectRefused(r: RunResult, pattern: RegExp, databases: number): Promise<void> {
  expect(r.code).toBe(1)
  expect(r.errors[0]).toMatch(pattern)
  expect(r.errors[0]).toMatch(/outside the workspace/)
  expect(emu.instant.databases.size).toBe(databases)
  expect(r.stdout + r.stderr).not.toContain(SECRET)
}

describe('a seed reads only files of the workspace', () => {
  it('\\i, \\include, \\ir and \\include_relative out of the workspace are refused before any database exists, with the file and line', async () => {
    const databases = emu.instant.databases.size
    const cases: [string, string][] = [
      ['abs.sql', `CREATE TABLE t (id int);\n\\i ${path.join(outside, 'secret.sql')}\n`],
      ['dots.sql', `CREATE TABLE t (id int);\n\\ir ../${path.basename(outside)}/secret.sql\n`],
      ['include.sql', `CREATE TABLE t (id int);\n\\include ${path.relative(work, path.join(outside, 'secret.sql'))}\n`],
      ['link.sql', 'CREATE TABLE t (id int);\n\\include_relative link-out.sql\n'],
      ['dirlink.sql', 'CREATE TABLE t (id int);\n\\i dir-out/secret.sql\n']
    ]
    for (const [name, text] of cases) {
      const r = await run(seed(name, text))
      await expectRefused(r, new RegExp(`Seed refused at ${name.replace('.', '\\.')}:2: \\\\(i|include|ir|include_relative) .*outside the workspace.*Nothing was run\\. No database was created`), databases)
    }
  })

  it('\\copy … from a file out of the workspace (absolute, .., a symlink) is refused before any database exists', async () => {
    const databases = emu.instant.databases.size
    const cases: [string, string][] = [
      ['copy-abs.sql', `CREATE TABLE c (v text);\n\\copy c from '${path.join(outside, 'secret.csv')}'\n`],
      ['copy-dots.sql', `CREATE TABLE c (v text);\n\\copy c from '../${path.basename(outside)}/secret.csv'\n`],
      ['copy-link.sql', "CREATE TABLE c (v text);\n\\copy c from 'db/link-out.csv'\n"]
    ]
    for (const [name, text] of cases) {
      const r = await run(seed(name, text))
      await expectRefused(r, new RegExp(`Seed refused at ${name.replace('.', '\\.')}:2: \\\\copy … from '.*outside the workspace.*No database was created`), databases)
    }
  })

  it('a `seed` pattern that matches a file out of the workspace is refused before any database exists', async () => {
    const databases = emu.instant.databases.size
    // `..` in a pattern is refused by @actions/glob itself
    for (const pattern of [path.join(outside, 'secret.sql'), 'dir-out/*.sql', 'link-out.sql']) {
      const r = await run(pattern)
      await expectRefused(r, /Input `seed`: ".*" matches .*outside the workspace/, databases)
    }
  })

  it('a name only the load knows (\\i :name set by \\gset) is refused at load, before the file is read, and nothing is kept', async () => {
    const file = path.join(outside, 'secret.sql')
    const r = await run(seed('gset.sql', `CREATE TABLE g (id int);\nSELECT '${file}' AS f \\gset\n\\i :f\n`))
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/gset\.sql:3: \\i .*outside the workspace/)
    expect(r.stdout + r.stderr).not.toContain(SECRET)
    expect(r.outputs['database-url'] ?? '').toBe('')
  })

  it('paths that stay inside the workspace load: `..` back in, a symlink within, \\copy from a file of the repository', async () => {
    const r = await run(seed('inside.sql', "\\ir db/../db/inner.sql\n\\copy inner_t from 'db/rows.csv'\n"))
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const linked = await run('link-in.sql')
    expect(linked.errors).toEqual([])
    expect(linked.code).toBe(0)
  })
})

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { FINGERPRINT, type SeedInputs, seedFingerprint } from '../../src/seed/fingerprint.js'
import { checkSeed } from '../../src/seed/loader.js'

let dir: string
const file = (name: string, text: string): string => {
  const p = path.join(dir, name)
  writeFileSync(p, text)
  return p
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'fingerprint-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const base = (): SeedInputs => ({
  files: [file('a.sql', 'CREATE TABLE a (id int);\n'), file('b.sql', 'INSERT INTO a VALUES (1);\n')],
  seedCommand: 'npx prisma db seed',
  schemaOnly: false,
  maskingRules: [{ schema: 'public', table: 'users', column: 'email', function: 'anon.fake_email()' }]
})

describe('seedFingerprint', () => {
  it('is sha256: and 64 hex digits, and the same for the same inputs', async () => {
    const a = await seedFingerprint(base())
    expect(a).toMatch(FINGERPRINT)
    expect(await seedFingerprint(base())).toBe(a)
  })

  it('changes with any part: a file byte, the file order, seed-command, schema-only, a masking rule', async () => {
    const start = await seedFingerprint(base())
    const seen = new Set([start])
    const variants: SeedInputs[] = [
      { ...base(), files: [path.join(dir, 'a.sql'), file('b2.sql', 'INSERT INTO a VALUES (2);\n')] },
      { ...base(), files: [...base().files].reverse() },
      { ...base(), seedCommand: 'npx prisma db seed --preview' },
      { ...base(), seedCommand: '' },
      { ...base(), schemaOnly: true },
      { ...base(), maskingRules: [] },
      { ...base(), maskingRules: [{ schema: 'public', table: 'users', column: 'email', value: 'x' }] }
    ]
    for (const v of variants) {
      const f = await seedFingerprint(v)
      expect(seen.has(f)).toBe(false)
      seen.add(f)
    }
    expect(await seedFingerprint(base())).toBe(start)
  })

  it('frames each part: moving bytes from one file to the next, or into seed-command, changes it', async () => {
    const one = await seedFingerprint({ ...base(), files: [file('x1', 'ab'), file('y1', 'c')], seedCommand: '' })
    const two = await seedFingerprint({ ...base(), files: [file('x2', 'a'), file('y2', 'bc')], seedCommand: '' })
    const three = await seedFingerprint({ ...base(), files: [file('x3', 'a'), file('y3', 'b')], seedCommand: 'c' })
    expect(new Set([one, two, three]).size).toBe(3)
  })

  it('ignores file names and a file named twice, and the order of a masking rule’s keys', async () => {
    const a = await seedFingerprint({ ...base(), files: [file('n1.sql', 'SELECT 1;\n')] })
    const b = await seedFingerprint({ ...base(), files: [file('n2.sql', 'SELECT 1;\n'), path.join(dir, 'n2.sql')] })
    expect(b).toBe(a)
    const rule = { schema: 'public', table: 'users', column: 'email', function: 'anon.fake_email()' }
    const reordered = { function: 'anon.fake_email()', column: 'email', table: 'users', schema: 'public' }
    expect(await seedFingerprint({ ...base(), maskingRules: [reordered] })).toBe(await seedFingerprint({ ...base(), maskingRules: [rule] }))
  })

  it('counts a missing file as such, not as an empty one', async () => {
    const missing = await seedFingerprint({ ...base(), files: [path.join(dir, 'nope.csv')] })
    const empty = await seedFingerprint({ ...base(), files: [file('empty.csv', '')] })
    expect(missing).toMatch(FINGERPRINT)
    expect(missing).not.toBe(empty)
  })
})

describe('the check pass lists the files a seed reads besides its own', () => {
  it('lists \\i, \\ir and \\copy … from files in the order met, each once', async () => {
    file('inc.sql', 'CREATE TABLE t (v text);\n')
    file('rows.csv', 'x\n')
    const main = file('main.sql', `\\i ${path.join(dir, 'inc.sql')}\n\\copy t from '${path.join(dir, 'rows.csv')}' csv\n\\ir inc.sql\n`)
    const plan = await checkSeed([main], dir)
    expect(plan.readFiles).toEqual([path.join(dir, 'inc.sql'), path.join(dir, 'rows.csv')])
  })
})

import { describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { insideWorkspace } from '../../src/psql/workspace.js'
import { redactSecrets, rememberSecret } from '../../src/secrets.js'

describe('insideWorkspace', () => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'trust-rules-')))
  const root = path.join(base, 'ws')
  mkdirSync(path.join(root, 'db'), { recursive: true })
  writeFileSync(path.join(base, 'outside.sql'), '')
  writeFileSync(path.join(root, 'db', 'a.sql'), '')
  symlinkSync(path.join(base, 'outside.sql'), path.join(root, 'out.sql'))
  symlinkSync(base, path.join(root, 'up'))
  symlinkSync(path.join(root, 'db', 'a.sql'), path.join(root, 'in.sql'))

  it('accepts files inside, also through `..` back in and a symlink within', () => {
    expect(insideWorkspace(path.join(root, 'db', 'a.sql'), root)).toBe(true)
    expect(insideWorkspace(path.join(root, 'db', '..', 'db', 'a.sql'), root)).toBe(true)
    expect(insideWorkspace(path.join(root, 'in.sql'), root)).toBe(true)
    expect(insideWorkspace(path.join(root, 'db', 'missing.sql'), root)).toBe(true)
  })

  it('refuses an absolute path out, `..` out, a symlinked file or folder out, and a sibling folder sharing the prefix', () => {
    expect(insideWorkspace('/etc/passwd', root)).toBe(false)
    expect(insideWorkspace(path.join(root, '..', 'outside.sql'), root)).toBe(false)
    expect(insideWorkspace(path.join(root, 'out.sql'), root)).toBe(false)
    expect(insideWorkspace(path.join(root, 'up', 'outside.sql'), root)).toBe(false)
    expect(insideWorkspace(path.join(root, 'up', 'missing.sql'), root)).toBe(false)
    expect(insideWorkspace(`${root}-sibling/a.sql`, root)).toBe(false)
  })
})

describe('redactSecrets', () => {
  it('replaces every remembered secret, the longest first, and leaves other text', () => {
    rememberSecret('pa55word-xyz')
    rememberSecret('postgresql://u:pa55word-xyz@h/db')
    rememberSecret('')
    expect(redactSecrets('uri postgresql://u:pa55word-xyz@h/db and pa55word-xyz, plain')).toBe('uri *** and ***, plain')
  })
})

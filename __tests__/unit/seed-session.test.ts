/**
 * The psql session the check pass and the load keep (src/psql/session.ts):
 * `\if` blocks by psql's rules, values a `\gset` sets unknown before the
 * database exists, and refusals.
 */
import { describe, expect, it } from '@jest/globals'
import { MetaRefusal, PsqlSession, type SeedSource } from '../../src/psql/session.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type MetaEvent, scanFile } from '../../src/psql/scanner.js'

const src: SeedSource = { file: '/nowhere/a.sql', shown: 'a.sql' }
let n = 0
const meta = (text: string): MetaEvent => {
  const m = /^\\(\S+)\s*(.*)$/.exec(text)!
  return { kind: 'meta', command: m[1], args: m[2], line: ++n, index: n }
}
/** Runs meta-commands in one file; returns the activity after each. */
function run(session: PsqlSession, ...texts: string[]): string[] {
  return texts.map((t) => {
    session.meta(src, meta(t))
    return session.activity
  })
}

describe('PsqlSession', () => {
  it('follows \\if / \\elif / \\else / \\endif as psql does, nested blocks under a false one ignored', () => {
    const s = new PsqlSession(false)
    s.enterFile(src)
    expect(run(s, '\\if false', '\\if true', '\\endif', '\\elif yes', '\\else', '\\endif')).toEqual(['no', 'no', 'no', 'yes', 'no', 'yes'])
    expect(run(s, '\\set v 0', '\\if :v', '\\elif off', '\\else', '\\endif')).toEqual(['yes', 'no', 'no', 'yes', 'yes'])
    expect(s.leaveFile()).toBeUndefined()
  })

  it('refuses psql’s conditional errors', () => {
    const s = new PsqlSession(false)
    s.enterFile(src)
    expect(() => run(s, '\\endif')).toThrow(/\\endif: no matching \\if/)
    expect(() => run(s, '\\if true', '\\else', '\\elif true')).toThrow(/\\elif: cannot occur after \\else/)
    run(s, '\\endif')
    // a value that is not a boolean is false, as psql takes it (with a warning), and the block goes on
    expect(run(s, '\\if perhaps', '\\else', '\\endif')).toEqual(['no', 'yes', 'yes'])
    // in a branch that does not run, psql does not evaluate a nested \if
    expect(run(s, '\\if false', '\\if perhaps', '\\endif', '\\endif', '\\if true')).toEqual(['no', 'no', 'no', 'yes', 'yes'])
    expect(s.leaveFile()).toBe(n)
  })

  it('in the check pass, a block on a value \\gset sets is "maybe": neither run nor skipped, and \\set inside it makes the value unknown', () => {
    const s = new PsqlSession(true)
    s.enterFile(src)
    s.variables.set('mode', 'on')
    expect(s.meta(src, meta('\\gset p_'))).toEqual({ kind: 'gset', prefix: 'p_' })
    expect(run(s, '\\if :p_flag', '\\set mode off', '\\else', '\\endif', '\\if :mode')).toEqual(['maybe', 'maybe', 'maybe', 'yes', 'maybe'])
  })

  it('refuses \\set ON_ERROR_STOP off, \\unset ON_ERROR_STOP, the shell, other databases, files on the runner, and unnamed commands', () => {
    const s = new PsqlSession(false)
    s.enterFile(src)
    expect(() => run(s, '\\set ON_ERROR_STOP on')).not.toThrow()
    for (const [text, why] of [
      ['\\set ON_ERROR_STOP off', /ON_ERROR_STOP is always on/],
      ['\\unset ON_ERROR_STOP', /ON_ERROR_STOP is always on/],
      ['\\c other', /\\c is not supported: it connects to another database/],
      ['\\! ls', /runs a shell command on the runner/],
      ['\\echo `date`', /backtick/],
      ['\\w out.sql', /writes the query buffer to a file/],
      ['\\g out.txt', /\\g with an argument/],
      ['\\lo_export 1 /tmp/x', /large object/],
      ['\\dt', /\\dt is not supported/]
    ] as const) {
      expect(() => run(s, text)).toThrow(MetaRefusal)
      expect(() => run(s, text)).toThrow(why)
    }
    expect(s.meta(src, meta("\\echo -n 'a  b' c"))).toEqual({ kind: 'print', text: 'a  b c' })
    expect(s.meta(src, meta('\\pset border 2'))).toMatchObject({ kind: 'print', text: expect.stringContaining('Ignored \\pset border 2') })
  })

  it('\\q ends the file; in a block the check pass cannot decide, only the load knows', () => {
    const load = new PsqlSession(false)
    load.enterFile(src)
    run(load, '\\q')
    expect(load.quit).toBe(true)
    const check = new PsqlSession(true)
    check.enterFile(src)
    expect(run(check, '\\if :ROW_COUNT', '\\q')).toEqual(['maybe', 'maybe'])
    expect(check.quit).toBe(false)
  })

  it('drops the text an inactive \\if branch added to a statement', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'session-')), 'rows.sql')
    writeFileSync(file, 'INSERT INTO t VALUES (1)\n\\if false\n, (2)\n\\else\n, (3)\n\\endif\n, (4);\n')
    const s = new PsqlSession(false)
    const f: SeedSource = { file, shown: 'rows.sql' }
    s.enterFile(f)
    const sent: string[] = []
    for await (const ev of scanFile(file)) {
      if (ev.kind === 'meta') s.meta(f, ev)
      else if (ev.kind === 'statement') sent.push(s.activeText(ev).toString().replace(/\s+/g, ' ').trim())
    }
    expect(sent).toEqual(['INSERT INTO t VALUES (1) , (3) , (4);'])
  })
})

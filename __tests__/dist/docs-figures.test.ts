/**
 * The docs' figures that a benchmark gives without timing, checked against
 * the benchmark's current output: a table in docs/ marked
 * `<!-- figures: npm run bench:comment -->` (the line right above it) holds
 * the GitHub requests of a PR's first run and re-run per mode, which
 * bench/comment-run.ts counts exactly from the emulator's log. A figure the
 * code no longer gives fails this file; measure it again with
 * `npm run bench:comment -- 1` and write the table anew.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import { ROOT } from '../../emulator/runner/runner.js'
import { COMMENT_SEED, COMMENT_TIMING, commentCost } from '../../bench/comment-run.js'
import { startTestEmulator } from '../fixtures/preview.js'

const DOCS = path.join(ROOT, 'docs')
const MARK = '<!-- figures: npm run bench:comment -->'

/** Every marked table's rows as `mode | run | requests`, with its page, in the order of docs/. */
function markedTables(): { page: string; rows: string[] }[] {
  const tables: { page: string; rows: string[] }[] = []
  for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
    const lines = readFileSync(path.join(DOCS, page), 'utf8').split('\n')
    lines.forEach((line, i) => {
      if (line.trim() !== MARK) return
      const rows: string[] = []
      for (let j = i + 3; j < lines.length && lines[j].startsWith('|'); j++) {
        const cells = lines[j].split('|').map((c) => c.trim())
        rows.push(`${cells[1]} | ${cells[2]} | ${cells[3]}`)
      }
      tables.push({ page, rows })
    })
  }
  return tables
}

let emu: Emulator
let work: string
beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('docs-figures-'))
  writeFileSync(path.join(work, 'seed.sql'), COMMENT_SEED)
  emu.platform.timing = COMMENT_TIMING
})
afterAll(async () => {
  await emu?.stop()
})

it("docs' tables marked with `npm run bench:comment` give the GitHub requests the bench counts now", async () => {
  const tables = markedTables()
  expect(tables.map((t) => t.page)).toContain('benchmarks.md')
  const counted: string[] = []
  let pr = 5400
  for (const mode of ['instant', 'branch'] as const) {
    const f = await commentCost(emu, { mode, rounds: 1, work, firstPr: pr })
    pr += 1
    counted.push(`${mode} | first | ${f.first.req[0]} (${f.first.writes[0]}, ${f.first.created[0]})`)
    counted.push(`${mode} | re-run | ${f.rerun.req[0]} (${f.rerun.writes[0]}, ${f.rerun.created[0]})`)
  }
  for (const t of tables) expect({ page: t.page, rows: t.rows }).toEqual({ page: t.page, rows: counted })
})

/**
 * The docs' figures that a benchmark gives without timing, checked against
 * the benchmark's current output. A table in docs/ is marked by the line
 * right above it:
 * - `<!-- figures: npm run bench:comment -->`: the GitHub requests of a PR's
 *   first run and re-run per mode, which bench/comment-run.ts counts exactly
 *   from the emulator's log;
 * - `<!-- figures: BENCH_SEED=<n> npm run bench:queue -- <args> -->`: the
 *   table bench/queue.ts prints on its simulated clock with every draw from
 *   that seed, which is the same on every run of the same code.
 * A figure the code no longer gives fails this file; run the marker's
 * command and write the table anew.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import { ROOT } from '../../emulator/runner/runner.js'
import { COMMENT_SEED, COMMENT_TIMING, commentCost } from '../../bench/comment-run.js'
import { startTestEmulator } from '../fixtures/preview.js'

const DOCS = path.join(ROOT, 'docs')
const MARK = '<!-- figures: npm run bench:comment -->'

/** The table rows (lines starting with `|`) right below the marker `mark(line)` accepts, per page of docs/. */
function markedTables(mark: (line: string) => boolean): { page: string; marker: string; rows: string[] }[] {
  const tables: { page: string; marker: string; rows: string[] }[] = []
  for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
    const lines = readFileSync(path.join(DOCS, page), 'utf8').split('\n')
    lines.forEach((line, i) => {
      if (!mark(line.trim())) return
      const rows: string[] = []
      for (let j = i + 1; j < lines.length && lines[j].startsWith('|'); j++) rows.push(lines[j])
      tables.push({ page, marker: line.trim(), rows })
    })
  }
  return tables
}

/** A comment table's rows as `mode | run | requests`, past its heading and rule. */
const commentRows = (rows: string[]): string[] =>
  rows.slice(2).map((r) => {
    const cells = r.split('|').map((c) => c.trim())
    return `${cells[1]} | ${cells[2]} | ${cells[3]}`
  })

const QUEUE_MARK = /^<!-- figures: BENCH_SEED=(\d+) npm run bench:queue -- ([\d, ]+) -->$/

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
  const tables = markedTables((line) => line === MARK)
  expect(tables.map((t) => t.page)).toContain('benchmarks.md')
  const counted: string[] = []
  let pr = 5400
  for (const mode of ['instant', 'branch'] as const) {
    const f = await commentCost(emu, { mode, rounds: 1, work, firstPr: pr })
    pr += 1
    counted.push(`${mode} | first | ${f.first.req[0]} (${f.first.writes[0]}, ${f.first.created[0]})`)
    counted.push(`${mode} | re-run | ${f.rerun.req[0]} (${f.rerun.writes[0]}, ${f.rerun.created[0]})`)
  }
  for (const t of tables) expect({ page: t.page, rows: commentRows(t.rows) }).toEqual({ page: t.page, rows: counted })
})

it("docs' tables marked with a seeded `npm run bench:queue` are what the simulation prints now", () => {
  const tables = markedTables((line) => QUEUE_MARK.test(line))
  expect(tables.map((t) => t.page)).toContain('benchmarks.md')
  for (const t of tables) {
    const [, seed, args] = QUEUE_MARK.exec(t.marker)!
    const printed = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['bench/queue.ts', ...args.split(' ')], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SEED: seed },
      encoding: 'utf8'
    })
    expect({ page: t.page, rows: t.rows }).toEqual({ page: t.page, rows: printed.split('\n').filter((l) => l.startsWith('|')) })
  }
})

/**
 * The PR comment's cost: against the emulator on loopback, with
 * the comment on, prints per mode the GitHub requests (writes among them,
 * and comments created) and the wall time of a PR's first run and of a
 * re-run that reuses its database or branch. Not a test: it prints figures.
 * BENCH_ACTION_YML runs another build's action.yml (for example an older
 * commit's, from `git archive <commit> action.yml dist | tar -x -C dir`).
 *
 *   npm run bench:comment [-- rounds]
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmulator } from '../emulator/index.js'
import { COMMENT_SEED, COMMENT_TIMING, commentCost } from './comment-run.js'
import { median, loadAverage } from './stats.js'

const rounds = Number(process.argv[2] ?? 5)
const actionYml = process.env.BENCH_ACTION_YML

const emu = await startEmulator()
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-comment-'))
writeFileSync(path.join(work, 'seed.sql'), COMMENT_SEED)
try {
  console.log(`${rounds} round(s); Node ${process.version}; load average ${loadAverage()}${actionYml ? `; action ${actionYml}` : ''}`)
  console.log('mode    | run      | GitHub requests (writes, comments created) | wall time (median, min–max)')
  emu.platform.timing = COMMENT_TIMING
  let pr = 5000
  for (const mode of ['instant', 'branch'] as const) {
    const figures = await commentCost(emu, { mode, rounds, work, firstPr: pr, actionYml })
    pr += rounds
    for (const which of ['first', 'rerun'] as const) {
      const f = figures[which]
      const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
      console.log(
        `${mode.padEnd(7)} | ${which === 'first' ? 'first' : 're-run'}`.padEnd(19) +
          `| ${median(f.req)} (${median(f.writes)}, ${median(f.created)})`.padEnd(45) +
          `| ${fmt(median(f.wall))} (${fmt(Math.min(...f.wall))}–${fmt(Math.max(...f.wall))})`
      )
    }
  }
} finally {
  await emu.stop()
}

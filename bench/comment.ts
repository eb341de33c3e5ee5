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
import { APP_TOKEN, startEmulator } from '../emulator/index.js'

const rounds = Number(process.argv[2] ?? 5)
const actionYml = process.env.BENCH_ACTION_YML
import { REPO, branchInputs, instantInputs } from '../__tests__/fixtures/preview.js'
import { median, loadAverage } from './stats.js'

const emu = await startEmulator()
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-comment-'))
writeFileSync(path.join(work, 'seed.sql'), 'CREATE TABLE items (id int PRIMARY KEY);\nINSERT INTO items SELECT generate_series(1, 5);\n')
try {
  console.log(`${rounds} round(s); Node ${process.version}; load average ${loadAverage()}${actionYml ? `; action ${actionYml}` : ''}`)
  console.log('mode    | run      | GitHub requests (writes, comments created) | wall time (median, min–max)')
  emu.platform.timing = { createBranchMs: 200, startComputeMs: 400, deleteMs: 200 }
  let pr = 5000
  for (const mode of ['instant', 'branch'] as const) {
    const project = await emu.platform.createProject()
    const figures = {
      first: { wall: [] as number[], req: [] as number[], writes: [] as number[], created: [] as number[] },
      rerun: { wall: [] as number[], req: [] as number[], writes: [] as number[], created: [] as number[] }
    }
    for (let i = 0; i < rounds; i++) {
      const number = ++pr
      emu.github.openPullRequest(REPO, number)
      for (const which of ['first', 'rerun'] as const) {
        const from = emu.github.server.log.length
        const r = await emu.run({
          inputs: {
            mode,
            ...(mode === 'instant' ? instantInputs(emu) : branchInputs(emu, project)),
            'github-token': APP_TOKEN,
            seed: 'seed.sql'
          },
          repository: REPO,
          cwd: work,
          pr: { number },
          ...(actionYml ? { actionYml } : {})
        })
        if (r.code !== 0) throw new Error(`${mode} ${which} run failed: ${r.errors.join('; ')}`)
        if ((which === 'rerun') !== (r.outputs.created === 'false')) throw new Error(`${mode} ${which}: created=${r.outputs.created}`)
        const log = emu.github.server.log.slice(from)
        const f = figures[which]
        f.wall.push(r.durationMs)
        f.req.push(log.length)
        f.writes.push(log.filter((q) => q.method !== 'GET').length)
        f.created.push(log.filter((q) => q.method === 'POST' && /\/issues\/\d+\/comments\/?$/.test(q.path)).length)
      }
    }
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

/**
 * The PR comment's cost, one mode at a time: `rounds` pull requests, each a
 * first run and a re-run that reuses its database or branch, through the
 * bundled action against `emu` (the comment and the deployment on, as the
 * defaults leave them), with GitHub's requests counted from the emulator's
 * log. The counts are exact (no timing in them): bench/comment.ts prints
 * them beside the wall times, and __tests__/dist/docs-figures.test.ts checks
 * docs/benchmarks.md's table against them.
 */
import type { Emulator } from '../emulator/index.js'
import { APP_TOKEN } from '../emulator/index.js'
import { REPO, branchInputs, instantInputs } from '../__tests__/fixtures/preview.js'

/** One kind of run's figures, one entry per round: wall time in ms, GitHub requests, writes among them (not GET), comments created. */
export interface CommentFigures {
  wall: number[]
  req: number[]
  writes: number[]
  created: number[]
}

/**
 * Runs `rounds` PRs (numbered from `firstPr` + 1) in `mode`; `work` holds
 * `seed.sql`. `actionYml` runs another build's action.yml.
 * @throws Error when a run fails, or a re-run created its database (a first run did not).
 */
export async function commentCost(
  emu: Emulator,
  o: { mode: 'instant' | 'branch'; rounds: number; work: string; firstPr: number; actionYml?: string }
): Promise<Record<'first' | 'rerun', CommentFigures>> {
  const project = await emu.platform.createProject()
  const figures = {
    first: { wall: [] as number[], req: [] as number[], writes: [] as number[], created: [] as number[] },
    rerun: { wall: [] as number[], req: [] as number[], writes: [] as number[], created: [] as number[] }
  }
  for (let i = 0; i < o.rounds; i++) {
    const number = o.firstPr + 1 + i
    emu.github.openPullRequest(REPO, number)
    for (const which of ['first', 'rerun'] as const) {
      const from = emu.github.server.log.length
      const r = await emu.run({
        inputs: {
          mode: o.mode,
          ...(o.mode === 'instant' ? instantInputs(emu) : branchInputs(emu, project)),
          'github-token': APP_TOKEN,
          seed: 'seed.sql'
        },
        repository: REPO,
        cwd: o.work,
        pr: { number },
        ...(o.actionYml ? { actionYml: o.actionYml } : {})
      })
      if (r.code !== 0) throw new Error(`${o.mode} ${which} run failed: ${r.errors.join('; ')}`)
      if ((which === 'rerun') !== (r.outputs.created === 'false')) throw new Error(`${o.mode} ${which}: created=${r.outputs.created}`)
      const log = emu.github.server.log.slice(from)
      const f = figures[which]
      f.wall.push(r.durationMs)
      f.req.push(log.length)
      f.writes.push(log.filter((q) => q.method !== 'GET').length)
      f.created.push(log.filter((q) => q.method === 'POST' && /\/issues\/\d+\/comments\/?$/.test(q.path)).length)
    }
  }
  return figures
}

/** The seed every run loads: one table of five rows. */
export const COMMENT_SEED = 'CREATE TABLE items (id int PRIMARY KEY);\nINSERT INTO items SELECT generate_series(1, 5);\n'

/** The Neon operations' durations of the measurement (ms). */
export const COMMENT_TIMING = { createBranchMs: 200, startComputeMs: 400, deleteMs: 200 }

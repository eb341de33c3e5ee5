/**
 * The fault matrix's races: two runs of one PR together, and cancels (see matrix.ts).
 */
import { REPO, type Case, outcome, checker, succeeded } from './matrix-kit.js'

/** Two runs of one PR at once. */
export function races(): Case[] {
  const cases: Case[] = []
  for (const mode of ['instant', 'branch'] as const) {
    cases.push({
      group: 'races',
      name: `${mode}: two runs of one PR start together`,
      expected: `both succeed with the same outputs; one ${mode === 'instant' ? 'database' : 'branch'}, one comment, seeded once`,
      body: async ({ emu, run, pr, project }) => {
        const before = emu.instant.databases.size
        const [a, b] = await Promise.all([run(mode), run(mode)])
        const c = checker()
        succeeded(a, c)
        succeeded(b, c)
        for (const k of ['database-url', 'database-url-direct', 'database-id', 'branch-id']) {
          c.expect(a.outputs[k] === b.outputs[k], `output ${k} differs`)
        }
        const made =
          mode === 'instant'
            ? emu.instant.databases.size - before
            : [...project.branches.values()].filter((x) => !x.default && !x.protected).length
        c.expect(made === 1, `${made} ${mode === 'instant' ? 'databases' : 'branches'}`)
        const comments = emu.github.comments(REPO, pr).length
        c.expect(comments === 1, `${comments} comments`)
        c.expect([a, b].filter((r) => r.outputs.created === 'true').length === 1, 'created=true is not on exactly one run')
        return {
          observed: `${outcome(a)} / ${outcome(b)}; ${made} ${mode === 'instant' ? 'database' : 'branch'}, ${comments} comment`,
          problems: c.problems
        }
      }
    })
  }
  return cases
}

/** A run cancelled (SIGINT) at each step, then the PR runs again. */
export function cancels(): Case[] {
  const whileWaiting: Case = {
    group: 'races',
    name: "branch: a run is cancelled (SIGINT) while the new branch's operations run, then the PR runs again",
    expected: 'the cancelled run deletes the branch it created and releases the lock; the next run creates and seeds a new one',
    body: async ({ emu, run }) => {
      emu.platform.timing = { ...emu.platform.timing, startComputeMs: 2000 }
      const cancelled = await run('branch', {}, { cancelOn: /Created branch "[^"]+" \(/ })
      emu.platform.timing = { ...emu.platform.timing, startComputeMs: 400 }
      const again = await run('branch')
      const c = checker()
      c.expect(
        cancelled.code === 1 && cancelled.errors.some((e) => /cancelled \(SIGINT\).*the unseeded branch/.test(e)),
        `cancelled run: ${outcome(cancelled)}`
      )
      succeeded(again, c)
      c.expect(again.outputs.created === 'true', `the next run reused (created=${again.outputs.created})`)
      return { observed: `${outcome(cancelled)} / ${outcome(again)}`, problems: c.problems }
    }
  }
  return [
    whileWaiting,
    ...(['instant', 'branch'] as const).map((mode): Case => ({
      group: 'races',
      name: `${mode}: a run is cancelled (SIGINT) while seeding, then the PR runs again`,
      expected: 'the cancelled run releases the lock and leaves nothing unseeded; the next run provisions at once and seeds',
      body: async ({ run }) => {
        const seed = 'matrix-seed.sql\nmatrix-slow.sql\nmatrix-more.sql'
        const cancelled = await run(mode, { seed }, { cancelOn: /Seed the database/ })
        const again = await run(mode)
        const c = checker()
        c.expect(
          cancelled.code === 1 && cancelled.errors.some((e) => /cancelled \(SIGINT\)/.test(e)),
          `cancelled run: ${outcome(cancelled)}`
        )
        succeeded(again, c)
        c.expect(again.outputs.created === 'true', `the next run reused (created=${again.outputs.created})`)
        c.expect(again.durationMs < 30_000, `the next run took ${again.durationMs} ms`)
        return { observed: `${outcome(cancelled)} / ${outcome(again)} in ${(again.durationMs / 1000).toFixed(1)} s`, problems: c.problems }
      }
    }))
  ]
}

/**
 * `npm run bench:load`: twenty, then forty branch-mode runs of as many PRs
 * started at the same moment against one project of the emulator, with
 * operations taking about as long as Neon's (create branch and compute
 * start about 1 s each) and Neon's API rate limit on (700 requests a minute,
 * 40 a second per route), at the defaults (no `poll-interval` given) unless
 * poll-intervals are given. Prints per case: the makespan (launch to the
 * last run's end) against its lower bound (the union of the project's
 * operations' intervals) and their ratio, the same from the first run's first
 * request (the makespan without the start of as many Node processes on this
 * machine's two cores, which GitHub's runners, one a job, do not share: goal
 * at most 1.3 for twenty), the
 * peak of API requests in any minute (goal at most 350 for twenty, 700 for
 * forty), when the runs' first requests came (their processes' start on
 * this machine) and the time from the last operation's end to the last run's
 * end, the requests by kind, the 423 and 429 answers, and whether every
 * run succeeded with its branch seeded, no unseeded branch left, and one
 * comment per PR; a case given more than once (`20,20,20`), the median
 * and spread of its rounds' ratios and peaks, since one queue's idle time
 * is a draw. Not a test: it prints figures.
 *
 *   npx tsx bench/load.ts [runs,runs…] [poll-interval…]     (defaults: 20,40; `default`, that is none given)
 */
import os from 'node:os'
import { exitOnStartError } from '../emulator/child.js'
import { NEON_TIMING } from '../emulator/neon/neon-limits.js'
import { REPO, freshProject, previewBranches, startTestEmulator } from '../__tests__/fixtures/preview.js'
import { runLoad } from './load-run.js'
import { loadAverage, median } from './stats.js'

const counts = (process.argv[2] ?? '20,40').split(',').map(Number)
const intervals = process.argv.length > 3 ? process.argv.slice(3) : ['default']
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

const { emu, work } = await startTestEmulator('bench-load-', {
  'seed.sql': 'CREATE TABLE items (id int PRIMARY KEY);\nINSERT INTO items VALUES (1), (2), (3);\n'
}).catch(exitOnStartError)
let pr = 1000
/** Per case (runs and poll-interval) given more than once: each round's ratio from the first request, and its peak minute. */
const rounds = new Map<string, { count: number; interval: string; ratios: number[]; peaks: number[] }>()
try {
  emu.platform.limitRate()
  console.log(
    `branch-mode runs of as many PRs at once, one project; create_branch ${NEON_TIMING.createBranchMs} ms, start_compute ${NEON_TIMING.startComputeMs} ms; ` +
      `rate limit 700/min, 40/s per route; Node ${process.version}; ${os.cpus().length} CPUs`
  )
  console.log(
    "runs | poll-interval | makespan | lower bound | ratio | first request → end | its ratio | operations span | span ratio | launch → a run's first request (median, last) | last operation → end | peak requests/min | requests (polls, listings, creates, other) | 423 | 429 | succeeded | seeded | left over | comments | load average"
  )
  for (const count of counts)
    for (const interval of intervals) {
      const project = await freshProject(emu, { ...NEON_TIMING })
      const prs = Array.from({ length: count }, () => pr++)
      for (const n of prs) emu.github.openPullRequest(REPO, n)
      const before = loadAverage()
      const {
        runs,
        figures: f,
        firstRequestMs: first
      } = await runLoad(emu, {
        project,
        prs,
        work,
        inputs: interval === 'default' ? {} : { 'poll-interval': interval },
        unset: interval === 'default' ? ['poll-interval'] : []
      })
      const ok = runs.filter((r) => r.code === 0)
      let seeded = 0
      for (const r of ok) {
        const b = project.branches.get(r.outputs['branch-id'])
        if (b && b.name === r.outputs['branch-name'] && !b.name.endsWith('~seeding')) {
          const rows = await emu.pg.query(b.database, 'SELECT count(*)::int AS n FROM items').catch(() => null)
          if ((rows?.[0] as { n?: number } | undefined)?.n === 3) seeded++
        }
      }
      const leftOver = previewBranches(project).filter((b) => b.name.endsWith('~seeding')).length
      const comments = prs.filter((n) => emu.github.comments(REPO, n).length === 1).length
      // The action's own pace: from the first run's first request, without the launch of as many processes here.
      const fromFirstMs = f.makespanMs - (first[0] ?? 0)
      const ratio = fromFirstMs / f.busyMs
      console.log(
        [
          String(count),
          interval === 'default' ? 'default (5 s)' : `${interval} s`,
          s(f.makespanMs),
          s(f.busyMs),
          `${(f.makespanMs / f.busyMs).toFixed(2)}×`,
          s(fromFirstMs),
          `${ratio.toFixed(2)}×`,
          s(f.spanMs),
          `${(f.spanMs / f.busyMs).toFixed(2)}×`,
          `${s(first[Math.floor(first.length / 2)] ?? NaN)}, ${s(first.at(-1) ?? NaN)} (${first.length} found)`,
          s(f.makespanMs - f.headMs - f.spanMs),
          String(f.peakPerMinute),
          `${f.requests} (${f.kinds.polls}, ${f.kinds.listings}, ${f.kinds.creates}, ${f.kinds.other})`,
          String(f.locked),
          String(f.rateLimited),
          `${ok.length}/${count}`,
          `${seeded}/${count}`,
          String(leftOver),
          `${comments}/${count} with one`,
          `${before} → ${loadAverage()}`
        ].join(' | ')
      )
      for (const r of runs.filter((x) => x.code !== 0)) console.log(`  failed: ${r.errors.join(' / ').slice(0, 300)}`)
      const round = rounds.get(`${count} ${interval}`) ?? { count, interval, ratios: [], peaks: [] }
      round.ratios.push(ratio)
      round.peaks.push(f.peakPerMinute)
      rounds.set(`${count} ${interval}`, round)
    }
  // One queue's idle time is a draw: a case given more than once (`20,20,20`) gets its median and spread.
  for (const { count, interval, ratios, peaks } of rounds.values()) {
    if (ratios.length < 2) continue
    console.log(
      `${count} runs, ${interval === 'default' ? 'default poll-interval' : `poll-interval ${interval} s`}, ${ratios.length} rounds: ` +
        `first request → end over the busy time median ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}), ` +
        `${ratios.filter((x) => x <= 1.3).length} of ${ratios.length} at most 1.3×; peak requests a minute median ${median(peaks)}, most ${Math.max(...peaks)}`
    )
  }
} finally {
  await emu.stop()
}

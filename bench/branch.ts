/**
 * Branch-mode benchmark: a PR's first run (the create) against the
 * emulator, at the defaults unless poll-intervals are given, with the
 * operations taking about as long as Neon's (create branch and compute start
 * 1 s each, together) and longer (2 s and 4 s). Prints per case the time from
 * the last operation finishing to the action's outputs being set (median,
 * min–max; the time the run idled after its operations) and, of that, the
 * time to the poll that found them all terminal, the API requests of
 * the provision and how many of them polled an operation, and the run's wall
 * time. `compare-schema`, the comment and the deployment are off, so that
 * the run is the create. Not a test: it prints figures.
 *
 *   npx tsx bench/branch.ts [rounds] [poll-interval…]    (defaults: 5; `default`, that is no `poll-interval` given)
 */
import { exitOnStartError } from '../emulator/child.js'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { NEON_TIMING } from '../emulator/neon/neon-limits.js'
import { branchInputs } from '../__tests__/fixtures/preview.js'
import { loadAverage, median } from './stats.js'

const rounds = Number(process.argv[2] ?? 5)
const intervals = process.argv.length > 3 ? process.argv.slice(3) : ['default']
const timings = [
  { createBranchMs: NEON_TIMING.createBranchMs, startComputeMs: NEON_TIMING.startComputeMs },
  { createBranchMs: 2000, startComputeMs: 4000 }
]

const emu = await startEmulator().catch(exitOnStartError)
try {
  console.log(`${rounds} round(s) per case; Node ${process.version}; load average ${loadAverage()}`)
  console.log(
    'operations | poll-interval | last operation finished → outputs set (median, min–max) | → the poll that saw it (median) | API requests per provision (of which polls) | wall time (median)'
  )
  for (const timing of timings) {
    for (const interval of intervals) {
      const lag: number[] = []
      const pollLag: number[] = []
      const requests: number[] = []
      const polls: number[] = []
      const wall: number[] = []
      for (let i = 0; i < rounds; i++) {
        const project = await emu.platform.createProject()
        emu.platform.timing = { ...timing, deleteMs: 500 }
        const before = emu.platform.server.log.length
        const { 'poll-interval': _unset, ...inputs } = branchInputs(emu, project)
        const r = await emu.run({
          inputs: {
            ...inputs,
            ...(interval === 'default' ? {} : { 'poll-interval': interval }),
            'github-token': APP_TOKEN,
            comment: 'false',
            deployment: 'false',
            'compare-schema': 'false'
          },
          timeOutputs: true
        })
        if (r.code !== 0 || r.outputsAt === undefined) throw new Error(`run failed: ${r.errors.join('; ')}`)
        const lastEnd = Math.max(...emu.platform.operations(project).map((o) => o.endedAt ?? Infinity))
        const log = emu.platform.server.log.slice(before)
        // Polls: an operation read by id, or the page of the newest that reads a create's two at once.
        const opGets = log.filter((q) => q.method === 'GET' && /\/operations(\/[^/]+)?\/?$/.test(q.path))
        lag.push(r.outputsAt - lastEnd)
        pollLag.push(opGets.at(-1)!.at - lastEnd)
        requests.push(log.length)
        polls.push(opGets.length)
        wall.push(r.durationMs)
      }
      const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
      console.log(
        [
          `${timing.createBranchMs / 1000} s + ${timing.startComputeMs / 1000} s`,
          interval === 'default' ? 'default (5 s)' : `${interval} s`,
          `${fmt(median(lag))} (${fmt(Math.min(...lag))}–${fmt(Math.max(...lag))})`,
          fmt(median(pollLag)),
          `${median(requests)} (${median(polls)})`,
          fmt(median(wall))
        ].join(' | ')
      )
    }
  }
  console.log(`load average after: ${loadAverage()}`)
} finally {
  await emu.stop()
}

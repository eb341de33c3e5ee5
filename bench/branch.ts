/**
 * Branch-mode benchmark: against the emulator, for poll-interval 5
 * and 1, prints the time from the last operation finishing to the action's
 * outputs being set, the API requests per provision, and the whole run's
 * wall time. Operations take what BENCH_CREATE_MS / BENCH_COMPUTE_MS say
 * (default 2000 / 4000 ms). Not a test: it prints figures.
 *
 *   npx tsx bench/branch.ts [rounds]
 */
import { exitOnStartError } from '../emulator/child.js'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { branchInputs } from '../__tests__/fixtures/preview.js'
import { median } from './stats.js'

const rounds = Number(process.argv[2] ?? 3)
const createMs = Number(process.env.BENCH_CREATE_MS ?? 2000)
const computeMs = Number(process.env.BENCH_COMPUTE_MS ?? 4000)

const emu = await startEmulator().catch(exitOnStartError)
try {
  console.log(
    `operations: create_branch ${createMs} ms, start_compute ${computeMs} ms; ${rounds} round(s) per poll interval; Node ${process.version}`
  )
  console.log('poll-interval | last op finished → outputs set (median, min–max) | API requests per provision | wall time (median)')
  for (const interval of [5, 1]) {
    const lag: number[] = []
    const requests: number[] = []
    const wall: number[] = []
    for (let i = 0; i < rounds; i++) {
      const project = await emu.platform.createProject()
      emu.platform.timing = { createBranchMs: createMs, startComputeMs: computeMs, deleteMs: 500 }
      const before = emu.platform.server.log.length
      const r = await emu.run({
        inputs: {
          ...branchInputs(emu, project),
          'poll-interval': String(interval),
          'github-token': APP_TOKEN,
          comment: 'false'
        },
        timeOutputs: true
      })
      if (r.code !== 0 || r.outputsAt === undefined) throw new Error(`run failed: ${r.errors.join('; ')}`)
      const lastEnd = Math.max(...emu.platform.operations(project).map((o) => o.endedAt ?? Infinity))
      lag.push(r.outputsAt - lastEnd)
      requests.push(emu.platform.server.log.length - before)
      wall.push(r.durationMs)
    }
    const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
    console.log(
      `${String(interval).padStart(4)} s        | ${fmt(median(lag))} (${fmt(Math.min(...lag))}–${fmt(Math.max(...lag))})`.padEnd(66) +
        `| ${median(requests)}`.padEnd(29) +
        `| ${fmt(median(wall))}`
    )
  }
} finally {
  await emu.stop()
}

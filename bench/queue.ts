/**
 * Runs queueing on one busy project, on a simulated clock: `npm run bench:queue -- [counts] [queues]`
 * (default `20,40 300`). Each run sends its create through the action's own
 * retryLocked (platform/retry-423.ts) with its own ProjectWaiter
 * (platform/project-wait.ts), so the waits, the 423 schedule and the pace
 * (platform/project-pace.ts) are the code the bundle runs; only the clock,
 * the sleeps and the project are simulated:
 *
 * - the project runs one create at a time: a create sent while another's
 *   operations run is refused with 423, else it starts `create_branch` and
 *   `start_compute` together, 1.00 to 1.06 s each (Neon-like, as the
 *   emulator's NEON_TIMING);
 * - the list of operations is newest first with `created_at` cut to the
 *   second (Neon operations guide) and `total_duration_ms` once finished;
 * - every request takes 5 to 30 ms; the runs send their first create within
 *   `SPREAD_MS` of each other.
 *
 * With BENCH_SEED set (an integer) every draw comes from that seed, so a
 * run prints the same figures every time for the same code.
 *
 * So many queues can be measured in seconds, with no machine's load in the
 * figures, which `npm run bench:load` (the bundle against the emulator) cannot
 * give: its runs share this machine's two cores. It prints, over the queues,
 * the time from the first create sent to the last create's end over the busy
 * time (the median, the 90th percentile and the share at most 1.3), the idle
 * time between creates, and the most requests (creates, listings, polls) in
 * any minute: the median, the 90th and 97th percentiles and the most over the
 * queues (Neon's limit holds for every queue, not for the median).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { HttpError } from '../src/http.js'
import type { Operation } from '../src/platform/operations.js'
import { learnedDurations } from '../src/platform/project-pace.js'
import { ProjectWaiter } from '../src/platform/project-wait.js'
import { retryLocked, setLockedHandler } from '../src/platform/retry-423.js'
import { iso } from '../emulator/neon/platform-records.js'
import { peakPerWindow, unionMs } from './load-figures.js'
import { median, quantile } from './stats.js'

// BENCH_SEED: the same draws on every run (mulberry32), so that the figures are the code's alone and a check can compare them.
if (process.env.BENCH_SEED) {
  let a = Number(process.env.BENCH_SEED) >>> 0
  Math.random = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const counts = (process.argv[2] ?? '20,40').split(',').map(Number)
const QUEUES = Number(process.argv[3] ?? 300)
const SPREAD_MS = 3000
const latencyMs = (): number => 5 + Math.random() * 25

// The simulated clock: Date.now reads it; a sleep resolves when every run is blocked and it is the next due.
let now = 1_800_000_000_000
Date.now = () => now
const timers: { at: number; seq: number; fire: () => void }[] = []
let seq = 0
const sleep = (ms: number): Promise<void> => new Promise((fire) => timers.push({ at: now + Math.max(0, ms), seq: seq++, fire }))
const settled = (): Promise<void> => new Promise((r) => setImmediate(r))
async function runUntil(done: () => boolean): Promise<void> {
  for (;;) {
    await settled()
    await settled()
    if (done()) return
    if (!timers.length) throw new Error('no run can go on')
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq)
    const t = timers.shift()!
    now = Math.max(now, t.at)
    t.fire()
  }
}

// retryLocked asks one handler per process (a run is a process); here each run's own waiter, by async context.
const waiterOfRun = new AsyncLocalStorage<ProjectWaiter>()
setLockedHandler({ afterLocked: (label, times) => waiterOfRun.getStore()!.afterLocked(label, times) })

interface Hold {
  start: number
  end: number
}
interface QueueFigures {
  ratio: number
  idleMs: number
  peakPerMinute: number
}

/** One queue of `n` runs: all created, each after waiting its turn. */
async function queue(n: number): Promise<QueueFigures> {
  learnedDurations.clear()
  const ops: { id: string; branch: string; action: string; start: number; ms: number }[] = []
  const holds: Hold[] = []
  const requests: number[] = []
  const view = (o: (typeof ops)[number]): Operation => {
    const done = now >= o.start + o.ms
    return {
      id: o.id,
      project_id: 'p',
      branch_id: o.branch,
      action: o.action,
      status: done ? 'finished' : 'running',
      failures_count: 0,
      created_at: iso(o.start),
      updated_at: iso(done ? o.start + o.ms : o.start),
      ...(done ? { total_duration_ms: o.ms } : {})
    }
  }
  const request = async <T>(serve: () => T): Promise<T> => {
    await sleep(latencyMs() / 2)
    requests.push(now)
    const answer = serve()
    await sleep(latencyMs() / 2)
    return answer
  }
  const reader = {
    listOperations: (limit: number) => request(() => ({ operations: [...ops].reverse().slice(0, limit).map(view) })),
    getOperation: (id: string) => request(() => view(ops.find((o) => o.id === id)!))
  }
  const create = (run: number) => (): Promise<void> =>
    request(() => {
      if (ops.some((o) => now < o.start + o.ms)) throw new HttpError('423 Locked', 423)
      const ms = [1000 + Math.random() * 60, 1000 + Math.random() * 60]
      ops.push({ id: `op-${ops.length}`, branch: `br-${run}`, action: 'create_branch', start: now, ms: ms[0] })
      ops.push({ id: `op-${ops.length}`, branch: `br-${run}`, action: 'start_compute', start: now, ms: ms[1] })
      holds.push({ start: now, end: now + Math.max(...ms) })
    })
  let created = 0
  let firstSent = Infinity
  for (let run = 0; run < n; run++) {
    const waiter = new ProjectWaiter(reader, { pollIntervalSeconds: 5, waitTimeoutSeconds: 600 }, Math.random, sleep)
    void waiterOfRun.run(waiter, async () => {
      await sleep(Math.random() * SPREAD_MS)
      firstSent = Math.min(firstSent, now)
      await retryLocked(`run ${run}`, create(run), sleep)
      created++
    })
  }
  await runUntil(() => created === n)
  const busy = unionMs(holds)
  const end = Math.max(...holds.map((h) => h.end))
  now += 7_200_000 // the next queue finds no operation of this one within the listing's horizon
  return { ratio: (end - firstSent) / busy, idleMs: end - firstSent - busy, peakPerMinute: peakPerWindow(requests) }
}

const print = process.stdout.write.bind(process.stdout)
// The waiters' core.info lines go to stdout: kept out of the figures.
process.stdout.write = (() => true) as typeof process.stdout.write
try {
  print(
    `| runs | queues | first create → last end over busy time: median, p90 | at most 1.3 | idle time (median) | most requests in a minute: median, p90, p97, max |\n`
  )
  print(`| --- | --- | --- | --- | --- | --- |\n`)
  for (const n of counts) {
    const figures: QueueFigures[] = []
    for (let q = 0; q < QUEUES; q++) figures.push(await queue(n))
    const ratios = figures.map((f) => f.ratio)
    const peaks = figures.map((f) => f.peakPerMinute)
    print(
      `| ${n} | ${QUEUES} | ${median(ratios).toFixed(3)}, ${quantile(ratios, 0.9).toFixed(3)} | ` +
        `${Math.round((100 * ratios.filter((r) => r <= 1.3).length) / QUEUES)} % | ${(median(figures.map((f) => f.idleMs)) / 1000).toFixed(2)} s | ` +
        `${median(peaks)}, ${quantile(peaks, 0.9)}, ${quantile(peaks, 0.97)}, ${Math.max(...peaks)} |\n`
    )
  }
} finally {
  process.stdout.write = print
}

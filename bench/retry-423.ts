/**
 * The 423 retry's real timing: the create branch request meets HTTP 423
 * (a system operation holds the project) on its first four attempts; for each
 * round, prints the waits the action logged (0.1 s doubling plus a jitter of
 * at most a quarter) and how much later than each logged wait the next
 * attempt reached the emulator (the lag: the action's timers and the
 * emulator's reading of requests on this machine, at the load average
 * printed). `__tests__/dist/branch.test.ts` checks the logged schedule and
 * that no attempt comes early; how late one comes is a figure of the
 * machine's load, so it is printed here, not asserted. Not a test: it prints
 * figures.
 *
 *   npx tsx bench/retry-423.ts [rounds]
 */
import { exitOnStartError } from '../emulator/child.js'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { NODE_24 } from '../emulator/runner/runner.js'
import { branchInputs } from '../__tests__/fixtures/preview.js'
import { loadAverage, median } from './stats.js'

const rounds = Number(process.argv[2] ?? 5)
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

const emu = await startEmulator().catch(exitOnStartError)
try {
  console.log(`Node 24 (${NODE_24}); ${rounds} round(s); load average before: ${loadAverage()}`)
  console.log('round | logged waits (ms) | real gaps (ms) | lag over the logged wait (ms)')
  const lags: number[] = []
  for (let i = 1; i <= rounds; i++) {
    const project = await emu.platform.createProject()
    emu.platform.timing = { createBranchMs: 200, startComputeMs: 400, deleteMs: 200 }
    emu.platform.server.log.length = 0
    emu.platform.startSystemOperation(project, { durationMs: 60_000 })
    const running = emu.run({ inputs: { ...branchInputs(emu, project), 'github-token': APP_TOKEN, comment: 'false' }, node: NODE_24 })
    const locked = (): number => emu.platform.server.requests('POST', /\/branches$/).filter((p) => p.status === 423).length
    for (const deadline = Date.now() + 30_000; locked() < 4 && Date.now() < deadline;) await sleep(20)
    emu.platform.lifecycle.finishSystemOperations(project)
    const r = await running
    if (r.code !== 0) throw new Error(`run failed: ${r.errors.join('; ')}`)
    const waits = [...r.stdout.matchAll(/HTTP 423 Locked \(project busy\), attempt \d+ of 5; retrying in ([\d.]+) s/g)].map(
      (m) => Number(m[1]) * 1000
    )
    const posts = emu.platform.server.requests('POST', /\/branches$/).slice(0, 4)
    const gaps = posts.slice(1).map((p, k) => p.at - posts[k].at)
    const lag = gaps.map((g, k) => g - waits[k])
    lags.push(...lag)
    const list = (xs: number[]): string => xs.map((x) => Math.round(x)).join(', ')
    console.log(`${String(i).padStart(5)} | ${list(waits.slice(0, 3)).padEnd(17)} | ${list(gaps).padEnd(14)} | ${list(lag)}`)
  }
  console.log(`lag: median ${Math.round(median(lags))} ms, max ${Math.round(Math.max(...lags))} ms; load average after: ${loadAverage()}`)
} finally {
  await emu.stop()
}

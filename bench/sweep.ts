/**
 * Sweep benchmark: against the emulator with Neon's API rate limit on (700
 * requests a minute, 40 a second per route) and a `GITHUB_TOKEN`'s budget
 * (1,000 requests an hour, emulator/github/github-rate.ts), for 300 and 1,200
 * preview branches of closed PRs, each PR with its preview comment and its
 * deployment as the defaults leave them (`comment: true`, `deployment:
 * true`; __tests__/fixtures/planted-previews.ts), runs `command: cleanup`
 * with the default inputs (poll interval 5 s) until every branch is gone, a
 * new hour's budget before each run, and prints per size: runs needed,
 * GitHub requests per swept preview (goal at most 2.5) and the fewest left
 * after a run (the sweep leaves 250 of 1,000 to the repository's pull
 * requests), Neon requests in the busiest minute (at most 700) and refused
 * (429), DELETEs answered 423, and the sweeps' wall time; it fails when a
 * PR's comment was not updated or its deployment not set `inactive`. A
 * delete's operations take BENCH_DELETE_MS (default 300 ms); with
 * BENCH_RECORDED=0 the branches carry no recorded ids (previews made before
 * this version: the sweep lists instead). Not a test: it prints figures.
 *
 *   npx tsx bench/sweep.ts [sizes…]
 */
import { exitOnStartError } from '../emulator/child.js'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { limitGitHub } from '../emulator/github/github-rate.js'
import { branchInputs } from '../__tests__/fixtures/preview.js'
import { plantPreviews } from '../__tests__/fixtures/planted-previews.js'

const sizes = process.argv.slice(2).map(Number).filter(Boolean)
const deleteMs = Number(process.env.BENCH_DELETE_MS ?? 300)
const recorded = process.env.BENCH_RECORDED !== '0'
const REPO = 'acme/shop'

/** The most of `times` (milliseconds, ascending) within any 60 s. */
function busiestMinute(times: number[]): number {
  let most = 0
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= 60_000) i++
    most = Math.max(most, j - i + 1)
  }
  return most
}

const emu = await startEmulator().catch(exitOnStartError)
try {
  const limiter = emu.platform.limitRate()
  console.log(
    `delete operations ${deleteMs} ms; poll-interval 5 s (the default); comment and deployment on (the defaults); ids ${recorded ? '' : 'not '}recorded; Node ${process.version}`
  )
  console.log(
    'branches | runs | GitHub requests per swept preview | fewest left after a run | Neon requests (busiest minute, refused) | DELETEs answered 423 | wall time of the sweeps'
  )
  let nextPr = 100_000
  for (const size of sizes.length ? sizes : [300, 1200]) {
    const project = await emu.platform.createProject()
    emu.platform.timing = { ...emu.platform.timing, deleteMs }
    const prs = Array.from({ length: size }, () => nextPr++)
    const planted = plantPreviews(emu, project, REPO, prs, { recorded })
    const left = (): number => [...project.branches.values()].filter((b) => !b.default).length
    let runs = 0
    let github = 0
    let wall = 0
    let fewestLeft = 1000
    const refusedBefore = limiter.refused.perMinute + limiter.refused.perSecondPerRoute
    const neonFrom = emu.platform.server.log.length
    while (left() && runs < 10) {
      const budget = limitGitHub(emu.github, APP_TOKEN, { limit: 1000 })
      const r = await emu.run({
        inputs: { ...branchInputs(emu, project), 'poll-interval': '5', command: 'cleanup', 'github-token': APP_TOKEN },
        repository: REPO,
        eventName: 'schedule',
        event: {},
        timeoutMs: 3_600_000
      })
      if (r.code !== 0) throw new Error(`sweep failed: ${r.errors.join('; ')}`)
      runs++
      github += budget.used
      fewestLeft = Math.min(fewestLeft, budget.limit - budget.used)
      wall += r.durationMs
    }
    const log = emu.platform.server.log.slice(neonFrom)
    const neon = log.map((q) => q.at)
    const locked = log.filter((q) => q.method === 'DELETE' && q.status === 423).length
    const refused = limiter.refused.perMinute + limiter.refused.perSecondPerRoute - refusedBefore
    // Every PR's comment says its branch was swept and its deployment is inactive: else the sweep did not take them for its own.
    const swept = prs.filter((pr) => emu.github.comments(REPO, pr)[0]?.body.includes('deleted by the scheduled cleanup')).length
    if (swept !== size) throw new Error(`${size - swept} of ${size} preview comments were not updated by the sweep`)
    const active = planted.filter((p) => emu.deployments.statusesOf(p.deploymentId).at(-1)?.state !== 'inactive').length
    if (active) throw new Error(`${active} of ${size} deployments were not set inactive by the sweep`)
    console.log(
      `${String(size).padStart(8)} | ${String(runs).padStart(4)} | ${(github / size).toFixed(2).padStart(33)} | ${String(fewestLeft).padStart(23)} | ` +
        `${`${neon.length} (${busiestMinute(neon)}, ${refused})`.padStart(39)} | ${String(locked).padStart(20)} | ${(wall / 1000).toFixed(0)} s`
    )
    emu.github.server.admit = undefined
    emu.github.server.headersFor = undefined
  }
} finally {
  await emu.stop()
}

/**
 * One load with our seed loader, in its own process so its peak RSS and CPU
 * are its own: the check pass, then the load. Prints `{"checkMs": …,
 * "loadMs": …, "cpuS": …, "maxRssMiB": …, "checkMaxRssMiB": …, "rows": …}`
 * (wall milliseconds of each pass, user + system CPU seconds of both, peak
 * RSS in MiB of the whole process and at the end of the check pass, COPY rows
 * as the server counted them). Used by bench/seed.ts.
 *   node <bundle of this file> <postgresql-url> <file>...   (or: tsx bench/load-child.ts …)
 */
import '../src/v8-settings.js' // as src/main-step.ts does first
import { describeConnection } from '../src/connection.js'
import { checkSeed, loadSeed } from '../src/seed/loader.js'
import { endSessions } from '../src/pg-sessions.js'

const [url, ...files] = process.argv.slice(2)
const cpu = process.cpuUsage()
const started = process.hrtime.bigint()
const plan = await checkSeed(files)
const checked = process.hrtime.bigint()
const checkRss = process.resourceUsage().maxRSS
const result = await loadSeed(describeConnection(url, url), plan)
const loaded = process.hrtime.bigint()
await endSessions()
const used = process.cpuUsage(cpu)
console.log(
  JSON.stringify({
    checkMs: Number(checked - started) / 1e6,
    loadMs: Number(loaded - checked) / 1e6,
    cpuS: (used.user + used.system) / 1e6,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    checkMaxRssMiB: checkRss / 1024,
    rows: result.copyRows
  })
)

/**
 * One load with our seed loader, in its own process so its peak RSS and CPU
 * are its own. Prints `{"ms": …, "cpuS": …, "maxRssMiB": …, "rows": …}`
 * (wall milliseconds, user + system CPU seconds, MiB, COPY rows as the server
 * counted them). Used by bench/seed.ts.
 *   node <bundle of this file> <postgresql-url> <file>...   (or: tsx bench/load-child.ts …)
 */
import { describeConnection } from '../src/connection.js'
import { loadSeed } from '../src/seed/loader.js'

const [url, ...files] = process.argv.slice(2)
const started = process.hrtime.bigint()
const cpu = process.cpuUsage()
const result = await loadSeed(describeConnection(url, url), files)
const used = process.cpuUsage(cpu)
const ms = Number(process.hrtime.bigint() - started) / 1e6
console.log(JSON.stringify({ ms, cpuS: (used.user + used.system) / 1e6, maxRssMiB: process.resourceUsage().maxRSS / 1024, rows: result.copyRows }))

/**
 * One load with our seed loader, in its own process so its peak RSS is its
 * own. Prints `{"ms": …, "maxRssMiB": …, "rows": …}`. Used by bench/seed.ts.
 *   tsx bench/load-child.ts <postgresql-url> <file>...
 */
import { describeConnection } from '../src/connection.js'
import { loadSeed } from '../src/seed/loader.js'

const [url, ...files] = process.argv.slice(2)
const started = process.hrtime.bigint()
const result = await loadSeed(describeConnection(url, url), files)
const ms = Number(process.hrtime.bigint() - started) / 1e6
console.log(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, rows: result.copyRows }))

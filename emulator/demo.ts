/**
 * `npm start`: the newcomer's demo. Starts the emulator (instant service,
 * GitHub, a real PostgreSQL 17), runs the bundled action twice for one pull
 * request the way the runner does (create and seed, then a re-run that
 * reuses), and prints its log with secrets masked, its outputs, its job
 * summary and the PR comment it posted.
 */
import { startEmulator } from './index.js'
import { exitOnStartError } from './child.js'
import { applyMasks, type RunResult } from './runner/runner.js'

const REPO = 'acme/shop'
const PR = 42
const bar = (title: string): void => console.log(`\n\x1b[1m━━ ${title} ${'━'.repeat(Math.max(0, 70 - title.length))}\x1b[0m`)

/** The log as the runner shows it: masks applied, `::add-mask::` and debug lines hidden. */
function showLog(r: RunResult): void {
  const text = applyMasks(r.stdout, r.masks)
  for (const line of text.split('\n')) {
    if (line.startsWith('::add-mask::') || line.startsWith('::debug::') || line === '') continue
    const group = /^::group::(.*)$/.exec(line)
    if (group) console.log(`▸ ${group[1]}`)
    else if (line !== '::endgroup::') console.log(`  ${line.replace(/^::(\w+)[^:]*::/, '$1: ')}`)
  }
  if (r.stderr.trim()) console.log(applyMasks(r.stderr, r.masks))
}

function showOutputs(r: RunResult): void {
  for (const [name, value] of Object.entries(r.outputs)) console.log(`  ${name.padEnd(20)} ${applyMasks(value, r.masks)}`)
}

// `npm start | head` closes the pipe early: stop quietly instead of dying on EPIPE.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err
  process.exitCode = 0
})

// PostgreSQL that cannot start: its one line (cause and fix), exit 1.
const emu = await startEmulator().catch(exitOnStartError)
let failed = false
try {
  emu.github.openPullRequest(REPO, PR)
  const run = (): Promise<RunResult> =>
    emu.run({
      inputs: { 'instant-url': emu.instant.url, seed: 'examples/seed.sql' },
      pr: { number: PR, headRef: 'feature/checkout' },
      repository: REPO
    })
  console.log(`Emulator: instant service ${emu.instant.url}, GitHub API ${emu.github.url}, PostgreSQL 17 on 127.0.0.1:${emu.pg.port}`)
  for (const [i, title] of ['first run: pull request opened', 're-run: new commits pushed'].entries()) {
    bar(`Run ${i + 1} (${title}): log`)
    const r = await run()
    showLog(r)
    bar(`Run ${i + 1}: outputs (masked values shown as ***, as in the runner's log)`)
    showOutputs(r)
    if (r.code !== 0) {
      failed = true
      console.log(`\nThe action exited with ${r.code}.`)
      break
    }
    if (i === 0) {
      const db = emu.instant.databases.get(r.outputs['database-id'])!
      const rows = await emu.pg.query(db.database, 'SELECT count(*) AS customers FROM customers')
      console.log(`\n  (checked in the database: ${rows[0].customers} customers seeded)`)
      bar('Run 1: job summary')
      console.log(r.summary)
    }
  }
  bar(`The PR comment on ${REPO}#${PR} (one comment, updated in place)`)
  const comments = emu.github.comments(REPO, PR)
  console.log(`${comments.length} comment(s) by ${comments.map((c) => c.user.login).join(', ')}:\n`)
  console.log(comments.at(-1)?.body ?? '(none)')
} finally {
  await emu.stop()
}
process.exitCode = failed ? 1 : 0

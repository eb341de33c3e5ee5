/**
 * Peak RSS of the whole action, as the runner runs it: the bundled
 * `dist/index.js` on Node 24 (instant mode, `comment: false`, a GitHub token
 * and a PR, so the deployment is made too; every other input at its
 * default), each run's main and post step measured by `/usr/bin/time`
 * (its maximum resident set size, from the kernel's rusage). Loads: a
 * generated pg_dump of about BENCH_RSS_MB MiB (default 40;
 * __tests__/fixtures/generate.ts) as pg_dump writes it (COPY blocks), and the
 * same dumped with `--inserts` (one statement a row: the loader's heaviest
 * case), both `--no-owner --no-privileges`. BENCH_RSS_CHECK_ONLY=1 points
 * the action at a closed port, so each run ends after the check pass (its
 * peak alone). Needs /usr/bin/time and python3 (the wrapper that starts
 * Node through time keeps the runner's `INPUT_*` variables, whose names
 * hold hyphens, which /bin/sh would drop). Not a test: it prints figures.
 *
 *   npm run bench:rss -- [rounds]   (default 3)
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { NODE_24 } from '../emulator/runner/runner.js'
import { generateDumpOfSize } from '../__tests__/fixtures/generate.js'
import { DumpSource } from '../__tests__/pg-dump-source.js'
import { median, loadAverage } from './stats.js'

const rounds = Number(process.argv[2] ?? 3)
const mib = Number(process.env.BENCH_RSS_MB ?? 40)
const checkOnly = process.env.BENCH_RSS_CHECK_ONLY === '1'

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-rss-'))
const emu = await startEmulator()
try {
  const copy = path.join(work, 'generated.sql')
  const inserts = path.join(work, 'generated-inserts.sql')
  const source = await DumpSource.start()
  try {
    generateDumpOfSize(source, 'bench', mib, copy)
    const plain = ['--no-owner', '--no-privileges']
    source.dump('bench', copy, plain)
    source.dump('bench', inserts, [...plain, '--inserts'])
  } finally {
    await source.stop()
  }
  const times = path.join(work, 'rss.txt')
  const wrapper = path.join(work, 'node-with-time')
  writeFileSync(
    wrapper,
    '#!/usr/bin/env python3\nimport os, sys\n' +
      `os.execv('/usr/bin/time', ['/usr/bin/time', '-a', '-o', ${JSON.stringify(times)}, '-f', 'peak %M', ${JSON.stringify(NODE_24)}] + sys.argv[1:])\n`
  )
  chmodSync(wrapper, 0o755)
  console.log(
    `peak RSS of the bundled action (Node 24), ${rounds} round(s)${checkOnly ? ', check pass only (the create is refused)' : ''}; load average ${loadAverage()}`
  )
  let pr = 100
  for (const file of [copy, inserts]) {
    const main: number[] = []
    const post: number[] = []
    for (let i = 0; i < rounds; i++) {
      writeFileSync(times, '')
      const r = await emu.run({
        inputs: {
          'instant-url': checkOnly ? 'http://127.0.0.1:9' : emu.instant.url,
          'github-token': APP_TOKEN,
          comment: 'false',
          seed: path.basename(file)
        },
        pr: { number: ++pr },
        cwd: work,
        node: wrapper
      })
      if (checkOnly ? !/Create database \(instant service\) failed/.test(r.errors.join('\n')) : r.code !== 0)
        throw new Error(`the action did not end as expected: ${r.errors.join('; ')}`)
      const [m, p] = [...readFileSync(times, 'utf8').matchAll(/peak (\d+)/g)].map((x) => Number(x[1]) / 1024)
      main.push(m)
      post.push(p)
    }
    const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ')
    console.log(
      `${path.basename(file)} (${(statSync(file).size / 1048576).toFixed(1)} MiB): main step median ${median(main).toFixed(0)} MiB (${list(main)}), ` +
        `post step median ${median(post).toFixed(0)} MiB (${list(post)}); load average ${loadAverage()}`
    )
  }
} finally {
  await emu.stop()
  rmSync(work, { recursive: true, force: true })
}

/**
 * Cold start: how long `node dist/index.js` takes up to its input
 * check, against `node -e 0`, on Node 24 (the runtime action.yml names).
 * Each round runs both, alternating which goes first; the action gets an
 * input it refuses (`command: nope`), so it exits right after the check,
 * before any network call; and the post step after a main step that left
 * nothing to undo (`STATE_isPost=true` only). Prints the medians and every
 * time in milliseconds (wall, and CPU), the differences, and the size of
 * dist/. Not a test: it prints figures.
 *
 *   npm run bench:start -- [rounds]   (default 10)
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { NODE_24, ROOT } from '../emulator/runner/runner.js'
import { median, loadAverage } from './stats.js'

const rounds = Number(process.argv[2] ?? 10)
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'))
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GITHUB_STATE: path.join(dir, 'state'),
  GITHUB_OUTPUT: path.join(dir, 'output'),
  INPUT_COMMAND: 'nope'
}
writeFileSync(env.GITHUB_STATE, '')
writeFileSync(env.GITHUB_OUTPUT, '')

/**
 * Wall and CPU (user + system) milliseconds of one process, CPU as
 * /usr/bin/time reports it (10 ms steps; steadier than wall time on a busy
 * machine); `expectRefusal`: it must exit 1 naming the `command` input.
 */
function time(args: string[], expectRefusal: boolean, post = false): { wall: number; cpu: number } {
  const started = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', NODE_24, ...args], {
    env: post ? { ...env, STATE_isPost: 'true' } : env,
    cwd: dir,
    encoding: 'utf8'
  })
  const wall = Number(process.hrtime.bigint() - started) / 1e6
  const exit = expectRefusal ? 1 : 0
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr)
  if (r.status !== exit || (expectRefusal && !/::error::Input `command`/.test(r.stdout)) || (post && r.stdout !== '') || !cpu) {
    throw new Error(`unexpected exit ${r.status}: ${r.stdout}${r.stderr}`)
  }
  return { wall, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 }
}

try {
  const bare: { wall: number; cpu: number }[] = []
  const action: { wall: number; cpu: number }[] = []
  const post: { wall: number; cpu: number }[] = []
  const entry = path.join(ROOT, 'dist', 'index.js')
  for (let i = 0; i < rounds; i++) {
    const runs = [
      () => bare.push(time(['-e', '0'], false)),
      () => action.push(time([entry], true)),
      () => post.push(time([entry], false, true))
    ]
    for (const f of i % 2 ? runs.reverse() : runs) f()
  }
  const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ')
  const files = readdirSync(path.join(ROOT, 'dist')).map((f) => ({ f, size: statSync(path.join(ROOT, 'dist', f)).size }))
  const mb = (n: number): string => `${(n / 1048576).toFixed(2)} MiB`
  console.log(`${rounds} rounds, alternating; load average ${loadAverage()}`)
  for (const k of ['wall', 'cpu'] as const) {
    const [b, a, p] = [bare.map((x) => x[k]), action.map((x) => x[k]), post.map((x) => x[k])]
    console.log(`${k === 'wall' ? 'wall time' : 'CPU time (user + system)'}:`)
    console.log(`  node -e 0:                            median ${median(b).toFixed(0)} ms (${list(b)})`)
    console.log(`  node dist/index.js, bad input:        median ${median(a).toFixed(0)} ms (${list(a)})`)
    console.log(`  node dist/index.js, post, no undo:    median ${median(p).toFixed(0)} ms (${list(p)})`)
    console.log(
      `  differences of medians: bad input ${(median(a) - median(b)).toFixed(0)} ms, post ${(median(p) - median(b)).toFixed(0)} ms`
    )
  }
  console.log(
    `dist/: ${mb(files.reduce((a, b) => a + b.size, 0))}; index.js ${mb(statSync(entry).size)}; ` +
      files
        .filter((x) => x.f !== 'index.js')
        .map((x) => `${x.f} ${mb(x.size)}`)
        .join(', ')
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}

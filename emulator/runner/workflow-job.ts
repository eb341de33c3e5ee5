/**
 * Runs one job of a workflow here, step by step, the way the runner would:
 * the repository's own `uses: ./` job (.github/workflows/ci.yml), and the
 * workflows of README.md and docs/ (a ```yaml block with `on:` and `jobs:`,
 * {@link markdownWorkflows}), so a documented workflow that no longer runs
 * fails a test.
 * - `run:` steps run with `bash --noprofile --norc -eo pipefail` (GitHub's
 *   default shell) in the workspace (or the step's `working-directory`),
 *   with RUNNER_TEMP, GITHUB_ENV (whose lines later steps receive),
 *   GITHUB_OUTPUT (the step's outputs) and the workflow's, job's and step's
 *   `env:`;
 * - `uses: ./`, and the references given as {@link JobOptions.self} (the
 *   docs' `preview-postgres/preview-postgres@v1`), run the bundle through
 *   emulator/runner/runner.ts (action.yml loaded as GitHub loads it), with the
 *   step's `with:` and `env:`, in the workspace, with the job's RUNNER_TEMP;
 * - `actions/checkout`, `actions/setup-node`, `actions/setup-python` and
 *   `ruby/setup-ruby`, and `run: npm ci`, are skipped: the workspace is
 *   already checked out and installed; `actions/upload-artifact` and
 *   `actions/download-artifact` copy files to and from a local folder
 *   ({@link JobOptions.artifacts}); any other action fails its step;
 * - documented commands that need a tool this machine does not have (`npx
 *   prisma migrate deploy`) are replaced, in `run:` and in `with:` values,
 *   by the stand-ins {@link JobOptions.commands} names;
 * - `if:` (job and step), `continue-on-error`, and a `strategy.matrix` of
 *   lists (each combination run in turn) are honoured.
 * Expressions: the subset of emulator/runner/workflow-expr.ts (contexts `github`,
 * `env`, `steps`, `secrets`, `vars`, `matrix`, `runner`); any other
 * expression throws, so the job cannot silently diverge from what ran.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import YAML from 'yaml'
import { type RunOptions, type RunResult, ROOT, parseOutputFile, runAction } from './runner.js'
import { type ExprContext, type ExprValue, condition, interpolate } from './workflow-expr.js'

type Scalar = string | number | boolean
interface Step {
  id?: string
  name?: string
  uses?: string
  run?: string
  if?: string | boolean
  'continue-on-error'?: boolean
  'working-directory'?: string
  env?: Record<string, Scalar>
  with?: Record<string, Scalar>
}
interface Job {
  if?: string | boolean
  env?: Record<string, Scalar>
  strategy?: { matrix?: Record<string, Scalar[]> }
  defaults?: { run?: { 'working-directory'?: string } }
  steps: Step[]
}
interface Workflow {
  env?: Record<string, Scalar>
  jobs: Record<string, Job>
}

/** What happened to one step. */
export interface StepRecord {
  name: string
  outcome: 'success' | 'failure' | 'skipped'
  /** The step's log (stdout and stderr). */
  log: string
  /** For steps that run the bundle, the bundle's run. */
  action?: RunResult
}

/** How to run a workflow that is not ci.yml: where, with what, and what stands in for what. */
export interface JobOptions {
  /** The workflow's YAML text (a Markdown example); default: the file's. */
  text?: string
  /** The checkout: where `run:` steps and the bundle run. Default: this repository. */
  workspace?: string
  /** `uses:` references that are this action, besides `./` (e.g. `preview-postgres/preview-postgres@v1`). */
  self?: string[]
  /** Inputs added to every step that runs the bundle (the emulator's addresses); the step's `with:` wins over none of them. */
  inputs?: Record<string, string>
  /** The `github` context (event_name, event, repository, actor, token, …). */
  github?: Record<string, ExprValue>
  secrets?: Record<string, string>
  vars?: Record<string, string>
  /** Variables every step gets, under the workflow's (e.g. PGHOSTADDR, so psql reaches the emulator's `*.localhost` hosts). */
  env?: Record<string, string>
  /** Documented command text → its stand-in, replaced in `run:` and `with:` values. */
  commands?: Record<string, string>
  /** The run's artifacts (upload-artifact, download-artifact): a folder per artifact name. */
  artifacts?: string
}

/** What a job did. */
export interface JobResult {
  steps: StepRecord[]
  /** GITHUB_ENV at the end. */
  env: Record<string, string>
  runnerTemp: string
  /** The job's `if:` was false: no step ran. */
  skipped: boolean
  /** Keys of {@link JobOptions.commands} that no step used (a documented command the docs no longer have). */
  unusedCommands: string[]
}

/** Reads `name: value` lines (and `name<<EOF` blocks) of a GITHUB_ENV file. */
function readEnvFile(file: string): Record<string, string> {
  return existsSync(file) ? parseOutputFile(readFileSync(file, 'utf8')) : {}
}

/** A Markdown ```yaml block that is a whole workflow (top-level `on:` and `jobs:`). */
export interface MarkdownWorkflow {
  text: string
  /** The line of the Markdown text where the block's YAML starts (1-based). */
  firstLine: number
}

/** The ```yaml blocks of a Markdown text that are whole workflows (top-level `on:` and `jobs:`), and the count of fragments. */
export function markdownWorkflows(markdown: string): { workflows: MarkdownWorkflow[]; fragments: number } {
  const workflows: MarkdownWorkflow[] = []
  let fragments = 0
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i])) continue
    const start = i + 1
    while (++i < lines.length && !/^```\s*$/.test(lines[i]));
    const text = lines.slice(start, i).join('\n') + '\n'
    if (/^on:/m.test(text) && /^jobs:/m.test(text)) workflows.push({ text, firstLine: start + 1 })
    else fragments++
  }
  return { workflows, fragments }
}

const SETUP = /^(actions\/checkout|actions\/setup-node|actions\/setup-python|ruby\/setup-ruby)@/

/** Copies `from` (a file, or a folder's content) into the folder `to`. */
function copyInto(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  if (statSync(from).isDirectory()) for (const f of readdirSync(from)) cpSync(path.join(from, f), path.join(to, f), { recursive: true })
  else cpSync(from, path.join(to, path.basename(from)))
}

/**
 * Runs the job `jobId` of `workflowFile` (or of `options.text`): each
 * combination of its matrix in turn; a failed step skips the rest unless
 * their `if:` says otherwise.
 * @param base options for the bundle's runs (event, token, runtime); the GitHub
 *   API defaults to PREVIEW_PG_GITHUB_API_URL and the CA file to
 *   NODE_EXTRA_CA_CERTS from GITHUB_ENV, as `npm run emulator` exports them
 * @throws Error for a job that does not exist or an expression this does not evaluate
 */
export async function runWorkflowJob(
  workflowFile: string,
  jobId: string,
  base: Partial<
    Pick<RunOptions, 'githubApiUrl' | 'githubToken' | 'event' | 'eventName' | 'pr' | 'repository' | 'node' | 'timeoutMs' | 'caCertFile'>
  > = {},
  options: JobOptions = {}
): Promise<JobResult> {
  const text = options.text ?? readFileSync(workflowFile, 'utf8')
  const workflow = YAML.parse(text, { uniqueKeys: true }) as Workflow
  const job = workflow.jobs?.[jobId]
  if (!job) throw new Error(`${workflowFile} has no job ${jobId}`)
  const where = `${path.basename(workflowFile)} job ${jobId}`
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-job-'))
  const githubEnv = path.join(runnerTemp, 'github_env')
  writeFileSync(githubEnv, '')
  const workspace = options.workspace ?? ROOT
  const used = new Set<string>()
  const standIns = (s: string): string => {
    let out = s
    for (const [documented, standIn] of Object.entries(options.commands ?? {}))
      if (out.includes(documented)) {
        used.add(documented)
        out = out.split(documented).join(standIn)
      }
    return out
  }
  const github: Record<string, ExprValue> = {
    event_name: base.eventName ?? 'push',
    event: (base.event ?? {}) as ExprValue,
    repository: base.repository ?? 'acme/shop',
    token: base.githubToken ?? '',
    ...options.github
  }
  const steps: StepRecord[] = []
  const combos = matrixCombinations(job.strategy?.matrix)
  const outer: ExprContext = {
    contexts: {
      github,
      vars: options.vars ?? {},
      secrets: { GITHUB_TOKEN: asString(github.token), ...options.secrets },
      env: {},
      matrix: {}
    },
    failed: false
  }
  const jobRuns: ExprContext[] = combos.length > 0 ? combos.map((m) => ({ ...outer, contexts: { ...outer.contexts, matrix: m } })) : [outer]
  // the job's `if:` may not read `matrix`: a false one skips every combination
  if (!condition(job.if, outer)) {
    return { steps, env: {}, runnerTemp, skipped: true, unusedCommands: [] }
  }
  for (const ctx of jobRuns) {
    const suffix = combos.length > 0 ? ` (${Object.values(ctx.contexts.matrix as Record<string, string>).join(', ')})` : ''
    const stepContexts: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {}
    ctx.contexts.steps = stepContexts as unknown as ExprValue
    ctx.contexts.runner = { temp: runnerTemp, os: 'Linux' }
    writeFileSync(githubEnv, '')
    const posts: RunResult[] = [] // the action steps' `runs.post`, run after the last step in reverse order (as GitHub does)
    for (const step of job.steps) {
      const name = (step.name ?? step.run?.split('\n')[0] ?? step.uses ?? '(step)') + suffix
      const jobEnv = { ...options.env, ...evaluateAll(workflow.env, ctx), ...readEnvFile(githubEnv) }
      ctx.contexts.env = jobEnv
      Object.assign(jobEnv, evaluateAll(job.env, ctx))
      ctx.contexts.env = jobEnv
      if (!condition(step.if, ctx)) {
        steps.push({ name, outcome: 'skipped', log: '' })
        if (step.id) stepContexts[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' }
        continue
      }
      const stepEnv = evaluateAll(step.env, ctx)
      const inputs = Object.fromEntries(Object.entries(evaluateAll(step.with, ctx)).map(([k, v]) => [k, standIns(v)]))
      let record: StepRecord
      let outputs: Record<string, string> = {}
      if ((step.uses && SETUP.test(step.uses)) || step.run?.trim() === 'npm ci') {
        record = { name, outcome: 'skipped', log: '' }
      } else if (step.uses === './' || (step.uses && options.self?.includes(step.uses))) {
        const action = await runAction({
          ...base,
          githubApiUrl: base.githubApiUrl ?? jobEnv.PREVIEW_PG_GITHUB_API_URL ?? '',
          caCertFile: base.caCertFile ?? jobEnv.NODE_EXTRA_CA_CERTS ?? '',
          inputs: { ...inputs, ...options.inputs },
          cwd: workspace,
          env: { ...jobEnv, ...stepEnv, RUNNER_TEMP: runnerTemp, GITHUB_ENV: githubEnv, GITHUB_JOB: jobId },
          deferPost: true
        })
        posts.push(action)
        outputs = action.outputs
        record = { name, outcome: action.code === 0 ? 'success' : 'failure', log: action.stdout + action.stderr, action }
      } else if (step.uses && /^actions\/(upload|download)-artifact@/.test(step.uses)) {
        record = { name, ...artifactStep(step.uses, inputs, options.artifacts, workspace) }
      } else if (step.uses) {
        record = { name, outcome: 'failure', log: `${where}: the action ${step.uses} does not run here` }
      } else {
        const outputFile = path.join(runnerTemp, `output-${steps.length}`)
        writeFileSync(outputFile, '')
        const dir = step['working-directory'] ?? job.defaults?.run?.['working-directory']
        const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', standIns(step.run ?? '')], {
          cwd: dir ? path.resolve(workspace, interpolate(dir, ctx)) : workspace,
          env: {
            ...process.env,
            ...jobEnv,
            ...stepEnv,
            RUNNER_TEMP: runnerTemp,
            GITHUB_ENV: githubEnv,
            GITHUB_JOB: jobId,
            GITHUB_OUTPUT: outputFile,
            GITHUB_WORKSPACE: workspace,
            CI: 'true',
            GITHUB_ACTIONS: 'true'
          },
          encoding: 'utf8',
          timeout: 300_000
        })
        outputs = readEnvFile(outputFile)
        record = {
          name,
          outcome: r.status === 0 ? 'success' : 'failure',
          log: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`
        }
      }
      steps.push(record)
      const outcome = record.outcome
      const conclusion = outcome === 'failure' && step['continue-on-error'] ? 'success' : outcome
      if (step.id) stepContexts[step.id] = { outputs, outcome, conclusion }
      if (conclusion === 'failure') ctx.failed = true
    }
    for (const action of posts.reverse()) await action.runPost?.()
  }
  return {
    steps,
    env: readEnvFile(githubEnv),
    runnerTemp,
    skipped: false,
    unusedCommands: Object.keys(options.commands ?? {}).filter((c) => !used.has(c))
  }

  function evaluateAll(values: Record<string, Scalar> | undefined, ctx: ExprContext): Record<string, string> {
    return Object.fromEntries(
      Object.entries(values ?? {}).map(([k, v]) => {
        try {
          return [k, interpolate(String(v), ctx)]
        } catch (err) {
          throw new Error(`${where}: ${(err as Error).message}`, { cause: err })
        }
      })
    )
  }
}

const asString = (v: ExprValue | undefined): string => (typeof v === 'string' ? v : '')

/** Every combination of a matrix of lists (`include`/`exclude` are not in the subset). */
function matrixCombinations(matrix: Record<string, Scalar[]> | undefined): Record<string, string>[] {
  if (!matrix) return []
  let combos: Record<string, string>[] = [{}]
  for (const [key, values] of Object.entries(matrix)) {
    if (!Array.isArray(values)) throw new Error(`matrix.${key}: only lists are run here`)
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: String(v) })))
  }
  return combos
}

/**
 * actions/upload-artifact (`name`, `path`: one file or folder per line) and
 * actions/download-artifact (`name`, `path`), on a local folder of artifacts.
 * As on GitHub, upload fails without a `path` and download fails when the
 * artifact does not exist.
 */
function artifactStep(
  uses: string,
  inputs: Record<string, string>,
  store: string | undefined,
  workspace: string
): { outcome: 'success' | 'failure'; log: string } {
  if (!store) return { outcome: 'failure', log: `${uses}: no artifact store was given to this job` }
  const name = inputs.name || 'artifact'
  const dir = path.join(store, name)
  if (uses.startsWith('actions/upload-artifact@')) {
    const paths = (inputs.path ?? '')
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean)
    if (paths.length === 0) return { outcome: 'failure', log: 'Input required and not supplied: path' }
    const found = paths.map((p) => path.resolve(workspace, p)).filter((p) => existsSync(p))
    if (found.length === 0)
      return { outcome: 'success', log: `No files were found with the provided path: ${paths.join(', ')}. No artifacts will be uploaded.` }
    for (const p of found) copyInto(p, dir)
    return { outcome: 'success', log: `Uploaded ${found.length} path(s) as artifact ${name}` }
  }
  if (!existsSync(dir)) return { outcome: 'failure', log: `Unable to download artifact(s): Artifact not found for name: ${name}` }
  copyInto(dir, path.resolve(workspace, inputs.path || '.'))
  return { outcome: 'success', log: `Downloaded artifact ${name}` }
}

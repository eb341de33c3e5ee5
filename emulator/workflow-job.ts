/**
 * Runs one job of a workflow file here, step by step, the way the runner
 * would, so the repository's own `uses: ./` job (.github/workflows/ci.yml) is
 * tested before it ever reaches GitHub:
 * - `run:` steps run with `bash --noprofile --norc -eo pipefail` (GitHub's
 *   default shell) in the repository, with RUNNER_TEMP, GITHUB_ENV (whose
 *   lines later steps receive) and the step's `env:`;
 * - `uses: ./` steps run the bundle through emulator/runner.ts (action.yml
 *   loaded as GitHub loads it), with the step's `with:` and `env:`;
 * - other `uses:` steps (checkout, setup-node) and `run: npm ci` are skipped:
 *   the repository is already checked out and installed.
 * Expressions: `${{ env.NAME }}` and `${{ steps.ID.outputs.NAME }}`; any
 * other expression throws, so the job cannot silently diverge from what ran.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import YAML from 'yaml'
import { type RunOptions, type RunResult, ROOT, runAction } from './runner.js'

interface Step {
  id?: string
  name?: string
  uses?: string
  run?: string
  env?: Record<string, string | number | boolean>
  with?: Record<string, string | number | boolean>
}

/** What happened to one step. */
export interface StepRecord {
  name: string
  outcome: 'success' | 'failure' | 'skipped'
  /** The step's log (stdout and stderr). */
  log: string
  /** For `uses: ./` steps, the bundle's run. */
  action?: RunResult
}

/** Reads `name: value` lines (and `name<<EOF` blocks) of a GITHUB_ENV file. */
function readEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  if (!existsSync(file)) return out
  const lines = readFileSync(file, 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i])
    if (heredoc) {
      const value: string[] = []
      while (++i < lines.length && lines[i] !== heredoc[2]) value.push(lines[i])
      out[heredoc[1]] = value.join('\n')
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=')
      out[lines[i].slice(0, at)] = lines[i].slice(at + 1)
    }
  }
  return out
}

/**
 * Runs the job `jobId` of `workflowFile`, stopping at the first failed step.
 * @param base options for `uses: ./` steps (event, token, runtime); the GitHub
 *   API defaults to PREVIEW_PG_GITHUB_API_URL and the CA file to
 *   NODE_EXTRA_CA_CERTS from GITHUB_ENV, as `npm run emulator` exports them
 * @throws Error for a job that does not exist or an expression this does not evaluate
 */
export async function runWorkflowJob(
  workflowFile: string,
  jobId: string,
  base: Partial<Pick<RunOptions, 'githubApiUrl' | 'githubToken' | 'event' | 'eventName' | 'pr' | 'repository' | 'node' | 'timeoutMs'>> = {}
): Promise<{ steps: StepRecord[]; env: Record<string, string>; runnerTemp: string }> {
  const workflow = YAML.parse(readFileSync(workflowFile, 'utf8'), { uniqueKeys: true }) as { jobs: Record<string, { steps: Step[] }> }
  const job = workflow.jobs?.[jobId]
  if (!job) throw new Error(`${workflowFile} has no job ${jobId}`)
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'preview-pg-job-'))
  const githubEnv = path.join(runnerTemp, 'github_env')
  writeFileSync(githubEnv, '')
  const outputs = new Map<string, Record<string, string>>()
  const steps: StepRecord[] = []

  const evaluate = (text: string | number | boolean, env: Record<string, string>): string =>
    String(text).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
      const fromEnv = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(expression)
      if (fromEnv) return env[fromEnv[1]] ?? ''
      const fromStep = /^steps\.([A-Za-z_][\w-]*)\.outputs\.([\w-]+)$/.exec(expression)
      if (fromStep) return outputs.get(fromStep[1])?.[fromStep[2]] ?? ''
      throw new Error(`${path.basename(workflowFile)} job ${jobId}: cannot evaluate \${{ ${expression} }}`)
    })
  const evaluateAll = (values: Step['env'], env: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, evaluate(v, env)]))

  for (const step of job.steps) {
    const name = step.name ?? step.run?.split('\n')[0] ?? step.uses ?? '(step)'
    const jobEnv = readEnvFile(githubEnv)
    const stepEnv = evaluateAll(step.env, jobEnv)
    if ((step.uses && step.uses !== './') || step.run?.trim() === 'npm ci') {
      steps.push({ name, outcome: 'skipped', log: '' })
      continue
    }
    if (step.uses === './') {
      const action = await runAction({
        ...base,
        githubApiUrl: base.githubApiUrl ?? jobEnv.PREVIEW_PG_GITHUB_API_URL ?? '',
        caCertFile: jobEnv.NODE_EXTRA_CA_CERTS ?? '',
        inputs: evaluateAll(step.with, jobEnv),
        env: { ...jobEnv, ...stepEnv }
      })
      if (step.id) outputs.set(step.id, action.outputs)
      steps.push({ name, outcome: action.code === 0 ? 'success' : 'failure', log: action.stdout + action.stderr, action })
    } else {
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run ?? ''], {
        cwd: ROOT,
        env: { ...process.env, ...jobEnv, ...stepEnv, RUNNER_TEMP: runnerTemp, GITHUB_ENV: githubEnv, CI: 'true', GITHUB_ACTIONS: 'true' },
        encoding: 'utf8',
        timeout: 300_000
      })
      steps.push({
        name,
        outcome: r.status === 0 ? 'success' : 'failure',
        log: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`
      })
    }
    if (steps.at(-1)!.outcome === 'failure') break
  }
  return { steps, env: readEnvFile(githubEnv), runnerTemp }
}

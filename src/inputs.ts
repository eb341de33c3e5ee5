/**
 * All inputs of the action, read once and validated into one typed settings
 * object before any network call. Every problem is reported as an
 * {@link InputError} that names the input and the values it accepts.
 */
import * as core from '@actions/core'
import { ENV_NAME, envVariables } from './publish/env-file.js'
import { MaskingRulesError, parseMaskingRules, ruleSecrets } from './platform/masking-rules.js'
import { type EnvNames, type MaskingRuleInput, type Mode, type Settings, InputError } from './settings.js'
import { MAX_EXPIRES_IN_SECONDS } from './platform/expiry.js'
import { BranchPointError, branchPointOf } from './platform/branch-point.js'
import { scopeComments } from './comment/scope.js'
import { maskSecret } from './secrets.js'
import { readVercelSettings } from './vercel/inputs.js'

function text(name: string): string {
  return core.getInput(name).trim()
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const value = text(name) || fallback
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InputError(`Input \`${name}\` must be one of ${allowed.join(', ')}; got "${value}".`)
  }
  return value as T
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
function bool(name: string, fallback: boolean): boolean {
  const value = text(name)
  if (value === '') return fallback
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new InputError(`Input \`${name}\` must be true or false; got "${value}".`)
}

function seconds(name: string, fallback: number, min: number): number {
  const value = text(name)
  if (value === '') return fallback
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n) || n < min) {
    throw new InputError(`Input \`${name}\` must be a number of seconds, at least ${min}; got "${value}".`)
  }
  return n
}

function url(name: string, fallback: string): string {
  const value = text(name) || fallback
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new InputError(`Input \`${name}\` must be an http(s) URL; got "${value}".`)
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new InputError(`Input \`${name}\` must be an http(s) URL; got "${value}".`)
  }
  return value.replace(/\/+$/, '')
}

/**
 * Branch names the platform accepts: at most 256 characters, no control
 * characters. (The platform's v2 API documents the length limit; we also
 * refuse leading/trailing spaces, which its console trims away.)
 */
function branchName(value: string): string {
  if (value === '') return value
  // eslint-disable-next-line no-control-regex
  if (value.length > 256 || /[\u0000-\u001f\u007f]/.test(value) || value !== value.trim()) {
    throw new InputError(`Input \`branch-name\` must be 1 to 256 printable characters without leading or trailing spaces; got "${value}".`)
  }
  return value
}

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }

/**
 * A duration input: `90m`, `36h`, `7d`, `45s` or a whole number of seconds.
 * @returns seconds; 0 when the input is empty.
 */
export function duration(name: string): number {
  const value = text(name)
  if (value === '') return 0
  const m = /^(\d+)\s*([smhd]?)$/.exec(value)
  const n = m ? Number(m[1]) * UNITS[m[2]] : NaN
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InputError(`Input \`${name}\` must be a duration such as 90m, 36h, 7d or a number of seconds (at least 1); got "${value}".`)
  }
  return n
}

/** `suspend-timeout` (platform spec, SuspendTimeoutSeconds): -1 (never), 0 (the project's default) or 60 to 604800 seconds. */
function suspendTimeout(): number | undefined {
  const value = text('suspend-timeout')
  if (value === '') return undefined
  const n = Number(value)
  if (!/^-?\d+$/.test(value) || !(n === -1 || n === 0 || (n >= 60 && n <= 604800))) {
    throw new InputError(
      `Input \`suspend-timeout\` must be a whole number of seconds from 60 to 604800, or 0 (the project's default) or -1 (never suspend); got "${value}".`
    )
  }
  return n
}

/** A compute-unit input (platform spec, ComputeUnit: a number, at least 0.25). */
function computeUnits(name: string): number | undefined {
  const value = text(name)
  if (value === '') return undefined
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || !(n >= 0.25)) {
    throw new InputError(
      `Input \`${name}\` must be a number of compute units, at least 0.25 (for example 0.25, 0.5, 1, 2); got "${value}".`
    )
  }
  return n
}

/**
 * `env-key` (default `DATABASE_URL`) and `env-prefix` (default `PUBLIC_`),
 * named as the instant service's CLI names its variables (instant service API): `<key>`,
 * `<key>_DIRECT`, `<prefix>POSTGRES_CLAIM_URL`. Each must make a valid
 * environment variable name ({@link ENV_NAME}), and the three must differ.
 * @throws InputError
 */
function envNames(): EnvNames {
  const names: EnvNames = { key: text('env-key') || 'DATABASE_URL', prefix: text('env-prefix') || 'PUBLIC_' }
  const rule = 'letters A-Z or a-z, digits and _, not starting with a digit'
  if (!ENV_NAME.test(names.key)) {
    throw new InputError(`Input \`env-key\` must be an environment variable name (${rule}), for example DATABASE_URL; got "${names.key}".`)
  }
  if (!ENV_NAME.test(names.prefix)) {
    throw new InputError(
      `Input \`env-prefix\` must be the start of an environment variable name (${rule}), for example PUBLIC_, VITE_ or NEXT_PUBLIC_; got "${names.prefix}".`
    )
  }
  const v = envVariables(names)
  if (v.url === v.claim) {
    throw new InputError(
      `Inputs \`env-key\` and \`env-prefix\` name the same variable, ${v.url}, for the connection string and the claim URL: change one of them.`
    )
  }
  return names
}

/** Inputs that only mean something for a branch the action creates, refused in instant mode. */
const BRANCH_ONLY = [
  'expires-in',
  'suspend-timeout',
  'min-cu',
  'max-cu',
  'schema-only',
  'parent-lsn',
  'parent-timestamp',
  'branch-id'
] as const

/** Inputs that say the workflow wants a Neon branch: with any set, `api-key` and `project-id` must both be. */
const BRANCH_INPUTS = [
  'api-key',
  'project-id',
  'parent-branch',
  'branch-name',
  'branch-id',
  'masking-rules',
  'schema-only',
  'parent-lsn',
  'parent-timestamp'
] as const

const list = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(names.length > 2 ? ', ' : ' and ')

/**
 * Fails safe where GitHub passes no secrets and no configuration variables
 * (pull requests from forks, Dependabot's): when `mode` is `branch`, or any
 * branch input is set, an empty `api-key` or `project-id` is refused before
 * any request, instead of falling back to a public neon.new database. Only
 * `mode: auto` with no branch input at all means instant mode.
 * @throws InputError naming the empty input(s), the branch inputs set, why they may be empty and what to do.
 */
function refuseMissingNeonAccess(modeInput: string, schemaOnly: boolean): void {
  if (modeInput === 'instant') return
  const given = BRANCH_INPUTS.filter((name) => (name === 'schema-only' ? schemaOnly : text(name) !== ''))
  if (modeInput === 'auto' && given.length === 0) return
  const empty = (['api-key', 'project-id'] as const).filter((name) => text(name) === '')
  if (!empty.length) return
  const what = empty.length === 2 ? 'a Neon API key and project id' : empty[0] === 'api-key' ? 'a Neon API key' : 'a Neon project id'
  throw new InputError(
    `Input${empty.length > 1 ? 's' : ''} ${list(empty)} ${empty.length > 1 ? 'are' : 'is'} required in branch mode (${what}: ` +
      'pass `${{ secrets.NEON_API_KEY }}` and `${{ vars.NEON_PROJECT_ID }}`) but ' +
      `${empty.length > 1 ? 'are' : 'is'} empty, while ${given.length ? `${list(given)} ${given.length > 1 ? 'are' : 'is'} set` : '`mode` is branch'}` +
      `${empty.includes('project-id') && modeInput === 'branch' ? ' (`project-id` is required when `mode` is branch)' : ''}. ` +
      'GitHub gives no secrets and no configuration variables to workflows run for pull requests from forks, or for Dependabot ' +
      '(it has its own Dependabot secrets), which is the likely cause. Nothing was created: with branch inputs set, the action does not fall back ' +
      'to a public, claimable neon.new database (instant mode). Skip the job on such pull requests ' +
      '(`if: github.event.pull_request.head.repo.full_name == github.repository`), add the secret to Dependabot secrets, or set `mode: instant`.'
  )
}

/** `preview-name`: 1 to 40 letters, digits, `-`, `_` or `.` (it goes into the branch name and the comment's marker); '' when not set. */
function previewName(): string {
  const value = text('preview-name')
  if (value !== '' && !/^[A-Za-z0-9._-]{1,40}$/.test(value)) {
    throw new InputError(
      `Input \`preview-name\` must be 1 to 40 letters, digits, \`-\`, \`_\` or \`.\` (for example api or web); got "${value}".`
    )
  }
  return value
}

/**
 * `comment-author`: a GitHub login (1 to 39 letters, digits or single
 * inner `-`; GitHub's username rule), with `[bot]` for an App's bot account.
 * @throws InputError
 */
function commentAuthor(): string {
  const value = text('comment-author') || 'github-actions[bot]'
  if (!/^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\[bot\])?$/.test(value))
    throw new InputError(
      `Input \`comment-author\` must be a GitHub login, such as github-actions[bot] or my-app[bot] (a GitHub App's bot account); got "${value}".`
    )
  return value
}

/** `branch-id`: only for `command: delete` and `command: reset`. @throws InputError */
function branchId(command: Settings['command']): string {
  const value = text('branch-id')
  if (value !== '' && command !== 'delete' && command !== 'reset') {
    throw new InputError(
      `Input \`branch-id\` applies to \`command: delete\` and \`command: reset\` (the branch to act on); \`command: ${command}\` finds the PR's branch by name (\`branch-name\`).`
    )
  }
  if (value !== '' && !/^[a-z0-9-]{1,60}$/.test(value)) {
    throw new InputError(`Input \`branch-id\` must be a Neon branch id such as br-wispy-meadow-a5b2c3d4; got "${value}".`)
  }
  return value
}

/** `parent-lsn` / `parent-timestamp` (platform/branch-point.ts). @throws InputError */
function parentPoint(): Settings['parentPoint'] {
  try {
    return branchPointOf(text('parent-lsn'), text('parent-timestamp'))
  } catch (err) {
    if (err instanceof BranchPointError) throw new InputError(err.message)
    throw err
  }
}

/** Checks the lifecycle inputs against each other and the mode. @throws InputError */
function checkLifecycle(s: Settings): void {
  if (s.minCu !== undefined && s.maxCu !== undefined && s.minCu > s.maxCu) {
    throw new InputError(`Input \`min-cu\` (${s.minCu}) must not be larger than \`max-cu\` (${s.maxCu}).`)
  }
  if (s.expiresInSeconds > MAX_EXPIRES_IN_SECONDS) {
    throw new InputError(
      `Input \`expires-in\` must be at most 30d (${MAX_EXPIRES_IN_SECONDS} seconds), Neon's longest branch expiry (Neon docs, branch expiration); got "${text('expires-in')}". ` +
        'Use 30d or less; an active PR keeps its branch anyway, since every run that uses it pushes the expiry forward.'
    )
  }
  if (s.mode === 'instant') {
    if (s.command === 'reset')
      throw new InputError('`command: reset` needs branch mode (set `project-id`): the instant service cannot restore a database.')
    const given = BRANCH_ONLY.filter((name) => text(name) !== '' && !(name === 'schema-only' && !s.schemaOnly))
    if (given.length) {
      throw new InputError(
        `Input${given.length > 1 ? 's' : ''} ${given.map((n) => `\`${n}\``).join(', ')} appl${given.length > 1 ? 'y' : 'ies'} to branch mode only (set \`project-id\`), not to neon.new (instant mode).`
      )
    }
  }
}

/**
 * Reads `masking-rules` (YAML, JSON or `@file`, relative to the workspace),
 * masks the rules' values in the log, and refuses it with `schema-only` or in
 * instant mode. @throws InputError
 */
function maskingRules(mode: Mode, schemaOnly: boolean): MaskingRuleInput[] {
  let rules: MaskingRuleInput[]
  try {
    rules = parseMaskingRules(core.getInput('masking-rules'), process.env.GITHUB_WORKSPACE || process.cwd())
  } catch (err) {
    if (err instanceof MaskingRulesError) throw new InputError(err.message)
    throw err
  }
  for (const secret of ruleSecrets(rules)) maskSecret(secret)
  if (rules.length === 0) return rules
  if (mode === 'instant') {
    throw new InputError(
      'Input `masking-rules` needs branch mode (set `project-id`): masking runs on a Neon branch copied from its parent, ' +
        'and an instant database is new and empty, holding only what `seed` puts in it, so there is nothing to mask.'
    )
  }
  if (schemaOnly) {
    throw new InputError(
      "Inputs `masking-rules` and `schema-only` cannot be combined: a schema-only branch has none of the parent's rows, so there is nothing to mask. " +
        'Use `masking-rules` for production-like rows with personal data masked, or `schema-only` for an empty copy of the schema.'
    )
  }
  return rules
}

/**
 * Reads and validates every input.
 * @returns one {@link Settings} object.
 * @throws InputError naming the input and its accepted values.
 */
export function readSettings(): Settings {
  const modeInput = oneOf('mode', ['auto', 'instant', 'branch'] as const, 'auto')
  const command = oneOf('command', ['create', 'delete', 'cleanup', 'reset', 'publish'] as const, 'create')
  const projectId = text('project-id')
  const apiKey = core.getInput('api-key').trim()
  maskSecret(apiKey)
  refuseMissingNeonAccess(modeInput, bool('schema-only', false))
  const mode: Mode = modeInput === 'auto' ? (projectId ? 'branch' : 'instant') : modeInput

  const referrer = text('referrer') || 'preview-postgres-action'
  const settings: Settings = {
    mode,
    command,
    referrer,
    logicalReplication: bool('logical-replication', false),
    instantUrl: url('instant-url', 'https://neon.new'),
    apiUrl: url('api-url', 'https://console.neon.tech/api/v2'),
    apiKey,
    projectId,
    parentBranch: text('parent-branch'),
    parentPoint: parentPoint(),
    branchName: branchName(text('branch-name')),
    branchId: branchId(command),
    previewName: previewName(),
    database: text('database'),
    role: text('role'),
    seed: core
      .getInput('seed')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
    seedCommand: core.getInput('seed-command').trim(),
    migrateCommand: core.getInput('migrate-command').trim(),
    reseed: oneOf('reseed', ['on-change', 'never'] as const, 'on-change'),
    reuse: bool('reuse', true),
    githubToken: core.getInput('github-token').trim(),
    comment: bool('comment', true),
    pollIntervalSeconds: seconds('poll-interval', 5, 0.1),
    waitTimeoutSeconds: seconds('wait-timeout', 600, 1),
    requestTimeoutSeconds: seconds('request-timeout', 30, 0.1),
    envFile: text('env-file'),
    envNames: envNames(),
    compareSchema: bool('compare-schema', true),
    failOnDestructive: bool('fail-on-destructive', false),
    expiresInSeconds: duration('expires-in'),
    maxAgeSeconds: duration('max-age'),
    dryRun: bool('dry-run', false),
    makeRoom: bool('make-room', true),
    suspendTimeoutSeconds: suspendTimeout(),
    minCu: computeUnits('min-cu'),
    maxCu: computeUnits('max-cu'),
    schemaOnly: bool('schema-only', false),
    maskingRules: [],
    deployment: bool('deployment', true),
    reportFile: text('report-file'),
    commentAuthor: commentAuthor(),
    vercel: readVercelSettings(url)
  }
  settings.maskingRules = maskingRules(mode, settings.schemaOnly)
  checkLifecycle(settings)
  if (command === 'publish' && !settings.reportFile)
    throw new InputError(
      "`command: publish` needs input `report-file`: the report a fork PR's run wrote (its `report-file` output, downloaded from the run's artifact)."
    )
  // Every comment this run (or its post step) reads or writes is this preview's.
  scopeComments(settings.previewName)
  return settings
}

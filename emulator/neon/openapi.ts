/**
 * The platform's published OpenAPI spec as a machine check: loads
 * `public-v2-for-users.gen.yaml` from the npm package
 * `@neondatabase/api-client` (a devDependency) and validates requests and
 * responses against it with ajv (+ ajv-formats). Nothing here restates the
 * spec: paths, parameters and schemas all come from the file.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parse } from 'yaml'

type Json = Record<string, unknown>
type Method = 'get' | 'post' | 'patch' | 'delete' | 'put'

const require = createRequire(import.meta.url)
const PACKAGE = '@neondatabase/api-client'
const specFile = require.resolve(`${PACKAGE}/public-v2-for-users.gen.yaml`)
const spec = parse(readFileSync(specFile, 'utf8')) as Json & { paths: Record<string, Json>; info: { version: string } }

/** `@neondatabase/api-client@<version>` and the spec's `info.version`. */
export const SPEC_VERSION = {
  package: `${PACKAGE}@${(require(`${PACKAGE}/package.json`) as { version: string }).version}`,
  api: spec.info.version,
  file: 'public-v2-for-users.gen.yaml'
}

// OpenAPI 3.0 schemas are JSON Schema draft-04/07-like plus `nullable`, which ajv knows;
// `example`, `x-*` and `deprecated` are annotations, so strict mode is off.
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false })
// ajv-formats is CommonJS: under ESM its function is the module itself or its `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (a: Ajv) => Ajv
addFormats(ajv)
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 })
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
ajv.addSchema(spec, 'spec')

const compiled = new Map<string, ValidateFunction>()
/** The validator of the schema at JSON pointer `pointer` (segments) of the spec. */
function validatorAt(pointer: string[]): ValidateFunction {
  const ref = 'spec#/' + pointer.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')
  let v = compiled.get(ref)
  if (!v) {
    v = ajv.compile({ $ref: ref })
    compiled.set(ref, v)
  }
  return v
}

/** Follows a local `$ref` (`#/components/...`), returning the target and its pointer. */
function deref(node: Json, pointer: string[]): { node: Json; pointer: string[] } {
  const ref = node.$ref
  if (typeof ref !== 'string') return { node, pointer }
  const parts = ref
    .replace(/^#\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  let at: unknown = spec
  for (const p of parts) at = (at as Json)[p]
  return deref(at as Json, parts)
}

function format(v: ValidateFunction, where: string): string[] {
  return (v.errors ?? []).map((e) => `${where}${e.instancePath || ''} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
}

/** The spec operation a request path (relative to `/api/v2`) and method hit. */
export interface SpecOperation {
  operationId: string
  template: string
  method: Method
  pathParams: Record<string, string>
}

const templates = Object.keys(spec.paths)
  .map((t) => {
    const names: string[] = []
    const source = t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, n: string) => (names.push(n), '([^/]+)'))
    return { template: t, names, re: new RegExp(`^${source}/?$`), literal: t.split('/').filter((s) => s && !s.startsWith('{')).length }
  })
  .sort((a, b) => b.literal - a.literal)

/** Finds the operation of `method path`; null when the spec has none. */
export function findOperation(method: string, path: string): SpecOperation | null {
  const m = method.toLowerCase() as Method
  for (const t of templates) {
    const match = t.re.exec(path)
    const op = match ? (spec.paths[t.template][m] as Json | undefined) : undefined
    if (!match || !op) continue
    const pathParams = Object.fromEntries(t.names.map((n, i) => [n, decodeURIComponent(match[i + 1])]))
    return { operationId: String(op.operationId), template: t.template, method: m, pathParams }
  }
  return null
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: Json
}

function parametersOf(op: SpecOperation): { param: Parameter; pointer: string[] }[] {
  const out: { param: Parameter; pointer: string[] }[] = []
  const item = spec.paths[op.template]
  for (const [where, list] of [
    [[], item.parameters],
    [[op.method], (item[op.method] as Json).parameters]
  ] as const) {
    ;((list as Json[] | undefined) ?? []).forEach((p, i) => {
      const { node, pointer } = deref(p, ['paths', op.template, ...where, 'parameters', String(i)])
      out.push({ param: node as unknown as Parameter, pointer })
    })
  }
  return out
}

/** A query value as the schema's type (integer, number, boolean), so the schema can check it. */
function coerce(value: string, schema: Json | undefined): unknown {
  const type = schema?.type
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

/**
 * Checks one request against the spec: the path and method exist, every
 * path and query parameter is one the operation declares and matches its
 * schema, required ones are present, and the JSON body matches the request
 * body schema (or is absent where the operation takes none).
 * @param path relative to `/api/v2`
 * @returns the problems found (empty: the request follows the spec)
 */
export function validateRequest(method: string, path: string, query: string, bodyText: string): string[] {
  const op = findOperation(method, path)
  if (!op) return [`${method} ${path}: no such operation in the spec`]
  const where = `${op.operationId} request`
  const problems: string[] = []
  const params = parametersOf(op)
  const q = new URLSearchParams(query)
  for (const key of new Set(q.keys())) {
    if (!params.some(({ param }) => param.in === 'query' && param.name === key))
      problems.push(`${where}: query parameter "${key}" is not in the spec`)
  }
  for (const { param, pointer } of params) {
    const raw = param.in === 'path' ? op.pathParams[param.name] : param.in === 'query' ? q.get(param.name) : undefined
    if (param.in !== 'path' && param.in !== 'query') continue
    if (raw === undefined || raw === null) {
      if (param.required) problems.push(`${where}: required ${param.in} parameter "${param.name}" is missing`)
      continue
    }
    if (!param.schema) continue
    const v = validatorAt([...pointer, 'schema'])
    if (!v(coerce(raw, param.schema))) problems.push(...format(v, `${where} ${param.in} parameter "${param.name}"`))
  }
  const rb = (spec.paths[op.template][op.method] as Json).requestBody as Json | undefined
  if (bodyText.trim() === '') {
    if (rb && deref(rb, []).node.required) problems.push(`${where}: the body is required`)
    return problems
  }
  if (!rb) return [...problems, `${where}: the operation takes no body`]
  const resolved = deref(rb, ['paths', op.template, op.method, 'requestBody'])
  if (!(resolved.node.content as Json | undefined)?.['application/json']) return [...problems, `${where}: no JSON body in the spec`]
  let body: unknown
  try {
    body = JSON.parse(bodyText)
  } catch {
    return [...problems, `${where}: the body is not JSON`]
  }
  const v = validatorAt([...resolved.pointer, 'content', 'application/json', 'schema'])
  if (!v(body)) problems.push(...format(v, `${where} body`))
  return problems
}

/**
 * Checks one response against the spec: the status is one the operation
 * documents (or falls to `default`), a response without content has an
 * empty body, and a JSON body matches the documented schema.
 * @returns the problems found (empty: the response follows the spec)
 */
export function validateResponse(method: string, path: string, status: number, bodyText: string): string[] {
  const op = findOperation(method, path)
  if (!op) return [`${method} ${path}: no such operation in the spec`]
  const responses = (spec.paths[op.template][op.method] as Json).responses as Json
  const key = String(status) in responses ? String(status) : 'default'
  const where = `${op.operationId} response ${status}${key === 'default' ? ' (default)' : ''}`
  if (!responses[key]) return [`${where}: status not documented`]
  const resolved = deref(responses[key] as Json, ['paths', op.template, op.method, 'responses', key])
  const content = resolved.node.content as Json | undefined
  if (!content) return bodyText.trim() === '' ? [] : [`${where}: the spec documents no body, but one was sent`]
  if (!content['application/json']) return [`${where}: no JSON content in the spec`]
  let body: unknown
  try {
    body = JSON.parse(bodyText)
  } catch {
    return [`${where}: the body is not JSON`]
  }
  const v = validatorAt([...resolved.pointer, 'content', 'application/json', 'schema'])
  return v(body) ? [] : format(v, where)
}

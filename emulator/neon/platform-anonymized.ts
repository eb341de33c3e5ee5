/**
 * The platform emulator's anonymized branches, per the platform's
 * published spec (public-v2-for-users.gen.yaml in `@neondatabase/api-client`, Beta):
 *
 * - `POST /projects/{id}/branch_anonymized` (BranchAnonymizedCreateRequest:
 *   `branch_create`, `masking_rules`, `start_anonymization`, `annotation_value`),
 *   answered like a create branch (201 CreatedBranch);
 * - `GET …/branches/{id}/anonymized_status` (AnonymizedBranchStatusResponse);
 * - `GET` and `PATCH …/branches/{id}/masking_rules` (MaskingRulesResponse; a PATCH replaces the set);
 * - `POST …/branches/{id}/anonymize` (from `initialized`, `error` or `anonymized`).
 *
 * The state machine: `created` until the branch's operations ended, then
 * `initialized` after {@link AnonymizedTiming.initializeMs} (or
 * `initialization_error`), then, when started, `anonymizing` for
 * {@link AnonymizedTiming.anonymizeMs} and `anonymized` (or `error`). An
 * anonymized branch lists `restore` in its `restricted_actions` (spec, Branch).
 *
 * Masking runs on the branch's real rows, in one transaction, as SQL:
 * `masking_value` as SQL text, as Neon takes it (Neon docs, data anonymization:
 * a static literal value such as `'REDACTED'`, `0` or `NULL`), and stand-ins for a documented subset of
 * PostgreSQL Anonymizer's functions whose results look like its own:
 * `anon.fake_email()`, `anon.fake_first_name()`, `anon.fake_last_name()`,
 * `anon.random_string(n)`, `anon.partial(col, prefix, padding, suffix)` and
 * `anon.hash(col)`. Any other function ends in `error` with a message, as a
 * failing UPDATE (a missing column, a type mismatch) does with PostgreSQL's.
 *
 * Choices where the spec says nothing: error messages and statuses (404 for
 * a branch that is not anonymized, 400 for a bad body or a state that cannot
 * start); a rule's `database_name` is the parent's database name (which the
 * copy has on the platform; the emulator's branch databases have names of their own).
 *
 * Connections: Neon's docs say an anonymized branch accepts no connections
 * until its anonymization completes. The branch's role is refused (CONNECT
 * revoked on its database) from the create until `anonymized`, and again
 * while a later anonymization runs; the emulator's superuser still masks.
 */
import pg from 'pg'
import { jsonObject, type Reply, type Request } from '../http-kit.js'
import { type BranchRecord, type PlatformCore, type Project, iso } from './platform-records.js'
import type { PostgresServer } from '../postgres/postgres.js'

/** One masking rule as the platform spec's MaskingRule object has it. */
interface MaskingRule {
  database_name: string
  schema_name: string
  table_name: string
  column_name: string
  masking_function?: string
  masking_value?: string
}

export type AnonymizedState = 'created' | 'initialized' | 'initialization_error' | 'anonymizing' | 'anonymized' | 'error'

interface Anonymized {
  state: AnonymizedState
  status_message?: string
  rules: MaskingRule[]
  /** The database name the rules use (the parent's). */
  parentDatabase: string
  created_at: string
  updated_at: string
  failed_at?: string
  last_run?: { started_at?: string; completed_at?: string; masked_columns?: number }
  /** Every state it took and when (ms since the epoch), for tests. */
  history: { state: AnonymizedState; at: number }[]
}

/** Durations of the state machine, in milliseconds. */
export interface AnonymizedTiming {
  initializeMs: number
  anonymizeMs: number
}

/** A failure the next anonymized branch meets: `initialize` ends in `initialization_error`; `anonymize` in `error`, or stays `anonymizing` (`hang`). */
export type AnonymizedFault =
  { phase: 'initialize'; message: string } | { phase: 'anonymize'; message: string } | { phase: 'anonymize'; hang: true }

const bad = (message: string): Reply => ({ status: 400, body: { code: '', message } })
const id = pg.escapeIdentifier
const lit = pg.escapeLiteral

const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Edsger', 'Barbara', 'Ken', 'Frances']
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Dijkstra', 'Liskov', 'Thompson', 'Allen']
const pick = (names: string[]): string => `(ARRAY[${names.map(lit).join(', ')}])[1 + floor(random() * ${names.length})::int]`

/** Splits `a, 'b, c', 3` into its arguments, keeping quoted strings whole. */
function splitArgs(text: string): string[] {
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === "'") {
      if (quoted && text[i + 1] === "'") {
        cur += "''"
        i++
        continue
      }
      quoted = !quoted
    }
    if (ch === ',' && !quoted) {
      out.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  if (cur.trim() !== '' || out.length) out.push(cur.trim())
  return out
}

const INT = /^\d{1,6}$/
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$|^"(?:[^"]|"")+"$/
const STRING = /^'(?:[^']|'')*'$/
const column = (arg: string): string => (arg.startsWith('"') ? arg : id(arg))

/**
 * The SQL expression of a masking function's stand-in.
 * @throws Error with the message the state shows, for an unknown function or bad arguments.
 */
export function maskingExpression(fn: string): string {
  const m = /^anon\.([a-z_]+)\s*\(([\s\S]*)\)$/.exec(fn.trim())
  if (!m) throw new Error(`masking function ${fn} does not exist`)
  const [, name, argText] = m
  const args = splitArgs(argText)
  const arity = (n: number): void => {
    if (args.length !== n) throw new Error(`function anon.${name} takes ${n} argument${n === 1 ? '' : 's'}, got ${args.length}`)
  }
  switch (name) {
    case 'fake_email':
      arity(0)
      return `'user_' || substr(md5(random()::text), 1, 10) || '@example.com'`
    case 'fake_first_name':
      arity(0)
      return pick(FIRST)
    case 'fake_last_name':
      arity(0)
      return pick(LAST)
    case 'random_string': {
      arity(1)
      if (!INT.test(args[0]) || Number(args[0]) < 1 || Number(args[0]) > 1000)
        throw new Error('anon.random_string(n) needs a length n from 1 to 1000')
      return `substr(repeat(md5(random()::text), ${Math.ceil(Number(args[0]) / 32)}), 1, ${Number(args[0])})`
    }
    case 'partial': {
      arity(4)
      const [col, prefix, padding, suffix] = args
      if (!IDENT.test(col) || !INT.test(prefix) || !STRING.test(padding) || !INT.test(suffix)) {
        throw new Error('anon.partial(column, prefix, padding, suffix) needs a column, two whole numbers and a quoted padding')
      }
      return `left(${column(col)}::text, ${Number(prefix)}) || ${padding} || right(${column(col)}::text, ${Number(suffix)})`
    }
    case 'hash':
      arity(1)
      if (!IDENT.test(args[0])) throw new Error('anon.hash(column) needs a column')
      return `encode(sha256(convert_to(${column(args[0])}::text, 'UTF8')), 'hex')`
    default:
      throw new Error(`function anon.${name}() does not exist`)
  }
}

/** The rules of a request body, checked against the spec's MaskingRule; a message when they are not. */
function rulesOf(v: unknown): MaskingRule[] | string {
  if (!Array.isArray(v)) return 'masking_rules must be an array'
  for (const r of v as Record<string, unknown>[]) {
    if (!r || typeof r !== 'object') return 'each masking rule must be an object'
    for (const k of ['database_name', 'schema_name', 'table_name', 'column_name'])
      if (typeof r[k] !== 'string' || r[k] === '') return `masking rule: ${k} is required`
    const f = r.masking_function !== undefined
    const value = r.masking_value !== undefined
    if (f === value) return 'masking rule: exactly one of masking_function or masking_value is required'
    if ((f && typeof r.masking_function !== 'string') || (value && typeof r.masking_value !== 'string'))
      return 'masking rule: masking_function and masking_value are strings'
  }
  return (v as MaskingRule[]).map((r) => ({ ...r }))
}

export class PlatformAnonymized {
  readonly branches = new Map<string, Anonymized>()
  timing: AnonymizedTiming = { initializeMs: 200, anonymizeMs: 300 }
  /** Failures for the next anonymized branches, consumed in order per phase. */
  readonly faults: AnonymizedFault[] = []
  private stopped = false

  constructor(
    private readonly platform: PlatformCore,
    private readonly pg: PostgresServer
  ) {
    const p = '^/api/v2/projects/([^/]+)'
    const withAnon = (
      req: Request,
      pid: string,
      bid: string,
      f: (project: Project, b: BranchRecord, a: Anonymized) => Reply | Promise<Reply>
    ) =>
      platform.withBranch(req, pid, bid, (project, b) => {
        const a = this.branches.get(b.id)
        return a ? f(project, b, a) : { status: 404, body: { code: '', message: `branch ${b.id} is not an anonymized branch` } }
      })
    platform.server
      .route('POST', new RegExp(`${p}/branch_anonymized/?$`), (req, [pid]) =>
        platform.withProject(req, pid, (project) => this.create(project, req))
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/anonymized_status/?$`), (req, [pid, bid]) =>
        withAnon(req, pid, bid, (project, b, a) => ({ status: 200, body: this.status(project, b, a) }))
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/masking_rules/?$`), (req, [pid, bid]) =>
        withAnon(req, pid, bid, (_project, _b, a) => ({ status: 200, body: { masking_rules: a.rules } }))
      )
      .route('PATCH', new RegExp(`${p}/branches/([^/]+)/masking_rules/?$`), (req, [pid, bid]) =>
        withAnon(req, pid, bid, (_project, _b, a) => {
          const rules = rulesOf(jsonObject(req)?.masking_rules)
          if (typeof rules === 'string') return bad(rules)
          a.rules = rules
          a.updated_at = iso(Date.now())
          return { status: 200, body: { masking_rules: a.rules } }
        })
      )
      .route('POST', new RegExp(`${p}/branches/([^/]+)/anonymize/?$`), (req, [pid, bid]) =>
        withAnon(req, pid, bid, (project, b, a) => {
          if (!['initialized', 'error', 'anonymized'].includes(a.state))
            return bad(`anonymization can start only in state initialized, error or anonymized; the branch is ${a.state}`)
          this.set(a, 'anonymizing')
          void this.refuseConnections(project, b).then(() => this.anonymize(project, b, a))
          return { status: 200, body: this.status(project, b, a) }
        })
      )
  }

  /** Fields an anonymized branch adds to the Branch object: `restricted_actions` (spec: restore is not possible). */
  view(b: BranchRecord): Record<string, unknown> {
    if (!this.branches.has(b.id)) return {}
    return { restricted_actions: [{ name: 'restore', reason: 'restore is not available for anonymized branches' }] }
  }

  /** The states an anonymized branch took, with when (ms since the epoch), for tests; empty for another branch. */
  historyOf(branchId: string): { state: AnonymizedState; at: number }[] {
    return [...(this.branches.get(branchId)?.history ?? [])]
  }

  stop(): void {
    this.stopped = true
  }

  private status(project: Project, b: BranchRecord, a: Anonymized): Record<string, unknown> {
    const { state, status_message, created_at, updated_at, failed_at, last_run } = a
    return {
      project_id: project.id,
      branch_id: b.id,
      state,
      ...(status_message ? { status_message } : {}),
      created_at,
      updated_at,
      ...(failed_at ? { failed_at } : {}),
      ...(last_run ? { last_run } : {})
    }
  }

  private set(a: Anonymized, state: AnonymizedState, message?: string): void {
    a.state = state
    a.history.push({ state, at: Date.now() })
    a.status_message = message
    a.updated_at = iso(Date.now())
    if (state === 'initialization_error' || state === 'error') a.failed_at = a.updated_at
  }

  private async create(project: Project, req: Request): Promise<Reply> {
    const body = jsonObject(req)
    if (!body) return bad('request body is not valid JSON')
    const rules = rulesOf(body.masking_rules ?? [])
    if (typeof rules === 'string') return bad(rules)
    const create = (body.branch_create ?? {}) as Record<string, unknown>
    const reply = await this.platform.createBranchFrom(project, {
      ...create,
      ...(body.annotation_value !== undefined ? { annotation_value: body.annotation_value } : {})
    })
    if (reply.status !== 201) return reply
    const b = project.branches.get((reply.body as { branch: { id: string } }).branch.id)!
    const now = iso(Date.now())
    const parent = b.parent_id ? project.branches.get(b.parent_id) : undefined
    const a: Anonymized = {
      state: 'created',
      rules,
      parentDatabase: parent?.database ?? b.database,
      created_at: now,
      updated_at: now,
      history: [{ state: 'created', at: Date.now() }]
    }
    this.branches.set(b.id, a)
    await this.refuseConnections(project, b)
    void this.run(project, b, a, body.start_anonymization === true)
    // The create's answer shows the branch with its restricted actions.
    return { ...reply, body: { ...(reply.body as Record<string, unknown>), branch: this.platform.branchView(project, b) } }
  }

  /** Closes the branch's database to its role and ends the role's sessions there (until {@link allowConnections}). */
  private async refuseConnections(project: Project, b: BranchRecord): Promise<void> {
    await this.pg.query('postgres', `REVOKE CONNECT ON DATABASE ${id(b.database)} FROM ${id(project.role)}`)
    await this.pg.query('postgres', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = $2', [
      b.database,
      project.role
    ])
  }

  /** Opens the branch's database to its role again (anonymization completed). */
  private async allowConnections(project: Project, b: BranchRecord): Promise<void> {
    await this.pg.query('postgres', `GRANT CONNECT ON DATABASE ${id(b.database)} TO ${id(project.role)}`)
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms).unref())
  }

  private alive(project: Project, b: BranchRecord): boolean {
    return !this.stopped && project.branches.get(b.id) === b
  }

  /** created → initialized (once the branch's operations ended) → anonymizing → anonymized, or an error state. */
  private async run(project: Project, b: BranchRecord, a: Anonymized, start: boolean): Promise<void> {
    while (this.alive(project, b) && this.platform.operations(project).some((op) => op.branch_id === b.id && op.endedAt === undefined))
      await this.sleep(50)
    await this.sleep(this.timing.initializeMs)
    if (!this.alive(project, b)) return
    const fault = this.take('initialize')
    if (fault && 'message' in fault) return this.set(a, 'initialization_error', fault.message)
    this.set(a, 'initialized')
    if (start) {
      this.set(a, 'anonymizing')
      await this.anonymize(project, b, a)
    }
  }

  private take(phase: AnonymizedFault['phase']): AnonymizedFault | undefined {
    const i = this.faults.findIndex((f) => f.phase === phase)
    return i < 0 ? undefined : this.faults.splice(i, 1)[0]
  }

  /** Applies the rules to the branch's rows in one transaction; `anonymized` or `error` with the message. */
  private async anonymize(project: Project, b: BranchRecord, a: Anonymized): Promise<void> {
    const started = iso(Date.now())
    a.last_run = { started_at: started }
    await this.sleep(this.timing.anonymizeMs)
    if (!this.alive(project, b)) return
    const fault = this.take('anonymize')
    if (fault && 'hang' in fault) return
    const finish = (state: AnonymizedState, message?: string, masked?: number): void => {
      this.set(a, state, message)
      a.last_run = { started_at: started, completed_at: a.updated_at, ...(masked !== undefined ? { masked_columns: masked } : {}) }
    }
    if (fault) return finish('error', fault.message)
    let client: pg.Client | undefined
    try {
      const statements = a.rules.map((r) => {
        if (r.database_name !== a.parentDatabase && r.database_name !== b.database)
          throw new Error(`database "${r.database_name}" does not exist`)
        const value = r.masking_value !== undefined ? `(${r.masking_value})` : maskingExpression(r.masking_function!)
        return `UPDATE ${id(r.schema_name)}.${id(r.table_name)} SET ${id(r.column_name)} = ${value}`
      })
      client = await this.pg.connect(b.database)
      await client.query('BEGIN')
      for (const s of statements) await client.query(s)
      await client.query('COMMIT')
      await this.allowConnections(project, b)
      finish('anonymized', `Anonymized ${a.rules.length} column(s)`, a.rules.length)
    } catch (err) {
      await client?.query('ROLLBACK').catch(() => undefined)
      finish('error', `anonymization failed: ${(err as Error).message}`)
    } finally {
      await client?.end().catch(() => undefined)
    }
  }
}

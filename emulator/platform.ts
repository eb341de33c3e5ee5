/**
 * Emulator of the platform's v2 API (seed 000 plus the public v2 shapes the
 * seed leaves out). Projects hold branches that are real PostgreSQL
 * databases: a new branch is `CREATE DATABASE … TEMPLATE <parent>` and stays
 * closed to connections until its `start_compute` operation finishes.
 *
 * Operations move over time as the seed's table says: `create_branch` starts
 * `running`, `start_compute` starts `scheduling`, both end `finished`.
 * Requests that start work get 423 while any operation of the project is not
 * terminal, including system operations (`check_availability`) a test starts.
 *
 * Choices where the seed says "not shown": error bodies `{code, message}`; the
 * final page of operations has `pagination: {}`; branch deletes start
 * `suspend_compute` and `delete_timeline`; each branch's database has a name
 * of its own (`neondb_<suffix>`), since all branches share one server.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { ServiceServer, type Reply, type Request } from './http-kit.js'
import type { PostgresServer } from './postgres.js'
import { REGION } from './instant.js'
import { type BranchLifecycle, type EndpointSettings, PlatformLifecycle } from './platform-lifecycle.js'

type Status = 'scheduling' | 'running' | 'finished' | 'failed' | 'cancelling' | 'cancelled' | 'skipped'
const TERMINAL: readonly Status[] = ['finished', 'skipped', 'cancelled']

/** One step of an operation's life: at `at` ms after creation it has `status`. */
export interface Step {
  at: number
  status: Status
  failures?: number
}

interface OperationRecord {
  id: string
  project_id: string
  branch_id: string
  endpoint_id?: string
  action: string
  created: number
  steps: Step[]
  /** Run once when a `finished` step is reached; the operation reports `finished` only after it completed. */
  onFinish?: () => Promise<void>
  /** The side effect has completed (or there is none). */
  effectDone?: boolean
  /** Milliseconds since the epoch at which it reached a terminal status, if it has. */
  endedAt?: number
}

export interface BranchRecord extends BranchLifecycle {
  id: string
  name: string
  parent_id?: string
  default: boolean
  protected: boolean
  created_at: string
  /** The PostgreSQL database behind the branch. */
  database: string
  endpoint?: { id: string; host: string; type: 'read_write' } & EndpointSettings
}

export interface Project {
  id: string
  apiKey: string
  role: string
  password: string
  branches: Map<string, BranchRecord>
  operations: OperationRecord[]
}

/** Durations of the emulated operations, in milliseconds. */
export interface Timing {
  createBranchMs: number
  startComputeMs: number
  deleteMs: number
}

const hex = (n: number): string => randomBytes(n).toString('hex')
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

export class PlatformService {
  readonly server = new ServiceServer('platform')
  readonly projects = new Map<string, Project>()
  timing: Timing = { createBranchMs: 300, startComputeMs: 700, deleteMs: 300 }
  /** Scripts for the next operations of an action, consumed in order (fault injection). */
  readonly scripts = new Map<string, Step[][]>()
  /** Expiry, annotations, update and restore branch, schema-only (issue 14). */
  readonly lifecycle: PlatformLifecycle
  private lastCreated = 0
  private readonly timers = new Set<NodeJS.Timeout>()

  constructor(private readonly pg: PostgresServer) {
    this.lifecycle = new PlatformLifecycle(this, pg)
    const p = '^/api/v2/projects/([^/]+)'
    this.server
      .route('GET', new RegExp(`${p}/branches/?$`), (req, [pid]) => this.withProject(req, pid, (project) => ({
        status: 200,
        body: { branches: [...project.branches.values()].map((b) => this.branchView(project, b)) }
      })))
      .route('GET', new RegExp(`${p}/branches/([^/]+)/?$`), (req, [pid, bid]) => this.withBranch(req, pid, bid, (project, b) => ({
        status: 200,
        body: { branch: this.branchView(project, b), ...this.lifecycle.annotation(b) }
      })))
      .route('POST', new RegExp(`${p}/branches/?$`), (req, [pid]) => this.withProject(req, pid, (project) => this.createBranch(project, req)))
      .route('DELETE', new RegExp(`${p}/branches/([^/]+)/?$`), (req, [pid, bid]) =>
        this.withBranch(req, pid, bid, (project, b) => this.deleteBranch(project, b))
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/endpoints/?$`), (req, [pid, bid]) => this.withBranch(req, pid, bid, (_project, b) => ({
        status: 200,
        body: { endpoints: b.endpoint ? [{ ...b.endpoint, branch_id: b.id, project_id: pid, region_id: `aws-${REGION}` }] : [] }
      })))
      .route('GET', new RegExp(`${p}/branches/([^/]+)/databases/?$`), (req, [pid, bid]) => this.withBranch(req, pid, bid, (project, b) => ({
        status: 200,
        body: { databases: [{ id: 1, branch_id: b.id, name: b.database, owner_name: project.role }] }
      })))
      .route('GET', new RegExp(`${p}/connection_uri/?$`), (req, [pid]) => this.withProject(req, pid, (project) => {
        const b = project.branches.get(req.query.get('branch_id') ?? '')
        if (!b) return { status: 404, body: { code: '', message: 'branch not found' } }
        if (req.query.get('database_name') !== b.database || req.query.get('role_name') !== project.role) {
          return { status: 404, body: { code: '', message: 'database or role not found' } }
        }
        return { status: 200, body: { uri: this.uri(project, b, req.query.get('pooled') === 'true') } }
      }))
      .route('GET', new RegExp(`${p}/operations/?$`), (req, [pid]) => this.withProject(req, pid, (project) => this.listOperations(project, req)))
      .route('GET', new RegExp(`${p}/operations/([^/]+)/?$`), (req, [pid, oid]) => this.withProject(req, pid, (project) => {
        const op = project.operations.find((o) => o.id === oid)
        return op ? { status: 200, body: { operation: this.opView(op) } } : { status: 404, body: { code: '', message: 'operation not found' } }
      }))
  }

  get url(): string {
    return `${this.server.url}/api/v2`
  }

  /** Creates a project with a default branch `main` (its database created now, open to connections). */
  async createProject(options: { apiKey?: string; protectedBranch?: string } = {}): Promise<Project> {
    const suffix = hex(4)
    const project: Project = {
      id: `${['misty', 'quiet', 'young'][randomBytes(1)[0] % 3]}-${hex(3)}-${10000000 + randomBytes(3).readUIntBE(0, 3)}`,
      apiKey: options.apiKey ?? `napi_${hex(16)}`,
      role: `neondb_owner_${suffix}`,
      password: `npg_${hex(8)}`,
      branches: new Map(),
      operations: []
    }
    await this.pg.createRole(project.role, project.password)
    const main = this.newBranch(project, 'main', undefined)
    main.default = true
    await this.pg.createDatabase(main.database, project.role)
    if (options.protectedBranch) {
      const prot = this.newBranch(project, options.protectedBranch, main.id)
      prot.protected = true
      await this.pg.createDatabase(prot.database, project.role, { template: main.database })
    }
    this.projects.set(project.id, project)
    return project
  }

  /** Starts a system operation (default `check_availability`) that runs for `durationMs`. */
  startSystemOperation(project: Project, options: { action?: string; durationMs: number; branchId?: string }): void {
    const branchId = options.branchId ?? [...project.branches.values()].find((b) => b.default)!.id
    this.addOperation(project, branchId, options.action ?? 'check_availability', [
      { at: 0, status: 'running' },
      { at: options.durationMs, status: 'finished' }
    ])
  }

  /** Scripts the next operation of `action` (a fault: failed then recovered, cancelled, never ending, …). */
  script(action: string, steps: Step[]): void {
    this.scripts.set(action, [...(this.scripts.get(action) ?? []), steps])
  }

  /** Operations of a project as the API shows them now, oldest first, with when each ended. */
  operations(project: Project): (Record<string, unknown> & { endedAt?: number })[] {
    return project.operations.map((op) => ({ ...this.opView(op), endedAt: op.endedAt }))
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t)
    this.lifecycle.stop()
    await this.server.close()
  }

  // ---- internals -------------------------------------------------------

  /** @internal shared with platform-lifecycle.ts */
  withProject(req: Request, pid: string, f: (project: Project) => Reply | Promise<Reply>): Reply | Promise<Reply> {
    const project = this.projects.get(pid)
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1]
    if (!key || (project && key !== project.apiKey) || (!project && ![...this.projects.values()].some((p) => p.apiKey === key))) {
      return { status: 401, body: { code: '', message: 'authentication required' } }
    }
    if (!project) return { status: 404, body: { code: '', message: `project not found` } }
    return f(project)
  }

  /** @internal shared with platform-lifecycle.ts */
  withBranch(req: Request, pid: string, bid: string, f: (project: Project, b: BranchRecord) => Reply | Promise<Reply>) {
    return this.withProject(req, pid, (project) => {
      const b = project.branches.get(bid)
      return b ? f(project, b) : { status: 404, body: { code: '', message: 'branch not found' } }
    })
  }

  private newBranch(project: Project, name: string, parentId: string | undefined): BranchRecord {
    const suffix = hex(4)
    const b: BranchRecord = {
      id: `br-${['cool', 'dry', 'late'][randomBytes(1)[0] % 3]}-${hex(2)}-${suffix}`,
      name,
      parent_id: parentId,
      default: false,
      protected: false,
      created_at: iso(Date.now()),
      database: `neondb_${suffix}`,
      endpoint: { id: `ep-${hex(3)}-${suffix}`, host: `ep-${hex(3)}-${suffix}.${REGION}.localhost`, type: 'read_write' }
    }
    project.branches.set(b.id, b)
    return b
  }

  private uri(project: Project, b: BranchRecord, pooled: boolean): string {
    const host = pooled ? b.endpoint!.host.replace(/^([^.]+)/, '$1-pooler') : b.endpoint!.host
    return `postgresql://${project.role}:${project.password}@${host}:${this.pg.port}/${b.database}?sslmode=require&channel_binding=require`
  }

  /** @internal shared with platform-lifecycle.ts */
  branchView(project: Project, b: BranchRecord): Record<string, unknown> {
    const { id, name, parent_id, default: isDefault, protected: isProtected, created_at } = b
    return { id, project_id: project.id, parent_id, name, default: isDefault, protected: isProtected, current_state: 'ready', created_at, updated_at: created_at, ...this.lifecycle.view(b) }
  }

  private current(op: OperationRecord, now = Date.now()): Step {
    let step = op.steps[0]
    let previous = step
    for (const s of op.steps) {
      if (now - op.created >= s.at) {
        previous = step
        step = s
      }
    }
    // The work behind a finished operation (a database dropped or opened) is done before it says so.
    // A skipped one was not needed because its end state already holds (a compute already running).
    return (step.status === 'finished' || step.status === 'skipped') && op.onFinish && !op.effectDone ? previous : step
  }

  /** @internal shared with platform-lifecycle.ts */
  opView(op: OperationRecord): Record<string, unknown> {
    const step = this.current(op)
    const { id, project_id, branch_id, endpoint_id, action } = op
    return {
      id,
      project_id,
      branch_id,
      ...(endpoint_id ? { endpoint_id } : {}),
      action,
      status: step.status,
      failures_count: step.failures ?? 0,
      created_at: iso(op.created),
      updated_at: iso(op.created + step.at)
    }
  }

  /** @internal shared with platform-lifecycle.ts */
  busy(project: Project): boolean {
    return project.operations.some((op) => !TERMINAL.includes(this.current(op).status))
  }

  /** @internal shared with platform-lifecycle.ts */
  addOperation(project: Project, branchId: string, action: string, steps: Step[], endpointId?: string, onFinish?: () => Promise<void>): OperationRecord {
    const scripted = this.scripts.get(action)?.shift()
    const created = Math.max(Date.now(), this.lastCreated + 1)
    this.lastCreated = created
    const op: OperationRecord = { id: randomUUID(), project_id: project.id, branch_id: branchId, endpoint_id: endpointId, action, created, steps: scripted ?? steps, onFinish }
    project.operations.push(op)
    const end = op.steps.find((s) => TERMINAL.includes(s.status))
    if (end) {
      const t = setTimeout(() => {
        this.timers.delete(t)
        if ((end.status === 'finished' || end.status === 'skipped') && op.onFinish) {
          op.onFinish()
            .catch((err: Error) => console.error(`platform emulator: ${op.action} side effect failed: ${err.message}`))
            .finally(() => {
              op.effectDone = true
              op.endedAt = Date.now()
            })
        } else {
          op.endedAt = Date.now()
        }
      }, end.at)
      this.timers.add(t)
    }
    return op
  }

  private async createBranch(project: Project, req: Request): Promise<Reply> {
    let body: { branch?: { parent_id?: string; name?: string; expires_at?: unknown; init_source?: unknown }; endpoints?: { type?: string }[]; annotation_value?: unknown }
    try {
      body = JSON.parse(req.text)
    } catch {
      return { status: 400, body: { code: '', message: 'request body is not valid JSON' } }
    }
    if (this.busy(project)) {
      return { status: 423, body: { code: '', message: 'project already has running conflicting operations, scheduling of some are not possible' } }
    }
    const refused = this.lifecycle.refuseCreate(project, body)
    if (refused) return refused
    const name = body.branch?.name ?? `br-${hex(3)}`
    if (name.length > 256) return { status: 400, body: { code: '', message: 'branch name exceeds 256 characters' } }
    if ([...project.branches.values()].some((b) => b.name === name)) {
      return { status: 409, body: { code: '', message: `branch with name "${name}" already exists` } }
    }
    const parent = body.branch?.parent_id ? project.branches.get(body.branch.parent_id) : [...project.branches.values()].find((b) => b.default)
    if (!parent) return { status: 404, body: { code: '', message: 'parent branch not found' } }
    const b = this.newBranch(project, name, parent.id)
    const wantsCompute = (body.endpoints ?? []).some((e) => e.type === 'read_write')
    if (!wantsCompute) delete b.endpoint
    await this.lifecycle.materialise(project, b, parent, body)
    const { createBranchMs, startComputeMs } = this.timing
    const ops = [this.addOperation(project, b.id, 'create_branch', [{ at: 0, status: 'running' }, { at: createBranchMs, status: 'finished' }])]
    if (wantsCompute) {
      ops.push(
        this.addOperation(project, b.id, 'start_compute', [{ at: 0, status: 'scheduling' }, { at: startComputeMs, status: 'finished' }], b.endpoint!.id, () =>
          this.pg.allowConnections(b.database)
        )
      )
    }
    return {
      status: 201,
      body: {
        branch: this.branchView(project, b),
        endpoints: b.endpoint ? [{ ...b.endpoint, branch_id: b.id, project_id: project.id }] : [],
        operations: ops.map((op) => this.opView(op)),
        roles: [{ branch_id: b.id, name: project.role }],
        databases: [{ branch_id: b.id, name: b.database, owner_name: project.role }],
        connection_uris: b.endpoint
          ? [{
              connection_uri: this.uri(project, b, false),
              connection_parameters: {
                database: b.database,
                role: project.role,
                password: project.password,
                host: `${b.endpoint.host}:${this.pg.port}`,
                pooler_host: `${b.endpoint.host.replace(/^([^.]+)/, '$1-pooler')}`
              }
            }]
          : []
      }
    }
  }

  private deleteBranch(project: Project, b: BranchRecord): Reply {
    if (b.default || b.protected) return { status: 422, body: { code: '', message: 'cannot delete a default or protected branch' } }
    if (this.busy(project)) {
      return { status: 423, body: { code: '', message: 'project already has running conflicting operations, scheduling of some are not possible' } }
    }
    project.branches.delete(b.id)
    const { deleteMs } = this.timing
    const ops = [
      this.addOperation(project, b.id, 'suspend_compute', [{ at: 0, status: 'running' }, { at: deleteMs / 2, status: 'finished' }], b.endpoint?.id),
      this.addOperation(project, b.id, 'delete_timeline', [{ at: 0, status: 'scheduling' }, { at: deleteMs, status: 'finished' }], undefined, () =>
        this.pg.dropDatabase(b.database)
      )
    ]
    return { status: 200, body: { branch: this.branchView(project, b), operations: ops.map((op) => this.opView(op)) } }
  }

  private listOperations(project: Project, req: Request): Reply {
    const limit = Math.max(1, Math.min(100, Number(req.query.get('limit') ?? 10)))
    const cursor = req.query.get('cursor')
    const before = cursor ? Date.parse(cursor) : Infinity
    const newestFirst = [...project.operations].sort((a, b) => b.created - a.created).filter((op) => op.created < before)
    const page = newestFirst.slice(0, limit)
    const more = newestFirst.length > limit
    return {
      status: 200,
      body: {
        operations: page.map((op) => this.opView(op)),
        pagination: more ? { cursor: new Date(page.at(-1)!.created).toISOString() } : {}
      }
    }
  }
}

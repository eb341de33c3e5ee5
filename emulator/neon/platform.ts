/**
 * Emulator of the platform's v2 API (the operations API document plus the public v2 shapes
 * that document leaves out). Projects hold branches that are real PostgreSQL
 * databases: a new branch is `CREATE DATABASE … TEMPLATE <parent>` and stays
 * closed to connections until its `start_compute` operation finishes.
 *
 * Operations move over time as the operations API document's table says: `create_branch` starts
 * `running`, `start_compute` starts `scheduling`, both end `finished`.
 * Requests that start work get 423 while any operation of the project is not
 * terminal, including system operations (`check_availability`) a test starts.
 *
 * Where that document says "not shown" the platform's published OpenAPI spec
 * (`public-v2-for-users.gen.yaml`, npm `@neondatabase/api-client`) decides,
 * and __tests__/contract checks every answer against it: error bodies
 * `{code, message, request_id}` (also for 423); operations carry
 * `total_duration_ms`, and `error` text when their status is `error`; DELETE
 * of a missing or deleted branch answers 204 with no body; List branches is
 * cursor-paginated (`search`, `sort_by`, `sort_order`, `limit`, `cursor`;
 * `pagination.next`) and serves at most `branchPageSize` branches a page;
 * PATCH renames a branch. Our own choices: the final page of operations has
 * no `pagination`; branch deletes start `suspend_compute` and
 * `delete_timeline`; each branch's database has a name of its own
 * (`neondb_<suffix>`), since all branches share one server.
 */
import { randomBytes } from 'node:crypto'
import { compareSchemas } from './schema-compare.js'
import { ServiceServer, type Reply, type Request } from '../http-kit.js'
import type { PostgresServer } from '../postgres/postgres.js'
import { branchView as specBranchView, databaseView, endpointView, listBranches } from './platform-views.js'
import { REGION } from '../instant/instant.js'
import { PlatformLifecycle } from './platform-lifecycle.js'
import { PlatformAnonymized } from './platform-anonymized.js'
import { PlatformHistory } from './platform-history.js'
import { PlatformBranches } from './platform-branches.js'
import { PlatformUsage } from './platform-usage.js'
import { OperationClock, currentStep, listOperations, operationView } from './platform-operations.js'
import {
  TERMINAL,
  type BranchRecord,
  type CreateBranchBody,
  type OperationRecord,
  type PlatformCore,
  type Project,
  type Step,
  type Timing,
  LOCKED,
  hex,
  iso
} from './platform-records.js'
import { NEON_RATE_LIMIT, RateLimiter, type RateLimitOptions, accountOf, routeOf } from './neon-limits.js'

export type { BranchRecord, Project, Step, Timing } from './platform-records.js'

/** How long the emulator's `timeline_unarchive` operation runs, in milliseconds. */
export const UNARCHIVE_MS = 800

export class PlatformService implements PlatformCore {
  readonly server = new ServiceServer('platform', (message, requestId, body) => ({
    ...body,
    code: typeof body?.code === 'string' ? body.code : '',
    message: typeof body?.message === 'string' ? body.message : message,
    request_id: requestId
  }))
  readonly projects = new Map<string, Project>()
  timing: Timing = { createBranchMs: 300, startComputeMs: 700, deleteMs: 300 }
  /** Most branches served on one page of List branches, whatever `limit` asks (the spec's maximum is 10000). */
  branchPageSize = 10000
  /** Scripts for the next operations of an action, consumed in order (fault injection). */
  readonly scripts = new Map<string, Step[][]>()
  /** Expiry, annotations, update and restore branch, schema-only (platform-lifecycle.ts). */
  readonly lifecycle: PlatformLifecycle
  /** Anonymized branches: branch_anonymized, anonymized_status, masking_rules, anonymize (platform-anonymized.ts). */
  readonly anonymized: PlatformAnonymized
  /** Neon's API rate limit, when {@link limitRate} switched it on. */
  rateLimit?: RateLimiter
  /** Past states of branches, for a create from `parent_lsn` or `parent_timestamp` (platform-history.ts). */
  readonly history: PlatformHistory
  /** Create, delete and update branch (platform-branches.ts). */
  readonly branchRequests: PlatformBranches
  /** Each branch's usage counters; a test sets them with `usage.set` (platform-usage.ts). */
  readonly usage: PlatformUsage
  /** Operations' end timers (platform-operations.ts). */
  private readonly clock = new OperationClock()

  constructor(private readonly pg: PostgresServer) {
    this.lifecycle = new PlatformLifecycle(this, pg)
    this.anonymized = new PlatformAnonymized(this, pg)
    this.history = new PlatformHistory(pg)
    this.branchRequests = new PlatformBranches(this, pg)
    this.usage = new PlatformUsage(pg)
    const p = '^/api/v2/projects/([^/]+)'
    this.server
      .route('GET', new RegExp(`${p}/branches/?$`), (req, [pid]) =>
        this.withProject(req, pid, (project) =>
          listBranches(
            project,
            req,
            this.branchPageSize,
            (b) => this.branchView(project, b),
            (b) => (b.annotations ? this.lifecycle.annotation(b).annotation : undefined),
            (page) => this.usage.measure(page)
          )
        )
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/?$`), (req, [pid, bid]) =>
        this.withBranch(req, pid, bid, async (project, b) => {
          await this.usage.measure([b])
          return { status: 200, body: { branch: this.branchView(project, b), ...this.lifecycle.annotation(b) } }
        })
      )
      .route('POST', new RegExp(`${p}/branches/?$`), (req, [pid]) =>
        this.withProject(req, pid, (project) => this.branchRequests.create(project, req))
      )
      .route('DELETE', new RegExp(`${p}/branches/([^/]+)/?$`), (req, [pid, bid]) =>
        this.withProject(req, pid, (project) => {
          const b = project.branches.get(bid)
          // Spec, deleteProjectBranch: 204 "if the branch doesn't exist or has already been deleted".
          return b ? this.branchRequests.delete(project, b) : { status: 204 }
        })
      )
      .route('PATCH', new RegExp(`${p}/branches/([^/]+)/?$`), (req, [pid, bid]) =>
        this.withBranch(req, pid, bid, (project, b) => this.branchRequests.update(project, b, req))
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/endpoints/?$`), (req, [pid, bid]) =>
        this.withBranch(req, pid, bid, (project, b) => ({
          status: 200,
          body: { endpoints: b.endpoint ? [endpointView(project, b)] : [] }
        }))
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/databases/?$`), (req, [pid, bid]) =>
        this.withBranch(req, pid, bid, (project, b) => ({
          status: 200,
          body: { databases: [databaseView(project, b)] }
        }))
      )
      .route('GET', new RegExp(`${p}/branches/([^/]+)/compare_schema/?$`), (req, [pid, bid]) =>
        this.withBranch(req, pid, bid, async (project, b) => {
          const base = project.branches.get(req.query.get('base_branch_id') ?? '')
          if (!base) return { status: 404, body: { code: '', message: 'base branch not found' } }
          if (req.query.get('db_name') !== b.database) return { status: 404, body: { code: '', message: 'database not found' } }
          return { status: 200, body: { diff: await compareSchemas(this.pg, base, b) } }
        })
      )
      .route('GET', new RegExp(`${p}/connection_uri/?$`), (req, [pid]) =>
        this.withProject(req, pid, (project) => {
          const b = project.branches.get(req.query.get('branch_id') ?? '')
          if (!b) return { status: 404, body: { code: '', message: 'branch not found' } }
          if (req.query.get('database_name') !== b.database || req.query.get('role_name') !== project.role) {
            return { status: 404, body: { code: '', message: 'database or role not found' } }
          }
          return { status: 200, body: { uri: this.uri(project, b, req.query.get('pooled') === 'true') } }
        })
      )
      .route('GET', new RegExp(`${p}/operations/?$`), (req, [pid]) => this.withProject(req, pid, (project) => listOperations(project, req)))
      .route('GET', new RegExp(`${p}/operations/([^/]+)/?$`), (req, [pid, oid]) =>
        this.withProject(req, pid, (project) => {
          const op = project.operations.find((o) => o.id === oid)
          return op
            ? { status: 200, body: { operation: this.opView(op) } }
            : { status: 404, body: { code: '', message: 'operation not found' } }
        })
      )
  }

  /** Switches Neon's API rate limit on (neon-limits.ts: 700 per minute per API key, 40 per second per route; 429 with `Retry-After`). */
  limitRate(options: RateLimitOptions = NEON_RATE_LIMIT): RateLimiter {
    const limiter = (this.rateLimit = new RateLimiter(options))
    this.server.admit = (method, path, headers) => limiter.admit(accountOf(headers.authorization), routeOf(method, path))
    return limiter
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
    this.usage.started(main)
    if (options.protectedBranch) {
      const prot = this.newBranch(project, options.protectedBranch, main.id)
      prot.protected = true
      await this.pg.createDatabase(prot.database, project.role, { template: main.database })
      this.usage.started(prot)
    }
    this.projects.set(project.id, project)
    return project
  }

  /**
   * Adds a branch of `main` as if made earlier (its database a copy of main's,
   * open to connections), for setups: many branches, or one a failed run left.
   */
  async addBranch(project: Project, name: string): Promise<BranchRecord> {
    const main = [...project.branches.values()].find((b) => b.default)!
    const b = this.newBranch(project, name, main.id)
    await this.pg.createDatabase(b.database, project.role, { template: main.database })
    this.usage.started(b)
    return b
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

  /** Operations of a project as the API shows them now, oldest first, with when each started and ended (milliseconds since the epoch). */
  operations(project: Project): (Record<string, unknown> & { startedAt: number; endedAt?: number })[] {
    return project.operations.map((op) => ({ ...this.opView(op), startedAt: op.created, endedAt: op.endedAt }))
  }

  async close(): Promise<void> {
    this.clock.stop()
    this.lifecycle.stop()
    this.anonymized.stop()
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

  /** @internal shared with platform-lifecycle.ts; a request that changes an archived branch unarchives it first ({@link unarchive}). */
  withBranch(req: Request, pid: string, bid: string, f: (project: Project, b: BranchRecord) => Reply | Promise<Reply>) {
    return this.withProject(req, pid, (project) => {
      const b = project.branches.get(bid)
      if (!b) return { status: 404, body: { code: '', message: 'branch not found' } }
      return (req.method !== 'GET' && this.unarchive(project, b)) || f(project, b)
    })
  }

  /**
   * Neon archives a branch older than 14 days and unused for 24 hours
   * (`current_state: archived`; a test sets `archived` on the record) and
   * unarchives it on the next access: a request that starts work on it
   * starts a `timeline_unarchive` operation of {@link UNARCHIVE_MS} and is
   * answered 423 while it runs, like any busy project.
   * @returns the 423 reply when `b` was archived, else null.
   */
  unarchive(project: Project, b: BranchRecord): Reply | null {
    if (!b.archived) return null
    b.archived = false
    this.addOperation(project, b.id, 'timeline_unarchive', [
      { at: 0, status: 'running' },
      { at: UNARCHIVE_MS, status: 'finished' }
    ])
    return LOCKED
  }

  /** @internal shared with platform-branches.ts: a branch record, added to the project (its database not made yet). */
  newBranch(project: Project, name: string, parentId: string | undefined): BranchRecord {
    const suffix = hex(4)
    const b: BranchRecord = {
      id: `br-${['cool', 'dry', 'late'][randomBytes(1)[0] % 3]}-${hex(2)}-${suffix}`,
      name,
      parent_id: parentId,
      default: false,
      protected: false,
      created_at: iso(Date.now()),
      updated_at: iso(Date.now()),
      database: `neondb_${suffix}`,
      endpoint: { id: `ep-${hex(3)}-${suffix}`, host: `ep-${hex(3)}-${suffix}.${REGION}.localhost`, type: 'read_write' }
    }
    project.branches.set(b.id, b)
    return b
  }

  /** @internal shared with platform-branches.ts: the branch's connection string (pooled: the `-pooler` host). */
  uri(project: Project, b: BranchRecord, pooled: boolean): string {
    const host = pooled ? b.endpoint!.host.replace(/^([^.]+)/, '$1-pooler') : b.endpoint!.host
    return `postgresql://${project.role}:${project.password}@${host}:${this.pg.port}/${b.database}?sslmode=require&channel_binding=require`
  }

  /** A branch as the API shows it: the spec's view (platform-views.ts) with the lifecycle fields (platform-lifecycle.ts). */
  branchView(project: Project, b: BranchRecord): Record<string, unknown> {
    return specBranchView(project, b, {
      ...this.usage.view(b),
      ...this.lifecycle.view(b),
      ...this.anonymized.view(b),
      ...(b.archived ? { current_state: 'archived' } : {})
    })
  }

  /** @internal shared with platform-lifecycle.ts */
  opView(op: OperationRecord): Record<string, unknown> {
    return operationView(op)
  }

  /** @internal shared with platform-lifecycle.ts */
  busy(project: Project): boolean {
    return project.operations.some((op) => !TERMINAL.includes(currentStep(op).status))
  }

  /** @internal shared with platform-lifecycle.ts: an operation of `action`, scripted ({@link script}) or with `steps`. */
  addOperation(
    project: Project,
    branchId: string,
    action: string,
    steps: Step[],
    endpointId?: string,
    onFinish?: () => Promise<void>
  ): OperationRecord {
    return this.clock.add(project, branchId, action, this.scripts.get(action)?.shift() ?? steps, endpointId, onFinish)
  }

  /** @internal Create branch from a parsed BranchCreateRequest; shared with platform-anonymized.ts (branch_anonymized's `branch_create`). */
  createBranchFrom(project: Project, body: CreateBranchBody): Promise<Reply> {
    return this.branchRequests.createFrom(project, body)
  }
}

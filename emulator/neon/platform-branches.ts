/**
 * The platform emulator's branch requests, per the platform's published
 * spec (public-v2-for-users.gen.yaml in `@neondatabase/api-client`): create
 * branch (its database a copy of the parent's, with `create_branch` and,
 * for a read-write compute, `start_compute` operations; 423 while the
 * project is busy; 409 for a taken name), delete branch (`suspend_compute`
 * and `delete_timeline`; 422 for a default, protected or parent branch,
 * status and wording our choice) and update branch (rename, protect; 409
 * for a taken name). The rest of the platform is platform.ts.
 */
import type { Reply, Request } from '../http-kit.js'
import type { PostgresServer } from '../postgres/postgres.js'
import { databaseView, endpointView } from './platform-views.js'
import type { PlatformLifecycle } from './platform-lifecycle.js'
import type { PlatformHistory } from './platform-history.js'
import type { PlatformUsage } from './platform-usage.js'
import { LOCKED, type BranchRecord, type CreateBranchBody, type PlatformCore, type Project, hex, iso } from './platform-records.js'

/** What the branch requests need of the platform (platform.ts). */
export interface BranchesCore extends PlatformCore {
  readonly lifecycle: PlatformLifecycle
  readonly history: PlatformHistory
  readonly usage: PlatformUsage
  newBranch(project: Project, name: string, parentId: string | undefined): BranchRecord
  uri(project: Project, b: BranchRecord, pooled: boolean): string
  unarchive(project: Project, b: BranchRecord): Reply | null
}

export class PlatformBranches {
  constructor(
    private readonly platform: BranchesCore,
    private readonly pg: PostgresServer
  ) {}

  /**
   * Neon's cap on branches per project (Free and Launch plans: 10, Scale 25),
   * by project id; off unless a test sets it. A create past it is answered
   * 422 `{code: 'BRANCHES_LIMIT_EXCEEDED', message: 'branches limit exceeded'}`
   * (the spec's GeneralError; the code as users report meeting it).
   */
  readonly branchCap = new Map<string, number>()

  /**
   * Neon's cap on computes active at once per project (20 on most plans), by
   * project id; off unless a test sets it. A create with an endpoint while
   * that many branches have an active (not `suspended`) compute is answered
   * 422 "active endpoints limit exceeded"; a test frees a slot by suspending
   * one (`endpoint.suspended = true`) or deleting its branch.
   */
  readonly computeCap = new Map<string, number>()

  /** Create branch (`POST …/branches`): the body parsed, then {@link createFrom}. */
  async create(project: Project, req: Request): Promise<Reply> {
    let body: CreateBranchBody
    try {
      body = JSON.parse(req.text)
    } catch {
      return { status: 400, body: { code: '', message: 'request body is not valid JSON' } }
    }
    return this.createFrom(project, body)
  }

  /** Create branch from a parsed BranchCreateRequest (also branch_anonymized's `branch_create`, platform-anonymized.ts). */
  async createFrom(project: Project, body: CreateBranchBody): Promise<Reply> {
    if (this.platform.busy(project)) return LOCKED
    const cap = this.branchCap.get(project.id)
    if (cap !== undefined && project.branches.size >= cap)
      return { status: 422, body: { code: 'BRANCHES_LIMIT_EXCEEDED', message: 'branches limit exceeded' } }
    const computes = this.computeCap.get(project.id)
    const active = [...project.branches.values()].filter((b) => b.endpoint && !b.endpoint.suspended).length
    if (computes !== undefined && (body.endpoints ?? []).length && active >= computes)
      return { status: 422, body: { code: '', message: 'active endpoints limit exceeded' } }
    const refused = this.platform.lifecycle.refuseCreate(project, body)
    if (refused) return refused
    const name = body.branch?.name ?? `br-${hex(3)}`
    if (name.length > 256) return { status: 400, body: { code: '', message: 'branch name exceeds 256 characters' } }
    if ([...project.branches.values()].some((b) => b.name === name)) {
      return { status: 409, body: { code: '', message: `branch with name "${name}" already exists` } }
    }
    const parent = body.branch?.parent_id
      ? project.branches.get(body.branch.parent_id)
      : [...project.branches.values()].find((b) => b.default)
    if (!parent) return { status: 404, body: { code: '', message: 'parent branch not found' } }
    const { parent_lsn, parent_timestamp } = body.branch ?? {}
    if (parent_lsn !== undefined && parent_timestamp !== undefined)
      return { status: 400, body: { code: '', message: 'specify only one of parent_lsn and parent_timestamp' } }
    const point =
      parent_lsn !== undefined || parent_timestamp !== undefined
        ? await this.platform.history.source(parent, { parent_lsn, parent_timestamp })
        : undefined
    if (point && 'error' in point) return { status: 400, body: { code: '', message: point.error } }
    const b = this.platform.newBranch(project, name, parent.id)
    if (point) Object.assign(b, { parent_lsn: point.lsn, parent_timestamp: point.timestamp })
    const wantsCompute = (body.endpoints ?? []).some((e) => e.type === 'read_write')
    if (!wantsCompute) delete b.endpoint
    // The operations hold the project from the moment the request is accepted; the database copy is part of
    // the create's time (create_branch reports finished only once it is done).
    const copy = this.platform.lifecycle.materialise(project, b, parent, body, point?.database)
    copy.catch(() => undefined)
    const { createBranchMs, startComputeMs } = this.platform.timing
    const ops = [
      this.platform.addOperation(
        project,
        b.id,
        'create_branch',
        [
          { at: 0, status: 'running' },
          { at: createBranchMs, status: 'finished' }
        ],
        undefined,
        () => copy
      )
    ]
    if (wantsCompute) {
      ops.push(
        this.platform.addOperation(
          project,
          b.id,
          'start_compute',
          [
            { at: 0, status: 'scheduling' },
            { at: startComputeMs, status: 'finished' }
          ],
          b.endpoint!.id,
          () => copy.then(() => this.pg.allowConnections(b.database)).then(() => this.platform.usage.started(b))
        )
      )
    }
    try {
      await copy
    } catch (err) {
      // The copy failed: the branch is not made and its operations end in error.
      project.branches.delete(b.id)
      for (const op of ops) {
        op.onFinish = undefined
        op.steps = [
          { at: 0, status: 'running' },
          { at: Date.now() - op.created, status: 'error', error: (err as Error).message }
        ]
        op.endedAt = Date.now()
      }
      throw err
    }
    return {
      status: 201,
      body: {
        branch: this.platform.branchView(project, b),
        endpoints: b.endpoint ? [endpointView(project, b)] : [],
        operations: ops.map((op) => this.platform.opView(op)),
        roles: [{ branch_id: b.id, name: project.role, created_at: b.created_at, updated_at: b.created_at }],
        databases: [databaseView(project, b)],
        connection_uris: b.endpoint
          ? [
              {
                connection_uri: this.platform.uri(project, b, false),
                connection_parameters: {
                  database: b.database,
                  role: project.role,
                  password: project.password,
                  host: `${b.endpoint.host}:${this.pg.port}`,
                  pooler_host: `${b.endpoint.host.replace(/^([^.]+)/, '$1-pooler')}`
                }
              }
            ]
          : []
      }
    }
  }

  /** Delete branch: 422 for a default, protected or parent branch, 423 while the project is busy. */
  delete(project: Project, b: BranchRecord): Reply {
    if (b.default || b.protected) return { status: 422, body: { code: '', message: 'cannot delete a default or protected branch' } }
    // The platform does not delete a branch with children (the action's undo deletes children first); status and wording are our choice, the spec does not say.
    const children = [...project.branches.values()].filter((x) => x.parent_id === b.id)
    if (children.length)
      return {
        status: 422,
        body: { code: '', message: `branch ${b.id} has child branches (${children.map((c) => c.name).join(', ')}); delete them first` }
      }
    if (this.platform.busy(project)) return LOCKED
    const unarchiving = this.platform.unarchive(project, b)
    if (unarchiving) return unarchiving
    project.branches.delete(b.id)
    const { deleteMs } = this.platform.timing
    const ops = [
      this.platform.addOperation(
        project,
        b.id,
        'suspend_compute',
        [
          { at: 0, status: 'running' },
          { at: deleteMs / 2, status: 'finished' }
        ],
        b.endpoint?.id
      ),
      this.platform.addOperation(
        project,
        b.id,
        'delete_timeline',
        [
          { at: 0, status: 'scheduling' },
          { at: deleteMs, status: 'finished' }
        ],
        undefined,
        () => this.pg.dropDatabase(b.database)
      )
    ]
    return { status: 200, body: { branch: this.platform.branchView(project, b), operations: ops.map((op) => this.platform.opView(op)) } }
  }

  /**
   * Spec, updateProjectBranch: `{branch: {name?, protected?}}`; 409 when
   * another branch has the name. A rename starts no operation here.
   */
  update(project: Project, b: BranchRecord, req: Request): Reply {
    let body: { branch?: { name?: unknown; protected?: unknown } }
    try {
      body = JSON.parse(req.text)
    } catch {
      return { status: 400, body: { code: '', message: 'request body is not valid JSON' } }
    }
    const name = body.branch?.name
    if (name !== undefined) {
      if (typeof name !== 'string' || name.length < 1 || name.length > 256)
        return { status: 400, body: { code: '', message: 'branch name must be 1 to 256 characters' } }
      if ([...project.branches.values()].some((x) => x.name === name && x.id !== b.id)) {
        return { status: 409, body: { code: '', message: `branch with name "${name}" already exists` } }
      }
      b.name = name
    }
    if (typeof body.branch?.protected === 'boolean') b.protected = body.branch.protected
    b.updated_at = iso(Date.now())
    return { status: 200, body: { branch: this.platform.branchView(project, b), operations: [] } }
  }
}

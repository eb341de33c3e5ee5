/**
 * The platform emulator's part of the preview lifecycle (expiry, annotations, restore), per the
 * platform's published spec (public-v2-for-users.gen.yaml in
 * `@neondatabase/api-client`):
 *
 * - create branch: `branch.expires_at` (RFC 3339, at most whole seconds),
 *   `branch.init_source` (`schema-only` | `parent-data`), `annotation_value`
 *   (AnnotationValueData: string values, at most 50), and the endpoint's
 *   `suspend_timeout_seconds` (-1 to 604800) and `autoscaling_limit_min_cu` /
 *   `autoscaling_limit_max_cu` (ComputeUnit, at least 0.25);
 * - `GET …/branches/{id}` answers `annotation` (AnnotationResponse);
 * - `PATCH …/branches/{id}` (BranchUpdateRequest: name, protected, expires_at or null);
 * - `POST …/branches/{id}/restore` (BranchRestoreRequest), which replaces the
 *   branch's data with its source's head and keeps its id, endpoint and
 *   database, so its connection strings stay the same;
 * - a background job that deletes branches whose `expires_at` has passed;
 * - `expires_at` at most 30 days ahead (platform docs, branch expiration:
 *   "the maximum expiration period is 30 days").
 *
 * Choices where the spec says nothing: error messages; a restore runs
 * `suspend_compute`, `create_timeline` and `start_compute`;
 * `preserve_under_name` is not emulated (the action never sends it) and is
 * answered 400; a schema-only branch has no `parent_id`, as the spec says it
 * has no parent-child relationship.
 */
import { jsonObject, type Reply, type Request } from '../http-kit.js'
import { LOCKED, type BranchRecord, type EndpointSettings, type PlatformCore, type Project, iso } from './platform-records.js'
import type { PostgresServer } from '../postgres/postgres.js'

interface CreateBody {
  branch?: { expires_at?: unknown; init_source?: unknown }
  endpoints?: (EndpointSettings & { type?: string })[]
  annotation_value?: unknown
}

/** The platform's longest branch expiry (platform docs, branch expiration): 30 days, in milliseconds. */
export const MAX_EXPIRY_MS = 30 * 86400_000
const RFC3339_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/
const bad = (message: string): Reply => ({ status: 400, body: { code: '', message } })

function refuseExpiresAt(v: unknown, nullable: boolean): Reply | null {
  if (v === undefined || (nullable && v === null)) return null
  if (typeof v !== 'string' || !RFC3339_SECONDS.test(v) || Number.isNaN(Date.parse(v))) {
    return bad('expires_at must be an RFC 3339 timestamp with precision up to seconds, such as 2025-06-09T18:02:16Z')
  }
  if (Date.parse(v) <= Date.now()) return bad('expires_at must be in the future')
  if (Date.parse(v) > Date.now() + MAX_EXPIRY_MS) return bad('expires_at must not be more than 30 days in the future')
  return null
}

function refuseEndpoint(e: EndpointSettings): Reply | null {
  const t = e.suspend_timeout_seconds
  if (t !== undefined && (!Number.isInteger(t) || t < -1 || t > 604800))
    return bad('suspend_timeout_seconds must be an integer from -1 to 604800')
  for (const k of ['autoscaling_limit_min_cu', 'autoscaling_limit_max_cu'] as const) {
    const cu = e[k]
    if (cu !== undefined && (typeof cu !== 'number' || !(cu >= 0.25))) return bad(`${k} must be a number of compute units, at least 0.25`)
  }
  const { autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max } = e
  if (min !== undefined && max !== undefined && min > max) return bad('autoscaling_limit_min_cu must not exceed autoscaling_limit_max_cu')
  return null
}

export class PlatformLifecycle {
  /** Projects whose create and update branch refuse `expires_at` (the feature is in early access). */
  readonly refuseExpiry = new Set<string>()
  private readonly sweeper: NodeJS.Timeout

  constructor(
    private readonly platform: PlatformCore,
    private readonly pg: PostgresServer
  ) {
    const p = '^/api/v2/projects/([^/]+)'
    platform.server
      .route('PATCH', new RegExp(`${p}/branches/([^/]+)/?$`), (req, [pid, bid]) =>
        platform.withBranch(req, pid, bid, (project, b) => this.update(project, b, req))
      )
      .route('POST', new RegExp(`${p}/branches/([^/]+)/restore/?$`), (req, [pid, bid]) =>
        platform.withBranch(req, pid, bid, (project, b) => this.restore(project, b, req))
      )
    this.sweeper = setInterval(() => void this.sweepExpired(), 100)
    this.sweeper.unref()
  }

  /** Ends every running system operation (`check_availability`) of the project now, as finished (a test's lever). */
  finishSystemOperations(project: Project, action = 'check_availability'): void {
    for (const op of project.operations) {
      if (op.action !== action || op.endedAt !== undefined) continue
      const at = Date.now() - op.created
      op.steps = [...op.steps.filter((st) => st.at < at && st.status !== 'finished'), { at, status: 'finished' }]
      op.endedAt = Date.now()
    }
  }

  stop(): void {
    clearInterval(this.sweeper)
  }

  /** The lifecycle fields of a branch as the API shows them. */
  view(b: BranchRecord): Record<string, unknown> {
    const { expires_at, init_source, updated_at, last_reset_at } = b
    return {
      init_source: init_source ?? 'parent-data',
      ...(expires_at ? { expires_at } : {}),
      ...(updated_at ? { updated_at } : {}),
      ...(last_reset_at ? { last_reset_at } : {})
    }
  }

  /** AnnotationResponse of a branch. */
  annotation(b: BranchRecord): Record<string, unknown> {
    return {
      annotation: {
        object: { type: 'console/branch', id: b.id },
        value: { ...b.annotations },
        created_at: b.created_at,
        updated_at: b.created_at
      }
    }
  }

  /** Checks the lifecycle fields of a create-branch body; a 400 reply when one is wrong. */
  refuseCreate(project: Project, body: CreateBody): Reply | null {
    const expires = body.branch?.expires_at
    if (expires !== undefined && this.refuseExpiry.has(project.id))
      return bad('branch expiration (expires_at) is not available for this project')
    const init = body.branch?.init_source
    if (init !== undefined && init !== 'schema-only' && init !== 'parent-data') return bad('init_source must be schema-only or parent-data')
    const a = body.annotation_value
    if (a !== undefined) {
      if (!a || typeof a !== 'object' || Array.isArray(a) || Object.values(a).some((v) => typeof v !== 'string'))
        return bad('annotation_value must map names to strings')
      if (Object.keys(a).length > 50) return bad('annotation_value has more than 50 properties')
    }
    for (const e of body.endpoints ?? []) {
      const refused = refuseEndpoint(e)
      if (refused) return refused
    }
    return refuseExpiresAt(expires, false)
  }

  /**
   * Records the lifecycle fields on the new branch `b` and creates its
   * database: a copy of the parent's, or for `schema-only` its schema with
   * every table emptied (sequences restarted). The database is left closed
   * to connections until the compute starts. `from`: the database to copy (a past state of the parent, platform-history.ts).
   */
  async materialise(project: Project, b: BranchRecord, parent: BranchRecord, body: CreateBody, from = parent.database): Promise<void> {
    if (typeof body.branch?.expires_at === 'string') b.expires_at = body.branch.expires_at
    if (body.annotation_value) b.annotations = { ...(body.annotation_value as Record<string, string>) }
    const rw = (body.endpoints ?? []).find((e) => e.type === 'read_write')
    if (rw && b.endpoint) {
      const { suspend_timeout_seconds, autoscaling_limit_min_cu, autoscaling_limit_max_cu } = rw
      Object.assign(b.endpoint, JSON.parse(JSON.stringify({ suspend_timeout_seconds, autoscaling_limit_min_cu, autoscaling_limit_max_cu })))
    }
    if (body.branch?.init_source !== 'schema-only') {
      await this.pg.createDatabase(b.database, project.role, { template: from, allowConnections: false })
      return
    }
    b.init_source = 'schema-only'
    delete b.parent_id
    await this.pg.createDatabase(b.database, project.role, { template: from })
    const tables = await this.pg.query<{ t: string }>(
      b.database,
      "SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
    )
    if (tables.length) await this.pg.query(b.database, `TRUNCATE ${tables.map((r) => r.t).join(', ')} RESTART IDENTITY CASCADE`)
    await this.pg.query('postgres', `ALTER DATABASE "${b.database}" ALLOW_CONNECTIONS false`)
  }

  private update(project: Project, b: BranchRecord, req: Request): Reply {
    const body = jsonObject(req)
    const branch = body?.branch as { name?: unknown; protected?: unknown; expires_at?: unknown } | undefined
    if (!branch || typeof branch !== 'object') return bad('request body must be {"branch": {...}}')
    if (branch.expires_at !== undefined && this.refuseExpiry.has(project.id))
      return bad('branch expiration (expires_at) is not available for this project')
    const refused = refuseExpiresAt(branch.expires_at, true)
    if (refused) return refused
    if (branch.name !== undefined && (typeof branch.name !== 'string' || branch.name.length < 1 || branch.name.length > 256))
      return bad('name must be 1 to 256 characters')
    if (typeof branch.name === 'string' && [...project.branches.values()].some((x) => x.name === branch.name && x.id !== b.id)) {
      return { status: 409, body: { code: '', message: `branch with name "${branch.name}" already exists` } }
    }
    if (typeof branch.name === 'string') b.name = branch.name
    if (typeof branch.protected === 'boolean') b.protected = branch.protected
    if (branch.expires_at === null) delete b.expires_at
    else if (typeof branch.expires_at === 'string') b.expires_at = branch.expires_at
    b.updated_at = iso(Date.now())
    return { status: 200, body: { branch: this.platform.branchView(project, b), operations: [] } }
  }

  private restore(project: Project, b: BranchRecord, req: Request): Reply {
    const body = jsonObject(req) as {
      source_branch_id?: unknown
      source_lsn?: unknown
      source_timestamp?: unknown
      preserve_under_name?: unknown
    } | null
    if (!body || typeof body.source_branch_id !== 'string') return bad('source_branch_id is required')
    const source = project.branches.get(body.source_branch_id)
    if (!source) return { status: 404, body: { code: '', message: 'source branch not found' } }
    if (body.source_lsn !== undefined || body.source_timestamp !== undefined)
      return bad('emulator: restoring to an LSN or timestamp is not emulated')
    if (source.id === b.id) return bad('source_timestamp or source_lsn is required when restoring a branch from its own history')
    if (body.preserve_under_name !== undefined) return bad('emulator: preserve_under_name is not emulated')
    // spec, Branch.restricted_actions: an anonymized branch lists restore, and the platform refuses it
    const restricted = (this.platform.branchView(project, b).restricted_actions as { name: string; reason: string }[] | undefined)?.find(
      (a) => a.name === 'restore'
    )
    if (restricted) return bad(`restore is restricted for branch ${b.id}: ${restricted.reason}`)
    const children = [...project.branches.values()].filter((x) => x.parent_id === b.id)
    if (children.length) return bad(`branch ${b.id} has children, preserve_under_name is required to restore it`)
    if (this.platform.busy(project)) return LOCKED
    const { createBranchMs, startComputeMs } = this.platform.timing
    const closed = this.pg
      .query('postgres', `ALTER DATABASE "${b.database}" ALLOW_CONNECTIONS false`)
      .then(() => this.pg.query('postgres', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [b.database]))
    closed.catch(() => undefined) // awaited by the operations below, which report a failure
    const ops = [
      this.platform.addOperation(
        project,
        b.id,
        'suspend_compute',
        [
          { at: 0, status: 'running' },
          { at: createBranchMs / 2, status: 'finished' }
        ],
        b.endpoint?.id,
        () => closed.then(() => undefined)
      ),
      this.platform.addOperation(project, b.id, 'create_timeline', [
        { at: 0, status: 'running' },
        { at: createBranchMs, status: 'finished' }
      ]),
      this.platform.addOperation(
        project,
        b.id,
        'start_compute',
        [
          { at: 0, status: 'scheduling' },
          { at: createBranchMs + startComputeMs, status: 'finished' }
        ],
        b.endpoint?.id,
        async () => {
          await closed
          await this.pg.dropDatabase(b.database)
          await this.pg.createDatabase(b.database, project.role, { template: source.database })
        }
      )
    ]
    b.last_reset_at = iso(Date.now())
    b.updated_at = b.last_reset_at
    return { status: 200, body: { branch: this.platform.branchView(project, b), operations: ops.map((op) => this.platform.opView(op)) } }
  }

  /** The platform's background job: deletes every branch whose `expires_at` has passed. */
  private async sweepExpired(): Promise<void> {
    const now = Date.now()
    for (const project of this.platform.projects.values()) {
      for (const b of [...project.branches.values()]) {
        if (!b.expires_at || Date.parse(b.expires_at) > now || b.default) continue
        project.branches.delete(b.id)
        await this.pg.dropDatabase(b.database).catch(() => undefined)
      }
    }
  }
}

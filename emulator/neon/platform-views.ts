/**
 * The platform emulator's answers as the platform's published OpenAPI spec
 * shapes them: the Branch, Endpoint and Database objects with every field the
 * spec requires, and List branches with its search, sort and cursor
 * pagination. Checked by the contract test (__tests__/contract/).
 */
import type { Reply, Request } from '../http-kit.js'
import { REGION } from '../instant/instant.js'
import type { BranchRecord, Project } from './platform-records.js'

/** The spec's Branch object: every required field but the usage counters, which `extra` brings (platform-usage.ts). */
export function branchView(project: Project, b: BranchRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { id, name, parent_id, parent_lsn, parent_timestamp, default: isDefault, protected: isProtected, created_at, updated_at } = b
  return {
    id,
    project_id: project.id,
    ...(parent_id ? { parent_id } : {}),
    ...(parent_lsn ? { parent_lsn } : {}),
    ...(parent_timestamp ? { parent_timestamp } : {}),
    name,
    current_state: 'ready',
    state_changed_at: created_at,
    creation_source: 'console',
    default: isDefault,
    protected: isProtected,
    created_at,
    updated_at,
    ...extra
  }
}

/** The spec's Endpoint object of a branch's read-write compute. */
export function endpointView(project: Project, b: BranchRecord): Record<string, unknown> {
  const e = b.endpoint!
  return {
    host: e.host,
    id: e.id,
    project_id: project.id,
    branch_id: b.id,
    region_id: `aws-${REGION}`,
    autoscaling_limit_min_cu: e.autoscaling_limit_min_cu ?? 0.25,
    autoscaling_limit_max_cu: e.autoscaling_limit_max_cu ?? 0.25,
    type: e.type,
    current_state: 'active',
    pooler_enabled: false,
    pooler_mode: 'transaction',
    disabled: false,
    passwordless_access: true,
    creation_source: 'console',
    created_at: b.created_at,
    updated_at: b.created_at,
    settings: {},
    proxy_host: `${REGION}.localhost`,
    suspend_timeout_seconds: e.suspend_timeout_seconds ?? 0,
    provisioner: 'k8s-neonvm'
  }
}

/** The spec's Database object of a branch's one database. */
export function databaseView(project: Project, b: BranchRecord): Record<string, unknown> {
  return { id: 1, branch_id: b.id, name: b.database, owner_name: project.role, created_at: b.created_at, updated_at: b.created_at }
}

/**
 * Spec, listProjectBranches: `search` (partial, case-insensitive, on name or
 * id), `sort_by` (name, created_at, updated_at; default updated_at),
 * `sort_order` (asc, desc; default desc), `limit`, and an opaque `cursor`
 * (`pagination.next` of the page before). Serves at most `branchPageSize` a page,
 * after `prepare` has run on the page's branches (the usage's measure, platform-usage.ts).
 */
export function listBranches(
  project: Project,
  req: Request,
  pageSize: number,
  view: (b: BranchRecord) => Record<string, unknown> = (b) => branchView(project, b),
  annotation: (b: BranchRecord) => unknown = () => undefined,
  prepare: (page: BranchRecord[]) => Promise<void> = async () => undefined
): Promise<Reply> | Reply {
  const q = req.query
  const search = (q.get('search') ?? '').toLowerCase()
  const sortBy = q.get('sort_by') ?? 'updated_at'
  const sortOrder = q.get('sort_order') ?? 'desc'
  if (!['name', 'created_at', 'updated_at'].includes(sortBy) || !['asc', 'desc'].includes(sortOrder)) {
    return { status: 400, body: { code: '', message: 'invalid sort_by or sort_order' } }
  }
  const limit = q.has('limit') ? Number(q.get('limit')) : 10000
  if (!Number.isInteger(limit) || limit < 1 || limit > 10000)
    return { status: 400, body: { code: '', message: 'limit must be an integer from 1 to 10000' } }
  let offset = 0
  const cursor = q.get('cursor')
  if (cursor) {
    const decoded = /^o(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (!decoded) return { status: 400, body: { code: '', message: 'invalid cursor' } }
    offset = Number(decoded[1])
  }
  const key = (b: BranchRecord): string => (sortBy === 'name' ? b.name : sortBy === 'created_at' ? b.created_at : b.updated_at)
  const all = [...project.branches.values()]
    .filter((b) => !search || b.name.toLowerCase().includes(search) || b.id.includes(search))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (sortOrder === 'asc' ? 1 : -1))
  const size = Math.min(limit, pageSize)
  const page = all.slice(offset, offset + size)
  const more = offset + size < all.length
  return prepare(page).then(() => ({
    status: 200,
    body: {
      branches: page.map(view),
      // AnnotationsMapResponse: each branch's AnnotationData by its id (branches without one are left out).
      annotations: Object.fromEntries(page.flatMap((b) => (annotation(b) === undefined ? [] : [[b.id, annotation(b)]]))),
      pagination: {
        ...(more ? { next: Buffer.from(`o${offset + size}`).toString('base64url') } : {}),
        sort_by: sortBy,
        sort_order: sortOrder
      }
    }
  }))
}

/**
 * The one client of the Neon API v2 (Neon operations guide for operations and
 * authentication; Neon API spec, `public-v2-for-users.gen.yaml` in
 * `@neondatabase/api-client`, checked by `npm run contract`, for the rest).
 * Each method is one endpoint; how a request is sent (the key, the timeout,
 * the sweep's pace, errors in words) is project-api.ts's. Requests that
 * start work are not retried here: callers wrap them in
 * {@link retryLocked} for 423 and never resend them after an unclear failure.
 */
import { HttpError } from '../http.js'
import { NeonProjectApi, nullOn404 } from './project-api.js'
import type { Operation } from './operations.js'
import type { MaskingRule } from './masking-rules.js'
import {
  type CreateBranchExtras,
  type AnonymizedStatus,
  type Branch,
  type BranchDatabase,
  type BranchOperations,
  type BranchRestore,
  type BranchUpdate,
  type CreatedBranch,
  type Endpoint,
  branchOf,
  createdBranchOf,
  need,
  operationsOf
} from './shapes.js'

export type { Branch, BranchDatabase, ConnectionUri, CreatedBranch, Endpoint } from './shapes.js'
export { PlatformResponseError } from './shapes.js'

/** Branches asked for per page of List branches (the spec allows 1 to 10000). */
const BRANCH_PAGE_LIMIT = 100
/** Pages of List branches read before giving up on a lookup. */
const MAX_BRANCH_PAGES = 200

/** The one client of the Neon API a run uses: built once ({@link neonClientOf}) and passed down. */
export class NeonClient extends NeonProjectApi {
  /**
   * One page of `GET /projects/{project_id}/branches?search&sort_by&sort_order&limit&cursor`
   * (platform spec, listProjectBranches: cursor pagination; send `pagination.next`
   * back as `cursor`). Sorted by `created_at` ascending, so pages stay stable while
   * branches are renamed (the default order is `updated_at`).
   * @returns the page's branches and the cursor of the next page, if the response gave one.
   */
  async listBranchesPage(
    options: { search?: string; cursor?: string; limit?: number } = {}
  ): Promise<{ branches: Branch[]; annotations: Map<string, Record<string, unknown>>; next?: string }> {
    const label = options.search ? `List branches matching "${options.search}"` : 'List branches'
    const q = new URLSearchParams({
      ...(options.search ? { search: options.search } : {}),
      sort_by: 'created_at',
      sort_order: 'asc',
      limit: String(options.limit ?? BRANCH_PAGE_LIMIT),
      ...(options.cursor ? { cursor: options.cursor } : {})
    })
    const body = await this.callJson(label, 'GET', `/branches?${q}`)
    const branches = need<unknown[]>(body.branches, '`branches` array', label, Array.isArray).map((b) => branchOf(b, label))
    const pagination = body.pagination as { next?: unknown } | undefined
    return {
      branches,
      annotations: annotationValues(body.annotations),
      next: typeof pagination?.next === 'string' && pagination.next ? pagination.next : undefined
    }
  }

  /**
   * The first branch that `match` accepts, following `pagination.next` page
   * by page (at most {@link MAX_BRANCH_PAGES} pages; stops on an empty page
   * or a cursor that repeats). `search` narrows the list on the server
   * (platform spec: partial match on name or id), so `match` must still
   * compare exactly.
   */
  async findBranch(match: (b: Branch) => boolean, search?: string): Promise<Branch | null> {
    let cursor: string | undefined
    const seen = new Set<string>()
    for (let page = 0; page < MAX_BRANCH_PAGES; page++) {
      const res = await this.listBranchesPage({ search, cursor })
      const found = res.branches.find(match)
      if (found) return found
      if (!res.next || res.branches.length === 0 || seen.has(res.next)) return null
      seen.add(res.next)
      cursor = res.next
    }
    return null
  }

  /**
   * Every branch of the project, following `pagination.next` (at most
   * {@link MAX_BRANCH_PAGES} pages; stops on an empty page or a cursor that
   * repeats). For `command: cleanup` and `reset`, which look at all of them.
   * @param annotations filled with each branch's annotation values the list
   *   answered (platform spec, AnnotationsMapResponse: keyed by branch id)
   * @param search only the branches whose name or id contains it (platform spec: partial match)
   */
  async listBranches(annotations?: Map<string, Record<string, unknown>>, search?: string): Promise<Branch[]> {
    const all: Branch[] = []
    let cursor: string | undefined
    const seen = new Set<string>()
    for (let page = 0; page < MAX_BRANCH_PAGES; page++) {
      const res = await this.listBranchesPage({ search, cursor })
      all.push(...res.branches)
      for (const [id, value] of res.annotations) annotations?.set(id, value)
      if (!res.next || res.branches.length === 0 || seen.has(res.next)) break
      seen.add(res.next)
      cursor = res.next
    }
    return all
  }

  /** `GET /projects/{project_id}/branches/{branch_id}` (platform spec, getProjectBranch); null on 404. */
  async getBranch(branchId: string): Promise<Branch | null> {
    const label = `Get branch ${branchId}`
    const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}`))
    return body && branchOf(body.branch, label)
  }

  /** The branch named exactly `name`, looked up with `search=<name>` and the cursor; null when there is none. */
  findBranchByName(name: string): Promise<Branch | null> {
    return this.findBranch((b) => b.name === name, name)
  }

  /**
   * `POST /projects/{project_id}/branches` with
   * `{endpoints: [{type: "read_write"}], branch: {parent_id, name}}` (Neon operations guide
   * plus the spec's `name` field) and the `extras` of branch-create-extras.ts
   * (expiry, annotations, init source, endpoint settings). Retried on HTTP 503 only (platform spec:
   * a 503 "is always safe to retry"; a duplicate create answers 409, so the
   * name makes it idempotent); never resent after a timeout or a reset, whose
   * outcome the caller finds out by looking the name up. Wrap in retryLocked for 423.
   * @throws HttpError (409 when the name exists, 423 when locked).
   */
  async createBranch(parentId: string, name: string, extras: CreateBranchExtras = {}): Promise<CreatedBranch> {
    const label = `Create branch "${name}"`
    const { endpoint, branch, ...top } = extras
    const body = await this.callJson(label, 'POST', '/branches', {
      body: { endpoints: [{ type: 'read_write', ...endpoint }], branch: { parent_id: parentId, name, ...branch }, ...top },
      idempotent: false,
      retryOn503: true
    })
    return createdBranchOf(body, label)
  }

  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: {name}}`
   * (platform spec, updateProjectBranch). Retried on 503. Wrap in retryLocked for 423.
   * @returns the renamed branch and the operations the update started (often none).
   * @throws HttpError (409 when another branch has the name).
   */
  async renameBranch(branchId: string, name: string): Promise<{ branch: Branch; operations: Operation[] }> {
    const label = `Rename branch ${branchId} to "${name}"`
    const body = await this.callJson(label, 'PATCH', `/branches/${encodeURIComponent(branchId)}`, {
      body: { branch: { name } },
      idempotent: false,
      retryOn503: true
    })
    return { branch: branchOf(body.branch, label), operations: operationsOf(body.operations, label) }
  }

  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}`.
   * @returns the operations the delete started; null when the branch was
   *   already gone: HTTP 204 with an empty body (platform spec: "Returned if
   *   the branch doesn't exist or has already been deleted"), or 404.
   * Retried on 5xx and network errors like a GET: DELETE is idempotent, and a
   * retry after a lost answer meets 204. Wrap in retryLocked for 423.
   */
  async deleteBranch(branchId: string): Promise<Operation[] | null> {
    const label = `Delete branch ${branchId}`
    try {
      const body = await this.call(label, 'DELETE', `/branches/${encodeURIComponent(branchId)}`, {
        idempotent: true,
        emptyBodyStatuses: [204]
      })
      return body === null ? null : operationsOf(body.operations, label)
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return null
      throw err
    }
  }

  /** `GET /projects/{project_id}/branches/{branch_id}/endpoints`. */
  async listEndpoints(branchId: string): Promise<Endpoint[]> {
    const label = `List endpoints of branch ${branchId}`
    const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/endpoints`)
    return need<Endpoint[]>(body.endpoints, '`endpoints` array', label, Array.isArray)
  }

  /** `GET /projects/{project_id}/branches/{branch_id}/databases`. */
  async listDatabases(branchId: string): Promise<BranchDatabase[]> {
    const label = `List databases of branch ${branchId}`
    const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/databases`)
    return need<BranchDatabase[]>(body.databases, '`databases` array', label, Array.isArray)
  }

  /**
   * `GET /projects/{project_id}/branches/{branch_id}/compare_schema?base_branch_id&db_name`
   * (platform spec, getProjectBranchSchemaComparison): the difference between
   * the base branch's schema and this branch's, as text (`diff`, '' when equal).
   */
  async compareSchema(branchId: string, baseBranchId: string, database: string): Promise<string> {
    const label = `Compare the schema of branch ${branchId} with ${baseBranchId}`
    const q = new URLSearchParams({ base_branch_id: baseBranchId, db_name: database })
    const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/compare_schema?${q}`)
    return need<string>(body.diff ?? '', '`diff`', label, (v) => typeof v === 'string')
  }

  /** `GET /projects/{project_id}/connection_uri?branch_id&database_name&role_name&pooled`. A secret: mask it. */
  async connectionUri(branchId: string, database: string, role: string, pooled: boolean): Promise<string> {
    const label = `Get ${pooled ? 'pooled' : 'direct'} connection URI of branch ${branchId}`
    const q = new URLSearchParams({ branch_id: branchId, database_name: database, role_name: role, pooled: String(pooled) })
    const body = await this.callJson(label, 'GET', `/connection_uri?${q}`)
    return need<string>(body.uri, '`uri`', label, (v) => typeof v === 'string' && /^postgres(ql)?:\/\//.test(v))
  }

  /** `GET /projects/{project_id}/operations/{operation_id}` (Neon operations guide). Not retried here: the poll loop polls again. */
  async getOperation(operationId: string): Promise<Operation> {
    const label = `Get operation ${operationId}`
    const body = await this.callJson(label, 'GET', `/operations/${encodeURIComponent(operationId)}`, { idempotent: false })
    return operationsOf([body.operation], label)[0]
  }

  /**
   * `GET /projects/{project_id}/operations?limit&cursor` (Neon operations guide): newest
   * first; send the returned `pagination.cursor` with `limit` for the next page.
   */
  async listOperations(limit: number, cursor?: string): Promise<{ operations: Operation[]; cursor?: string }> {
    const label = 'List operations'
    const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) })
    const body = await this.callJson(label, 'GET', `/operations?${q}`)
    const pagination = body.pagination as { cursor?: unknown } | undefined
    return {
      operations: operationsOf(body.operations, label),
      cursor: typeof pagination?.cursor === 'string' ? pagination.cursor : undefined
    }
  }

  /**
   * Operations on `branchId` that are not terminal, from the newest pages of
   * the project's operations, stopping at operations older than `since` (ISO
   * 8601) or after `maxPages` pages of `limit`.
   */
  async pendingOperationsOf(branchId: string, since: string, limit = 50, maxPages = 5): Promise<Operation[]> {
    const out: Operation[] = []
    let cursor: string | undefined
    const floor = Date.parse(since) - 1000
    for (let page = 0; page < maxPages; page++) {
      const res = await this.listOperations(limit, cursor)
      for (const op of res.operations) {
        if (op.branch_id === branchId && !['finished', 'skipped', 'cancelled', 'error'].includes(op.status)) out.push(op)
      }
      const oldest = res.operations.at(-1)
      if (!res.cursor || res.operations.length < limit || (oldest && Date.parse(oldest.created_at) < floor)) break
      cursor = res.cursor
    }
    return out
  }

  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: update}`
   * (platform spec, updateProjectBranch: 200 BranchOperations). Not retried
   * blindly; wrap in retryLocked for 423.
   */
  async updateBranch(branchId: string, update: BranchUpdate): Promise<BranchOperations> {
    const label = `Update branch ${branchId}`
    const body = await this.callJson(label, 'PATCH', `/branches/${encodeURIComponent(branchId)}`, {
      body: { branch: update },
      idempotent: false
    })
    return { branch: branchOf(body.branch, label), operations: operationsOf(body.operations, label) }
  }

  /**
   * `POST /projects/{project_id}/branches/{branch_id}/restore` (platform spec,
   * restoreProjectBranch: 200 BranchOperations). Sent once; wrap in retryLocked for 423.
   */
  async restoreBranch(branchId: string, request: BranchRestore): Promise<BranchOperations> {
    const label = `Restore branch ${branchId}`
    const body = await this.callJson(label, 'POST', `/branches/${encodeURIComponent(branchId)}/restore`, {
      body: request,
      idempotent: false
    })
    return { branch: branchOf(body.branch, label), operations: operationsOf(body.operations, label) }
  }

  /**
   * `GET /projects/{project_id}/branches/{branch_id}` with its annotation
   * (platform spec: BranchResponse + AnnotationResponse, `annotation.value`
   * a string map). Null on 404.
   */
  async branchWithAnnotations(branchId: string): Promise<{ branch: Branch; annotations: Record<string, unknown> } | null> {
    const label = `Get branch ${branchId}`
    const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}`))
    if (!body) return null
    const value = (body.annotation as { value?: unknown } | undefined)?.value
    return {
      branch: branchOf(body.branch, label),
      annotations: value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
    }
  }

  /**
   * `POST /projects/{project_id}/branch_anonymized` with a read-write
   * endpoint, the `extras` of branch-create-extras.ts, the rules, and
   * `start_anonymization: true`. Retried on 503 only, like create branch
   * (the name makes a duplicate answer 409). Wrap in retryLocked for 423.
   * @throws HttpError (409 when the name exists, 423 when locked), PlatformResponseError.
   */
  async createAnonymizedBranch(
    parentId: string,
    name: string,
    rules: MaskingRule[],
    extras: CreateBranchExtras = {}
  ): Promise<CreatedBranch> {
    const label = `Create anonymized branch "${name}"`
    const { endpoint, branch, annotation_value } = extras
    const body = await this.callJson(label, 'POST', '/branch_anonymized', {
      body: {
        branch_create: { endpoints: [{ type: 'read_write', ...endpoint }], branch: { parent_id: parentId, name, ...branch } },
        masking_rules: rules,
        start_anonymization: true,
        ...(annotation_value ? { annotation_value } : {})
      },
      idempotent: false,
      retryOn503: true
    })
    return createdBranchOf(body, label)
  }

  /** `GET …/branches/{branch_id}/anonymized_status`; null on 404 (not an anonymized branch, or gone). */
  async anonymizedStatus(branchId: string): Promise<AnonymizedStatus | null> {
    const label = `Get the anonymization status of branch ${branchId}`
    const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/anonymized_status`))
    return body && need<AnonymizedStatus>(body, '`state`', label, () => typeof body.state === 'string')
  }

  /** `GET …/branches/{branch_id}/masking_rules`; null on 404. */
  async maskingRules(branchId: string): Promise<MaskingRule[] | null> {
    const label = `Get the masking rules of branch ${branchId}`
    const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/masking_rules`))
    return body && need<MaskingRule[]>(body.masking_rules, '`masking_rules`', label, Array.isArray)
  }
}

/** The client of the settings' project (timeout in seconds from `request-timeout`). */
export function neonClientOf(s: { apiUrl: string; apiKey: string; requestTimeoutSeconds: number; projectId: string }): NeonClient {
  return new NeonClient(s.apiUrl, s.apiKey, s.requestTimeoutSeconds * 1000, s.projectId)
}

/** The annotation values of a list's AnnotationsMapResponse (`{<branch id>: {value: {…}}}`), by branch id; empty when absent. */
function annotationValues(map: unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>()
  if (!map || typeof map !== 'object') return out
  for (const [id, data] of Object.entries(map)) {
    const value = (data as { value?: unknown } | null)?.value
    if (value && typeof value === 'object') out.set(id, value as Record<string, unknown>)
  }
  return out
}

/**
 * The shapes of the Neon API's answers that the action reads (Neon API spec,
 * `public-v2-for-users.gen.yaml` in `@neondatabase/api-client`), and the
 * checks that turn a response body into them. A body that lacks a required
 * part is a {@link PlatformResponseError}, which never quotes the body (it
 * may hold a password).
 */
import type { Operation } from './operations.js'

export interface Branch {
  id: string
  project_id: string
  parent_id?: string
  name: string
  default?: boolean
  protected?: boolean
  created_at: string
  /** Platform spec, Branch: when the branch was last updated (a reuse with `expires-in` updates it). */
  updated_at?: string
  /** Platform spec, Branch: RFC 3339 time at which the platform's background job deletes the branch. */
  expires_at?: string
  /** Platform spec, Branch: `schema-only` or `parent-data`. */
  init_source?: string
  /** Platform spec, BranchState: `init`, `resetting`, `ready`, or `archived` (Neon unarchives it on the next access). */
  current_state?: string
  /** Platform spec, Branch: actions restricted on this branch and why (an anonymized branch restricts `restore`). */
  restricted_actions?: { name: string; reason: string }[]
  /**
   * Platform spec, Branch: what the branch has used (int64 each; seconds and bytes). Read only through
   * platform/usage.ts, which drops what is absent or not a count (an older API answer).
   */
  compute_time_seconds?: unknown
  active_time_seconds?: unknown
  cpu_used_sec?: unknown
  written_data_bytes?: unknown
  data_transfer_bytes?: unknown
  /** Platform spec, Branch: "the logical size of the branch, in bytes". */
  logical_size?: unknown
}

export interface Endpoint {
  id: string
  branch_id: string
  host: string
  type: string
}

export interface BranchDatabase {
  name: string
  owner_name: string
}

/** One entry of `connection_uris` in a create-branch response (platform v2). */
export interface ConnectionUri {
  connection_uri: string
  connection_parameters: { database: string; role: string; password?: string; host: string; pooler_host?: string }
}

/** A create-branch response: the operations guide's `operations` plus the v2 fields we use. */
export interface CreatedBranch {
  branch: Branch
  endpoints: Endpoint[]
  operations: Operation[]
  connection_uris: ConnectionUri[]
}

/** A response whose shape is not what the API documents. Never quotes the body (it may hold a password). */
export class PlatformResponseError extends Error {}

export function need<T>(value: unknown, what: string, label: string, check: (v: unknown) => boolean): T {
  if (!check(value)) throw new PlatformResponseError(`${label}: Neon's response has no valid ${what}.`)
  return value as T
}
export const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): boolean => typeof v === 'string' && v !== ''

export function branchOf(v: unknown, label: string): Branch {
  const b = need<Record<string, unknown>>(v, '`branch`', label, isObject)
  need(b.id, '`branch.id`', label, isString)
  need(b.name, '`branch.name`', label, isString)
  return b as unknown as Branch
}

export function operationsOf(v: unknown, label: string): Operation[] {
  const ops = need<unknown[]>(v ?? [], '`operations` array', label, Array.isArray)
  for (const op of ops) {
    const o = need<Record<string, unknown>>(op, 'operation', label, isObject)
    need(o.id, '`operations[].id`', label, isString)
    need(o.status, '`operations[].status`', label, isString)
    need(o.action, '`operations[].action`', label, isString)
  }
  return ops as Operation[]
}

/**
 * A create-branch answer (platform spec, CreatedBranch: `branch`, `endpoints`,
 * `operations`, `connection_uris`), checked. Shared by create branch and create anonymized branch.
 * @throws PlatformResponseError when a required part is missing.
 */
export function createdBranchOf(body: Record<string, unknown>, label: string): CreatedBranch {
  return {
    branch: branchOf(body.branch, label),
    endpoints: need<Endpoint[]>(body.endpoints ?? [], '`endpoints` array', label, Array.isArray),
    operations: operationsOf(body.operations, label),
    connection_uris: need<ConnectionUri[]>(body.connection_uris ?? [], '`connection_uris` array', label, Array.isArray)
  }
}

/** Platform spec, BranchUpdateRequest.branch. `expires_at: null` removes the expiry. */
export interface BranchUpdate {
  name?: string
  protected?: boolean
  expires_at?: string | null
}

/** Platform spec, BranchRestoreRequest. */
export interface BranchRestore {
  source_branch_id: string
  source_lsn?: string
  source_timestamp?: string
  preserve_under_name?: string
}

/** A branch with its operations (platform spec, BranchOperations). */
export interface BranchOperations {
  branch: Branch
  operations: Operation[]
}

/** Platform spec, AnonymizedBranchStatusResponse (the fields the action reads). */
export interface AnonymizedStatus {
  state: string
  status_message?: string
  failed_at?: string
  last_run?: { masked_columns?: number }
}

/**
 * The optional parts of a create-branch request that platform/branch-create-extras.ts adds (Neon API spec:
 * BranchCreateRequest.branch fields, BranchCreateRequestEndpointOptions, AnnotationValueData).
 */
export interface CreateBranchExtras {
  branch?: { expires_at?: string; init_source?: 'schema-only'; parent_lsn?: string; parent_timestamp?: string }
  endpoint?: { suspend_timeout_seconds?: number; autoscaling_limit_min_cu?: number; autoscaling_limit_max_cu?: number }
  annotation_value?: Record<string, string>
}

/** The Neon docs on anonymized branches, linked from the comment and the errors. */
export const ANONYMIZATION_DOCS = 'https://neon.com/docs/workflows/data-anonymization'

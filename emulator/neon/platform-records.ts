/**
 * What the platform emulator keeps and its parts share: the records of
 * projects, branches and operations, and the service's core that the
 * lifecycle (platform-lifecycle.ts) and anonymized-branch
 * (platform-anonymized.ts) parts build on. A module of its own so that those
 * parts and platform.ts do not import each other.
 */
import { randomBytes } from 'node:crypto'
import type { Reply, Request, ServiceServer } from '../http-kit.js'

/** The platform's timestamps: RFC 3339 in whole seconds (`2025-06-09T18:02:16Z`), from milliseconds since the epoch. */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
/** `n` random bytes as hex, for ids and names. */
export const hex = (n: number): string => randomBytes(n).toString('hex')

export type Status = 'scheduling' | 'running' | 'finished' | 'failed' | 'error' | 'cancelling' | 'cancelled' | 'skipped'
/** Statuses after which an operation no longer changes (platform spec, OperationStatus). */
export const TERMINAL: readonly Status[] = ['finished', 'skipped', 'cancelled', 'error']

/** One step of an operation's life: at `at` ms after creation it has `status` (and, in `error`, the `error` text). */
export interface Step {
  at: number
  status: Status
  failures?: number
  error?: string
}

export interface OperationRecord {
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
  /**
   * Moves the scripted terminal step to now (its side effect runs at once), for a test that ends the operation
   * on an event (the action has seen a state) rather than at a time; nothing when it has no terminal step or
   * has reached it. Set by the platform for every operation.
   */
  endNow?: () => void
}

/** Lifecycle fields of a branch record. */
export interface BranchLifecycle {
  expires_at?: string
  init_source?: 'schema-only' | 'parent-data'
  annotations?: Record<string, string>
  updated_at?: string
  last_reset_at?: string
}

/** Settings of an endpoint the emulator records and shows. */
export interface EndpointSettings {
  suspend_timeout_seconds?: number
  autoscaling_limit_min_cu?: number
  autoscaling_limit_max_cu?: number
}

export interface BranchRecord extends BranchLifecycle {
  id: string
  name: string
  parent_id?: string
  default: boolean
  protected: boolean
  created_at: string
  updated_at: string
  /** The PostgreSQL database behind the branch. */
  database: string
  /** Spec, Branch: the parent's LSN and time the branch was created from (set when the create named a point). */
  parent_lsn?: string
  parent_timestamp?: string
  endpoint?: { id: string; host: string; type: 'read_write'; suspended?: boolean } & EndpointSettings
  /** Archived by Neon (platform.ts, unarchive): shown as `current_state: archived` until a request unarchives it. */
  archived?: boolean
}

export interface Project {
  id: string
  apiKey: string
  role: string
  password: string
  branches: Map<string, BranchRecord>
  operations: OperationRecord[]
}

/** A create-branch request body (platform spec, BranchCreateRequest, with `annotation_value`). */
export type CreateBranchBody = {
  branch?: {
    parent_id?: string
    name?: string
    expires_at?: unknown
    init_source?: unknown
    parent_lsn?: string
    parent_timestamp?: string
  }
  endpoints?: { type?: string }[]
  annotation_value?: unknown
}

/** Durations of the emulated operations, in milliseconds. */
export interface Timing {
  createBranchMs: number
  startComputeMs: number
  deleteMs: number
}

/**
 * The 423 answer (Neon operations guide: "retry later"; the body is the
 * spec's GeneralError, completed with `request_id` by the server).
 */
export const LOCKED: Reply = {
  status: 423,
  body: { code: '', message: 'project already has running conflicting operations, scheduling of some are not possible' }
}

/** The platform service as its lifecycle and anonymized-branch parts use it (implemented by PlatformService). */
export interface PlatformCore {
  readonly server: ServiceServer
  readonly projects: Map<string, Project>
  timing: Timing
  withProject(req: Request, pid: string, f: (project: Project) => Reply | Promise<Reply>): Reply | Promise<Reply>
  withBranch(
    req: Request,
    pid: string,
    bid: string,
    f: (project: Project, b: BranchRecord) => Reply | Promise<Reply>
  ): Reply | Promise<Reply>
  branchView(project: Project, b: BranchRecord): Record<string, unknown>
  busy(project: Project): boolean
  addOperation(
    project: Project,
    branchId: string,
    action: string,
    steps: Step[],
    endpointId?: string,
    onFinish?: () => Promise<void>
  ): OperationRecord
  opView(op: OperationRecord): Record<string, unknown>
  operations(project: Project): (Record<string, unknown> & { endedAt?: number })[]
  createBranchFrom(project: Project, body: CreateBranchBody): Promise<Reply>
}

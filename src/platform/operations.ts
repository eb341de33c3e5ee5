/**
 * Platform operations (Neon operations guide, and the platform's OpenAPI spec where the
 * seed is silent): their shape, their display names, and waiting until the
 * operations a request started are terminal.
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import { pollSchedule, sleepNext } from './poll-schedule.js'
import { learnedDurations } from './project-pace.js'

/**
 * Status values of an operation: the Neon operations guide's seven plus `error`, which the
 * platform spec's `OperationStatus` enum adds.
 */
export type OperationStatus = 'scheduling' | 'running' | 'finished' | 'failed' | 'error' | 'cancelling' | 'cancelled' | 'skipped'

/**
 * The Operation object (Neon operations guide; platform spec `Operation`). Timestamps are
 * ISO 8601 UTC, second precision. The spec marks `branch_id` optional and
 * adds `error` (the error text) and `total_duration_ms` (milliseconds).
 */
export interface Operation {
  id: string
  project_id: string
  branch_id?: string
  endpoint_id?: string
  action: string
  status: OperationStatus
  /** The error that occurred (platform spec), set on an operation in `error`. */
  error?: string
  failures_count: number
  created_at: string
  updated_at: string
  /** Total duration in milliseconds (platform spec). */
  total_duration_ms?: number
}

/**
 * Terminal statuses that count as success. `cancelled` and `error` are
 * terminal failures; `failed` is NOT terminal (Neon operations guide: it can still be
 * retried). `error` is terminal because the spec lists it beside `failed`
 * (which is the retried state) and gives it the error text: nothing moves an
 * operation out of it, so waiting on it could only end at `wait-timeout`.
 */
const SUCCESS: readonly string[] = ['finished', 'skipped']
const FAILED_TERMINAL: readonly string[] = ['cancelled', 'error']

/** Display names of the Neon operations guide's table; other actions are shown in sentence case. */
const DISPLAY: Record<string, string> = {
  apply_config: 'Apply config',
  apply_storage_config: 'Apply storage config',
  check_availability: 'Check availability',
  create_branch: 'Create branch',
  // The Neon operations guide spells the display name so
  create_timeline: 'Create timelime',
  delete_tenant: 'Delete tenant',
  start_compute: 'Start compute',
  suspend_compute: 'Suspend compute',
  tenant_attach: 'Tenant attach',
  tenant_detach: 'Tenant detach',
  tenant_reattach: 'Tenant reattach',
  timeline_archive: 'Timeline archive',
  timeline_unarchive: 'Timeline unarchive'
}

/** "Create branch" for `create_branch`; unknown actions in sentence case. */
export function displayName(action: string): string {
  return DISPLAY[action] ?? action.charAt(0).toUpperCase() + action.slice(1).replace(/_/g, ' ')
}

/** An operation that ended `cancelled` or `error`, or operations still pending at `wait-timeout`. */
export class OperationError extends Error {
  constructor(
    message: string,
    readonly operations: Operation[]
  ) {
    super(message)
    this.name = 'OperationError'
  }
}

/** One finished operation for the report; `durationSeconds` from `created_at` to `updated_at`. */
export interface OperationSummary {
  name: string
  status: string
  durationSeconds: number
}

/** The report's row of an operation; the duration is `total_duration_ms` when given, else `updated_at` − `created_at`. */
export function summarise(op: Operation): OperationSummary {
  const seconds =
    typeof op.total_duration_ms === 'number' ? op.total_duration_ms / 1000 : (Date.parse(op.updated_at) - Date.parse(op.created_at)) / 1000
  return { name: displayName(op.action), status: op.status, durationSeconds: Number.isFinite(seconds) ? Math.max(0, seconds) : 0 }
}

/** "Create branch, Start compute": the display names of `ops`' actions, each once. */
function names(ops: Operation[]): string {
  return [...new Set(ops.map((op) => displayName(op.action)))].join(', ')
}

function table(ops: Operation[]): string {
  const rows = ops.map((op) => `  ${displayName(op.action).padEnd(20)} ${op.status.padEnd(11)} failures ${op.failures_count}  id ${op.id}`)
  return rows.join('\n')
}

/** A failure that a later poll may not meet: no answer, 5xx, or 429 after http.ts's own retries. */
export function transient(err: unknown): boolean {
  return err instanceof HttpError && (err.status === 0 || err.status >= 500 || err.status === 429)
}

export interface WaitOptions {
  /** The longest wait between polls, in seconds (`poll-interval`; the Neon operations guide recommends 5): see poll-schedule.ts. */
  pollIntervalSeconds: number
  /** Seconds before giving up. */
  waitTimeoutSeconds: number
  /** Fetches one operation (GET /projects/{project_id}/operations/{operation_id}). */
  get: (id: string) => Promise<Operation>
  /**
   * The project's newest operations, one page (GET /projects/{project_id}/operations?limit, newest
   * first): when given, a poll with two or more operations pending reads them all with this one
   * request, and reads with `get` only those the page does not hold.
   */
  list?: () => Promise<Operation[]>
  /** When the request that started the operations was sent (milliseconds since the epoch): the schedule counts from it; else from the call. */
  since?: number
}

/**
 * Waits until every operation in `operations` is terminal (Neon operations guide, Polling
 * rule), polling on a schedule (poll-schedule.ts) whose first poll comes a few hundred
 * milliseconds after the request that started them (`since`), or when the project's
 * operations of the same kinds have ended when the run has seen some finish
 * (project-pace.ts), and whose waits grow to `pollIntervalSeconds`. With two or more pending
 * and `list` given, a poll reads them all from one page of the project's newest operations (a
 * create's branch and compute start, which end about together: one request where reading
 * them by id took two). Else, and for those the page does not hold, it reads them one after
 * another, in the given order, and stops at the first not yet successful: one request a poll
 * while the first runs, the rest read as soon as it ended.
 * `finished` and `skipped` are success; `cancelled` and `error` fail as soon
 * as a poll reads them (the message quotes the operation's own `error` text;
 * an operation behind one still running is read once that one succeeded); `failed` is not
 * terminal, so it is waited on and its `failures_count` reported. 5xx,
 * resets and timeouts while polling are logged and polled again.
 * @returns the operations in their terminal state, in the given order.
 * @throws OperationError when one ends `cancelled` or `error`, or when
 *   `waitTimeoutSeconds` pass with some still pending (the message tables them).
 */
export async function waitForOperations(operations: Operation[], options: WaitOptions): Promise<Operation[]> {
  const latest = new Map(operations.map((op) => [op.id, op]))
  const deadline = Date.now() + options.waitTimeoutSeconds * 1000
  const pending = (): Operation[] =>
    [...latest.values()].filter((op) => !SUCCESS.includes(op.status) && !FAILED_TERMINAL.includes(op.status))
  const check = (): void => {
    const errored = [...latest.values()].filter((op) => op.status === 'error')
    if (errored.length) {
      const what = errored.map(
        (op) => `"${displayName(op.action)}" (${op.id}) ended in error: ${op.error ? `"${op.error}"` : 'Neon gave no error text'}`
      )
      throw new OperationError(
        `Neon's operation ${what.join('; ')}${errored[0].branch_id ? ` (branch ${errored[0].branch_id})` : ''}.`,
        errored
      )
    }
    const cancelled = [...latest.values()].filter((op) => op.status === 'cancelled')
    if (cancelled.length) {
      throw new OperationError(
        `Neon cancelled ${cancelled.map((op) => `"${displayName(op.action)}" (${op.id})`).join(', ')}${cancelled[0].branch_id ? ` on branch ${cancelled[0].branch_id}` : ''}.`,
        cancelled
      )
    }
  }
  /** Takes in `now`, the state of `op` just read, and warns when it turned `failed`. */
  const record = (op: Operation, now: Operation): Operation => {
    if (now.status === 'failed' && (op.status !== 'failed' || now.failures_count !== op.failures_count)) {
      core.warning(
        `Operation "${displayName(now.action)}" (${now.id}) is failed with ${now.failures_count} failure(s) so far; Neon retries it, still waiting.`
      )
    }
    latest.set(op.id, now)
    return now
  }
  /** Reads `op` again: the operation now, or undefined after a failure a later poll may not meet. */
  const poll = async (op: Operation): Promise<Operation | undefined> => {
    try {
      return record(op, await options.get(op.id))
    } catch (err) {
      if (!transient(err)) throw err
      core.info(`Polling "${displayName(op.action)}" failed for now (${(err as Error).message}); polling again.`)
      return undefined
    }
  }
  /** The newest page of the project's operations by id, when `list` is given and two or more are pending; undefined else or after a transient failure. */
  const listed = async (): Promise<Map<string, Operation> | undefined> => {
    if (!options.list || pending().length < 2) return undefined
    try {
      return new Map((await options.list()).map((op) => [op.id, op]))
    } catch (err) {
      if (!transient(err)) throw err
      core.info(`Listing the project's operations failed for now (${(err as Error).message}); reading them one by one.`)
      return undefined
    }
  }
  check()
  learnedDurations.learn([...latest.values()])
  const expectedMs = learnedDurations.expectedMs(pending().map((op) => op.action))
  const schedule = pollSchedule(options.pollIntervalSeconds, { since: options.since, expectedMs })
  if (expectedMs !== undefined && schedule.headStartMs() > 0)
    core.info(
      `Polling ${names(pending())} first in ${(schedule.headStartMs() / 1000).toFixed(1)} s: operations of these kinds took ${(expectedMs / 1000).toFixed(1)} s in this project.`
    )
  while (pending().length) {
    const left = deadline - Date.now()
    if (left <= 0) {
      throw new OperationError(
        `Timed out after ${options.waitTimeoutSeconds} s (wait-timeout) waiting for Neon's operations; still pending:\n${table(pending())}`,
        pending()
      )
    }
    await sleepNext(schedule, left)
    // One request a poll: the page of the newest operations when it holds them, or while the first
    // pending operation runs that one alone (the next is read only once the one before it succeeded).
    const page = await listed()
    for (const op of pending()) {
      const now = page?.get(op.id)
      if (now) record(op, now)
    }
    for (const op of pending()) {
      const now = page?.has(op.id) ? latest.get(op.id) : await poll(op)
      if (!now || !SUCCESS.includes(now.status)) break
    }
    check()
  }
  learnedDurations.learn([...latest.values()])
  return operations.map((op) => latest.get(op.id)!)
}

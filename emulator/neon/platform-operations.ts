/**
 * The platform emulator's operations: how an operation moves through its steps over time, how the API shows
 * it, and List operations.
 *
 * Operations move as the operations API document's table says (`create_branch` starts `running`,
 * `start_compute` `scheduling`, both end `finished`); their shape where that document says "not shown" is the
 * OpenAPI spec's Operation (`total_duration_ms`; `error` text when the status is `error`). List operations is
 * newest first, `limit` 1 to 100 (default 10), with `pagination.cursor` while more are left: our own choice
 * for the final page is no `pagination`.
 */
import { randomUUID } from 'node:crypto'
import type { Reply, Request } from '../http-kit.js'
import { TERMINAL, type OperationRecord, type Project, type Step, iso } from './platform-records.js'

/**
 * The step `op` is at `now` (milliseconds since the epoch). The work behind a finished operation (a database
 * dropped or opened) is done before it says so; a skipped one was not needed because its end state already
 * holds (a compute already running).
 */
export function currentStep(op: OperationRecord, now = Date.now()): Step {
  let step = op.steps[0]
  let previous = step
  for (const s of op.steps) {
    if (now - op.created >= s.at) {
      previous = step
      step = s
    }
  }
  return (step.status === 'finished' || step.status === 'skipped') && op.onFinish && !op.effectDone ? previous : step
}

/** An operation as the API shows it now (the spec's Operation). */
export function operationView(op: OperationRecord): Record<string, unknown> {
  const step = currentStep(op)
  const { id, project_id, branch_id, endpoint_id, action } = op
  return {
    id,
    project_id,
    branch_id,
    ...(endpoint_id ? { endpoint_id } : {}),
    action,
    status: step.status,
    ...(step.status === 'error' ? { error: step.error ?? 'operation failed' } : {}),
    failures_count: step.failures ?? 0,
    created_at: iso(op.created),
    // An operation whose work outlasted its scripted time (a slow database copy) was updated when it ended.
    updated_at: iso(op.created + Math.max(step.at, (op.endedAt ?? 0) - op.created)),
    total_duration_ms: Math.max(step.at, (op.endedAt ?? 0) - op.created)
  }
}

/** List operations of `project`: newest first, `limit` and `cursor` as the spec's listProjectOperations. */
export function listOperations(project: Project, req: Request): Reply {
  const limit = Math.max(1, Math.min(100, Number(req.query.get('limit') ?? 10)))
  const cursor = req.query.get('cursor')
  const before = cursor ? Date.parse(cursor) : Infinity
  const newestFirst = [...project.operations].sort((a, b) => b.created - a.created).filter((op) => op.created < before)
  const page = newestFirst.slice(0, limit)
  const more = newestFirst.length > limit
  return {
    status: 200,
    body: {
      operations: page.map((op) => operationView(op)),
      ...(more ? { pagination: { cursor: new Date(page.at(-1)!.created).toISOString() } } : {})
    }
  }
}

/** Starts operations and ends each at its terminal step's time, running its side effect first. */
export class OperationClock {
  private lastCreated = 0
  private readonly timers = new Set<NodeJS.Timeout>()

  /**
   * A new operation of `project`, created now (at least 1 ms after the previous one, so the order of
   * `created_at` is the order of creation), with `steps`; `onFinish` runs when it reaches `finished` or
   * `skipped`, and the operation ends once it has. `endNow` ends it at once with its terminal step.
   */
  add(
    project: Project,
    branchId: string,
    action: string,
    steps: Step[],
    endpointId?: string,
    onFinish?: () => Promise<void>
  ): OperationRecord {
    const created = Math.max(Date.now(), this.lastCreated + 1)
    this.lastCreated = created
    const op: OperationRecord = {
      id: randomUUID(),
      project_id: project.id,
      branch_id: branchId,
      endpoint_id: endpointId,
      action,
      created,
      steps,
      onFinish
    }
    project.operations.push(op)
    const end = op.steps.find((s) => TERMINAL.includes(s.status))
    if (end) {
      const reach = (): void => {
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
      }
      const t = setTimeout(() => {
        this.timers.delete(t)
        reach()
      }, end.at)
      this.timers.add(t)
      op.endNow = () => {
        if (!this.timers.delete(t)) return
        clearTimeout(t)
        const at = Date.now() - op.created
        op.steps = [...op.steps.filter((s) => s.at <= at && !TERMINAL.includes(s.status)), { ...end, at }]
        reach()
      }
    }
    return op
  }

  /** Clears every pending end (the emulator's close). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
  }
}

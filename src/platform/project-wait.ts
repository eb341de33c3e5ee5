/**
 * Waiting for a busy project. A request that starts work meets HTTP 423 while
 * the project runs conflicting operations (Neon operations guide, Errors), and Neon's
 * guidance is to "retry with exponential backoff or wait for the in-flight
 * operation to finish" (Neon API reference, Operations). When the first
 * attempt of the backoff (retry-423.ts) met 423, and again when the fifth
 * did, {@link ProjectWaiter} lists the project's running operations (`GET /projects/{project_id}/operations`,
 * newest first, cursor-paginated; platform spec, listProjectOperations), waits
 * until none is running, polling one page of the list on the schedule of
 * every operation wait (poll-schedule.ts: soon, then less often up to the poll
 * interval, with jitter), counted from the first attempt of the schedule (after
 * the first attempt, as if the four left had been spent: 1.5 s more), within
 * `wait-timeout`, and then lets the request be sent
 * again with a fresh schedule. After the first attempt, when nothing is
 * listed running (a system operation the list does not show yet, or one just
 * ended) or `wait-timeout` would pass first, the remaining attempts of the
 * backoff follow. After the fifth, when nothing is running and nothing ended
 * since the schedule began, the 423 has no operation to wait for and the
 * request gives up; an operation that ended since (just before the listing)
 * is a reason to send again, not to give up. While it waits, the run learns
 * the project's pace from what it lists (project-pace.ts): how long each kind
 * of operation takes, for its own create's first poll, and how long the
 * project stands idle between other runs' operations, from which its longest
 * wait follows, so that the runs waiting together poll about as often
 * whether two or forty wait.
 */
import * as core from '@actions/core'
import { isCancelled } from '../cancel.js'
import { HttpError, sleep } from '../http.js'
import { LIST_AFTER_ATTEMPT, LOCKED_RETRY, type LockedHandler, lockedWaitMs, setLockedHandler } from './retry-423.js'
import { type Operation, OperationError, displayName, transient } from './operations.js'
import { pollSchedule, sleepNext } from './poll-schedule.js'
import { HandoffGaps, learnedDurations, lowers, runsPolling, waitCeilingMs } from './project-pace.js'

/** What the waiter reads: the platform client's list and get operation requests. */
export interface OperationsReader {
  /** `GET /projects/{project_id}/operations?limit&cursor`: newest first; `cursor` for the next page. */
  listOperations(limit: number, cursor?: string): Promise<{ operations: Operation[]; cursor?: string }>
  /** `GET /projects/{project_id}/operations/{operation_id}`. */
  getOperation(id: string): Promise<Operation>
}

/** Statuses after which an operation no longer holds the project (`failed` is retried by the platform, so it still does). */
const ENDED: readonly string[] = ['finished', 'skipped', 'cancelled', 'error']
const running = (op: Operation): boolean => !ENDED.includes(op.status)

/** The waits of the 423 attempts an early wait skips, in milliseconds (without their jitter): 1,500. */
const SKIPPED_MS = Array.from({ length: LOCKED_RETRY.attempts - LIST_AFTER_ATTEMPT }, (_x, i) =>
  lockedWaitMs(LIST_AFTER_ATTEMPT + i, 0)
).reduce((a, b) => a + b, 0)

/** The run's own waits (the newest) that its mean wait is taken over when it sets its share of the polls. */
const WAITS_KEPT = 6

/** Operations per page of the list (the spec allows 1 to 1000). */
const PAGE = 50
/** Pages read when listing what runs: running operations older than these are not looked for. */
const MAX_PAGES = 4
/** Operations created longer ago than this (milliseconds) end the listing: the platform's own are short. */
const LIST_HORIZON_MS = 3600_000

/** "Create branch on branch br-… (running)". */
export function describeOperation(op: Operation): string {
  return `${displayName(op.action)} on branch ${op.branch_id ?? '(none)'} (${op.status}${op.status === 'failed' ? `, ${op.failures_count} failure(s)` : ''})`
}

/** The time a run spent waiting for a busy project, for the report. */
export interface ProjectWaitSummary {
  /** Seconds spent waiting for other operations to end. */
  seconds: number
  /** Operations waited on. */
  operations: number
}

export class ProjectWaiter implements LockedHandler {
  private waitedMs = 0
  private readonly waitedOn = new Set<string>()

  /**
   * @param options seconds: `poll-interval` (the longest wait between polls) and `wait-timeout` (which bounds all waits of one request)
   * @param random in [0, 1), for the schedule's jitter; `sleepMs` likewise injectable for tests
   */
  constructor(
    private readonly reader: OperationsReader,
    private readonly options: { pollIntervalSeconds: number; waitTimeoutSeconds: number },
    private readonly random: () => number = Math.random,
    private readonly sleepMs: (ms: number) => Promise<void> = sleep
  ) {}

  /** What this run waited for so far; undefined when it never waited. */
  summary(): ProjectWaitSummary | undefined {
    return this.waitedOn.size ? { seconds: this.waitedMs / 1000, operations: this.waitedOn.size } : undefined
  }

  /**
   * After the first (`early`) or the last 423 of a schedule: waits for the project's running operations to end.
   * @returns true to send the request again with a fresh schedule; false to go on with the schedule (`early`:
   *   nothing listed running, the listing failed, or `wait-timeout` passed while waiting) or else to give up
   *   (nothing runs, nothing ended since `scheduleStart`); false also when the main flow was cancelled and the
   *   caller is an undo step that must not wait.
   * @throws OperationError when, not `early`, `wait-timeout` (from `requestStart`) passes with operations still
   *   running (the message names them); CancelledError on a cancel while waiting.
   */
  async afterLocked(label: string, times: { requestStart: number; scheduleStart: number; early?: boolean }): Promise<boolean> {
    if (isCancelled()) return false
    const deadline = times.requestStart + this.options.waitTimeoutSeconds * 1000
    if (times.early && Date.now() >= deadline) return false
    let listed: Operation[]
    try {
      listed = await this.list()
    } catch (err) {
      if (!transient(err)) throw err
      if (times.early) return false
      core.info(`${label}: could not list the project's operations (${(err as Error).message}); sending again.`)
      return Date.now() < deadline
    }
    learnedDurations.learn(listed)
    const now = listed.filter(running)
    if (times.early) {
      if (!now.length) return false
      try {
        // Polls no sooner than the attempts left would have (0.1 + 0.2 + 0.4 + 0.8 s): a create holds the project a second or more.
        await this.waitUntilFree(label, now, deadline, times.scheduleStart - SKIPPED_MS)
      } catch (err) {
        if (err instanceof OperationError) return false
        throw err
      }
      return true
    }
    if (!now.length) {
      // Updated times have second precision: an operation that ended during the attempts shows an updated_at of at most 1 s before.
      const ended = listed.filter((op) => !running(op) && Date.parse(op.updated_at) >= times.scheduleStart - 1000)
      if (ended.length && Date.now() < deadline) {
        core.info(`${label}: no operation runs now, but ${ended.map(describeOperation).join(', ')} ended meanwhile; sending again.`)
        return true
      }
      return false
    }
    await this.waitUntilFree(label, now, deadline, times.scheduleStart)
    return true
  }

  /** The project's newest operations, page by page, until an older one than the horizon or {@link MAX_PAGES}. */
  private async list(): Promise<Operation[]> {
    const all: Operation[] = []
    const floor = Date.now() - LIST_HORIZON_MS
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await this.reader.listOperations(PAGE, cursor)
      all.push(...res.operations)
      const oldest = res.operations.at(-1)
      if (!res.cursor || res.operations.length < PAGE || (oldest && Date.parse(oldest.created_at) < floor)) break
      cursor = res.cursor
    }
    return all
  }

  /**
   * Polls until no operation runs in the project, on the schedule of every operation wait counted from
   * `since` (the first of the 423 attempts, or 1.5 s before it: see afterLocked).
   */
  private async waitUntilFree(label: string, first: Operation[], deadline: number, since: number): Promise<void> {
    const start = Date.now()
    const tracked = new Map(first.map((op) => [op.id, op]))
    const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 100) / 10)} s`
    core.info(
      `${label}: the project is busy (HTTP 423 on every attempt) with ${first.length} operation(s): ${first.map(describeOperation).join('; ')}. ` +
        `Waiting for the project to be free, polling soon and then at most every ${this.options.pollIntervalSeconds} s (poll-interval), at most ${seconds(deadline - start)} more (wait-timeout).`
    )
    for (const op of first) {
      this.waitedOn.add(op.id)
      sayIfFailed(label, op)
    }
    const schedule = pollSchedule(this.options.pollIntervalSeconds, { since, random: this.random })
    const gaps = new HandoffGaps(first)
    const waits: { from: number; ms: number }[] = []
    let said = this.options.pollIntervalSeconds * 1000
    try {
      for (;;) {
        const pending = [...tracked.values()].filter(running)
        if (!pending.length) break
        const left = deadline - Date.now()
        if (left <= 0) {
          throw new OperationError(
            `${label}: timed out after ${this.options.waitTimeoutSeconds} s (wait-timeout) waiting for the project to be free; ` +
              `still running: ${pending.map((op) => `${describeOperation(op)} id ${op.id}`).join('; ')}. Nothing was created by this request.`,
            pending
          )
        }
        const before = Date.now()
        await sleepNext(schedule, left, this.sleepMs)
        const page = await this.poll(label, tracked)
        waits.push({ from: before, ms: Date.now() - before })
        if (waits.length > WAITS_KEPT) waits.shift()
        if (!page) continue
        learnedDurations.learn(page)
        gaps.observe(page)
        // This run's share of the polls of every run waiting with it (project-pace.ts), over the time of its recent waits.
        const meanWait = waits.reduce((a, w) => a + w.ms, 0) / waits.length
        // Before three handoffs, only a crowd's short gap is read (to raise the longest wait, never to lower it).
        const gap = gaps.gapMs(waits[0].from) ?? gaps.crowdedGapMs(waits[0].from)
        const ceiling = waitCeilingMs(gap, meanWait, this.options.pollIntervalSeconds * 1000, schedule.longest())
        schedule.setLongest(ceiling)
        // Many runs poll with this one: no need for the first waits' pace either.
        if (gap !== undefined && !lowers(gap)) schedule.raiseTo(ceiling)
        if (gap !== undefined && Math.abs(ceiling - said) > said / 4) {
          said = ceiling
          const others = Math.max(0, Math.round(runsPolling(gap, meanWait)) - 1)
          core.info(
            `${label}: the project stood idle about ${seconds(gap)} between other runs' operations lately, so ${others > 50 ? 'many' : `about ${others}`} other run(s) seem to wait with this one; ` +
              `polling at most every ${seconds(ceiling)}.`
          )
        }
      }
    } finally {
      this.waitedMs += Date.now() - start
    }
    core.info(`${label}: the project is free after ${seconds(Date.now() - start)} of waiting; sending the request again.`)
  }

  /**
   * One poll: the newest page of the list, and each tracked running operation older than it.
   * @returns the operations read (the page and the older ones), or undefined when the listing failed for now
   */
  private async poll(label: string, tracked: Map<string, Operation>): Promise<Operation[] | undefined> {
    let page: Operation[]
    try {
      page = (await this.reader.listOperations(PAGE)).operations
    } catch (err) {
      if (!transient(err)) throw err
      core.info(`${label}: listing the project's operations failed for now (${(err as Error).message}); polling again.`)
      return undefined
    }
    const seen = new Set(page.map((op) => op.id))
    const older = [...tracked.values()].filter((op) => running(op) && !seen.has(op.id))
    for (const op of older) {
      try {
        page.push(await this.reader.getOperation(op.id))
      } catch (err) {
        // Gone from the project (404): it no longer holds it.
        if (err instanceof HttpError && err.status === 404) tracked.delete(op.id)
        else if (!transient(err)) throw err
      }
    }
    const added: Operation[] = []
    for (const now of page) {
      const before = tracked.get(now.id)
      if (!before && !running(now)) continue
      if (!before) added.push(now)
      sayIfFailed(label, now, before)
      tracked.set(now.id, now)
      this.waitedOn.add(now.id)
    }
    if (added.length) core.info(`${label}: waiting also for ${added.map(describeOperation).join('; ')}.`)
    return page
  }
}

/** Warns when `now` turned `failed` or `error` since `before` (or is so when first seen): someone else's operation, so the wait goes on. */
function sayIfFailed(label: string, now: Operation, before?: Operation): void {
  if (now.status !== 'failed' && now.status !== 'error') return
  if (before && now.status === before.status && now.failures_count === before.failures_count) return
  core.warning(
    `${label}: operation ${describeOperation(now)}, which this run waits on, ${now.status === 'error' ? `ended in error${now.error ? ` ("${now.error}")` : ''}` : 'failed; the platform retries it'}. ` +
      "It is not this run's operation: still waiting for the project to be free."
  )
}

let current: ProjectWaiter | undefined

/**
 * Makes `reader`'s project the one whose operations the run waits for after a
 * schedule of 423s (every request that starts work goes through retry-423.ts).
 * @returns the waiter, whose {@link ProjectWaiter.summary} the report shows.
 */
export function waitForBusyProject(
  reader: OperationsReader,
  options: { pollIntervalSeconds: number; waitTimeoutSeconds: number }
): ProjectWaiter {
  current = new ProjectWaiter(reader, options)
  setLockedHandler(current)
  return current
}

/** What the run waited for a busy project, if it did. */
export function projectWaitSummary(): ProjectWaitSummary | undefined {
  return current?.summary()
}

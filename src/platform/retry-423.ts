/**
 * HTTP 423 Locked handling (Neon operations guide, Errors): a request that starts work
 * while the project is busy with conflicting operations is refused with 423;
 * resend the same request after a wait that starts at 0.1 s and doubles each
 * time, for at most five attempts in all, then give up. After the first 423
 * of a schedule the run's {@link LockedHandler} may instead wait for the
 * project's running operations (fewer attempts than five is within the rule):
 * another run's create holds the project for a second or more, and the
 * attempts at 0.1, 0.3, 0.7 and 1.5 s would only meet 423 again, twenty or forty
 * runs' at once drawing HTTP 429 from Neon's rate limit.
 */
import * as core from '@actions/core'
import { HttpError, sleep } from '../http.js'

/**
 * Attempts in all, first wait in milliseconds, and factor (Neon operations guide, Limits: 0.1 s / 2 / 5), and the
 * jitter: each wait is lengthened by up to this fraction of itself, at random (never shortened), so
 * runs that met the same 423 do not all send again at the same instant. The waits are so 100–125,
 * 200–250, 400–500 and 800–1000 ms.
 */
export const LOCKED_RETRY = { attempts: 5, firstWaitMs: 100, factor: 2, jitter: 0.25 } as const

/**
 * The 423 of a schedule after which the handler is first asked whether operations run (see
 * {@link LockedHandler}): the first. A lock that lasts a moment (an operation ending as the
 * first attempt arrived) so costs one listing, which finds nothing running, before the
 * attempts go on; a queue of runs on a busy project saves one create a waiting run (forty
 * runs at once: about 40 of some 700 requests, docs/benchmarks.md).
 */
export const LIST_AFTER_ATTEMPT = 1

/** The wait before attempt `attempt + 1`, in milliseconds; `random` in [0, 1). */
export function lockedWaitMs(attempt: number, random: number): number {
  const base = LOCKED_RETRY.firstWaitMs * LOCKED_RETRY.factor ** (attempt - 1)
  return Math.round(base * (1 + LOCKED_RETRY.jitter * random))
}

/** The project stayed locked through every attempt. */
export class ProjectBusyError extends Error {
  /** @param requestId the platform's `request_id` of the last 423, if it sent one */
  constructor(
    label: string,
    readonly attempts: number,
    readonly requestId?: string
  ) {
    super(
      `${label}: the project is busy with other operations (HTTP 423 Locked on all ${attempts} attempts, waiting 0.1 s doubling between them` +
        `${requestId ? `; last request_id ${requestId}` : ''}). ` +
        'Another run, or a system operation such as an availability check, is changing the project; re-run the job in a minute.'
    )
    this.name = 'ProjectBusyError'
  }
}

/**
 * What to do when a request met 423 on attempt {@link LIST_AFTER_ATTEMPT} of a schedule (`early`)
 * and on its last: platform/project-wait.ts lists the project's running operations and waits for them to end.
 */
export interface LockedHandler {
  /**
   * @param times milliseconds since the epoch: the request's first attempt and this schedule's first attempt;
   *   `early` when attempts of the schedule are left: then the handler waits only for operations it sees
   *   running, and returns false rather than fail at `wait-timeout`, and the remaining attempts follow
   * @returns true to send the request again with a fresh schedule; false to go on with the schedule, or after
   *   its last attempt to give up (ProjectBusyError)
   * @throws when the wait fails (`wait-timeout` after the last attempt, a cancel)
   */
  afterLocked(label: string, times: { requestStart: number; scheduleStart: number; early?: boolean }): Promise<boolean>
}

let handler: LockedHandler | undefined

/** Sets (or with undefined clears) the run's {@link LockedHandler}. */
export function setLockedHandler(h: LockedHandler | undefined): void {
  handler = h
}

/**
 * Sends `request` and resends it on HTTP 423 per that rule, with the
 * jitter of {@link LOCKED_RETRY}; after the first 423 (`early`) and the
 * fifth asks the run's {@link LockedHandler} (if any) whether to start a
 * fresh schedule after waiting for the project. Any other
 * outcome is returned or thrown as is. `sleepMs` and `random` are injectable for tests.
 * @throws ProjectBusyError after the fifth 423 when there is no handler or it gives up.
 */
export async function retryLocked<T>(
  label: string,
  request: () => Promise<T>,
  sleepMs: (ms: number) => Promise<void> = sleep,
  random: () => number = Math.random
): Promise<T> {
  const requestStart = Date.now()
  for (let scheduleStart = requestStart; ; scheduleStart = Date.now()) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request()
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 423) throw err
        if (attempt >= LOCKED_RETRY.attempts) {
          if (handler && (await handler.afterLocked(label, { requestStart, scheduleStart }))) break
          throw new ProjectBusyError(label, attempt, err.requestId)
        }
        if (attempt === LIST_AFTER_ATTEMPT && handler && (await handler.afterLocked(label, { requestStart, scheduleStart, early: true })))
          break
        const wait = lockedWaitMs(attempt, random())
        core.info(`${label}: HTTP 423 Locked (project busy), attempt ${attempt} of ${LOCKED_RETRY.attempts}; retrying in ${wait / 1000} s.`)
        await sleepMs(wait)
      }
    }
  }
}

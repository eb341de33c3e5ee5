/**
 * HTTP 423 Locked handling (Neon operations guide, Errors): a request that starts work
 * while the project is busy with conflicting operations is refused with 423;
 * resend the same request after a wait that starts at 0.1 s and doubles each
 * time, for at most five attempts in all, then give up.
 */
import * as core from '@actions/core'
import { HttpError, sleep } from '../http.js'

/** Attempts in all, first wait in milliseconds, and factor (Neon operations guide, Limits: 0.1 s / 2 / 5). */
export const LOCKED_RETRY = { attempts: 5, firstWaitMs: 100, factor: 2 } as const

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
 * Sends `request` and resends it on HTTP 423 per that rule; any other
 * outcome is returned or thrown as is. `sleepMs` is injectable for tests.
 * @throws ProjectBusyError after the fifth 423.
 */
export async function retryLocked<T>(label: string, request: () => Promise<T>, sleepMs: (ms: number) => Promise<void> = sleep): Promise<T> {
  let wait: number = LOCKED_RETRY.firstWaitMs
  for (let attempt = 1; ; attempt++) {
    try {
      return await request()
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 423) throw err
      if (attempt >= LOCKED_RETRY.attempts) throw new ProjectBusyError(label, attempt, err.requestId)
      core.info(`${label}: HTTP 423 Locked (project busy), attempt ${attempt} of ${LOCKED_RETRY.attempts}; retrying in ${wait / 1000} s.`)
      await sleepMs(wait)
      wait *= LOCKED_RETRY.factor
    }
  }
}

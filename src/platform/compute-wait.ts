/**
 * Waiting out Neon's limit on active computes of a project (20 on most
 * plans; "active endpoints limit exceeded"), which passes by itself as
 * computes suspend after `suspend-timeout`.
 */
import * as core from '@actions/core'
import { pollSchedule, sleepNext } from './poll-schedule.js'
import type { NeonLimitError } from './api-errors.js'

/** The first wait's ceiling before sending a refused create again, in milliseconds: a create is a costlier request than a poll. */
const FIRST_RETRY_MS = 1000

/**
 * At Neon's limit on active computes ("active endpoints limit exceeded"),
 * which passes as computes suspend: sends the create again on the schedule
 * of every operation wait (poll-schedule.ts), its first wait at most 1 s and
 * at least half that, the waits growing to the poll interval (at least 1 s),
 * until it is accepted or `wait-timeout` has passed.
 * Nothing was made while it is refused.
 * @throws the limit's error, saying how long it waited, at the timeout; any other error at once.
 */
export async function waitForComputeSlot<T>(
  first: NeonLimitError,
  create: () => Promise<T>,
  o: { pollIntervalSeconds: number; waitTimeoutSeconds: number }
): Promise<T> {
  const started = Date.now()
  const schedule = pollSchedule(Math.max(o.pollIntervalSeconds, 1), { firstMs: FIRST_RETRY_MS })
  core.info(
    `Neon's limit on active computes of the project is reached ("${first.serviceMessage ?? ''}"): waiting up to ${o.waitTimeoutSeconds} s (wait-timeout) for a compute to suspend.`
  )
  for (;;) {
    const left = started + o.waitTimeoutSeconds * 1000 - Date.now()
    if (left <= 0)
      throw first.withFigures(
        `Waited ${Math.round((Date.now() - started) / 1000)} s (\`wait-timeout\`) for a compute to suspend; none did.`
      )
    await sleepNext(schedule, left)
    try {
      const made = await create()
      core.info(`A compute slot came free after ${Math.round((Date.now() - started) / 1000)} s.`)
      return made
    } catch (err) {
      if ((err as Partial<NeonLimitError>).limit !== 'computes') throw err
    }
  }
}

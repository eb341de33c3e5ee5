/**
 * ProjectWaiter (src/platform/project-wait.ts) with retryLocked: after the
 * first 423 (and the fifth), wait for the project's running operations, then
 * send again.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { HttpError } from '../../src/http.js'
import { ProjectBusyError, retryLocked, setLockedHandler } from '../../src/platform/retry-423.js'
import { type Operation, OperationError } from '../../src/platform/operations.js'
import { ProjectWaiter } from '../../src/platform/project-wait.js'
import { POLL_SCHEDULE } from '../../src/platform/poll-schedule.js'

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const op = (id: string, status: Operation['status'], extra: Partial<Operation> = {}): Operation => ({
  id,
  project_id: 'p',
  branch_id: `br-${id}`,
  action: 'create_branch',
  status,
  failures_count: 0,
  created_at: iso(Date.now() - 2000),
  updated_at: iso(Date.now()),
  ...extra
})

/** A project whose operations a test scripts: `states[i]` is what the i-th listing shows (the last one repeats). */
function project(states: Operation[][]) {
  let listings = 0
  return {
    listings: () => listings,
    reader: {
      listOperations: async () => ({ operations: states[Math.min(listings++, states.length - 1)] }),
      getOperation: async (id: string): Promise<Operation> => {
        throw new Error(`unexpected get ${id}`)
      }
    }
  }
}

let out: string[]
beforeEach(() => {
  out = []
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk))
    return true
  })
})
afterEach(() => {
  jest.restoreAllMocks()
  setLockedHandler(undefined)
})

/** A request that meets 423 until `free()` says otherwise; counts its attempts. */
function request(free: () => boolean) {
  const r = {
    attempts: 0,
    send: async (): Promise<string> => {
      r.attempts++
      if (!free()) throw new HttpError('locked', 423)
      return 'made'
    }
  }
  return r
}

const noSleep = async (): Promise<void> => undefined
const options = { pollIntervalSeconds: 0.01, waitTimeoutSeconds: 5 }

describe('after a 423, wait for the project to be free', () => {
  it('lists the running operations after the first 423, names them, waits for them to end, and sends again with a fresh schedule', async () => {
    const p = project([[op('a', 'running')], [op('a', 'running')], [op('a', 'finished')]])
    const waiter = new ProjectWaiter(p.reader, options)
    setLockedHandler(waiter)
    const r = request(() => p.listings() >= 3)
    await expect(retryLocked('Create branch "x"', r.send, noSleep)).resolves.toBe('made')
    expect(r.attempts).toBe(2) // one 423 (not the rule's five: the rest would meet 423 too), then the first of a fresh schedule
    expect(out.join('')).toMatch(
      /the project is busy \(HTTP 423 on every attempt\) with 1 operation\(s\): Create branch on branch br-a \(running\)/
    )
    expect(out.join('')).toMatch(/the project is free after [\d.]+ s of waiting/)
    expect(waiter.summary()).toMatchObject({ operations: 1 })
  })

  it('goes on with the attempts when nothing runs after the first, and gives up after the fifth when nothing ended during them', async () => {
    const p = project([[op('old', 'finished', { updated_at: iso(Date.now() - 60_000) })]])
    setLockedHandler(new ProjectWaiter(p.reader, options))
    const r = request(() => false)
    await expect(retryLocked('Create branch "x"', r.send, noSleep)).rejects.toBeInstanceOf(ProjectBusyError)
    expect(r.attempts).toBe(5)
    expect(p.listings()).toBe(2)
  })

  it('sends again when the operation behind the 423s ended just before the listing (the race)', async () => {
    const p = project([[op('a', 'finished', { updated_at: iso(Date.now()) })]])
    setLockedHandler(new ProjectWaiter(p.reader, options))
    const r = request(() => r.attempts > 5)
    await expect(retryLocked('Create branch "x"', r.send, noSleep)).resolves.toBe('made')
    expect(out.join('')).toMatch(/no operation runs now, but Create branch on branch br-a \(finished\) ended meanwhile; sending again/)
  })

  it('goes on waiting, and says so, when an operation it waits on fails or ends in error; waits also for new ones', async () => {
    const p = project([
      [op('a', 'running'), op('b', 'running', { action: 'start_compute' })],
      [op('a', 'failed', { failures_count: 1 }), op('b', 'running', { action: 'start_compute' })],
      [op('c', 'running'), op('a', 'error', { error: 'boom' }), op('b', 'running', { action: 'start_compute' })],
      [op('c', 'running'), op('a', 'error', { error: 'boom' }), op('b', 'finished', { action: 'start_compute' })],
      [op('c', 'finished'), op('a', 'error', { error: 'boom' }), op('b', 'finished', { action: 'start_compute' })]
    ])
    const waiter = new ProjectWaiter(p.reader, options)
    setLockedHandler(waiter)
    const r = request(() => p.listings() >= 5)
    await expect(retryLocked('Create branch "x"', r.send, noSleep)).resolves.toBe('made')
    const log = out.join('')
    expect(log).toMatch(
      /::warning::.*Create branch on branch br-a \(failed, 1 failure\(s\)\), which this run waits on, failed; the platform retries it/
    )
    expect(log).toMatch(
      /::warning::.*br-a \(error\), which this run waits on, ended in error \("boom"\)\. It is not this run's operation: still waiting/
    )
    expect(log).toMatch(/waiting also for Create branch on branch br-c \(running\)/)
    expect(waiter.summary()).toMatchObject({ operations: 3 })
  })

  it('takes an operation gone from the project (404) for ended', async () => {
    const old = op('old', 'running', { created_at: iso(Date.now() - 7200_000) })
    const p = project([[old], []])
    const reader = {
      ...p.reader,
      getOperation: async (): Promise<Operation> => {
        throw new HttpError('gone', 404)
      }
    }
    setLockedHandler(new ProjectWaiter(reader, options))
    const r = request(() => p.listings() >= 2)
    await expect(retryLocked('Create branch "x"', r.send, noSleep)).resolves.toBe('made')
  })

  it('fails at wait-timeout naming the operations still running, after the five attempts and no fresh schedule', async () => {
    const p = project([[op('a', 'running', { action: 'start_compute' })]])
    setLockedHandler(new ProjectWaiter(p.reader, { pollIntervalSeconds: 0.02, waitTimeoutSeconds: 0.2 }))
    const r = request(() => false)
    const err = await retryLocked('Create branch "x"', r.send, noSleep).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OperationError)
    expect((err as Error).message).toMatch(
      /Create branch "x": timed out after 0.2 s \(wait-timeout\) waiting for the project to be free; still running: Start compute on branch br-a \(running\) id a\. Nothing was created/
    )
    expect(r.attempts).toBe(5)
  })

  it('polls on the schedule of every operation wait, counted from the skipped attempts, up to poll-interval', async () => {
    for (const random of [0, 0.5]) {
      const sleeps: number[] = []
      const q = project([[op('a', 'running')], [op('a', 'running')], [op('a', 'running')], [op('a', 'running')], [op('a', 'finished')]])
      const waiter = new ProjectWaiter(
        q.reader,
        { pollIntervalSeconds: 0.7, waitTimeoutSeconds: 60 },
        () => random,
        async (ms) => {
          sleeps.push(ms)
        }
      )
      setLockedHandler(waiter)
      const r = request(() => q.listings() >= 5)
      await retryLocked('x', r.send, noSleep)
      expect(sleeps).toHaveLength(4)
      const share = 1 - POLL_SCHEDULE.jitter * random
      // Counted as if the three attempts it skipped (0.2 + 0.4 + 0.8 s) had been spent: the ceilings 0.35, 0.49
      // and 0.69 s fall within them, so the first poll is at least half of poll-interval's 0.7 s away, not ~0.35 s.
      expect(sleeps[0]).toBeGreaterThanOrEqual(500)
      expect(sleeps[0]).toBeLessThanOrEqual(1400)
      expect(sleeps.slice(1)).toEqual([700, 700, 700].map((c) => expect.closeTo(c * share, 6)))
    }
  })
})

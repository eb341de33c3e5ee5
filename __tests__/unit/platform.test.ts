import { describe, expect, it } from '@jest/globals'
import { HttpError } from '../../src/http.js'
import { LOCKED_RETRY, ProjectBusyError, retryLocked } from '../../src/platform/retry-423.js'
import { type Operation, OperationError, displayName, waitForOperations } from '../../src/platform/operations.js'
import { UNSEEDED_SUFFIX, defaultBranchName, unseededName } from '../../src/platform/preview-branch.js'
import { summarise } from '../../src/platform/operations.js'

const locked = () => new HttpError('locked', 423)

describe('retryLocked (seed 000: 0.1 s doubling, 5 attempts)', () => {
  it('waits 100, 200, 400, 800 ms and gives up after the fifth 423', async () => {
    const waits: number[] = []
    let attempts = 0
    const result = retryLocked(
      'Create branch',
      async () => {
        attempts++
        throw locked()
      },
      async (ms) => void waits.push(ms),
      () => 0
    )
    await expect(result).rejects.toBeInstanceOf(ProjectBusyError)
    expect(attempts).toBe(LOCKED_RETRY.attempts)
    expect(waits).toEqual([100, 200, 400, 800])
  })

  it('lengthens each wait by up to a quarter at random, never shortens it', async () => {
    for (const [r, expected] of [
      [0.5, [113, 225, 450, 900]],
      [0.999, [125, 250, 500, 1000]]
    ] as const) {
      const waits: number[] = []
      await expect(
        retryLocked(
          'x',
          async () => Promise.reject(locked()),
          async (ms) => void waits.push(ms),
          () => r
        )
      ).rejects.toBeInstanceOf(ProjectBusyError)
      expect(waits).toEqual(expected)
    }
  })

  it('returns as soon as the lock clears, and passes other errors through at once', async () => {
    let n = 0
    await expect(
      retryLocked(
        'x',
        async () => (++n < 3 ? Promise.reject(locked()) : 'ok'),
        async () => undefined
      )
    ).resolves.toBe('ok')
    expect(n).toBe(3)
    let m = 0
    await expect(
      retryLocked(
        'x',
        async () => {
          m++
          throw new HttpError('boom', 500)
        },
        async () => undefined
      )
    ).rejects.toThrow('boom')
    expect(m).toBe(1)
  })
})

const op = (status: Operation['status'], extra: Partial<Operation> = {}): Operation => ({
  id: extra.id ?? 'op-1',
  project_id: 'p',
  branch_id: 'br-1',
  action: 'start_compute',
  status,
  failures_count: 0,
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:03Z',
  ...extra
})

describe('waitForOperations', () => {
  it('treats skipped as success and failed as not terminal', async () => {
    const seen = ['failed', 'failed', 'skipped'] as const
    let i = 0
    const done = await waitForOperations([op('scheduling')], {
      pollIntervalSeconds: 0.01,
      waitTimeoutSeconds: 5,
      get: async () => op(seen[i++], { failures_count: 1 })
    })
    expect(done[0].status).toBe('skipped')
    expect(i).toBe(3)
  })

  it('reads the pending operations one after another, the next only once the one before succeeded', async () => {
    const calls: string[] = []
    const states: Record<string, Operation['status'][]> = { a: ['running', 'finished'], b: ['finished'] }
    const done = await waitForOperations([op('running', { id: 'a' }), op('scheduling', { id: 'b' })], {
      pollIntervalSeconds: 0.01,
      waitTimeoutSeconds: 5,
      get: async (id) => {
        calls.push(id)
        return op(states[id].shift()!, { id })
      }
    })
    // First poll: a still runs, so b is not read; second poll: a finished, b read at once.
    expect(calls).toEqual(['a', 'a', 'b'])
    expect(done.map((o) => o.status)).toEqual(['finished', 'finished'])
  })

  it('reads two or more pending operations from one listing, and by id only those the page does not hold', async () => {
    /** Waits for `ids` (running), reading by id from `byId` and listing `pages` in turn; returns the reads made, in order. */
    const reads = async (ids: string[], byId: Record<string, Operation['status'][]>, pages: Operation[][]) => {
      const calls: string[] = []
      const done = await waitForOperations(
        ids.map((id) => op('running', { id })),
        {
          pollIntervalSeconds: 0.01,
          waitTimeoutSeconds: 5,
          get: async (id) => {
            calls.push(id)
            return op(byId[id].shift()!, { id })
          },
          list: async () => {
            calls.push('list')
            return pages.shift()!
          }
        }
      )
      return { calls, done: done.map((o) => `${o.id} ${o.status}`) }
    }
    const page = (a: Operation['status'], b: Operation['status']) => [
      op(b, { id: 'b' }),
      op(a, { id: 'a' }),
      op('finished', { id: 'other' })
    ]

    // Two polls find both running, the third a finished: b, left alone, is read by id.
    expect(
      await reads(['a', 'b'], { b: ['finished'] }, [page('running', 'running'), page('running', 'running'), page('finished', 'running')])
    ).toEqual({
      calls: ['list', 'list', 'list', 'b'],
      done: ['a finished', 'b finished']
    })
    // A page without them (newer operations of the project came first): read by id, one after another.
    const newer = [op('running', { id: 'newer' })]
    expect((await reads(['a', 'b'], { a: ['running', 'finished'], b: ['finished'] }, [newer, newer])).calls).toEqual([
      'list',
      'a',
      'list',
      'a',
      'b'
    ])
    // One pending: read by id, no listing.
    expect((await reads(['a'], { a: ['finished'] }, [])).calls).toEqual(['a'])
  })

  it('fails on cancelled, naming the operation', async () => {
    await expect(
      waitForOperations([op('running', { action: 'create_branch' })], {
        pollIntervalSeconds: 0.01,
        waitTimeoutSeconds: 5,
        get: async () => op('cancelled', { action: 'create_branch' })
      })
    ).rejects.toThrow(/cancelled "Create branch"/)
  })

  it("fails at once on status error (platform spec), quoting the operation's error text", async () => {
    const started = Date.now()
    await expect(
      waitForOperations([op('running')], {
        pollIntervalSeconds: 0.01,
        waitTimeoutSeconds: 600,
        get: async () => op('error', { error: 'compute quota exceeded' })
      })
    ).rejects.toThrow(/"Start compute" \(op-1\) ended in error: "compute quota exceeded" \(branch br-1\)/)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('times out with the pending operations tabled', async () => {
    await expect(
      waitForOperations([op('running')], { pollIntervalSeconds: 0.01, waitTimeoutSeconds: 0.05, get: async () => op('running') })
    ).rejects.toThrow(OperationError)
  })
})

describe('summarise', () => {
  it('takes the duration from total_duration_ms (platform spec) when given', () => {
    expect(summarise(op('finished', { total_duration_ms: 1500 })).durationSeconds).toBe(1.5)
    expect(summarise(op('finished')).durationSeconds).toBe(3)
  })
})

describe('unseeded names (proof of a completed seed)', () => {
  it('adds ~seeding and stays within the 256 characters the spec allows', () => {
    expect(unseededName('preview/pr-7-x')).toBe('preview/pr-7-x~seeding')
    const long = unseededName('b'.repeat(256))
    expect(long).toHaveLength(256)
    expect(long.endsWith(UNSEEDED_SUFFIX)).toBe(true)
  })
})

describe('names', () => {
  it('uses the seed display names', () => {
    expect(displayName('create_branch')).toBe('Create branch')
    expect(displayName('start_compute')).toBe('Start compute')
    expect(displayName('delete_timeline')).toBe('Delete timeline')
  })
  it('builds the default branch name', () => {
    expect(defaultBranchName({ number: 7, headRef: 'feat/Ünïcode & spaces' }, 'abc')).toBe('preview/pr-7-feat-n-code-spaces')
    expect(defaultBranchName(null, '0123456789abcdef')).toBe('preview/0123456')
  })
})

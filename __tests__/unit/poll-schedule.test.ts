/**
 * The poll schedule (src/platform/poll-schedule.ts): Equal Jitter on
 * ceilings that grow from the first wait's to `poll-interval`.
 */
import { describe, expect, it } from '@jest/globals'
import { POLL_SCHEDULE, PollSchedule, pollSchedule } from '../../src/platform/poll-schedule.js'

/** The first `n` waits of a schedule. */
const waits = (s: PollSchedule, n: number): number[] => Array.from({ length: n }, () => s.next())

describe('poll schedule', () => {
  it('grows the ceiling by the factor from the first wait to the longest, and stays there', () => {
    const s = new PollSchedule({ longestMs: 5000 }, () => 0)
    const got = waits(s, 14)
    expect(got[0]).toBe(POLL_SCHEDULE.firstMs)
    for (let i = 1; i < got.length; i++) expect(got[i]).toBeCloseTo(Math.min(5000, got[i - 1] * POLL_SCHEDULE.factor), 6)
    expect(got.at(-1)).toBe(5000)
    expect(Math.max(...got)).toBe(5000)
    // The first poll a few hundred milliseconds after the request; poll-interval reached within a dozen polls.
    expect(got.findIndex((w) => w === 5000)).toBeLessThan(12)
  })

  it('draws each wait between half its ceiling and the ceiling (Equal Jitter)', () => {
    const low = waits(new PollSchedule({ longestMs: 5000 }, () => 0.999999), 14)
    const high = waits(new PollSchedule({ longestMs: 5000 }, () => 0), 14)
    low.forEach((w, i) => expect(w / high[i]).toBeCloseTo(1 - POLL_SCHEDULE.jitter, 4))
    let seed = 1
    const random = (): number => ((seed = (seed * 48271) % 2147483647) / 2147483647) % 1
    const drawn = waits(new PollSchedule({ longestMs: 5000 }, random), 200)
    drawn.forEach((w, i) => {
      const ceiling = high[Math.min(i, high.length - 1)]
      expect(w).toBeGreaterThanOrEqual(ceiling * (1 - POLL_SCHEDULE.jitter))
      expect(w).toBeLessThanOrEqual(ceiling)
    })
    // Spread, not in step: at the ceiling the waits cover most of their range.
    const atCap = drawn.slice(20)
    expect(Math.max(...atCap) - Math.min(...atCap)).toBeGreaterThan(2000)
  })

  it('never waits longer than poll-interval, however small (a poll-interval under the first wait caps that too)', () => {
    expect(Math.max(...waits(new PollSchedule({ longestMs: 200 }, () => 0), 20))).toBe(200)
    expect(Math.max(...waits(pollSchedule(1, { random: Math.random }), 50))).toBeLessThanOrEqual(1000)
  })

  it('counts from the request: skips the waits its answer took, and never polls sooner than half the ceiling of the wait it lands on', () => {
    const fresh = waits(new PollSchedule({ longestMs: 5000 }, () => 0), 4)
    // 250 ms gone: the first poll (350 ms) would come 100 ms after the answer, under half its ceiling (175 ms): the second is next.
    const late = new PollSchedule({ longestMs: 5000, elapsedMs: 250 }, () => 0)
    expect(late.next()).toBeCloseTo(fresh[0] + fresh[1] - 250, 6)
    expect(late.next()).toBeCloseTo(fresh[2], 6)
    // 100 ms gone: the first poll is 250 ms away.
    expect(new PollSchedule({ longestMs: 5000, elapsedMs: 100 }, () => 0).next()).toBeCloseTo(fresh[0] - 100, 6)
    // 1.5 s gone (a busy project's wait after the five 423 attempts): the third poll would come moments after, under
    // half its ceiling; the fourth is next, a whole wait later.
    const busy = new PollSchedule({ longestMs: 5000, elapsedMs: 1500 }, () => 0)
    expect(fresh[0] + fresh[1] + fresh[2] - 1500).toBeLessThan(fresh[2] / 2)
    expect(busy.next()).toBeCloseTo(fresh[0] + fresh[1] + fresh[2] + fresh[3] - 1500, 6)
    expect(busy.next()).toBeCloseTo(fresh[3] * POLL_SCHEDULE.factor, 6)
  })

  it('takes a first ceiling of its own (the compute slot wait: 1 s)', () => {
    const s = pollSchedule(5, { firstMs: 1000, random: () => 0 })
    expect(waits(s, 2)).toEqual([1000, 1000 * POLL_SCHEDULE.factor])
  })
})

/**
 * The project's pace (src/platform/project-pace.ts): learned operation
 * durations, the idle gap between runs' holds of a busy project, and the
 * longest wait a waiting run takes from it; and the poll schedule's use of
 * them (src/platform/poll-schedule.ts: `expectedMs`, `setLongest`).
 */
import { describe, expect, it } from '@jest/globals'
import {
  CROWDED_GAP_MS,
  HandoffGaps,
  MAX_RAISE,
  MIN_CEILING_MS,
  OperationDurations,
  type PacedOperation,
  TARGET_GAP_MS,
  lowers,
  waitCeilingMs
} from '../../src/platform/project-pace.js'
import { POLL_SCHEDULE, PollSchedule } from '../../src/platform/poll-schedule.js'

const T0 = Date.parse('2026-11-28T10:00:00Z')
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
/**
 * The operation `action` of branch `branch` (the same id each time, as a listing shows one operation again), created at
 * `startMs` after T0 (rounded down to the second, as Neon's), `durationMs` when finished.
 */
const op = (branch: string, action: string, startMs: number, durationMs?: number): PacedOperation => ({
  id: `${branch} ${action}`,
  action,
  branch_id: branch,
  status: durationMs === undefined ? 'running' : 'finished',
  created_at: iso(T0 + startMs),
  ...(durationMs === undefined ? {} : { total_duration_ms: durationMs })
})
/** A run's hold: create_branch and start_compute together, as a create starts them. */
const hold = (branch: string, startMs: number, durationMs?: number): PacedOperation[] => [
  op(branch, 'create_branch', startMs, durationMs),
  op(branch, 'start_compute', startMs, durationMs === undefined ? undefined : durationMs - 50)
]

describe('learned durations', () => {
  it('expects the median of the finished operations of each action, the longest of several, and nothing for an action never seen finished', () => {
    const d = new OperationDurations()
    expect(d.expectedMs(['create_branch'])).toBeUndefined()
    d.learn([
      op('a', 'create_branch', 0, 1100),
      op('b', 'create_branch', 0, 900),
      op('c', 'create_branch', 0, 3000),
      op('d', 'start_compute', 0, 1500)
    ])
    d.learn([op('e', 'create_branch', 0)]) // running: not a duration
    expect(d.expectedMs(['create_branch'])).toBe(1100)
    expect(d.expectedMs(['create_branch', 'start_compute'])).toBe(1500)
    expect(d.expectedMs(['create_branch', 'delete_timeline'])).toBeUndefined()
  })

  it('counts an operation once however often it is listed, and keeps the newest nine', () => {
    const d = new OperationDurations()
    const slow = op('a', 'create_branch', 0, 5000)
    for (let i = 0; i < 5; i++) d.learn([slow])
    d.learn([op('b', 'create_branch', 0, 1000), op('c', 'create_branch', 0, 1000)])
    expect(d.expectedMs(['create_branch'])).toBe(1000)
    for (let i = 0; i < 9; i++) d.learn([op(`x${i}`, 'create_branch', 0, 2000)])
    expect(d.expectedMs(['create_branch'])).toBe(2000)
  })
})

describe('handoff gaps', () => {
  it('reads the mean idle time between holds from exact durations and second-rounded starts, once three handoffs were seen', () => {
    // Holds of 1.2 s, 0.3 s apart: starts at 0, 1.5, 3.0, 4.5 s (rounded down to 0, 1, 3, 4 s).
    const gaps = new HandoffGaps(hold('a', 0))
    expect(gaps.gapMs()).toBeUndefined()
    gaps.observe([...hold('a', 0, 1200), ...hold('b', 1500)])
    gaps.observe([...hold('b', 1500, 1200), ...hold('c', 3000)])
    expect(gaps.gapMs()).toBeUndefined()
    gaps.observe([...hold('c', 3000, 1200), ...hold('d', 4500)])
    // (4 − 0 − 3 × 1.2) / 3 s: the rounding of the first and last start only.
    expect(gaps.gapMs()).toBeCloseTo((4000 - 3 * 1200) / 3, 6)
  })

  it("reads a crowd's short gap after two handoffs, to raise the longest wait only; a longer one waits for the third", () => {
    // Holds of 1.2 s handed over at once: starts at 0, 1.2, 2.4 s (rounded down to 0, 1, 2 s): (2 − 0 − 2 × 1.2) / 2 < 0, read as 0.
    const crowd = new HandoffGaps(hold('a', 0))
    crowd.observe([...hold('a', 0, 1200), ...hold('b', 1200)])
    expect(crowd.crowdedGapMs()).toBeUndefined()
    crowd.observe([...hold('b', 1200, 1200), ...hold('c', 2400)])
    expect(crowd.gapMs()).toBeUndefined()
    expect(crowd.crowdedGapMs()).toBe(0)
    expect(CROWDED_GAP_MS).toBeLessThan(TARGET_GAP_MS)
    expect(lowers(CROWDED_GAP_MS)).toBe(false)
    // 0.5 s apart: no crowd, nothing read before the third handoff.
    const few = new HandoffGaps(hold('a', 0))
    few.observe([...hold('a', 0, 1000), ...hold('b', 1500)])
    few.observe([...hold('b', 1500, 1000), ...hold('c', 3000)])
    expect(few.crowdedGapMs()).toBeUndefined()
    expect(few.gapMs()).toBeUndefined()
  })

  it('counts only holds since the first it saw running, and long gaps as long', () => {
    const gaps = new HandoffGaps(hold('a', 10_000))
    gaps.observe([
      ...hold('old', 0, 1000),
      ...hold('a', 10_000, 1000),
      ...hold('b', 13_000, 1000),
      ...hold('c', 16_000, 1000),
      ...hold('d', 19_000)
    ])
    expect(gaps.gapMs()).toBe(2000)
  })

  it('leaves out an operation whose created_at is not a time, so that no gap (and no wait) is NaN', () => {
    const bad = (branch: string): PacedOperation => ({ ...op(branch, 'create_branch', 0), created_at: 'yesterday' })
    const gaps = new HandoffGaps([bad('x'), ...hold('a', 10_000)])
    gaps.observe([bad('y'), ...hold('a', 10_000, 1000), ...hold('b', 13_000, 1000), ...hold('c', 16_000, 1000), ...hold('d', 19_000)])
    expect(gaps.gapMs()).toBe(2000)
  })
})

describe("a waiting run's longest wait", () => {
  it('is poll-interval while no gap is known, and while many runs wait (gaps short against the wait)', () => {
    expect(waitCeilingMs(undefined, 3750, 5000)).toBe(5000)
    // 39 runs at 3.75 s: gaps of about 0.1 s.
    expect(waitCeilingMs(100, 3750, 5000)).toBe(5000)
  })

  it('shortens as the queue does, so that the runs together poll about once every TARGET_GAP_MS, down to MIN_CEILING_MS', () => {
    // Three runs (me and two) at 3.75 s find the project free after about 1.25 s: each should wait on average 3 × 0.25 s.
    expect(waitCeilingMs(1250, 3750, 5000)).toBeCloseTo((3 * TARGET_GAP_MS) / 0.75, 6)
    expect(waitCeilingMs(5000, 3750, 5000)).toBe(MIN_CEILING_MS)
    // Never above poll-interval, and a poll-interval under the floor wins.
    expect(waitCeilingMs(10, 3750, 5000)).toBe(5000)
    expect(waitCeilingMs(5000, 3750, 500)).toBe(500)
  })

  it('lowers only on a gap of at least 1.5 times the target (the rounding of the starts must not make runs poll more); a shorter gap may only raise it, by MAX_RAISE at a poll', () => {
    // 0.25 s against 3.75 s: 15 runs, a ceiling of 4 s; from 5 s it stays, from 3.5 s it rises to 4 s.
    expect(lowers(250)).toBe(false)
    expect(waitCeilingMs(250, 3750, 5000, 5000)).toBe(5000)
    expect(MAX_RAISE).toBeGreaterThan(1)
    expect(waitCeilingMs(250, 3750, 5000, 3500)).toBeCloseTo((15 * TARGET_GAP_MS) / 0.75, 6)
    // From 2 s it rises by MAX_RAISE only; a gap of 0 (a true 0.2 s that the rounding shortened) likewise, not to poll-interval.
    expect(waitCeilingMs(250, 3750, 5000, 2000)).toBeCloseTo(2000 * MAX_RAISE, 6)
    expect(waitCeilingMs(0, 3750, 5000, 2000)).toBeCloseTo(2000 * MAX_RAISE, 6)
    // A long gap with a long mean wait may also raise it, and by as much.
    expect(waitCeilingMs(400, 3750, 5000, 1000)).toBeCloseTo(1000 * MAX_RAISE, 6)
    expect(lowers(1.5 * TARGET_GAP_MS)).toBe(true)
    expect(waitCeilingMs(1.5 * TARGET_GAP_MS, 3750, 5000, 5000)).toBeLessThan(5000)
  })
})

describe('the schedule with a pace', () => {
  it('polls first when operations of these kinds have ended, then a first ceiling later, growing again', () => {
    const s = new PollSchedule({ longestMs: 5000, expectedMs: 1200, elapsedMs: 50 }, () => 0)
    expect(s.next()).toBe(1150)
    expect(s.next()).toBe(POLL_SCHEDULE.firstMs)
    expect(s.next()).toBeCloseTo(POLL_SCHEDULE.firstMs * POLL_SCHEDULE.factor, 6)
  })

  it('ignores an expectation already (nearly) past, and caps it at poll-interval', () => {
    expect(new PollSchedule({ longestMs: 5000, expectedMs: 300, elapsedMs: 200 }, () => 0).next()).toBe(
      new PollSchedule({ longestMs: 5000, elapsedMs: 200 }, () => 0).next()
    )
    expect(new PollSchedule({ longestMs: 1000, expectedMs: 4000 }, () => 0).next()).toBe(1000)
  })

  it('takes a lower longest wait from the next wait on, never above poll-interval nor under the first ceiling', () => {
    const s = new PollSchedule({ longestMs: 5000 }, () => 0)
    for (let i = 0; i < 12; i++) s.next()
    expect(s.next()).toBe(5000)
    s.setLongest(1200)
    expect(s.next()).toBe(1200)
    s.setLongest(100)
    expect(s.next()).toBe(POLL_SCHEDULE.firstMs)
    s.setLongest(60_000)
    expect(s.next()).toBe(5000)
  })

  it('jumps a young schedule to a raised ceiling, never above its longest wait', () => {
    const s = new PollSchedule({ longestMs: 5000 }, () => 0)
    expect(s.next()).toBe(POLL_SCHEDULE.firstMs)
    s.raiseTo(3000)
    expect(s.next()).toBe(3000)
    s.raiseTo(9000)
    expect(s.next()).toBe(5000)
    s.setLongest(1000)
    expect(s.next()).toBe(1000)
  })
})

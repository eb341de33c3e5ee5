/**
 * src/migration-cost/holds.ts: the watcher's reports (a sample when the set
 * of locks changed, else a heartbeat) folded into the longest run of
 * consecutive samples per relation and mode.
 */
import { describe, expect, it } from '@jest/globals'
import { HoldTracker } from '../../src/migration-cost/holds.js'

describe('HoldTracker', () => {
  it('measures a hold from the first sample that saw it to the last one (the report after it carries that time)', () => {
    const h = new HoldTracker()
    h.add({ t: 1000, p: 0, l: [] })
    h.add({ t: 1011, p: 1000, l: [[16400, 'AccessExclusiveLock']] })
    expect(h.holding()).toBe(true)
    h.add({ t: 1511, p: 1500, l: [[16400, 'AccessExclusiveLock']] }) // heartbeat
    h.add({ t: 1722, p: 1711, l: [] }) // gone: last seen at 1711
    expect(h.holding()).toBe(false)
    expect(h.holds()).toEqual([{ oid: 16400, mode: 'AccessExclusiveLock', heldMs: 700 }])
  })

  it('keeps the longest of several runs, per relation and mode; a lock seen once was held 0 ms as far as the samples tell', () => {
    const h = new HoldTracker()
    h.add({ t: 0, p: 0, l: [[1, 'ShareLock']] })
    h.add({ t: 50, p: 40, l: [[2, 'ShareLock']] })
    h.add({ t: 60, p: 50, l: [[1, 'ShareLock']] })
    h.add({ t: 400, p: 390, l: [] })
    expect(h.holds().sort((a, b) => a.oid - b.oid)).toEqual([
      { oid: 1, mode: 'ShareLock', heldMs: 330 },
      { oid: 2, mode: 'ShareLock', heldMs: 0 }
    ])
  })

  it('ends a run still open at its last sample', () => {
    const h = new HoldTracker()
    h.add({ t: 10, p: 0, l: [[7, 'RowExclusiveLock']] })
    h.add({ t: 520, p: 509, l: [[7, 'RowExclusiveLock']] })
    expect(h.holds()).toEqual([{ oid: 7, mode: 'RowExclusiveLock', heldMs: 510 }])
  })
})

/** `parent-lsn` and `parent-timestamp`: what is accepted, refused, sent and shown. */
import { describe, expect, it } from '@jest/globals'
import { branchPointOf, describePoint, pointFields } from '../../src/platform/branch-point.js'
import { defaultBranchName } from '../../src/platform/preview-branch.js'

const NOW = Date.parse('2026-06-01T00:00:00Z')

describe('branchPointOf', () => {
  it('takes an LSN or an RFC 3339 time, and neither', () => {
    expect(branchPointOf('0/1de2850', '', NOW)).toEqual({ lsn: '0/1DE2850' })
    expect(branchPointOf('', '2026-02-26T12:00:00Z', NOW)).toEqual({ timestamp: '2026-02-26T12:00:00Z' })
    expect(branchPointOf('', '2026-02-26T13:00:00.250+01:00', NOW)).toEqual({ timestamp: '2026-02-26T13:00:00.250+01:00' })
    expect(branchPointOf('', '', NOW)).toBeUndefined()
  })

  it.each([
    ['both', '0/1', '2026-01-01T00:00:00Z', /cannot be combined/],
    ['an LSN without its slash', '1DE2850', '', /`parent-lsn` must be a PostgreSQL LSN/],
    ['an LSN with a non-hex digit', '0/1DG', '', /`parent-lsn` must be a PostgreSQL LSN/],
    ['a time without a zone', '', '2026-01-01T00:00:00', /RFC 3339/],
    ['a date alone', '', '2026-01-01', /RFC 3339/],
    ['February 30th', '', '2026-02-30T00:00:00Z', /RFC 3339/],
    ['hour 24', '', '2026-02-03T24:00:00Z', /RFC 3339/],
    ['a time in the future', '', '2026-07-01T00:00:00Z', /must not be in the future/]
  ])('refuses %s', (_what, lsn, timestamp, message) => {
    expect(() => branchPointOf(lsn, timestamp, NOW)).toThrow(message)
  })

  it('is sent as parent_lsn or parent_timestamp and shown in words', () => {
    expect(pointFields({ lsn: '0/1' })).toEqual({ parent_lsn: '0/1' })
    expect(pointFields({ timestamp: '2026-01-01T00:00:00Z' })).toEqual({ parent_timestamp: '2026-01-01T00:00:00Z' })
    expect(pointFields(undefined)).toEqual({})
    expect(describePoint({ lsn: '0/1' })).toBe('at LSN 0/1')
    expect(describePoint({ timestamp: '2026-01-01T00:00:00Z' })).toBe('as of 2026-01-01T00:00:00Z')
  })
})

describe('defaultBranchName with preview-name', () => {
  it('appends -<preview-name>, keeping it whole within 256 characters', () => {
    expect(defaultBranchName({ number: 7, headRef: 'feature/login' }, 'abc', 'api')).toBe('preview/pr-7-feature-login-api')
    expect(defaultBranchName({ number: 7, headRef: 'feature/login' }, 'abc')).toBe('preview/pr-7-feature-login')
    const long = defaultBranchName({ number: 7, headRef: 'x'.repeat(400) }, 'abc', 'web')
    expect(long).toHaveLength(256)
    expect(long.endsWith('-web')).toBe(true)
  })
})

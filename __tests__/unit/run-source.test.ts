/** Where a run comes from (src/run-source.ts) and the default branch name it gives (preview-branch.ts), from the event's name, ref and payload. */
import { afterEach, describe, expect, it } from '@jest/globals'
import * as github from '@actions/github'
import {
  QUEUE_EXPIRY_SECONDS,
  UNOWNED_EXPIRY_SECONDS,
  commandRefusedBecause,
  createRefusedBecause,
  expiryFor,
  runSource
} from '../../src/run-source.js'
import { defaultBranchName } from '../../src/platform/preview-branch.js'
import { madeFor } from '../../src/platform/pr-branches.js'
import { annotationsOf, ownerOf } from '../../src/platform/annotations.js'

const saved = { eventName: github.context.eventName, ref: github.context.ref, payload: github.context.payload }
/** Sets the event the context reports. */
function event(eventName: string, ref: string, payload: Record<string, unknown>): void {
  Object.assign(github.context, { eventName, ref, payload })
}
afterEach(() => {
  Object.assign(github.context, saved)
  delete process.env.PREVIEW_POSTGRES_QUEUE_JOB
  delete process.env.GITHUB_JOB
})

describe('runSource', () => {
  it('a pull request, open or closed (the closed event, or its state)', () => {
    event('pull_request', 'refs/pull/7/merge', { action: 'synchronize', pull_request: { number: 7, state: 'open' } })
    expect(runSource()).toEqual({ kind: 'pull-request', number: 7, closed: false })
    event('pull_request', 'refs/pull/7/merge', { action: 'closed', pull_request: { number: 7, state: 'closed' } })
    expect(createRefusedBecause()).toMatch(/^Pull request #7 is closed/)
    event('pull_request_target', 'refs/heads/main', { action: 'labeled', pull_request: { number: 7, state: 'closed' } })
    expect(runSource()).toMatchObject({ closed: true })
  })

  it('a merge group by its head commit, with a 6 h expiry unless expires-in is given', () => {
    event('merge_group', 'refs/heads/gh-readonly-queue/main/pr-7-abc', { merge_group: { head_sha: 'c783e9e1234' } })
    process.env.GITHUB_JOB = 'test'
    delete process.env.PREVIEW_POSTGRES_QUEUE_JOB
    const source = runSource()
    expect(source).toEqual({ kind: 'merge-group', headSha: 'c783e9e1234', job: expect.stringMatching(/^test-[0-9a-f]{6}$/) })
    // the job's later steps get the same key (GITHUB_ENV); another job of the matrix makes its own
    expect(runSource()).toEqual(source)
    expect(defaultBranchName(null, 'ignored', '', source)).toMatch(/^preview\/queue-c783e9e-test-[0-9a-f]{6}$/)
    expect(expiryFor(0, source)).toBe(QUEUE_EXPIRY_SECONDS)
    expect(expiryFor(3600, source)).toBe(3600)
    expect(createRefusedBecause(source)).toBeNull()
  })

  it('a push or dispatch on a branch, and the delete event of a branch (not of a tag)', () => {
    event('push', 'refs/heads/feature/Reports ü', { ref: 'refs/heads/feature/Reports ü' })
    const pushed = runSource()
    expect(pushed).toEqual({ kind: 'git-branch', branch: 'feature/Reports ü', deleted: false })
    expect(defaultBranchName(null, 'abc', '', pushed)).toMatch(/^preview\/feature-Reports-[0-9a-f]{8}$/)
    expect(defaultBranchName(null, 'abc', '', { kind: 'git-branch', branch: 'feature-Reports', deleted: false })).toBe(
      'preview/feature-Reports'
    )
    expect(defaultBranchName(null, 'abc', '', { kind: 'git-branch', branch: 'pr-7-x', deleted: false })).toMatch(
      /^preview\/pr-7-x-[0-9a-f]{8}$/
    )
    event('workflow_dispatch', 'refs/heads/dev', {})
    expect(runSource()).toMatchObject({ kind: 'git-branch', branch: 'dev' })
    event('push', 'refs/heads/gone', { deleted: true })
    expect(createRefusedBecause()).toMatch(/^Git branch "gone" was deleted/)
    event('delete', 'refs/heads/main', { ref: 'feature/x', ref_type: 'branch' })
    expect(runSource()).toEqual({ kind: 'git-branch', branch: 'feature/x', deleted: true })
    event('delete', 'refs/heads/main', { ref: 'v1.0.0', ref_type: 'tag' })
    expect(runSource()).toEqual({ kind: 'tag', tag: 'v1.0.0', deleted: true })
    expect(commandRefusedBecause('delete')).toMatch(/^Tag "v1.0.0" was deleted: `command: delete` deletes nothing/)
    expect(commandRefusedBecause('create')).toMatch(/^Tag "v1.0.0" was deleted: `command: create` provisions nothing/)
  })

  it('a tag and anything else keep the short commit and expire in 24 h unless expires-in is given', () => {
    event('push', 'refs/tags/v1', {})
    const tag = runSource()
    expect(tag).toEqual({ kind: 'tag', tag: 'v1', deleted: false })
    expect(defaultBranchName(null, '0123456789', '', tag)).toBe('preview/0123456')
    expect(expiryFor(0, tag)).toBe(UNOWNED_EXPIRY_SECONDS)
    event('schedule', 'refs/heads/main', { schedule: '0 5 * * *' })
    expect(runSource()).toEqual({ kind: 'other', event: 'schedule' })
    expect(expiryFor(0)).toBe(UNOWNED_EXPIRY_SECONDS)
    expect(expiryFor(600)).toBe(600)
    expect(commandRefusedBecause('delete')).toBeNull()
  })
})

describe('annotations of an owner outside a pull request', () => {
  it('read back the kind and the git branch; madeFor matches the repository, PR and preview only', () => {
    const values = annotationsOf({ repository: 'acme/shop', headSha: 'abc', kind: 'git-branch', gitBranch: 'feature/x' })
    expect(ownerOf(values)).toMatchObject({ kind: 'git-branch', gitBranch: 'feature/x', pr: undefined })
    const pr = annotationsOf({ repository: 'acme/shop', headSha: 'abc', pr: 17, preview: 'api' })
    expect(madeFor(pr, { repository: 'acme/shop', headSha: '', pr: 17, preview: 'api' })).toBe(true)
    expect(madeFor(pr, { repository: 'acme/shop', headSha: '', pr: 17 })).toBe(false)
    expect(madeFor(pr, { repository: 'acme/shop', headSha: '', pr: 170, preview: 'api' })).toBe(false)
    expect(madeFor(pr, { repository: 'other/shop', headSha: '', pr: 17, preview: 'api' })).toBe(false)
    expect(madeFor(values, { repository: 'acme/shop', headSha: '' })).toBe(false)
  })
})

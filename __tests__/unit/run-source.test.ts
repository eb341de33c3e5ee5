/** Where a run comes from (src/run-source.ts) and the default branch name it gives (preview-branch.ts), from the event's name, ref and payload. */
import { afterEach, describe, expect, it } from '@jest/globals'
import * as github from '@actions/github'
import { QUEUE_EXPIRY_SECONDS, createRefusedBecause, expiryFor, runSource } from '../../src/run-source.js'
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
    const source = runSource()
    expect(source).toEqual({ kind: 'merge-group', headSha: 'c783e9e1234' })
    expect(defaultBranchName(null, 'ignored', '', source)).toBe('preview/queue-c783e9e')
    expect(expiryFor(0, source)).toBe(QUEUE_EXPIRY_SECONDS)
    expect(expiryFor(3600, source)).toBe(3600)
    expect(createRefusedBecause(source)).toBeNull()
  })

  it('a push or dispatch on a branch, and the delete event of a branch (not of a tag)', () => {
    event('push', 'refs/heads/feature/Reports ü', { ref: 'refs/heads/feature/Reports ü' })
    const pushed = runSource()
    expect(pushed).toEqual({ kind: 'git-branch', branch: 'feature/Reports ü', deleted: false })
    expect(defaultBranchName(null, 'abc', '', pushed)).toBe('preview/feature-Reports')
    event('workflow_dispatch', 'refs/heads/dev', {})
    expect(runSource()).toMatchObject({ kind: 'git-branch', branch: 'dev' })
    event('push', 'refs/heads/gone', { deleted: true })
    expect(createRefusedBecause()).toMatch(/^Git branch "gone" was deleted/)
    event('delete', 'refs/heads/main', { ref: 'feature/x', ref_type: 'branch' })
    expect(runSource()).toEqual({ kind: 'git-branch', branch: 'feature/x', deleted: true })
    event('delete', 'refs/heads/main', { ref: 'v1.0.0', ref_type: 'tag' })
    expect(runSource()).toEqual({ kind: 'other', event: 'delete' })
  })

  it('anything else keeps the short commit', () => {
    event('push', 'refs/tags/v1', {})
    const source = runSource()
    expect(source).toEqual({ kind: 'other', event: 'push' })
    expect(defaultBranchName(null, '0123456789', '', source)).toBe('preview/0123456')
    expect(expiryFor(0, source)).toBe(0)
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

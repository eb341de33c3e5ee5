/**
 * A run when the token's GitHub budget is nearly spent (emulator/github/github-rate.ts:
 * `x-ratelimit-*` headers, 403 "API rate limit exceeded" at 0), through the
 * bundle (Node 24): the database is handed out, no lock reaction or
 * placeholder is left behind, and the rate limit is reported as one, never
 * as a missing permission.
 */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { APP_TOKEN } from '../../emulator/github/github.js'
import { limitGitHub } from '../../emulator/github/github-rate.js'
import { branchSuite } from '../fixtures/branch-suite.js'
import { REPO } from '../fixtures/preview.js'

const suite = branchSuite({ prefix: 'github-budget-test-', firstPr: 5600, projectPerTest: true })
let emu: Emulator
beforeAll(() => {
  emu = suite.emu
})
afterEach(() => {
  emu.github.server.admit = undefined
  emu.github.server.headersFor = undefined
})

describe('a run with few GitHub requests left', () => {
  for (const left of [3, 1, 0]) {
    it(`${left} left: the database is handed out, the comment skipped with a warning naming the rate limit, no lock left`, async () => {
      const pr = suite.newPr()
      const budget = limitGitHub(emu.github, APP_TOKEN, { limit: 1000, remaining: left })
      const r = await suite.run({}, { pr: { number: pr } })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(suite.project.branches.has(r.outputs['branch-id'])).toBe(true)
      expect(r.outputs['database-url']).toMatch(/^postgres/)
      expect(r.warnings.join('\n')).toMatch(/rate limit/)
      expect(r.stdout).not.toMatch(/grant the workflow `permissions: deployments: write`/)
      expect(emu.github.reactionsOf.get(`issue ${REPO}#${pr}`) ?? []).toEqual([])
      expect(emu.github.comments(REPO, pr).filter((c) => /being provisioned/.test(c.body))).toEqual([])
      expect(budget.used).toBeLessThanOrEqual(1000)
      // The lock was never taken: too few requests left to release it (GET /rate_limit, free, said so).
      const lockTakes = emu.github.server.requests('POST', new RegExp(`/issues/${pr}/reactions$`)).filter((q) => q.at >= r.startedAt)
      expect(lockTakes).toEqual([])
      expect(emu.github.server.requests('GET', /^\/rate_limit$/).filter((q) => q.at >= r.startedAt).length).toBeGreaterThan(0)
      if (left === 0) expect(budget.refused).toBeGreaterThan(0)
      // The post step finds nothing to release.
      expect(r.post?.code ?? 0).toBe(0)
    })
  }
})

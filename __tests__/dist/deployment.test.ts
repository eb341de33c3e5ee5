/**
 * The PR's GitHub deployment through the bundled action (dist/index.js run
 * as the runner runs it) against the emulator's deployments API: one
 * deployment per create run for the PR's head commit, `in_progress` then
 * `success` (instant: the claim URL; branch: the Console's branch page) or
 * `failure` (a failed or cancelled run); `inactive` after `command: delete` and the sweep; a token
 * without `deployments: write` gets one notice and the run goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { APP_TOKEN, NO_DEPLOYMENTS_TOKEN, type Emulator } from '../../emulator/index.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import { REPO, branchInputs, freshProject, instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let work: string

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('deployment-test-', {
    'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n',
    'bad.sql': 'SELECT * FROM no_such_table;\n',
    'slow.sql': 'SELECT pg_sleep(5);\n'
  }))
})

afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 700)
const env = (pr: number): string => `preview-postgres/pr-${pr}`
const states = (id: number): string[] => emu.deployments.statusesOf(id).map((s) => s.state)
const RUN_URL = 'https://github.com/acme/shop/actions/runs/4242'

const instant = (pr: number, inputs: Record<string, string> = {}, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  runAction(emu, work, { ...instantInputs(emu), 'github-token': APP_TOKEN, seed: 'schema.sql', ...inputs }, { pr: { number: pr }, ...extra })

describe('instant mode', () => {
  it('creates a deployment of the head commit: in_progress, then success with the claim URL and the run', async () => {
    const pr = newPr()
    const r = await instant(pr)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const [d] = emu.deployments.of(REPO, env(pr))
    expect(d).toMatchObject({
      sha: 'a1b2c3d4e5f6',
      ref: 'a1b2c3d4e5f6',
      transient_environment: true,
      production_environment: false,
      request: { auto_merge: false, required_contexts: [] }
    })
    expect(r.outputs['deployment-id']).toBe(String(d.id))
    expect(states(d.id)).toEqual(['in_progress', 'success'])
    const success = emu.deployments.statusesOf(d.id)[1]
    expect(success.environment_url).toBe(r.outputs['claim-url'])
    expect(success.log_url).toBe(RUN_URL)

    // A second run (reuse) makes a deployment of its own.
    const again = await instant(pr)
    expect(again.outputs.created).toBe('false')
    expect(emu.deployments.of(REPO, env(pr))).toHaveLength(2)
    expect(again.outputs['deployment-id']).not.toBe(r.outputs['deployment-id'])

    // command: delete sets them inactive.
    const closed = await instant(pr, { command: 'delete' }, { event: { action: 'closed', number: pr, pull_request: { number: pr, head: { ref: 'x' } } } })
    expect(closed.code).toBe(0)
    for (const dep of emu.deployments.of(REPO, env(pr))) expect(states(dep.id).at(-1)).toBe('inactive')
  })

  it('a failed seed sets failure', async () => {
    const pr = newPr()
    const r = await instant(pr, { seed: 'bad.sql' })
    expect(r.code).not.toBe(0)
    const [d] = emu.deployments.of(REPO, env(pr))
    expect(states(d.id)).toEqual(['in_progress', 'failure'])
  })

  it('a cancelled run sets failure, not leaving the deployment in_progress', async () => {
    const pr = newPr()
    const r = await instant(pr, { seed: 'slow.sql' }, { cancelOn: /Seed the database/ })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/cancelled \(SIGINT\)/)
    const [d] = emu.deployments.of(REPO, env(pr))
    expect(states(d.id)).toEqual(['in_progress', 'failure'])
  })

  it("is made beside provisioning: the instant service's create is sent while GitHub still answers the deployment's", async () => {
    const pr = newPr()
    const arrivals: string[] = []
    emu.github.server.onRequest = (q) => arrivals.push(`github ${q.method} ${q.path}`)
    emu.instant.server.onRequest = (q) => arrivals.push(`instant ${q.method} ${q.path}`)
    emu.github.server.inject({ kind: 'delay', method: 'POST', path: /\/deployments\/?$/, delayMs: 1500 })
    try {
      const r = await instant(pr)
      expect(r.errors).toEqual([])
      const [d] = emu.deployments.of(REPO, env(pr))
      expect(states(d.id)).toEqual(['in_progress', 'success'])
      const create = arrivals.indexOf('instant POST /api/v1/database')
      expect(create).toBeGreaterThanOrEqual(0)
      expect(create).toBeLessThan(arrivals.findIndex((a) => /^github POST .*\/statuses$/.test(a)))
      expect(r.stdout).toMatch(/^deployment \(overlapped\): \d+ ms/m)
    } finally {
      emu.github.server.onRequest = undefined
      emu.instant.server.onRequest = undefined
      emu.github.server.clearFaults()
    }
  })

  it("a cancel while the deployment's create is in flight still sets failure once it lands", async () => {
    const pr = newPr()
    emu.github.server.inject({ kind: 'delay', method: 'POST', path: /\/deployments\/?$/, delayMs: 2000 })
    try {
      const r = await instant(pr, {}, { cancelOn: /Provision the instant database/ })
      expect(r.code).toBe(1)
      expect(r.errors.join('\n')).toMatch(/cancelled \(SIGINT\)/)
      const [d] = emu.deployments.of(REPO, env(pr))
      expect(states(d.id)).toEqual(['in_progress', 'failure'])
    } finally {
      emu.github.server.clearFaults()
    }
  })

  it('`deployment: false` makes none', async () => {
    const pr = newPr()
    const r = await instant(pr, { deployment: 'false' })
    expect(r.code).toBe(0)
    expect(emu.deployments.of(REPO, env(pr))).toEqual([])
    expect(r.outputs['deployment-id'] ?? '').toBe('') // unset: '' to the workflow
  })

  it('a token without deployments: write: one notice naming the permission; the comment and outputs as usual', async () => {
    const pr = newPr()
    const r = await instant(pr, { 'github-token': NO_DEPLOYMENTS_TOKEN })
    expect(r.code).toBe(0)
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
    const notices = r.stdout.split('\n').filter((l) => l.startsWith('::notice') && /deployment/i.test(l))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain('deployments: write')
    expect(r.outputs['database-url']).not.toBe('')
    expect(r.outputs['deployment-id'] ?? '').toBe('') // unset: '' to the workflow
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.deployments.of(REPO, env(pr))).toEqual([])
  })
})

describe('branch mode', () => {
  it("success with the branch's Console page; the sweep of a closed PR sets inactive", async () => {
    const project = await freshProject(emu, { createBranchMs: 50, startComputeMs: 50, deleteMs: 50 })
    const pr = newPr()
    const branch = (inputs: Record<string, string>, extra: Partial<RunOptions> = {}) =>
      runAction(emu, work, { ...branchInputs(emu, project), 'github-token': APP_TOKEN, ...inputs }, { pr: { number: pr }, ...extra })
    const r = await branch({ seed: 'schema.sql' })
    expect(r.errors).toEqual([])
    const [d] = emu.deployments.of(REPO, env(pr))
    expect(states(d.id)).toEqual(['in_progress', 'success'])
    expect(emu.deployments.statusesOf(d.id)[1].environment_url).toBe(
      `https://console.neon.tech/app/projects/${project.id}/branches/${r.outputs['branch-id']}`
    )
    emu.pulls.close(REPO, pr)
    const sweep = await branch({ command: 'cleanup' }, { pr: undefined, eventName: 'schedule', event: {} })
    expect(sweep.errors).toEqual([])
    expect(sweep.stdout).toContain('Deleted branch')
    expect(states(d.id).at(-1)).toBe('inactive')
  })
})

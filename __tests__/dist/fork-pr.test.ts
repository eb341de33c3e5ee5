/**
 * A pull request from a fork, through the bundled action: instant mode with
 * the fork's read-only token provisions, seeds, sets the outputs and writes
 * the `report-file` (no secret in it), says once that the `workflow_run`
 * job posts the comment; `command: publish` in a `workflow_run` run with a
 * write token posts the PR's one comment and its deployment from the
 * report; a second fork run reuses the database the comment records; and
 * publish refuses a report for another repository or another PR.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { APP_TOKEN, READ_ONLY_TOKEN, type Emulator } from '../../emulator/index.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import { recordOf } from '../../src/comment/comment.js'
import { REPO, instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { emulatorSecrets, leaks, publicText } from '../helpers.js'

let emu: Emulator
let work: string

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('fork-pr-test-', { 'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n' }))
})

afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 800)
const FORK = 'forker/shop'
const NOTICE = /::notice::This pull request comes from a fork.*`workflow_run` job/g

/** The fork PR's own run: `pull_request` event with the fork's read-only token. */
const forkRun = (pr: number): Promise<RunResult> =>
  runAction(
    emu,
    work,
    { ...instantInputs(emu), 'github-token': READ_ONLY_TOKEN, seed: 'schema.sql' },
    { pr: { number: pr, fork: FORK }, githubToken: READ_ONLY_TOKEN }
  )

/** The `workflow_run` job: `command: publish` with a write token, for a triggering run of `prs`. */
const publishRun = (reportFile: string, prs: number[], extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  runAction(
    emu,
    work,
    { ...instantInputs(emu), 'github-token': APP_TOKEN, command: 'publish', 'report-file': reportFile },
    { workflowRun: { prs, headRepository: FORK }, ...extra }
  )

/** A copy of a report file with `change` applied, in the work folder. */
function altered(file: string, change: (report: Record<string, unknown>) => void): string {
  const report = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  change(report)
  const out = path.join(work, `altered-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(out, JSON.stringify(report))
  return out
}

describe('a fork PR in instant mode', () => {
  it('provisions with a read-only token and writes the report; publish posts one comment; the next fork run reuses the database', async () => {
    const pr = newPr()
    const first = await forkRun(pr)
    expect(first.errors).toEqual([])
    expect(first.warnings).toEqual([])
    expect(first.code).toBe(0)
    expect(first.outputs.created).toBe('true')
    expect(first.outputs['database-url']).toMatch(/^postgresql:\/\//)
    expect(first.stdout.match(NOTICE)).toHaveLength(1)
    expect(first.stdout).not.toMatch(/::notice::.*deployments: write/)
    expect(emu.github.comments(REPO, pr)).toHaveLength(0)

    const file = first.outputs['report-file']
    const text = readFileSync(file, 'utf8')
    const report = JSON.parse(text) as { report: { expiresAt?: string; schema: { summary: string } } }
    expect(report).toMatchObject({
      repository: REPO,
      pullRequest: { number: pr },
      report: { mode: 'instant', state: 'created', databaseId: first.outputs['database-id'], claimUrl: first.outputs['claim-url'] },
      record: { mode: 'instant', databaseId: first.outputs['database-id'] }
    })
    expect(report.report.expiresAt).toBe(first.outputs['expires-at'])
    expect(report.report.schema.summary).toBeTruthy()
    expect(text).not.toContain(first.outputs['database-password'])
    expect(text).not.toMatch(/postgres(ql)?:\/\//)
    expect(leaks({ 'report-file': text }, emulatorSecrets(emu))).toEqual([])

    // The workflow_run job posts the comment and the deployment.
    const pub = await publishRun(file, [pr])
    expect(pub.errors).toEqual([])
    expect(pub.code).toBe(0)
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toContain(first.outputs['claim-url'])
    expect(recordOf(comments[0].body)).toEqual({
      mode: 'instant',
      databaseId: first.outputs['database-id'],
      expiresAt: first.outputs['expires-at'],
      fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/)
    })
    expect(emu.github.commentReactions(comments[0].id)).toEqual([])
    const [d] = emu.deployments.of(REPO, `preview-postgres/pr-${pr}`)
    expect(d.sha).toBe('a1b2c3d4e5f6')
    expect(emu.deployments.statusesOf(d.id).map((s) => s.state)).toEqual(['in_progress', 'success'])
    expect(emu.deployments.statusesOf(d.id)[1].environment_url).toBe(first.outputs['claim-url'])
    expect(pub.outputs['deployment-id']).toBe(String(d.id))

    // The fork's next run reads the comment (reading works read-only) and reuses the database.
    const second = await forkRun(pr)
    expect(second.code).toBe(0)
    expect(second.outputs.created).toBe('false')
    expect(second.outputs['database-id']).toBe(first.outputs['database-id'])
    expect(second.stdout.match(NOTICE)).toHaveLength(1)
    const again = await publishRun(second.outputs['report-file'], [pr])
    expect(again.code).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
    expect(emu.github.comments(REPO, pr)[0].body).toMatch(/reused/i)
    for (const r of [first, second, pub, again]) expect(leaks(publicText(emu, r), emulatorSecrets(emu))).toEqual([])
  })

  it('publish finds the PR by the triggering run’s head when `pull_requests` is empty (as GitHub sends it for a fork)', async () => {
    const pr = newPr()
    emu.pulls.setHead(REPO, pr, { ref: `fork-branch-${pr}`, sha: 'feedfacecafe', repository: FORK })
    const first = await forkRun(pr)
    expect(first.code).toBe(0)
    const pub = await publishRun(first.outputs['report-file'], [], {
      workflowRun: { prs: [], headBranch: `fork-branch-${pr}`, headSha: 'feedfacecafe', headRepository: FORK }
    })
    expect(pub.errors).toEqual([])
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
  })

  it('publish refuses a report for another repository, another PR, a foreign claim URL, or outside workflow_run', async () => {
    const pr = newPr()
    const other = newPr()
    const first = await forkRun(pr)
    const file = first.outputs['report-file']
    const refused = async (r: Promise<RunResult>, message: RegExp): Promise<void> => {
      const run = await r
      expect(run.code).toBe(1)
      expect(run.errors.join('\n')).toMatch(message)
    }
    await refused(
      publishRun(
        altered(file, (r) => (r.repository = 'evil/shop')),
        [pr]
      ),
      /for evil\/shop, not for this repository \(acme\/shop\)/
    )
    await refused(publishRun(file, [other]), new RegExp(`for pull request #${pr}, but the triggering run is of pull request #${other}`))
    await refused(
      publishRun(
        altered(file, (r) => ((r.report as Record<string, unknown>).claimUrl = 'https://evil.example/claim')),
        [pr]
      ),
      /claim URL is not one of the instant service/
    )
    await refused(
      runAction(emu, work, { ...instantInputs(emu), command: 'publish', 'report-file': file }, { pr: { number: pr } }),
      /runs from a `workflow_run` workflow/
    )
    await refused(runAction(emu, work, { ...instantInputs(emu), command: 'publish' }, { pr: { number: pr } }), /needs input `report-file`/)
    expect(emu.github.comments(REPO, pr)).toHaveLength(0)
    expect(emu.github.comments(REPO, other)).toHaveLength(0)
  })
})

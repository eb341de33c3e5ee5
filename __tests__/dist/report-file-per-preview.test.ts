/**
 * `report-file` per preview, through the bundled action: two named instant
 * previews of one fork PR, run in one job (one RUNNER_TEMP, as on the
 * runner), write two report files, `preview-postgres-report-api.json` and
 * `preview-postgres-report-web.json`; the `workflow_run` job's `command:
 * publish`, once per `preview-name` with that preview's file, posts each
 * preview's own comment; and the next fork run of each preview reuses its
 * own database.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, READ_ONLY_TOKEN, type Emulator } from '../../emulator/index.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { REPO, instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let work: string

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('report-file-names-', { 'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n' }))
})
afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 4700)
const FORK = 'forker/shop'

describe('report-file per preview', () => {
  it('two named instant previews in one job write two report files; publish posts each one; each next run reuses its own database', async () => {
    const pr = newPr()
    const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'report-file-job-'))
    const forkRun = (name: string): Promise<RunResult> =>
      runAction(
        emu,
        work,
        { ...instantInputs(emu), 'github-token': READ_ONLY_TOKEN, 'preview-name': name, seed: 'schema.sql' },
        { pr: { number: pr, fork: FORK }, githubToken: READ_ONLY_TOKEN, env: { RUNNER_TEMP: runnerTemp } }
      )
    const api = await forkRun('api')
    const web = await forkRun('web')
    for (const r of [api, web]) {
      expect(r.errors).toEqual([])
      expect(r.outputs.created).toBe('true')
    }
    expect(api.outputs['report-file']).toBe(path.join(runnerTemp, 'preview-postgres-report-api.json'))
    expect(web.outputs['report-file']).toBe(path.join(runnerTemp, 'preview-postgres-report-web.json'))
    expect(readdirSync(runnerTemp).filter((f) => f.startsWith('preview-postgres-report')).sort()).toEqual([
      'preview-postgres-report-api.json',
      'preview-postgres-report-web.json'
    ])
    const databaseIn = (file: string): string => (JSON.parse(readFileSync(file, 'utf8')) as { report: { databaseId: string } }).report.databaseId
    expect(databaseIn(api.outputs['report-file'])).toBe(api.outputs['database-id'])
    expect(databaseIn(web.outputs['report-file'])).toBe(web.outputs['database-id'])
    expect(api.outputs['database-id']).not.toBe(web.outputs['database-id'])

    // The workflow_run job publishes each preview from its own file.
    for (const [name, r] of [
      ['api', api],
      ['web', web]
    ] as const) {
      const pub = await runAction(
        emu,
        work,
        { ...instantInputs(emu), 'github-token': APP_TOKEN, command: 'publish', 'preview-name': name, 'report-file': r.outputs['report-file'] },
        { workflowRun: { prs: [pr], headRepository: FORK } }
      )
      expect(pub.errors).toEqual([])
      expect(pub.code).toBe(0)
    }
    const bodies = emu.github.comments(REPO, pr).map((c) => c.body)
    expect(bodies).toHaveLength(2)
    expect(bodies.filter((b) => b.includes(api.outputs['database-id']))).toHaveLength(1)
    expect(bodies.filter((b) => b.includes(web.outputs['database-id']))).toHaveLength(1)

    // Each preview's next run finds its own comment and reuses its own database.
    const apiAgain = await forkRun('api')
    const webAgain = await forkRun('web')
    expect(apiAgain.outputs).toMatchObject({ created: 'false', 'database-id': api.outputs['database-id'] })
    expect(webAgain.outputs).toMatchObject({ created: 'false', 'database-id': web.outputs['database-id'] })
  })
})

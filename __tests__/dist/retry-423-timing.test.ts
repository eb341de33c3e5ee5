/**
 * The 423 retry keeps its schedule (Neon operations guide, Errors: retry 423
 * at 0.1 s doubling) in branch mode with the schema diff on: the schema
 * tools' chunk, whose load holds the event loop for tens of milliseconds, is
 * loaded before any retry timer can be due, so the gaps between the create's
 * attempts are 100, 200 and 400 ms within 20 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/platform.js'
import { branchInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
let work: string
let project: Project

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('retry-423-timing-', { 'seed.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n' }))
  project = await emu.platform.createProject({})
  emu.platform.timing = { createBranchMs: 100, startComputeMs: 100, deleteMs: 100 }
})

afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 700)

describe('the 423 retry schedule with the schema diff on', () => {
  it('retries the create at 100, 200 and 400 ms after each 423 (within 20 ms)', async () => {
    emu.platform.startSystemOperation(project, { durationMs: 60_000 })
    const running = runAction(
      emu,
      work,
      { ...branchInputs(emu, project), 'github-token': APP_TOKEN, seed: 'seed.sql', 'compare-schema': 'true', comment: 'false' },
      { pr: { number: newPr() } }
    )
    const posts = () => emu.platform.server.requests('POST', /\/branches$/)
    for (const deadline = Date.now() + 60_000; posts().filter((p) => p.status === 423).length < 4 && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 5))
    emu.platform.lifecycle.finishSystemOperations(project)
    const r = await running
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const attempts = posts()
    expect(attempts.slice(0, 4).map((p) => p.status)).toEqual([423, 423, 423, 423])
    const gaps = attempts.slice(1, 4).map((p, i) => p.at - attempts[i].at)
    const within = (g: number, i: number): boolean => Math.abs(g - 100 * 2 ** i) <= 20
    expect(gaps.map((gap, i) => ({ gap, within: within(gap, i) }))).toEqual(gaps.map((gap) => ({ gap, within: true })))
  })
})

/**
 * Waiting at Neon's pace, through the bundle: every wait (a create's and a
 * delete's operations, a busy project) polls soon after the request and then
 * less often, never more than `poll-interval` apart (src/platform/poll-schedule.ts);
 * a 429 while polling is waited out by `Retry-After`; no request that starts
 * work goes before the operations it waits on are terminal. Times are read
 * from the emulator's request log and compared with each other, never with
 * a budget of the machine's speed, apart from a slack for a loaded machine.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { LoggedRequest } from '../../emulator/http-kit.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunResult } from '../../emulator/runner/runner.js'
import { branchInputs, freshProject, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { until } from '../helpers.js'

let emu: Emulator
let work: string
let project: Project
const newPr = pullRequests(() => emu, 7000)

/** What a poll may run over its wait on a loaded machine (the request itself, a process waiting for a core). */
const SLACK_MS = 1000

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('poll-schedule-test-'))
})
afterAll(async () => {
  await emu?.stop()
})
beforeEach(async () => {
  project = await freshProject(emu, { createBranchMs: 1000, startComputeMs: 1000, deleteMs: 300 })
})

/** A branch-mode run of a new PR, the comment, deployment and schema diff off; `poll-interval` at its default unless given. */
function run(inputs: Record<string, string> = {}, pr = newPr()): Promise<RunResult> {
  const { 'poll-interval': _default, ...platform } = branchInputs(emu, project)
  return runAction(
    emu,
    work,
    { ...platform, 'github-token': APP_TOKEN, comment: 'false', deployment: 'false', 'compare-schema': 'false', ...inputs },
    { pr: { number: pr } }
  )
}

const log = (): LoggedRequest[] => emu.platform.server.log
const isPoll = (q: LoggedRequest): boolean => q.method === 'GET' && /\/operations\/[^/]+$/.test(q.path)
const isListing = (q: LoggedRequest): boolean => q.method === 'GET' && /\/operations\/?$/.test(q.path)
/** A poll of the run's own operations once its request was answered: one read by id, or the page that reads two or more at once. */
const isOwnPoll = (q: LoggedRequest): boolean => isPoll(q) || isListing(q)
const startsWork = (q: LoggedRequest): boolean => q.method !== 'GET'
const gaps = (qs: LoggedRequest[]): number[] => qs.slice(1).map((q, i) => q.at - qs[i].at)
/** The status an operation poll answered (a listing's: its newest operation's, which is the run's own after its request). */
const answered = (q: LoggedRequest): string | undefined => /"status":"(\w+)"/.exec(q.responseText ?? '')?.[1]

/** Every request of the run that starts work and was accepted came after all operations started before it had ended. */
function expectNothingStartedEarly(): void {
  const ops = emu.platform.operations(project)
  for (const q of log().filter((x) => startsWork(x) && x.status < 400)) {
    for (const op of ops.filter((o) => o.startedAt < q.at)) expect(op.endedAt ?? Infinity).toBeLessThanOrEqual(q.at)
  }
}

describe('poll schedule (bundled action, Node 24)', () => {
  it("polls a provision's operations soon after the create, never more than poll-interval apart, and renames only after they ended", async () => {
    emu.platform.timing = { createBranchMs: 3000, startComputeMs: 3000, deleteMs: 300 }
    const r = await run()
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const create = log().find((q) => q.method === 'POST' && q.status === 201)!
    const polls = log().filter((q) => isOwnPoll(q) && q.at > create.at)
    // poll-interval is 5 s (the default); the operations take 3 s: the first poll came while they ran
    // (the schedule's first wait is at most 350 ms; the rest of 3 s is room for a loaded machine).
    expect(answered(polls[0])).not.toBe('finished')
    expect(polls[0].at - create.at).toBeLessThan(3000)
    for (const gap of gaps(polls)) expect(gap).toBeLessThanOrEqual(5000 + SLACK_MS)
    // While both ran, a poll was one request: the page of the project's newest operations, which holds the two;
    // create_branch was never read by id, start_compute only if it alone was left.
    expect(isListing(polls[0])).toBe(true)
    const createBranch = emu.platform.operations(project).find((o) => o.action === 'create_branch')!
    expect(polls.filter((q) => isPoll(q) && q.path.endsWith(`/${String(createBranch.id)}`))).toEqual([])
    // The last poll of each operation saw it finished, and the rename (PATCH) came after it.
    const rename = log().find((q) => q.method === 'PATCH')!
    expect(polls.filter((q) => q.at < rename.at).map(answered).slice(-1)).toEqual(['finished'])
    expect(log().filter((q) => q.status === 423)).toEqual([])
    expectNothingStartedEarly()
  }, 60_000)

  it('lets the waits grow to poll-interval and no further', async () => {
    emu.platform.timing = { createBranchMs: 300, startComputeMs: 7000, deleteMs: 300 }
    const r = await run({ 'poll-interval': '2' })
    expect(r.code).toBe(0)
    const create = log().find((q) => q.method === 'POST' && q.status === 201)!
    const polls = log().filter((q) => isOwnPoll(q) && q.at > create.at)
    const between = gaps(polls).filter((g) => g > 50) // a poll's reads of the second operation follow the first's at once
    expect(polls[0].at - create.at).toBeLessThan(2000)
    for (const gap of between) expect(gap).toBeLessThanOrEqual(2000 + SLACK_MS)
    // Grown: a wait drawn at the ceiling of 2 s lasts at least half of it; the first waits' ceilings are 0.35 to 0.7 s.
    expect(Math.max(...between)).toBeGreaterThanOrEqual(1000)
    expect(Math.min(...between.slice(0, 2))).toBeLessThan(2000)
    // Far fewer polls than a tight loop, more than a fixed poll-interval's 3 or 4 in 7 s.
    expect(polls.length).toBeGreaterThanOrEqual(5)
    expect(polls.length).toBeLessThanOrEqual(14)
    expectNothingStartedEarly()
  }, 60_000)

  it("waits for a busy project after the first 423 on the same schedule, and creates only once the project's operation ended", async () => {
    // The check holds the project until the run listed it three times, however late the run starts on a loaded machine.
    emu.platform.startSystemOperation(project, { durationMs: 60_000 })
    const running = run()
    for (const deadline = Date.now() + 40_000; log().filter(isListing).length < 3 && Date.now() < deadline; )
      await new Promise((res) => setTimeout(res, 20))
    emu.platform.lifecycle.finishSystemOperations(project)
    const r = await running
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Waiting for the project to be free, polling soon and then at most every 5 s \(poll-interval\)/)
    const listings = log().filter(isListing)
    // The first listing follows the first 423 (the rule's other four attempts would meet 423 too); the next poll comes well before poll-interval (5 s); one create after the wait.
    const creates = log().filter((q) => q.method === 'POST' && /\/branches$/.test(q.path))
    expect(creates.map((q) => q.status)).toEqual([423, 201])
    expect(listings[0].at).toBeGreaterThan(creates[0].at)
    expect(listings[0].at).toBeLessThan(creates[1].at)
    expect(listings.length).toBeGreaterThanOrEqual(3)
    expect(listings[1].at - listings[0].at).toBeLessThan(4000)
    for (const gap of gaps(listings)) expect(gap).toBeLessThanOrEqual(5000 + SLACK_MS)
    const created = log().find((q) => q.method === 'POST' && q.status === 201)!
    const check = emu.platform.operations(project).find((o) => o.action === 'check_availability')!
    expect(created.at).toBeGreaterThanOrEqual(check.endedAt!)
    expectNothingStartedEarly()
  }, 60_000)

  it("polls a delete's operations on the same schedule (command: delete)", async () => {
    const pr = newPr()
    expect((await run({ 'poll-interval': '0.2' }, pr)).code).toBe(0)
    emu.platform.timing = { createBranchMs: 300, startComputeMs: 300, deleteMs: 3000 }
    const from = log().length
    const r = await run({ command: 'delete' }, pr)
    expect(r.code).toBe(0)
    const del = log()
      .slice(from)
      .find((q) => q.method === 'DELETE' && q.status === 200)!
    const polls = log()
      .slice(from)
      .filter((q) => isOwnPoll(q) && q.at > del.at)
    expect(answered(polls[0])).not.toBe('finished') // polled while the 3 s delete ran, not at poll-interval (5 s)
    expect(polls[0].at - del.at).toBeLessThan(3000)
    for (const gap of gaps(polls)) expect(gap).toBeLessThanOrEqual(5000 + SLACK_MS)
    expect(polls.map(answered).at(-1)).toBe('finished')
    // The run waited for the delete's operations: its last poll came after the last of them ended.
    const ended = Math.max(...emu.platform.operations(project).map((o) => o.endedAt ?? Infinity))
    expect(polls.at(-1)!.at).toBeGreaterThanOrEqual(ended)
    expectNothingStartedEarly()
  }, 60_000)

  it("learns the project's pace while it waits: shortens its longest wait when the project stands idle between others' operations, and polls its own create first when the project's creates took", async () => {
    emu.platform.timing = { createBranchMs: 2000, startComputeMs: 2000, deleteMs: 300 }
    // Another PR's create: finished create_branch and start_compute operations of about 2 s in the project's list.
    expect((await run()).code).toBe(0)
    const durations = emu.platform
      .operations(project)
      .filter((o) => o.action === 'create_branch' || o.action === 'start_compute')
      .map((o) => o.endedAt! - o.startedAt)
    // The project is held (an availability check) while short operations of others start 1.5 s apart and end after 0.2 s:
    // seen from the list, about 1.3 s of idle time between one and the next, as with few runs left in a queue.
    emu.platform.startSystemOperation(project, { durationMs: 120_000 })
    const running = run()
    const listings = (): number => log().filter(isListing).length
    await until(() => listings() > 0, 'the run to list the busy project')
    for (let i = 0; i < 6; i++) {
      emu.platform.startSystemOperation(project, { action: 'apply_config', durationMs: 200 })
      await new Promise((res) => setTimeout(res, 1500))
    }
    const seen = listings()
    await until(() => listings() > seen + 1, 'two listings after the last of them')
    emu.platform.lifecycle.finishSystemOperations(project)
    const r = await running
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // The idle time read from the list (at least the 0.3 s that lowers a waiting run's longest wait): a lone waiting
    // run polls at most every second or so, down to 0.7 s (the shortest longest wait), not every 5 s.
    const said = [...r.stdout.matchAll(/the project stood idle about (\d+(?:\.\d)?) s between other runs' operations lately, so about \d+ other run\(s\) seem to wait with this one; polling at most every (\d+(?:\.\d)?) s\./g)]
    expect(said.length).toBeGreaterThan(0)
    expect(Number(said[0][1])).toBeGreaterThanOrEqual(0.3)
    const every = said.map((m) => Number(m[2]))
    expect(Math.min(...every)).toBeLessThanOrEqual(1.5)
    expect(Math.min(...every)).toBeGreaterThanOrEqual(0.7)
    // Its own create: the first poll when the project's creates had taken (about 2 s), not 0.35 s after the create.
    expect(r.stdout).toMatch(/Polling Create branch, Start compute first in \d+\.\d s: operations of these kinds took \d+\.\d s in this project\./)
    const create = log().filter((q) => q.method === 'POST' && q.status === 201).at(-1)!
    const polls = log().filter((q) => isOwnPoll(q) && q.at > create.at)
    expect(polls[0].at - create.at).toBeGreaterThanOrEqual(0.8 * Math.min(...durations))
    expect(polls.length).toBeLessThanOrEqual(4)
    expectNothingStartedEarly()
  }, 120_000)

  it('waits out a 429 met while polling for its Retry-After, then polls again and succeeds', async () => {
    emu.platform.server.inject({
      method: 'GET',
      path: /\/operations(\/[^/]+)?$/,
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '2' },
      body: { code: '', message: 'rate limit exceeded' }
    })
    const r = await run()
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const polls = log().filter(isOwnPoll)
    const limited = polls.findIndex((q) => q.status === 429)
    expect(limited).toBeGreaterThanOrEqual(0)
    // The same poll sent again 2 s later (Retry-After, plus at most 0.25 s of jitter), not sooner.
    const again = polls[limited + 1]
    expect(again.path).toBe(polls[limited].path)
    expect(again.at - polls[limited].at).toBeGreaterThanOrEqual(2000)
    expect(again.at - polls[limited].at).toBeLessThanOrEqual(2250 + SLACK_MS)
    expectNothingStartedEarly()
  }, 60_000)
})

/**
 * The `uses: ./` job of .github/workflows/ci.yml, run here step by step:
 * `npm run emulator` started in the background by the job's own step, the
 * action run twice through the bundle (instant mode, then branch mode) with
 * the job's `with:` and `env:`, and the job's check step on their outputs.
 * Then the emulator is stopped with SIGTERM and must exit cleanly.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../../emulator/runner/runner.js'
import { EMULATOR_VARIABLES } from '../../emulator/serve.js'
import { type StepRecord, runWorkflowJob } from '../../emulator/runner/workflow-job.js'

const CI_YML = path.join(ROOT, '.github', 'workflows', 'ci.yml')
let emulatorPid: number | undefined

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

afterAll(() => {
  if (emulatorPid && alive(emulatorPid)) process.kill(emulatorPid, 'SIGKILL')
})

describe('ci.yml, job `action`: the action runs itself against `npm run emulator`', () => {
  it('starts the emulator, runs uses: ./ in instant and branch mode, and its check step passes', async () => {
    const { steps, env, runnerTemp } = await runWorkflowJob(CI_YML, 'action', { eventName: 'push' })
    const readyFile = path.join(runnerTemp, 'emulator.ready')
    if (existsSync(readyFile)) emulatorPid = Number(readFileSync(readyFile, 'utf8').trim())
    const show = (s: StepRecord): string => `${s.name}: ${s.outcome}\n${s.log.slice(-3000)}`
    const failed = steps.find((s) => s.outcome === 'failure')
    expect(failed ? show(failed) : 'no step failed').toBe('no step failed')

    expect(steps.map((s) => [s.name, s.outcome])).toEqual([
      ['actions/checkout@v6', 'skipped'],
      ['actions/setup-node@v6', 'skipped'],
      ['npm ci', 'skipped'],
      ['Start the emulator in the background', 'success'],
      ['Instant mode: uses: ./', 'success'],
      ['Branch mode: uses: ./', 'success'],
      ['Check the outputs', 'success']
    ])
    // npm run emulator exported every variable it documents to GITHUB_ENV.
    for (const name of EMULATOR_VARIABLES) expect(env[name]).toBeTruthy()
    const [instant, branch] = steps.filter((s) => s.action).map((s) => s.action!)
    expect(instant.outputs).toMatchObject({ mode: 'instant', created: 'true' })
    expect(branch.outputs).toMatchObject({ mode: 'branch', created: 'true', 'branch-name': 'preview/ci-self-test' })
    const check = steps.at(-1)!
    expect(check.log.match(/: \d+ customers/g)).toHaveLength(4)
    // The check step never prints a password.
    for (const r of [instant, branch]) expect(check.log).not.toContain(r.outputs['database-password'])

    // SIGTERM stops the emulator, and it exits by itself.
    expect(emulatorPid).toBeGreaterThan(0)
    process.kill(emulatorPid!, 'SIGTERM')
    const deadline = Date.now() + 30_000
    while (alive(emulatorPid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    expect(alive(emulatorPid!)).toBe(false)
    expect(readFileSync(path.join(runnerTemp, 'emulator.log'), 'utf8')).toContain('Emulator: SIGTERM, stopping.')
  })
})

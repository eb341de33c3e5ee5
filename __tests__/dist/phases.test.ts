/**
 * The run's phase trace (src/phases.ts) through the bundle: the job summary
 * tables where the time went, phase by phase, with the PostgreSQL round trips
 * and HTTP requests of each, and the job log has the whole trace. Run over a
 * proxy that adds 10 ms each way, so a phase's time must cover its round trips.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import { type DelayProxy, startDelayProxy, throughProxy } from '../../emulator/delay-proxy.js'
import { InstantService } from '../../emulator/instant/instant.js'

let emu: Emulator
let proxy: DelayProxy
let instant: InstantService
let work: string

beforeAll(async () => {
  emu = await startEmulator()
  proxy = await startDelayProxy(emu.pg.port, 10)
  instant = new InstantService(throughProxy(emu.pg, proxy.port))
  await instant.server.listen()
  work = mkdtempSync(path.join(os.tmpdir(), 'phases-test-'))
  writeFileSync(path.join(work, 'seed.sql'), 'CREATE TABLE items (id int PRIMARY KEY, name text);\nINSERT INTO items VALUES (1, $$one$$);\n')
}, 60_000)

afterAll(async () => {
  await instant?.server.close()
  await proxy?.close()
  await emu?.stop()
})

/** The summary table's rows: phase → [ms, PostgreSQL round trips, HTTP requests]. */
function rows(summary: string): Map<string, [number, number, number]> {
  const table = new Map<string, [number, number, number]>()
  for (const m of summary.matchAll(/^\| ([^|*]+?) \| (\d+) ms \| [^|]* \| (\d+) \| (\d+) \|$/gm))
    table.set(m[1], [Number(m[2]), Number(m[3]), Number(m[4])])
  return table
}

describe('where the time went', () => {
  it('the job summary tables each phase with its time and round trips; the log has the trace', async () => {
    const r = await emu.run({
      inputs: { 'instant-url': instant.url, 'github-token': APP_TOKEN, comment: 'false', seed: 'seed.sql' },
      pr: { number: 900 },
      cwd: work
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.summary).toContain('<summary>Where the time went</summary>')
    const t = rows(r.summary)
    for (const phase of ['process start', 'inputs', 'provisioning', 'connect', 'seed', 'outputs', 'publish', 'check pass (overlapped)', 'deployment (overlapped)'])
      expect([phase, t.has(phase)]).toEqual([phase, true])
    // TCP is not counted; TLS 1.3 started at once, without the SSLRequest (1), startup + SCRAM (3)
    const [connectMs, connectTrips] = t.get('connect')!
    expect(connectTrips).toBe(4)
    expect(connectMs).toBeGreaterThanOrEqual(connectTrips * 20 - 5)
    expect(t.get('seed')![1]).toBeGreaterThanOrEqual(1) // the load sends something and awaits its answer
    expect(t.get('provisioning')![2]).toBeGreaterThanOrEqual(1) // the instant service's create
    expect(t.get('inputs')![1]).toBe(0)
    // HTTP requests are counted in the phase they start in: the deployment's two, overlapped with provisioning, may start during connect on a loaded machine
    expect(r.stdout).toMatch(/Where the time went:\n(.*\n)*connect: \d+ ms, 4 PostgreSQL round trip\(s\), [0-2] HTTP request\(s\)/)
    expect(r.stdout).toMatch(/finish: \d+ ms/)
  })
})

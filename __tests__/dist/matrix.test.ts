/**
 * The fault matrix through the bundled action: service faults,
 * GitHub faults, races and bad input. After every case, the orphan scan and
 * the secret scan of __tests__/matrix/matrix.ts must find nothing.
 * `npm run matrix` prints the same cases as a table.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { CASES, runCase, writeSeedFiles } from '../matrix/matrix.js'
import type { Project } from '../../emulator/platform.js'

let emu: Emulator
let work: string
const projects: Project[] = []

beforeAll(async () => {
  emu = await startEmulator()
  work = mkdtempSync(path.join(os.tmpdir(), 'matrix-test-'))
  writeSeedFiles(work)
})
afterAll(async () => {
  await emu?.stop()
})

describe('fault matrix (bundled action, Node 24)', () => {
  it.each(CASES.map((c) => [`${c.group}: ${c.name}`, c] as const))('%s', async (_name, kase) => {
    const r = await runCase(emu, kase, work, projects)
    expect({ observed: r.observed, problems: r.problems }).toEqual({ observed: r.observed, problems: [] })
    expect(r.orphansFound).toEqual([])
    expect(r.secretsFound).toEqual([])
  })
})

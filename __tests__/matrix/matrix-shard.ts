/**
 * The fault matrix under jest, spread over {@link MATRIX_SHARDS} test files
 * (`__tests__/dist/matrix-<n>.test.ts`) so jest's workers run its cases side
 * by side: shard `n` runs every case whose index in {@link CASES} is `n - 1`
 * modulo the shard count, on an emulator of its own. After every case, the
 * orphan scan and the secret scan of matrix.ts must find nothing. Case names
 * are the same as in `npm run matrix`'s table.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/index.js'
import { CASES, runCase, writeSeedFiles } from './matrix.js'
import type { Project } from '../../emulator/neon/platform.js'

/** How many test files the matrix's cases are spread over (each one is `matrix-<n>.test.ts`, n from 1). */
export const MATRIX_SHARDS = 8

/** The cases of shard `shard` (1 to {@link MATRIX_SHARDS}), in table order. */
export const shardCases = (shard: number): typeof CASES => CASES.filter((_c, i) => i % MATRIX_SHARDS === shard - 1)

/** Declares shard `shard`'s cases as jest tests, named `<group>: <name>` under "fault matrix (bundled action, Node 24)". */
export function matrixShard(shard: number): void {
  let emu: Emulator
  let work: string
  const projects: Project[] = []

  beforeAll(async () => {
    emu = await startEmulator()
    work = mkdtempSync(path.join(os.tmpdir(), `matrix-test-${shard}-`))
    writeSeedFiles(work)
  })
  afterAll(async () => {
    await emu?.stop()
  })

  describe('fault matrix (bundled action, Node 24)', () => {
    it.each(shardCases(shard).map((c) => [`${c.group}: ${c.name}`, c] as const))('%s', async (_name, kase) => {
      const r = await runCase(emu, kase, work, projects)
      expect({ observed: r.observed, problems: r.problems }).toEqual({ observed: r.observed, problems: [] })
      expect(r.orphansFound).toEqual([])
      expect(r.secretsFound).toEqual([])
    })
  })
}

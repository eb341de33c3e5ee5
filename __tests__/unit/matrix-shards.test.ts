/** The matrix's test files cover every case of the table exactly once. */
import { describe, expect, it } from '@jest/globals'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { CASES } from '../matrix/matrix.js'
import { MATRIX_SHARDS, shardCases } from '../matrix/matrix-shard.js'

describe('fault matrix shards', () => {
  it('every case is in exactly one shard, and every shard has its test file', () => {
    const names = (cases: typeof CASES): string[] => cases.map((c) => `${c.group}: ${c.name}`)
    const sharded = Array.from({ length: MATRIX_SHARDS }, (_v, i) => names(shardCases(i + 1))).flat()
    expect(sharded.sort()).toEqual(names(CASES).sort())
    expect(new Set(names(CASES)).size).toBe(CASES.length)
    for (let n = 1; n <= MATRIX_SHARDS; n++)
      expect(existsSync(path.join(import.meta.dirname, '..', 'dist', `matrix-${n}.test.ts`))).toBe(true)
    expect(existsSync(path.join(import.meta.dirname, '..', 'dist', `matrix-${MATRIX_SHARDS + 1}.test.ts`))).toBe(false)
  })
})

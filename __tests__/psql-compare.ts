/**
 * Loading the same files both ways, for the seed tests against psql: through
 * the bundled action (Node 24, emulator, PostgreSQL 17) and by
 * `psql -X -v ON_ERROR_STOP=1 -1` into a fresh database of a second
 * PostgreSQL 17 as a non-superuser owner; then both databases are compared
 * (bench/snapshot.ts). Call {@link psqlComparison} at a test file's top level:
 * it registers the servers' beforeAll and afterAll.
 */
import { afterAll, beforeAll, expect } from '@jest/globals'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../emulator/index.js'
import { PostgresServer } from '../emulator/postgres/postgres.js'
import { NODE_24, type RunResult } from '../emulator/runner/runner.js'
import { type PsqlLoad, type PsqlOptions, compareSnapshots, psqlLoad, snapshot, snapshotSize } from '../bench/snapshot.js'

export interface Both {
  ours: RunResult
  psql: PsqlLoad
  /** Differences between our database and psql's (empty when they agree). */
  differences: string[]
  /** Our database's name on the emulator's server (undefined if none was made). */
  database?: string
  /** The folder both loaded from (their working directory). */
  dir: string
}

/** Files to write: name (may hold folders) → text or bytes, in load order. */
export type Files = [string, string | Buffer][]

export function psqlComparison() {
  let emu: Emulator
  let psqlServer: PostgresServer
  let n = 0
  beforeAll(async () => {
    emu = await startEmulator()
    psqlServer = await PostgresServer.start({ hostPattern: '*.psql.localhost' })
  })
  afterAll(async () => {
    await emu?.stop()
    await psqlServer?.stop()
  })

  /**
   * Writes `files` to a fresh folder and loads them both ways: the seed is
   * `seed` (names), by default every file given.
   */
  async function loadBoth(files: Files, psqlOptions: PsqlOptions = {}, seed?: string[]): Promise<Both> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'seed-psql-'))
    for (const [name, text] of files) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
      writeFileSync(path.join(dir, name), text)
    }
    const names = seed ?? files.map(([name]) => name)
    const before = new Set(emu.instant.databases.keys())
    const ours = await emu.run({
      inputs: { 'instant-url': emu.instant.url, 'github-token': APP_TOKEN, seed: names.join('\n') },
      cwd: dir,
      node: NODE_24
    })
    const record = [...emu.instant.databases.entries()].find(([id]) => !before.has(id))?.[1]
    const psqlDb = `psql_class_${process.pid}_${++n}`
    const psql = await psqlLoad(psqlServer, psqlDb, names, dir, psqlOptions)
    const differences = record
      ? compareSnapshots(await snapshot(psqlServer, psqlDb), await snapshot(emu.pg, record.database))
      : ['no database was created']
    return { ours, psql, differences, database: record?.database, dir }
  }

  /** Loads both ways and expects both to succeed with equal databases that hold something. */
  async function expectSameAsPsql(files: Files, psqlOptions: PsqlOptions = {}, seed?: string[]): Promise<Both> {
    const both = await loadBoth(files, psqlOptions, seed)
    expect(both.ours.errors).toEqual([])
    expect(both.ours.code).toBe(0)
    expect(both.psql).toMatchObject({ ok: true })
    expect(both.differences).toEqual([])
    expect(snapshotSize(await snapshot(emu.pg, both.database!))).toBeGreaterThan(2)
    return both
  }

  /** A query on our database. */
  const q = async (both: Both, sql: string) => emu.pg.query(both.database!, sql)
  return { loadBoth, expectSameAsPsql, q, emulator: () => emu }
}

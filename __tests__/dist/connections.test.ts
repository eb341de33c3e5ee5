/**
 * How many PostgreSQL connections a run opens (each is a TCP, TLS
 * and SCRAM handshake, 5 round trips over a real link), counted at a
 * proxy between the bundled action and the emulator's PostgreSQL 17: the
 * seed loader and the schema snapshots share one session (src/pg-sessions.ts),
 * which is closed while `seed-command` runs, so the command has the
 * database to itself, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { APP_TOKEN, startEmulator, type Emulator } from '../../emulator/index.js'
import { type DelayProxy, startDelayProxy, throughProxy } from '../../emulator/delay-proxy.js'
import { InstantService } from '../../emulator/instant/instant.js'
import type { RunResult } from '../../emulator/runner/runner.js'

let emu: Emulator
let proxy: DelayProxy
let instant: InstantService
let work: string
let pr = 500

beforeAll(async () => {
  emu = await startEmulator()
  proxy = await startDelayProxy(emu.pg.port, 0)
  instant = new InstantService(throughProxy(emu.pg, proxy.port))
  await instant.server.listen()
  work = mkdtempSync(path.join(os.tmpdir(), 'connections-test-'))
  // pg_dump's preamble empties search_path for the session: the snapshot after it must not see that
  writeFileSync(
    path.join(work, 'seed.sql'),
    "SELECT pg_catalog.set_config('search_path', '', false);\nCREATE TYPE public.mood AS ENUM ('ok', 'happy');\n" +
      "CREATE TABLE public.items (id int PRIMARY KEY, name text NOT NULL, m public.mood);\nINSERT INTO public.items VALUES (1, 'one', 'ok');\n"
  )
}, 60_000)

afterAll(async () => {
  await instant?.server.close()
  await proxy?.close()
  await emu?.stop()
})

/** One instant run through the proxy; the connections it opened. */
async function run(inputs: Record<string, string>): Promise<{ r: RunResult; connections: number }> {
  const before = proxy.accepted
  const r = await emu.run({ inputs: { 'instant-url': instant.url, 'github-token': APP_TOKEN, comment: 'false', ...inputs }, pr: { number: ++pr }, cwd: work })
  return { r, connections: proxy.accepted - before }
}

describe('connections per run', () => {
  it('a seeded run with defaults opens one connection (instant mode without seed-command inspects nothing)', async () => {
    const { r, connections } = await run({ seed: 'seed.sql' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Seeded 1 file\(s\): 4 statement\(s\)/)
    expect(r.stdout).toMatch(/nothing was inspected/)
    expect(r.outputs['schema-changed']).toBe('false')
    expect(connections).toBe(1)
  })

  it('with a seed-command: none of ours is open while it runs; the snapshot after it reconnects and sees the change', async () => {
    // fails the run unless the command's own connection is the only one to the database
    const others = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    const command =
      `n=$(PGHOSTADDR=127.0.0.1 psql -X -At -c "${others}"); echo "other connections: $n"; test "$n" = 0; ` +
      'PGHOSTADDR=127.0.0.1 psql -X -q -v ON_ERROR_STOP=1 -c "ALTER TABLE items ADD COLUMN feeling mood"'
    const { r, connections } = await run({ seed: 'seed.sql', 'seed-command': command })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/other connections: 0/)
    expect(r.outputs['schema-changed']).toBe('true')
    // The first snapshot ran on the seed's session, after the seed emptied search_path, and the second on a new
    // connection: both read types alike (the session was reset), so the one change is the new column.
    const diff = readFileSync(r.outputs['schema-diff'], 'utf8')
    expect(diff).toMatch(/add column "feeling"/)
    expect(diff).not.toMatch(/"m"/)
    // seed + first snapshot, the command's two psql connections, the snapshot after
    expect(connections).toBe(4)
  })

  it('a failed seed closes the session before the undo, and the run ends', async () => {
    writeFileSync(path.join(work, 'bad.sql'), 'CREATE TABLE ok (id int);\nSELECT * FROM no_such_table;\n')
    const { r, connections } = await run({ seed: 'bad.sql' })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Seed failed at bad\.sql:2:15: relation "no_such_table" does not exist/)
    expect(connections).toBe(1)
  })
})

/**
 * src/pg-sessions.ts against real PostgreSQL 17 (the emulator's): one
 * connection for the run's own work, handed from user to user in a new
 * connection's state, replaced when it broke, closed by endSessions.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type Connection, describeConnection } from '../../src/connection.js'
import { endSessions, leaseSession } from '../../src/pg-sessions.js'
import { ADMIN_USER, PostgresServer } from '../../emulator/postgres/postgres.js'

let server: PostgresServer
let connection: Connection

beforeAll(async () => {
  server = await PostgresServer.start({ hostPattern: '*.session.localhost' })
  await server.createRole('session_owner', 'pw_session')
  await server.createDatabase('session_db', 'session_owner')
  // the emulator's superuser, the one role it lets in without TLS (this process trusts no test CA)
  const url = `postgresql://${ADMIN_USER}:${encodeURIComponent(server.adminPassword)}@127.0.0.1:${server.port}/session_db?sslmode=disable`
  connection = describeConnection(url, url)
}, 60_000)

afterAll(async () => {
  await endSessions()
  await server?.stop()
})

const backends = async (): Promise<number> =>
  Number((await server.query('postgres', "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'session_db'"))[0].n)
/** The count of backends once it is `n` (a backend ends a moment after its connection closes; how long, the machine's load says), or the last count seen within 20 s. */
const backendsBecome = async (n: number): Promise<number> => {
  let seen = await backends()
  for (const deadline = Date.now() + 20_000; seen !== n && Date.now() < deadline; seen = await backends())
    await new Promise((r) => setTimeout(r, 20))
  return seen
}

describe('leaseSession', () => {
  it('lends one connection to each user in turn', async () => {
    const first = await leaseSession(connection)
    const pid = (await first.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number
    first.release()
    const second = await leaseSession(connection)
    expect((await second.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).toBe(pid)
    second.release()
    expect(await backends()).toBe(1)
  })

  it("gives the next user a new connection's state after a dirty user (DISCARD ALL), on the same connection", async () => {
    const seed = await leaseSession(connection)
    const pid = (await seed.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number
    const fresh = (await seed.client.query('SHOW search_path')).rows[0].search_path as string
    // what pg_dump's preamble and a seed can leave behind
    await seed.client.query(
      "SELECT pg_catalog.set_config('search_path', '', false); SET client_min_messages = warning; CREATE TEMP TABLE scratch (x int)"
    )
    seed.release(true)
    const next = await leaseSession(connection)
    expect((await next.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).toBe(pid)
    expect((await next.client.query('SHOW search_path')).rows[0].search_path).toBe(fresh)
    expect((await next.client.query('SHOW client_min_messages')).rows[0].client_min_messages).toBe('notice')
    expect((await next.client.query("SELECT to_regclass('pg_temp.scratch') AS t")).rows[0].t).toBeNull()
    next.release()
  })

  it('makes a second user wait until the first releases the session', async () => {
    const first = await leaseSession(connection)
    const order: string[] = []
    const waiting = leaseSession(connection).then((l) => {
      order.push('second leased')
      return l
    })
    await new Promise((r) => setTimeout(r, 50))
    order.push('first releases')
    first.release()
    ;(await waiting).release()
    expect(order).toEqual(['first releases', 'second leased'])
  })

  it('replaces a session the server ended, and one a failed user left in an aborted transaction', async () => {
    const a = await leaseSession(connection)
    const pid = (await a.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number
    a.release()
    await server.query('postgres', 'SELECT pg_terminate_backend($1)', [pid])
    // the backend has ended, so its FATAL has reached the session's socket
    expect(await backendsBecome(0)).toBe(0)
    const b = await leaseSession(connection)
    const pidB = (await b.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number
    expect(pidB).not.toBe(pid)
    await b.client.query('BEGIN')
    await expect(b.client.query('SELECT 1/0')).rejects.toThrow(/division by zero/)
    b.release(true) // DISCARD ALL fails in the aborted transaction: the next lease gets a new connection
    const c = await leaseSession(connection)
    expect((await c.client.query('SELECT 1 AS one')).rows[0].one).toBe(1)
    expect((await c.client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).not.toBe(pidB)
    c.release()
    expect(await backendsBecome(1)).toBe(1)
  })

  it('endSessions closes the connection; the next lease opens a new one', async () => {
    const a = await leaseSession(connection)
    a.release()
    expect(await backends()).toBe(1)
    await endSessions()
    expect(await backendsBecome(0)).toBe(0)
    const b = await leaseSession(connection)
    expect((await b.client.query('SELECT 1 AS one')).rows[0].one).toBe(1)
    b.release()
    await endSessions()
  })

  it('reports a database it cannot reach, and then tries again', async () => {
    const url = `postgresql://${ADMIN_USER}:wrong@127.0.0.1:${server.port}/session_db?sslmode=disable`
    const bad = describeConnection(url, url)
    await expect(leaseSession(bad)).rejects.toThrow(/password authentication failed/)
    await expect(leaseSession(bad)).rejects.toThrow(/password authentication failed/)
  })
})

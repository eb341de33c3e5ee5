/**
 * One PostgreSQL session per database for a run's own work (the seed loader,
 * the schema snapshots), instead of a connection each: every connection
 * costs a TCP, TLS and SCRAM handshake: 5 round trips (TCP, TLS at once, then
 * startup and SCRAM; one more where TLS needs the SSLRequest first).
 *
 * Each user takes the session with {@link leaseSession} and gives it back
 * with `release`; users wait for each other, so their statements never
 * interleave. A user that may have changed the session's state (the seed's
 * `SET search_path`, `SET ROLE`, client_encoding, temporary tables, …) gives
 * it back `dirty`, and the next user first gets `DISCARD ALL` (PostgreSQL
 * docs, DISCARD: "resets a session to its original state"), so every user
 * sees what a new connection would. A session that failed or was closed by
 * the server is replaced by a new connection at the next lease.
 *
 * The caller ends sessions with {@link endSessions} whenever nothing of ours
 * may stay connected: before `seed-command` (a migration tool may need the
 * database to itself), before undoing a failed seed (a branch is deleted),
 * and at the end of the run (an open socket would keep Node running).
 */
import pg from 'pg'
import { type Connection, directClientConfig, fallBackFromDirectTls } from './connection.js'
import { countRoundTrips, mark } from './phases.js'

/** A session lent to one user. */
export interface SessionLease {
  /** Connected, outside any transaction, in a new connection's state. */
  client: pg.Client
  /**
   * Gives the session back. `dirty`: this user ran statements that may have
   * changed session state (the next user gets `DISCARD ALL` first).
   * Idempotent; never throws.
   */
  release(dirty?: boolean): void
  /** `server_version` as the server reported it at startup ("17.2"; PostgreSQL protocol, ParameterStatus), when it did. */
  serverVersion(): string | undefined
}

interface Session {
  /** Undefined only until its first connect attempt starts. */
  client: pg.Client | undefined
  /** Lent to a user (or connecting for one). */
  leased: boolean
  broken: boolean
  dirty: boolean
  /** Settles when the current user releases the session. */
  idle: Promise<void>
  /** From the startup ParameterStatus messages. */
  serverVersion?: string
}

/** Open sessions by direct connection string. */
const sessions = new Map<string, Session>()

/** What `application_name` says for the run's own session. */
const APPLICATION_NAME = 'preview-postgres'

/**
 * Lends the run's session to `connection`'s database (its direct URL),
 * connecting on first use or after the last session failed, once the
 * previous user has released it.
 * @throws the driver's error when the database cannot be reached
 */
export async function leaseSession(connection: Connection): Promise<SessionLease> {
  const key = connection.directUrl
  for (;;) {
    const current = sessions.get(key)
    if (!current) break
    if (current.leased) {
      await current.idle
      continue
    }
    if (!current.broken) {
      const lease = await lend(current)
      if (lease) return lease
      continue // its reset failed: replace it
    }
    sessions.delete(key)
    await current.client?.end().catch(() => undefined)
  }
  const session: Session = { client: undefined, leased: false, broken: false, dirty: false, idle: Promise.resolve() }
  sessions.set(key, session)
  const lease = (await lend(session))!
  const back = mark('connect')
  try {
    session.client = await connectDirect(connection, APPLICATION_NAME, (client) => {
      session.client = client
      session.broken = false // the last attempt's client, if any, failed to connect and was ended
      // An idle client's socket error would otherwise be an uncaught 'error' event.
      const broken = (): void => {
        if (session.client === client) session.broken = true // not a failed direct TLS attempt's client
      }
      client.on('error', broken)
      client.on('end', broken)
      // pg keeps ParameterStatus to itself; the catalog reader needs server_version without a round trip.
      const wire = (
        client as unknown as { connection?: { on(e: string, f: (m: { parameterName: string; parameterValue: string }) => void): void } }
      ).connection
      wire?.on('parameterStatus', (m) => {
        if (m.parameterName === 'server_version') session.serverVersion = m.parameterValue
      })
      countRoundTrips(client)
    })
  } catch (err) {
    session.broken = true
    lease.release()
    throw err
  } finally {
    back()
  }
  return lease
}

/**
 * Connects a client to `connection`'s direct connection string
 * ({@link directClientConfig}: TLS at once, without the SSLRequest), and when
 * that fails before the server answered as PostgreSQL, once more with the
 * SSLRequest ({@link fallBackFromDirectTls}).
 * @param prepare attaches the caller's listeners to each client before it connects
 * @returns the connected client
 * @throws the driver's error when the database cannot be reached (each failed client is ended)
 */
export async function connectDirect(
  connection: Connection,
  applicationName: string,
  prepare: (client: pg.Client) => void = () => undefined
): Promise<pg.Client> {
  for (;;) {
    const config = directClientConfig(connection, applicationName)
    const client = new pg.Client(config)
    prepare(client)
    try {
      await client.connect()
      return client
    } catch (err) {
      await client.end().catch(() => undefined)
      if (!fallBackFromDirectTls(config, err)) throw err
    }
  }
}

/**
 * Marks `session` lent until the lease is released; resets its state first
 * when the last user left it dirty.
 * @returns null when the reset failed (say, a transaction a failed user left
 *   aborted): the session is then marked broken and released.
 */
async function lend(session: Session): Promise<SessionLease | null> {
  let free!: () => void
  session.leased = true
  session.idle = new Promise((resolve) => (free = resolve))
  let released = false
  const lease: SessionLease = {
    get client() {
      return session.client! // the lease reaches its user only once connected
    },
    release(dirty = false) {
      if (released) return
      released = true
      if (dirty) session.dirty = true
      session.leased = false
      free()
    },
    serverVersion: () => session.serverVersion
  }
  if (session.dirty) {
    try {
      await session.client!.query('DISCARD ALL') // dirty: a user had it, so it connected
      session.dirty = false
    } catch {
      session.broken = true
      lease.release()
      return null
    }
  }
  return lease
}

/**
 * Closes every session now (a user still holding one sees its connection
 * end). Never throws.
 */
export async function endSessions(): Promise<void> {
  const open = [...sessions.values()]
  sessions.clear()
  await Promise.all(open.map((s) => s.client?.end().catch(() => undefined)))
}

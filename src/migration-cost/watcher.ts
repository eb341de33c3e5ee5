/**
 * The lock watcher: one connection that, while a user command runs, samples
 * `pg_locks` joined to `pg_stat_activity` for the command's sessions, and
 * reports what they hold.
 *
 * The sampling loop runs inside the server, as one `DO` block (PL/pgSQL),
 * so its rate does not depend on the network's round trip: a sample every
 * {@link SAMPLE_SLEEP_MS} ms plus the time of the query (about a
 * millisecond), each in a transaction of its own (`COMMIT` in a `DO` block,
 * PostgreSQL 11+), so the watcher never holds a snapshot for longer than one
 * sample (`CREATE INDEX CONCURRENTLY` waits for older snapshots) and never
 * locks a user table. It reports through `RAISE NOTICE`, which the server
 * sends at once: a sample whose locks differ from the last report's, and
 * otherwise one every {@link HEARTBEAT_MS} ms. The loop ends when the
 * connection closes: `client_connection_check_interval` (PostgreSQL 14+)
 * makes the server notice it within 100 ms, the next report fails at the
 * latest, and the loop gives up after {@link MAX_WATCH_HOURS} hours anyway.
 *
 * Which sessions are the command's (see {@link COMMAND_APPLICATION_NAME}):
 * those whose `application_name` is `preview-postgres-command`, which the
 * command's environment sets through `PGAPPNAME`; and, for clients that set
 * their own name, every other client session of the same role that
 * connected after the watcher did (the command's time window), unless its
 * name starts with `preview-postgres` (the action's own sessions). Never the
 * watcher's own session.
 */
import pg from 'pg'
import type { Connection } from '../connection.js'
import { connectDirect } from '../pg-sessions.js'
import { type Hold, HoldTracker, type LockSample } from './holds.js'
import { SNAPSHOT_SQL_INLINE, type StorageSnapshot, snapshotOf } from './storage.js'

/**
 * `application_name` of the user command's sessions: `PGAPPNAME` in its
 * environment, which libpq (psql, psycopg, Rails, …), node-postgres (Prisma's
 * driver adapters, Drizzle, Knex) and pgx read. A client that sets its own
 * name (JDBC: Flyway, Liquibase; some ORMs) is attributed by role and time
 * window instead (see the module's comment).
 */
export const COMMAND_APPLICATION_NAME = 'preview-postgres-command'
/** The watcher's own `application_name`. */
export const WATCHER_APPLICATION_NAME = 'preview-postgres-lock-watcher'
/** Sleep between two samples, in milliseconds (a sample takes about 1 ms more). */
export const SAMPLE_SLEEP_MS = 10
/** A report at least this often (ms) while nothing changes: the last time a lock was seen. */
export const HEARTBEAT_MS = 500
/** After the command exited, how long to wait for the report that its locks are gone (ms). */
export const FINAL_REPORT_WAIT_MS = 300
/** The loop's own end, in hours, should the connection's end go unnoticed (a GitHub job's limit is 6 hours). */
export const MAX_WATCH_HOURS = 6

const NOTICE_PREFIX = 'preview-postgres-locks '

/** The sampling loop; one statement, sent with the simple query protocol (a `DO` that commits must be). */
export const WATCH_SQL = `DO $watch$
DECLARE
  me int := pg_backend_pid();
  role oid := (SELECT oid FROM pg_roles WHERE rolname = current_user);
  since timestamptz := (SELECT backend_start FROM pg_stat_get_activity(pg_backend_pid()));
  db oid := (SELECT oid FROM pg_database WHERE datname = current_database());
  deadline timestamptz := clock_timestamp() + interval '${MAX_WATCH_HOURS} hours';
  seen text;
  cur text;
  t numeric;
  p numeric := 0;
  said numeric := 0;
BEGIN
  LOOP
    SELECT coalesce(json_agg(json_build_array(k.relation, k.mode) ORDER BY k.relation, k.mode), '[]')::text INTO cur
      FROM (SELECT DISTINCT l.relation::int8 AS relation, l.mode
              FROM pg_lock_status() l JOIN pg_stat_get_activity(NULL) a ON a.pid = l.pid
             WHERE l.locktype = 'relation' AND l.granted AND l.database = db AND l.relation >= 16384 AND l.pid <> me
               AND (a.application_name = '${COMMAND_APPLICATION_NAME}'
                    OR (a.usesysid = role AND a.backend_type = 'client backend' AND a.backend_start > since
                        AND a.application_name NOT LIKE 'preview-postgres%'))) k;
    t := round(extract(epoch FROM clock_timestamp()) * 1000, 1);
    IF cur IS DISTINCT FROM seen OR t - said >= ${HEARTBEAT_MS} THEN
      RAISE NOTICE '${NOTICE_PREFIX}{"t":%,"p":%,"l":%}', t, p, cur;
      seen := cur;
      said := t;
    END IF;
    p := t;
    COMMIT;
    EXIT WHEN clock_timestamp() > deadline;
    PERFORM pg_sleep(${SAMPLE_SLEEP_MS / 1000});
  END LOOP;
END
$watch$`

/**
 * Session settings, then the "before" snapshot, in one round trip (simple
 * query protocol): no statement or lock timeout of the role's ends the
 * loop, and the server checks for a closed connection every 100 ms while it
 * runs (PostgreSQL 14+; older servers skip it).
 */
const START_SQL = [
  'SET statement_timeout = 0',
  'SET lock_timeout = 0',
  "SELECT set_config('client_connection_check_interval', '100', false) WHERE current_setting('server_version_num')::int >= 140000",
  SNAPSHOT_SQL_INLINE
].join(';\n')

/** One connection to the database, watching the command's locks. */
export class LockWatcher {
  private readonly tracker = new HoldTracker()
  private loop: Promise<void> | undefined
  private stopping = false
  /** Why the watching stopped early, when it did. */
  private failure: string | undefined
  private reported: (() => void) | undefined

  private constructor(private readonly client: pg.Client) {}

  /**
   * Connects to `c`'s direct connection string and takes the "before"
   * snapshot of the tables' storage (storage.ts) on it.
   * @throws the driver's error when the connection or the query fails (the connection is closed)
   */
  static async open(c: Connection): Promise<{ watcher: LockWatcher; before: StorageSnapshot }> {
    const client = await connectDirect(c, WATCHER_APPLICATION_NAME)
    const watcher = new LockWatcher(client)
    client.on('error', (err) => (watcher.failure ??= err.message)) // a socket error between queries
    client.on('notice', (msg) => watcher.noticed(msg.message ?? ''))
    try {
      const results = (await client.query(START_SQL)) as unknown as pg.QueryResult<Record<string, string>>[]
      return { watcher, before: snapshotOf(results[results.length - 1].rows) }
    } catch (err) {
      await client.end().catch(() => undefined)
      throw err
    }
  }

  /** Starts the sampling loop; returns at once (the loop's first sample comes within a round trip). */
  start(): void {
    this.loop = this.client.query(WATCH_SQL).then(
      () => {
        if (!this.stopping) this.failure ??= `it stopped after ${MAX_WATCH_HOURS} hours`
      },
      (err: Error) => {
        if (!this.stopping) this.failure ??= err.message
      }
    )
  }

  /**
   * Ends the watching (call once the command exited): waits up to
   * {@link FINAL_REPORT_WAIT_MS} for the report that the command's locks
   * are gone, then closes the connection. Never throws.
   * @returns the holds per relation OID and mode, and why the watching stopped early, if it did
   */
  async stop(): Promise<{ holds: Hold[]; failure?: string }> {
    if (this.loop && !this.failure && this.tracker.holding()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, FINAL_REPORT_WAIT_MS)
        this.reported = () => {
          if (this.tracker.holding()) return
          clearTimeout(timer)
          resolve()
        }
      })
    }
    this.stopping = true
    this.reported = undefined
    await this.client.end().catch(() => undefined)
    await this.loop
    return { holds: this.tracker.holds(), failure: this.failure }
  }

  private noticed(message: string): void {
    if (!message.startsWith(NOTICE_PREFIX)) return
    try {
      this.tracker.add(JSON.parse(message.slice(NOTICE_PREFIX.length)) as LockSample)
    } catch {
      return // not ours after all
    }
    this.reported?.()
  }
}

/**
 * The psql-compatible seed loader: plain SQL files and pg_dump plain output,
 * in one session and one transaction (like `psql -X -v ON_ERROR_STOP=1 -1`,
 * but all or nothing even where the files hold BEGIN/COMMIT).
 *
 * Two passes over the files, both streamed:
 * 1. check ({@link checkSeed}, check.ts, no database needed): refuses what
 *    cannot run before anything runs;
 * 2. load ({@link loadSeed}): statements are sent as the file's bytes (in the
 *    client encoding the file declares, as psql sends them), batched between
 *    COPY blocks behind a savepoint; a batch ends
 *    after a statement that changes how the server reads text
 *    (client_encoding, standard_conforming_strings), since the server parses
 *    a whole batch at once. COPY data goes out exactly as written, without
 *    being split into rows (the server counts them). Batches, COPY blocks
 *    and COMMIT are pipelined (pipeline.ts): the load waits for the server
 *    only at its end and where a meta-command needs an answer.
 * psql's meta-commands run as psql runs them, through one PsqlSession
 * (psql/session.ts: variables, `\if` blocks, includes, which walkSeed
 * follows), meta-run.ts (`\copy … from` a file, `\gset`, `\gexec`) and the
 * scanner (`\copy … from stdin` data, statements `\g*` sends).
 * Neither pass counts COPY data lines, so an error found after a COPY block
 * is located by an exact rescan (rescan.ts).
 *
 * The load's parts: this file (the session, the transaction, the outcome),
 * load.ts (the walk over the files' events), rules.ts (what is skipped or
 * refused), send.ts (batches, COPY blocks and the pipeline, and where a
 * failure happened), batch.ts (one round trip's statements).
 * Errors name the file, line and column; COPY data values are never logged.
 */
import pg from 'pg'
import type { Connection } from '../connection.js'
import { asByteText } from '../psql/psqlslash.js'
import { startupVariables } from '../psql/variables.js'
import { leaseSession } from '../pg-sessions.js'
import { type SeedPlan, SeedError } from './check.js'
import { SeedLoad } from './load.js'
import { SeedRules } from './rules.js'
import { Sender } from './send.js'

export { type SeedPlan, type SeedSource, SeedError, checkSeed, locate } from './check.js'

/** What {@link loadSeed} did. */
export interface SeedResult {
  files: number
  statements: number
  copyRows: number
  /** Statements skipped because they name a role the database does not have. */
  skippedForRoles: number
  /** BEGIN, START TRANSACTION, COMMIT and END statements dropped (the seed is one transaction). */
  skippedTransactionControl: number
  /** `COMMENT ON EXTENSION` for an extension another role owns (a managed database's built-ins, such as plpgsql). */
  skippedExtensionComments: number
  durationMs: number
}

/** What the database has, read when the seed's transaction opens. */
interface Target {
  roles: string[]
  /** Extensions owned by a role the loading user is not a member of (a managed database's built-ins). */
  foreignExtensions: Set<string>
  /** server_version_num, server_version and version(), for psql's SERVER_VERSION_NUM, SERVER_VERSION_NAME and VERSION. */
  version: [string, string, string]
}

/** The variables psql sets itself for the connection (startupVariables), which `:DBNAME` and the like fill in. */
function psqlVariables(client: pg.Client, target: Target): Record<string, string> {
  const p = client as unknown as { database?: string; user?: string; host?: string; port?: number }
  const vars = startupVariables({
    dbname: p.database ?? '',
    user: p.user ?? '',
    host: p.host ?? '',
    port: String(p.port ?? ''),
    versionNum: target.version[0],
    versionName: target.version[1],
    version: target.version[2]
  })
  for (const name of Object.keys(vars)) vars[name] = asByteText(vars[name])
  return vars
}

/**
 * Pass 2: loads a seed that {@link checkSeed} accepted into the database of
 * `connection` (its direct URL) in one session and one transaction. What is
 * skipped, counted and logged: see SeedRules (rules.ts).
 * @param signal a cancel of the run: ends the session, so the server rolls the transaction back and it is never committed
 * @returns counts, and `durationMs`: from this call to COMMIT (the check pass not included)
 * @throws SeedError naming file:line:column, the server's message, detail and
 *   hint, and the statement's first line; the database is left as it was.
 */
export async function loadSeed(connection: Connection, plan: SeedPlan, signal?: AbortSignal): Promise<SeedResult> {
  const started = Date.now()
  // the run's one session (session.ts), shared with the schema snapshots: a connection costs 5-6 round trips
  const lease = await leaseSession(connection).catch((err: Error) =>
    Promise.reject(new SeedError(`Seeding could not connect to the new database: ${err.message}`))
  )
  const { client } = lease
  const stop = (): void => void client.end().catch(() => undefined) // a cancel: COMMIT is never sent
  if (signal?.aborted) stop()
  else signal?.addEventListener('abort', stop, { once: true })
  let target: Target
  try {
    target = await openTransaction(client)
  } catch (err) {
    lease.release(true)
    throw err
  }
  const send = new Sender(client)
  try {
    const rules = new SeedRules([...target.roles, ...plan.created], target.foreignExtensions)
    await new SeedLoad(send, rules, psqlVariables(client, target), client).run(plan.sources)
    rules.report()
    return {
      files: plan.sources.length,
      statements: send.statements,
      copyRows: send.copyRows,
      skippedForRoles: rules.skippedForRoles,
      skippedTransactionControl: rules.skippedTransactionControl,
      skippedExtensionComments: rules.skippedExtensionComments,
      durationMs: Date.now() - started
    }
  } catch (err) {
    await send.abandon() // the client must be ours again to roll back
    await client.query('ROLLBACK').catch(() => undefined)
    if (err instanceof SeedError) throw err
    throw new SeedError(`Seeding failed: ${(err as Error).message}. Nothing was kept: the whole seed was rolled back.`)
  } finally {
    lease.release(true)
  }
}

/**
 * Opens the seed's transaction and its savepoint, and reads the database's roles and
 * the extensions the loading user does not own (no membership in their
 * owner), in one round trip after the connection's own.
 * @throws SeedError if the database cannot be reached
 */
async function openTransaction(client: pg.Client): Promise<Target> {
  try {
    // A simple-protocol query with several statements answers with one result per statement.
    const results = (await client.query(
      "BEGIN; SAVEPOINT preview_postgres_seed; SELECT rolname FROM pg_roles; SELECT extname FROM pg_extension WHERE NOT pg_has_role(extowner, 'USAGE'); " +
        "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS name, version() AS full"
    )) as unknown as pg.QueryResult<Record<string, string>>[]
    const v = results[4].rows[0]
    return {
      roles: results[2].rows.map((r) => r.rolname),
      foreignExtensions: new Set(results[3].rows.map((r) => r.extname)),
      version: [v.num, v.name, v.full]
    }
  } catch (err) {
    throw new SeedError(`Seeding could not connect to the new database: ${(err as Error).message}`)
  }
}

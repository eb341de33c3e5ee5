/**
 * A user command (`seed-command`, `migrate-command`) run against a database,
 * measured: what it rewrote (storage.ts) and which locks its sessions held
 * for how long (watcher.ts), on the data the database holds.
 *
 * Measuring costs one connection (the watcher) and one catalog query before
 * the command, and one catalog query after it on the run's own session;
 * nothing at all when `measure` is false (a database without data: the
 * caller decides). Never fatal: a watcher that cannot connect, a snapshot
 * that fails or a watcher that stops early is a warning, and the command
 * runs and ends as it would unmeasured.
 */
import * as core from '@actions/core'
import type { Connection } from '../connection.js'
import { leaseSession } from '../pg-sessions.js'
import { COMMAND_APPLICATION_NAME, LockWatcher } from './watcher.js'
import { type StorageSnapshot, replacedTables, takeSnapshot } from './storage.js'
import { type MigrationCost, costLines, migrationCost, writeMigrationReport } from './findings.js'

/** A measured command's cost. */
export interface MeasuredCommand {
  cost: MigrationCost
  /** Markdown lines for the comment and the job summary (findings.ts, `costLines`); [] when there is nothing to warn about. */
  lines: string[]
  /** Path of the `migration-report` JSON file. */
  file: string
}

/**
 * What the command's environment gets on top of the connection's variables:
 * `PGAPPNAME`, by which the watcher tells the command's sessions (watcher.ts).
 * Set on every run, measured or not, so the command sees the same
 * environment; a `PGAPPNAME` of the step's own is replaced.
 */
export function attributionEnvironment(): Record<string, string> {
  return { PGAPPNAME: COMMAND_APPLICATION_NAME }
}

/**
 * Runs `run` with {@link attributionEnvironment}, measured when `measure`:
 * the watcher connects and snapshots the tables' storage before `run`
 * starts, samples locks while it runs, and once it returned the storage is
 * read again on the run's session (pg-sessions.ts) and the report is written.
 * @param run starts the user command with `env` added to its environment; resolves when it exited
 * @returns what `run` returned, and the cost when it was measured
 * @throws what `run` throws (the watcher is closed first; no report then)
 */
export async function measureCommand<T>(
  connection: Connection,
  measure: boolean,
  run: (env: Record<string, string>) => Promise<T>
): Promise<{ result: T; measured?: MeasuredCommand }> {
  if (!measure) return { result: await run(attributionEnvironment()) }
  let opened: { watcher: LockWatcher; before: StorageSnapshot } | undefined
  try {
    opened = await LockWatcher.open(connection)
  } catch (err) {
    core.warning(`Could not watch the command's locks (${(err as Error).message}): its migration cost is not measured. The run goes on.`)
  }
  if (!opened) return { result: await run(attributionEnvironment()) }
  const { watcher, before } = opened
  watcher.start()
  let result: T
  try {
    result = await run(attributionEnvironment())
  } catch (err) {
    await watcher.stop()
    throw err
  }
  const watched = await watcher.stop()
  if (watched.failure) core.warning(`The lock watcher stopped early (${watched.failure}): lock times may be missing. The run goes on.`)
  let after: StorageSnapshot | undefined
  try {
    const lease = await leaseSession(connection)
    try {
      after = await takeSnapshot(lease.client)
    } finally {
      lease.release()
    }
  } catch (err) {
    core.warning(`Could not read the tables' storage after the command (${(err as Error).message}): rewrites are not reported.`)
  }
  const replaced = after ? replacedTables(before, after) : { rewrites: [], truncations: [] }
  const cost = migrationCost(replaced, watched.holds, before, after, watched.failure)
  const file = writeMigrationReport(cost)
  const lines = costLines(cost, before)
  core.info(
    `Migration cost: ${cost.rewrites.length} table(s) rewritten, ${cost.truncations.length} truncated, ` +
      `${cost.locks.length} relation lock(s) seen held by the command's sessions; ${lines.length} warning line(s). Report: ${file}`
  )
  return { result, measured: { cost, lines, file } }
}

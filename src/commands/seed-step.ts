/**
 * The seeding step of every command that makes a database usable (create,
 * reset): the seed files' check before anything is created, then, schema
 * before data, the load of the checked files (a dump: schema and data as of
 * some point), `migrate-command` (the schema brought to the PR's head) and
 * `seed-command` (data that may need the head's schema), with the schema
 * compared around them, undone when any of them fails.
 */
import * as core from '@actions/core'
import { cancelSignal, isCancelled, unlessCancelled } from '../cancel.js'
import type { Connection } from '../connection.js'
import type { Report } from '../publish/report.js'
import type { SchemaDiff } from '../schema/diff.js'
import { type SchemaUnavailable, SchemaTracker } from '../schema/track.js'
import { runSeedCommand } from '../seed/command.js'
import { runMigrateCommand } from './migrate-step.js'
import { type SeedPlan, SeedError, checkSeed, loadSeed } from '../seed/loader.js'
import { endSessions } from '../pg-sessions.js'
import type { Settings } from '../settings.js'
import { mark, overlapped } from '../phases.js'

/**
 * Starts the seed's check pass (no database needed). Awaited before the PR
 * comment's lock is claimed and before anything is created: a refused seed
 * creates no database and posts no comment.
 * @returns null when there is nothing to seed from files
 */
export function startSeedCheck(files: string[]): Promise<SeedPlan | null> {
  if (files.length === 0) return Promise.resolve(null)
  const checking = checkSeed(files).catch((err: unknown) => {
    throw err instanceof SeedError
      ? new SeedError(`${err.message} No database was created or changed.`, err.file, err.line, err.column)
      : err
  })
  checking.catch(() => undefined) // awaited later; not an unhandled rejection meanwhile
  return checking
}

/**
 * Awaits the check {@link startSeedCheck} started and logs what it checked.
 * @returns the checked plan; null when there are no seed files
 * @throws SeedError when a file is refused
 */
export async function checkedSeed(files: string[], checking: Promise<SeedPlan | null>): Promise<SeedPlan | null> {
  if (files.length === 0) return null
  return core.group('Check the seed files', async () => {
    const plan = (await checking)!
    overlapped('check pass', plan.checkMs)
    core.info(
      `Checked ${plan.sources.length} seed file(s)${plan.included ? ` and ${plan.included} included one(s)` : ''} in ${(plan.checkMs / 1000).toFixed(1)} s: ` +
        'only the psql meta-commands the loader runs (\\echo, \\i, \\ir, \\set, \\if, \\copy … from, \\gset, \\gexec, …), ' +
        'no statement that needs another database or its own transaction.'
    )
    return plan
  })
}

/**
 * Whether a user command runs on a database that holds data, so that its
 * migration cost is measured (migration-cost/): a reused database; a branch
 * (its parent's data), unless it is `schema-only` and no seed files were
 * loaded into it. A new instant database starts empty.
 */
export function holdsData(report: Report, seeded: boolean): boolean {
  return report.state === 'reused' || (report.mode === 'branch' && (!report.schemaOnly || seeded))
}

/**
 * Seeds a database whose seed has not committed (unseeded), schema before
 * data: the checked SQL files in one transaction, then `migrate-command`,
 * then `seed-command`, with the schema compared around the commands
 * ({@link SchemaTracker}). On failure (a destructive change under
 * `fail-on-destructive` included) runs `undo` (so nothing unseeded is left
 * for reuse) and rethrows. Sets `report.seedFiles`, and `report.migrationCost`
 * when `migrate-command` ran on a database that {@link holdsData} (or, with no
 * `migrate-command`, `seed-command` did).
 * @param platformDiff branch mode: fetches the Neon API's compare_schema diff against the parent
 * @throws CancelledError at once when the run is cancelled: the seed's database session is ended (its
 *   transaction rolled back, never committed) and the running command's process group is killed.
 */
export async function seedOrUndo(
  settings: Settings,
  seed: SeedPlan | null,
  connection: Connection,
  report: Report,
  undo: () => Promise<void>,
  platformDiff?: () => Promise<string>
): Promise<SchemaDiff | SchemaUnavailable | null> {
  const commands = !!(settings.seedCommand || settings.migrateCommand)
  const tracker = new SchemaTracker(report.mode, connection, settings.compareSchema, settings.failOnDestructive, commands)
  try {
    mark('schema diff')
    await tracker.atStart()
    mark('seed')
    if (seed) {
      const n = seed.sources.length
      const result = await core.group(`Seed the database (${n} file${n === 1 ? '' : 's'})`, () =>
        unlessCancelled(loadSeed(connection, seed, cancelSignal()))
      )
      core.info(
        `Seeded ${result.files} file(s): ${result.statements} statement(s), ${result.copyRows} COPY row(s) in ${(result.durationMs / 1000).toFixed(2)} s.`
      )
      report.seedFiles = result.files
    }
    await tracker.afterSeedFiles()
    if (settings.migrateCommand) {
      // Schema first: the PR's migrations bring the seed's schema to the PR's head.
      mark('migrate-command')
      const measure = holdsData(report, seed !== null)
      const measured = await runMigrateCommand(settings.migrateCommand, connection, () => tracker.commandStarted(), measure)
      if (measured) report.migrationCost = { command: 'migrate-command', lines: measured.lines, file: measured.file }
    }
    if (settings.seedCommand) {
      // Then data, which may need the head's schema.
      mark('seed-command')
      await endSessions() // a migration tool may need the database to itself
      // One report a run: migrate-command's cost when it ran; else seed-command's.
      const measure = !settings.migrateCommand && holdsData(report, seed !== null)
      const running = core.group('Run seed-command', () =>
        unlessCancelled(runSeedCommand(settings.seedCommand, connection, cancelSignal(), measure))
      )
      tracker.commandStarted() // its process runs (spawned synchronously unless measured): build "before" meanwhile
      const measured = await running
      if (measured) report.migrationCost = { command: 'seed-command', lines: measured.lines, file: measured.file }
    }
    if (!settings.compareSchema) return null
    mark('schema diff')
    return await core.group('Compare the schema', () => unlessCancelled(tracker.finish(platformDiff)))
  } catch (err) {
    await tracker.close()
    // A cancel leaves the undo to the cancel's own steps (cancel.ts), which run after this flow stopped.
    if (!isCancelled()) {
      await endSessions() // nothing of ours stays connected to what the undo deletes
      await undo()
    }
    throw err
  }
}

/**
 * `migrate-command`: the PR's migrations, run on every run that hands out a
 * database. On a new (or rebuilt) database it runs after the seed files and
 * before `seed-command` (schema before data), inside the seed's undo
 * (seed-step.ts); on a reused one {@link migrateReused} runs it
 * before anything is handed out and compares the schema around it: this
 * push's change, and in branch mode the PR's total change against the parent.
 * Both go through the one function that runs a user command (seed/command.ts).
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Connection } from '../connection.js'
import type { Settings } from '../settings.js'
import { cancelSignal, isCancelled, unlessCancelled } from '../cancel.js'
import { SeedCommandError, runSeedCommand } from '../seed/command.js'
import { endSessions } from '../pg-sessions.js'
import type { SchemaDiff } from '../schema/diff.js'
import { DestructiveSchemaError, type SchemaUnavailable, SchemaTracker } from '../schema/track.js'
import type { SchemaReport } from '../publish/report.js'
import type { MeasuredCommand } from '../migration-cost/measure.js'

/** `migrate-command` exited non-zero (128 + the signal's number when a signal ended it). */
export class MigrateCommandError extends Error {
  constructor(readonly exitCode: number) {
    super(`migrate-command exited with code ${exitCode}. Its output is above.`)
    this.name = 'MigrateCommandError'
  }
}

/**
 * Runs `migrate-command` once, with the connection in its environment
 * (seed/command-env.ts). Our own sessions are ended first: a migration tool may
 * need the database to itself. A cancel stops its process group.
 * @param started called once its process has been spawned (the schema tracker builds "before" meanwhile)
 * @param measure the database holds data: measure what the command rewrote and the locks it held (migration-cost/)
 * @returns the command's cost when it was measured
 * @throws MigrateCommandError with the exit code; CancelledError when the run is cancelled
 */
export async function runMigrateCommand(
  command: string,
  connection: Connection,
  started?: () => void,
  measure = false
): Promise<MeasuredCommand | undefined> {
  await endSessions()
  const running = core.group('Run migrate-command', () =>
    unlessCancelled(
      runSeedCommand(command, connection, cancelSignal(), measure).catch((err: unknown) => {
        throw err instanceof SeedCommandError ? new MigrateCommandError(err.exitCode) : err
      })
    )
  )
  started?.() // its process runs (spawned synchronously unless measured)
  return await running
}

/** What `migrate-command` did on a reused database. */
export interface ReusedMigration {
  /** This push's change: the schema before and after the command; null when `compare-schema` is off. */
  diff: SchemaDiff | SchemaUnavailable | null
  /** Branch mode: the platform's compare_schema text against the parent after the command; undefined when not fetched or it failed. */
  total?: string
  /** What the command cost on the reused database's data (migration-cost/); undefined when it could not be measured. */
  measured?: MeasuredCommand
}

/**
 * Runs `migrate-command` on a reused database and compares the schema
 * around it (the "before" snapshot is read before the command starts).
 * @param total branch mode: fetches the PR's total change against the parent (compare_schema); a failure is a warning
 * @throws MigrateCommandError; DestructiveSchemaError when `fail-on-destructive` and this push's change is destructive (or could not be checked)
 */
export async function migrateReused(
  settings: Pick<Settings, 'migrateCommand' | 'compareSchema' | 'failOnDestructive'>,
  connection: Connection,
  total?: () => Promise<string>
): Promise<ReusedMigration> {
  // Snapshot right before the command, as instant mode does after its SQL seed.
  const tracker = new SchemaTracker('instant', connection, settings.compareSchema, settings.failOnDestructive, true)
  try {
    await tracker.atStart()
    await tracker.afterSeedFiles('before migrate-command')
    // A reused database holds data: the command's cost is measured.
    const measured = await runMigrateCommand(settings.migrateCommand, connection, () => tracker.commandStarted(), true)
    if (!settings.compareSchema) return { diff: null, measured }
    const diff = await core.group('Compare the schema', () => unlessCancelled(tracker.finish()))
    let text: string | undefined
    if (total) {
      try {
        text = await unlessCancelled(total())
      } catch (err) {
        core.warning(`Could not read the pull request's total change against the parent (compare_schema): ${(err as Error).message}`)
      }
    }
    return { diff, total: text, measured }
  } finally {
    await tracker.close()
  }
}

/** Why `migrate-command` left a reused database unhanded: the commit (the PR's head) and its exit code, or why its change was refused. */
export interface MigrateFailure {
  commit: string
  exitCode?: number
  reason?: string
}

/**
 * Runs `migrate-command` on a reused database ({@link migrateReused}). When
 * it fails (or its change is destructive under `fail-on-destructive`),
 * `report` says so at this commit (the comment keeps recording the database,
 * which keeps its data: the next run runs the command again) and the error
 * is rethrown: nothing is handed out.
 * @param report publishes the failure (PR comment and job summary)
 */
export async function migrateOrKeep(
  settings: Pick<Settings, 'migrateCommand' | 'compareSchema' | 'failOnDestructive'>,
  connection: Connection,
  total: (() => Promise<string>) | undefined,
  report: (failure: MigrateFailure) => Promise<void>
): Promise<ReusedMigration> {
  try {
    return await migrateReused(settings, connection, total)
  } catch (err) {
    if (isCancelled() || !(err instanceof MigrateCommandError || err instanceof DestructiveSchemaError)) throw err
    await report(
      err instanceof MigrateCommandError
        ? { commit: headCommit(), exitCode: err.exitCode }
        : { commit: headCommit(), reason: "this push's schema change is destructive and `fail-on-destructive` is true" }
    )
    throw err
  }
}

/** The commit this run is for: the PR's head, else the workflow's commit. */
function headCommit(): string {
  const head = (github.context.payload.pull_request?.head as { sha?: string } | undefined)?.sha
  return head || github.context.sha || ''
}

/**
 * The schema report with what made the change named when `migrate-command`
 * ran (the action's own comparison), and the PR's total change against the
 * parent (branch mode, a reused branch).
 */
export function withMadeBy(
  settings: Pick<Settings, 'seedCommand' | 'migrateCommand'>,
  report: SchemaReport | undefined,
  fresh: boolean,
  total?: string
): SchemaReport | undefined {
  if (!report || !settings.migrateCommand) return report
  const madeBy = fresh
    ? settings.seedCommand
      ? '`migrate-command` and `seed-command`'
      : '`migrate-command`'
    : '`migrate-command` in this run'
  return { ...report, madeBy: report.source === 'platform' ? undefined : madeBy, total }
}

/**
 * `command: create`, in both modes: provision (or reuse) through the mode's
 * driver; rebuild a reused database whose seed changed (`reseed`); seed what
 * was created or rebuilt and run `migrate-command` (undoing it when either
 * fails), or run `migrate-command` on a reused database; then publish:
 * masked outputs, the env file, the PR comment and the job summary.
 */
import * as core from '@actions/core'
import { throwIfCancelled } from '../cancel.js'
import type { SeedPlan } from '../seed/loader.js'
import type { Settings } from '../settings.js'
import { envVariables, writeEnvFile } from '../publish/env-file.js'
import { maskConnection, setOutputs } from '../publish/outputs.js'
import { type Publication, forgetReusable, publish } from '../publish/publication.js'
import type { SchemaDiff } from '../schema/diff.js'
import { type SchemaUnavailable, preloadSchemaTools, schemaResult } from '../schema/track.js'
import type { CommentRecord } from '../comment/comment.js'
import type { Report } from '../publish/report.js'
import type { ModeDriver } from './driver.js'
import { seedOrUndo } from './seed-step.js'
import { migrateOrKeep, withMadeBy } from './migrate-step.js'
import { type FingerprintWith, fingerprintUnderRules, keptFingerprint, rebuildReason } from './reseed.js'
import { mark } from '../phases.js'
import { failWiring, wirePreview } from '../vercel/preview.js'

/**
 * Runs `command: create` with `driver`. Nothing is handed out (outputs, env
 * file, comment record) before the seed committed and `migrate-command` succeeded.
 * @param fingerprint this run's seed (commands/reseed.ts), recorded in the comment's marker
 * @param fingerprintWith this run's seed under other masking rules: a reused anonymized branch that this run gave no
 *   `masking-rules` is judged (and recorded) under the rules it was made with
 * @returns what was published: the report and the comment's record
 * @throws what the driver, the seed, `migrate-command` or publishing throws; CancelledError when the run is cancelled
 */
export async function create(
  settings: Settings,
  seed: SeedPlan | null,
  pub: Publication,
  driver: ModeDriver,
  fingerprint: string,
  fingerprintWith?: FingerprintWith
): Promise<{ report: Report; record: CommentRecord }> {
  // started by main.ts; loaded before any 423 retry or poll can be due (branch mode; instant mode loads nothing here)
  if (settings.mode === 'branch' && settings.compareSchema) mark('schema tools (the rest)')
  await preloadSchemaTools(settings.mode, { ...settings, seedCommand: settings.seedCommand || settings.migrateCommand })
  mark('provisioning')
  let db = await driver.provision()
  if (db.madeWithRules && fingerprintWith) fingerprint = await fingerprintUnderRules(fingerprintWith, db.madeWithRules, db.previous)
  const rebuiltBecause = db.created ? null : rebuildReason(settings, db.previous, fingerprint)
  if (rebuiltBecause) {
    core.info(`Rebuilding: ${rebuiltBecause}.`)
    db = await db.rebuild()
    db.report.rebuiltBecause = rebuiltBecause
  }
  const fresh = db.created || !!db.rebuilt
  if (fresh) forgetReusable(pub, settings.mode)
  maskConnection(db.connection)
  const { connection, report } = db
  const recorded = { fingerprint: fresh ? fingerprint : keptFingerprint(db.previous, fingerprint) }
  let diff: SchemaDiff | SchemaUnavailable | null = null
  let total: string | undefined
  if (fresh) {
    const undo = async (): Promise<void> => {
      await db.undoUnseeded()
      await publish(pub, { ...report, state: 'seed-failed' }, { mode: settings.mode })
    }
    diff = await seedOrUndo(settings, seed, connection, report, undo, db.platformDiff)
    await db.markSeeded()
  } else if (settings.migrateCommand) {
    const migrated = await migrateOrKeep(settings, connection, db.platformDiff, async (failure) =>
      publish(pub, { ...report, state: 'migrate-failed', migrateFailure: failure }, { ...db.record(), ...recorded })
    )
    ;({ diff, total } = migrated)
    if (migrated.measured)
      report.migrationCost = { command: 'migrate-command', lines: migrated.measured.lines, file: migrated.measured.file }
  }
  throwIfCancelled()
  const schema = schemaResult(settings, diff, fresh || !!settings.migrateCommand)
  report.schema = withMadeBy(settings, schema.report, fresh, total)
  mark('outputs')
  setOutputs({
    ...db.outputs(),
    created: db.created,
    connection,
    schema: schema.outputs,
    reseeded: !!rebuiltBecause,
    migrationReport: report.migrationCost?.file
  })
  if (settings.envFile) {
    await writeEnvFile(
      settings.envFile,
      { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl, ...db.env },
      settings.envNames
    )
    const v = envVariables(settings.envNames)
    const names = db.envVariables === 'with-claim' ? `${v.url}, ${v.direct} and ${v.claim}` : `${v.url} and ${v.direct}`
    core.info(`Wrote ${names} to ${settings.envFile}.`)
  }
  const wired = await wirePreview(settings, pub.pr, connection) // beside the database's links in the comment
  if (wired) report.vercel = wired.report
  const record = { ...db.record(), ...recorded }
  await publish(pub, report, record)
  failWiring(wired) // the database is kept: the step fails after publishing it
  return { report, record }
}

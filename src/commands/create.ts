/**
 * `command: create`, in both modes: provision (or reuse) through the mode's
 * driver, seed what was created (undoing it when the seed fails), then
 * publish: masked outputs, the env file, the PR comment and the job summary.
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
import type { ModeDriver } from './driver.js'
import { seedOrUndo } from './seed-step.js'

/**
 * Runs `command: create` with `driver`. Nothing is handed out (outputs, env
 * file, comment record) before the seed committed.
 * @throws what the driver, the seed or publishing throws; CancelledError when the run is cancelled
 */
export async function create(settings: Settings, seed: SeedPlan | null, pub: Publication, driver: ModeDriver): Promise<void> {
  preloadSchemaTools(settings.mode, settings)
  const db = await driver.provision()
  if (db.created) forgetReusable(pub, settings.mode)
  maskConnection(db.connection)
  const { connection, report } = db
  let diff: SchemaDiff | SchemaUnavailable | null = null
  if (db.created) {
    const undo = async (): Promise<void> => {
      await db.undoUnseeded()
      await publish(pub, { ...report, state: 'seed-failed' }, { mode: settings.mode })
    }
    diff = await seedOrUndo(settings, seed, connection, report, undo, db.platformDiff)
    await db.markSeeded()
  }
  throwIfCancelled()
  const schema = schemaResult(settings, diff, db.created)
  report.schema = schema.report
  setOutputs({ ...db.outputs(), created: db.created, connection, schema: schema.outputs })
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
  await publish(pub, report, db.record())
}

/**
 * The action's story: read and check the inputs, check the seed files while
 * finding what an earlier run of this PR left, provision (or reuse, or tear
 * down) the database, seed it, publish masked outputs, the PR comment and the
 * job summary.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { type Settings, readSettings } from './inputs.js'
import { UNSEEDED_BRANCH, cancelSignal, isCancelled, offCancel, throwIfCancelled, unlessCancelled } from './cancel.js'
import { INSTANT_PG_VERSION, INSTANT_REGION, getDatabase } from './instant/client.js'
import { provisionInstant } from './instant/lifecycle.js'
import { type Connection, describeConnection } from './connection.js'
import {
  defaultBranchName,
  deleteBranchAndWait,
  findPreviewBranches,
  markSeeded,
  provisionBranch,
  waitForPendingOf
} from './platform/lifecycle.js'
import { type LifecycleClient, lifecycleClientOf } from './platform/lifecycle-client.js'
import { createExtras, explainCreateRefusal } from './platform/create-options.js'
import { ownerOfRun } from './platform/annotations.js'
import { anonymizedBranch, maskedColumnsOf } from './platform/anonymized.js'
import { recordUse } from './platform/expiry.js'
import { runCleanup } from './commands/cleanup.js'
import { resetBranch } from './commands/reset.js'
import { clearUnseeded } from './post-state.js'
import { summarise } from './platform/operations.js'
import { resolveSeedFiles } from './seed/files.js'
import { type SeedPlan, SeedError, checkSeed, loadSeed } from './seed/loader.js'
import { runSeedCommand } from './seed/command.js'
import { endSessions } from './session.js'
import { maskConnection, setOutputs } from './publish/outputs.js'
import { envVariables, writeEnvFile } from './publish/env-file.js'
import type { Report } from './publish/report.js'
import { type Publication, forgetReusable, openPublication, publish, releaseLock } from './publish/publication.js'
import type { SchemaDiff } from './schema/diff.js'
import { type SchemaUnavailable, SchemaTracker, preloadSchemaTools, schemaResult } from './schema/track.js'

/**
 * Starts the seed's check pass (no database needed). Awaited before the PR
 * comment's lock is claimed and before anything is created: a refused seed
 * creates no database and posts no comment.
 * @returns null when there is nothing to seed from files
 */
function startSeedCheck(files: string[]): Promise<SeedPlan | null> {
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
/**
 * Seeds a newly created database: the checked SQL files in one transaction,
 * then `seed-command`, with the schema compared around them ({@link SchemaTracker}).
 * On failure (a destructive change under `fail-on-destructive` included)
 * runs `undo` (so nothing unseeded is left for reuse) and rethrows. Sets
 * `report.seedFiles`.
 * @param platformDiff branch mode: fetches the platform's compare_schema diff against the parent
 * @throws CancelledError at once when the run is cancelled: the seed's session is ended (its
 *   transaction rolled back, never committed) and `seed-command`'s process group is killed.
 */
async function seedOrUndo(
  settings: Settings,
  seed: SeedPlan | null,
  connection: Connection,
  report: Report,
  undo: () => Promise<void>,
  platformDiff?: () => Promise<string>
): Promise<SchemaDiff | SchemaUnavailable | null> {
  const tracker = new SchemaTracker(report.mode, connection, settings.compareSchema, settings.failOnDestructive, !!settings.seedCommand)
  try {
    await tracker.atStart()
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
    if (settings.seedCommand) {
      await endSessions() // a migration tool may need the database to itself
      const running = core.group('Run seed-command', () =>
        unlessCancelled(runSeedCommand(settings.seedCommand, connection, cancelSignal()))
      )
      tracker.seedCommandStarted() // its process runs (spawned synchronously): build "before" meanwhile
      await running
    }
    if (!settings.compareSchema) return null
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

/** Instant mode, `command: create`. */
async function createInstant(settings: Settings, seed: SeedPlan | null, pub: Publication): Promise<void> {
  preloadSchemaTools('instant', settings)
  const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 }
  const previous = pub.existing?.record.mode === 'instant' ? pub.existing.record.databaseId : undefined
  const outcome = await core.group('Provision the instant database', () =>
    provisionInstant(endpoint, { ...settings, previousId: previous })
  )
  const db = { ...outcome.database, expiresAt: outcome.database.expiresAt ?? undefined }
  if (outcome.created) forgetReusable(pub, 'instant')
  const connection = describeConnection(db.connectionString)
  maskConnection(connection)

  const report: Report = {
    mode: 'instant',
    state: outcome.created ? 'created' : 'reused',
    databaseId: db.id,
    claimUrl: db.claimUrl,
    expiresAt: db.expiresAt,
    region: INSTANT_REGION,
    pgVersion: INSTANT_PG_VERSION,
    projectId: db.projectId,
    replacedBecause: outcome.replacedBecause
  }
  let diff: SchemaDiff | SchemaUnavailable | null = null
  if (outcome.created) {
    diff = await seedOrUndo(settings, seed, connection, report, async () => {
      // The instant service has no delete: record nothing reusable instead.
      await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'instant' })
    })
  }
  const schema = schemaResult(settings, diff, outcome.created)
  report.schema = schema.report

  throwIfCancelled()
  setOutputs({
    mode: 'instant',
    created: outcome.created,
    connection,
    claimUrl: db.claimUrl,
    expiresAt: db.expiresAt,
    databaseId: db.id,
    projectId: db.projectId,
    schema: schema.outputs
  })
  if (settings.envFile) {
    await writeEnvFile(
      settings.envFile,
      { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl, claimUrl: db.claimUrl, expiresAt: db.expiresAt },
      settings.envNames
    )
    const v = envVariables(settings.envNames)
    core.info(`Wrote ${v.url}, ${v.direct} and ${v.claim} to ${settings.envFile}.`)
  }
  await publish(pub, report, { mode: 'instant', databaseId: db.id, expiresAt: db.expiresAt })
}

/**
 * Instant mode, `command: delete`. The service has no delete (seed 001): say
 * in the comment that the PR closed and when the database lapses unless claimed.
 */
async function closeInstant(settings: Settings, pub: Publication): Promise<void> {
  const record = pub.existing?.record
  if (!record?.databaseId) {
    core.notice('No preview database of this pull request was found: nothing to close.')
    return
  }
  const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 }
  let expiresAt = record.expiresAt
  let claimUrl: string | undefined
  try {
    const db = await getDatabase(endpoint, record.databaseId)
    if (db) {
      expiresAt = db.status === 'CLAIMED' ? undefined : (db.expiresAt ?? undefined)
      claimUrl = db.status === 'UNCLAIMED' ? db.claimUrl : undefined
    }
  } catch (err) {
    core.warning(`Could not fetch database ${record.databaseId}: ${(err as Error).message} The comment uses the expiry recorded earlier.`)
  }
  core.info(
    `The instant service has no delete: database ${record.databaseId} lapses ${expiresAt ? `at ${expiresAt}` : 'never (it was claimed)'}.`
  )
  await publish(
    pub,
    { mode: 'instant', state: 'closed', databaseId: record.databaseId, expiresAt, claimUrl },
    { mode: 'instant', expiresAt }
  )
}

function platformClient(settings: Settings): LifecycleClient {
  return lifecycleClientOf(settings)
}

function branchNameOf(settings: Settings, pub: Publication): string {
  return settings.branchName || defaultBranchName(pub.pr, github.context.sha ?? '')
}

/** Branch mode, `command: create`. */
async function createBranch(settings: Settings, seed: SeedPlan | null, pub: Publication): Promise<void> {
  preloadSchemaTools('branch', settings)
  const client = platformClient(settings)
  const branchName = branchNameOf(settings, pub)
  const extras = createExtras(settings, ownerOfRun())
  const anonymized = settings.maskingRules.length ? anonymizedBranch(settings, settings.maskingRules) : undefined
  const outcome = await core
    .group(`Provision branch "${branchName}"`, () => provisionBranch(client, { ...settings, branchName, createExtras: extras, anonymized }))
    .catch((err: unknown) => Promise.reject(explainCreateRefusal(err, settings)))
  // issue 14: a reused branch's expiry moves to `expires-in` from now; issue 20: every reuse is recorded as the branch's last use (max-age)
  const expiresAt = outcome.created
    ? (outcome.branch.expires_at ?? extras.branch?.expires_at)
    : await recordUse(client, outcome.branch, settings)
  if (outcome.created) forgetReusable(pub, 'branch')
  const connection = describeConnection(outcome.pooledUrl, outcome.directUrl)
  maskConnection(connection)
  // A reused branch is reported as what it is, anonymized or not, whatever this run's `masking-rules`.
  const masked = anonymized?.columns() ?? (outcome.created ? undefined : await maskedColumnsOf(settings, outcome.branch))
  const report: Report = {
    mode: 'branch',
    state: outcome.created ? 'created' : 'reused',
    projectId: settings.projectId,
    branchId: outcome.branch.id,
    branchName,
    parentBranch: outcome.parent?.name,
    host: connection.directHost,
    operations: outcome.operations.map(summarise),
    expiresAt,
    schemaOnly: outcome.created && settings.schemaOnly,
    anonymized: masked
  }
  let diff: SchemaDiff | SchemaUnavailable | null = null
  if (outcome.created) {
    // provisionBranch registered the UNSEEDED_BRANCH undo step when it created the branch; it stays until seeded.
    const parent = outcome.parent
    const platformDiff = parent ? () => client.compareSchema(outcome.branch.id, parent.id, connection.database) : undefined
    diff = await seedOrUndo(
      settings,
      seed,
      connection,
      report,
      async () => {
        offCancel(UNSEEDED_BRANCH)
        await core.group(`Delete the unseeded branch "${outcome.branch.name}"`, async () => {
          try {
            await deleteBranchAndWait(client, outcome.branch, settings)
            clearUnseeded()
            core.info(`Deleted branch "${outcome.branch.name}" so the next run starts clean.`)
          } catch (err) {
            core.warning(
              `Could not delete the unseeded branch "${outcome.branch.name}" (${outcome.branch.id}): ${(err as Error).message} Its name marks it unseeded, so no run reuses it: the next run deletes it.`
            )
          }
        })
        await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'branch' })
      },
      platformDiff
    )
    // Only now does the branch carry the PR's name, which is what later runs reuse (platform/lifecycle.ts).
    outcome.branch = await core.group(`Mark branch "${branchName}" seeded`, () => markSeeded(client, outcome.branch, branchName, settings))
    offCancel(UNSEEDED_BRANCH)
    clearUnseeded()
  }
  throwIfCancelled()
  const schema = schemaResult(settings, diff, outcome.created)
  report.schema = schema.report
  setOutputs({
    mode: 'branch',
    created: outcome.created,
    connection,
    projectId: settings.projectId,
    branchId: outcome.branch.id,
    branchName: outcome.branch.name,
    schema: schema.outputs,
    expiresAt,
    anonymized: !!masked
  })
  if (settings.envFile) {
    await writeEnvFile(settings.envFile, { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl }, settings.envNames)
    const v = envVariables(settings.envNames)
    core.info(`Wrote ${v.url} and ${v.direct} to ${settings.envFile}.`)
  }
  await publish(pub, report, { mode: 'branch', branchId: outcome.branch.id, branchName: outcome.branch.name })
}

/** Branch mode, `command: delete`: delete the PR's branch (and a provisional one a failed run left) and wait for the operations. */
async function removeBranch(settings: Settings, pub: Publication): Promise<void> {
  const client = platformClient(settings)
  const branchName = branchNameOf(settings, pub)
  const found = await findPreviewBranches(client, branchName)
  if (found.provisional) {
    core.info(`Deleting branch "${found.provisional.name}", left by a run whose seed did not complete.`)
    await waitForPendingOf(client, found.provisional, settings) // issue 20: a cancelled run's compute start may still run on it
    await deleteBranchAndWait(client, found.provisional, settings)
  }
  const branch = found.seeded
  if (!branch) {
    core.notice(`Branch "${branchName}" does not exist (already deleted): nothing to do.`)
    if (pub.existing)
      await publish(pub, { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchName }, { mode: 'branch' })
    return
  }
  const ops = await core.group(`Delete branch "${branchName}"`, () => deleteBranchAndWait(client, branch, settings))
  throwIfCancelled()
  if (ops === null) core.notice(`Branch "${branchName}" was already gone.`)
  else core.info(`Deleted branch "${branchName}" (${branch.id}).`)
  await publish(
    pub,
    {
      mode: 'branch',
      state: 'deleted',
      projectId: settings.projectId,
      branchId: branch.id,
      branchName,
      operations: (ops ?? []).map(summarise)
    },
    { mode: 'branch' }
  )
}

/**
 * Runs the action. Every failure ends in `core.setFailed` with a message
 * that says what to fix; nothing secret is ever part of it. Whatever
 * happens, a comment lock this run holds is released before it ends (a
 * cancelled run releases it in its undo steps, cancel.ts).
 * @param checked the inputs, when the caller has read them already (index.ts does, before loading this module)
 */
export async function run(checked?: Settings): Promise<void> {
  let settings: Settings | undefined
  let pub: Publication | undefined
  let failed = false
  try {
    settings = checked ?? readSettings()
    // issue 14: commands with a story of their own
    if (settings.command === 'cleanup') return await runCleanup(settings)
    const seedFiles = settings.command === 'create' || settings.command === 'reset' ? await resolveSeedFiles(settings.seed) : []
    const seedCheck = startSeedCheck(seedFiles)
    pub = await openPublication(settings, seedCheck)
    const seed =
      seedFiles.length === 0
        ? null
        : await core.group('Check the seed files', async () => {
            const plan = (await seedCheck)!
            core.info(
              `Checked ${plan.sources.length} seed file(s)${plan.included ? ` and ${plan.included} included one(s)` : ''} in ${(plan.checkMs / 1000).toFixed(1)} s: ` +
                'only the psql meta-commands the loader runs (\\echo, \\i, \\ir, \\set, \\if, \\copy … from, \\gset, \\gexec, …), ' +
                'no statement that needs another database or its own transaction.'
            )
            return plan
          })
    if (settings.mode === 'instant') {
      if (settings.command === 'create') await createInstant(settings, seed, pub)
      else await closeInstant(settings, pub)
    } else {
      if (settings.command === 'create') await createBranch(settings, seed, pub)
      else if (settings.command === 'delete') await removeBranch(settings, pub)
      else {
        const [s, p] = [settings, pub]
        await resetBranch(s, branchNameOf(s, p), {
          publish: (report, record) => publish(p, report, record),
          seed: async (connection, report, undo) => {
            // After the restore the branch is its parent's copy again: the diff is what the seed and seed-command change.
            report.schema = schemaResult(s, await seedOrUndo(s, seed, connection, report, undo), true).report
          }
        })
      }
    }
  } catch (err) {
    if (isCancelled()) return // the cancel handler reports and undoes
    failed = true
    core.setFailed(err instanceof Error ? err.message : String(err))
  } finally {
    await endSessions() // an open connection would keep the process running
    if (settings) await releaseLock(pub, settings.mode, failed)
  }
}

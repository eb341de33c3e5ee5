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
  type BranchOutcome,
  waitForPendingOf
} from './platform/lifecycle.js'
import { type LifecycleClient, lifecycleClientOf } from './platform/lifecycle-client.js'
import { createExtras, explainCreateRefusal } from './platform/create-options.js'
import { ownerOfRun } from './platform/annotations.js'
import { anonymizedBranch } from './platform/anonymized.js'
import { recordUse } from './platform/expiry.js'
import { runCleanup } from './commands/cleanup.js'
import { clearUnseeded } from './post-state.js'
import { summarise } from './platform/operations.js'
import { resolveSeedFiles } from './seed/files.js'
import { type SeedPlan, SeedError, checkSeed, loadSeed } from './seed/loader.js'
import { runSeedCommand } from './seed/command.js'
import { MigrateCommandError, migrateReused, runMigrateCommand } from './migrate.js'
import { fingerprintOf, keptFingerprint, rebuildReason } from './reseed.js'
import { resetBranch, reseedInPlace } from './commands/reset.js'
import type { CommentRecord } from './publish/comment.js'
import { DestructiveSchemaError } from './schema/track.js'
import { endSessions } from './session.js'
import { maskConnection, setOutputs } from './publish/outputs.js'
import { envVariables, writeEnvFile } from './publish/env-file.js'
import type { Report, SchemaReport } from './publish/report.js'
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
 * Seeds a newly created (or rebuilt) database: the checked SQL files in one transaction,
 * then `seed-command`, then `migrate-command`, with the schema compared around them ({@link SchemaTracker}).
 * On failure (a destructive change under `fail-on-destructive` included)
 * runs `undo` (so nothing unseeded is left for reuse) and rethrows. Sets
 * `report.seedFiles`.
 * @param platformDiff branch mode: fetches the platform's compare_schema diff against the parent
 * @throws CancelledError at once when the run is cancelled: the seed's session is ended (its
 *   transaction rolled back, never committed) and the command's process group is killed.
 */
async function seedOrUndo(
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
    if (settings.migrateCommand) await runMigrateCommand(settings.migrateCommand, connection, () => tracker.seedCommandStarted())
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

/** Instant mode, `command: create`. `fingerprint`: this run's seed (reseed.ts). */
async function createInstant(settings: Settings, seed: SeedPlan | null, pub: Publication, fingerprint: string): Promise<void> {
  preloadSchemaTools('instant', { ...settings, seedCommand: settings.seedCommand || settings.migrateCommand })
  const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 }
  const previous = pub.existing?.record.mode === 'instant' ? pub.existing.record : undefined
  let outcome = await core.group('Provision the instant database', () =>
    provisionInstant(endpoint, { ...settings, previousId: previous?.databaseId })
  )
  const rebuiltBecause = outcome.created ? null : rebuildReason(settings, previous, fingerprint)
  if (rebuiltBecause) {
    core.info(`Rebuilding: ${rebuiltBecause}. Database ${outcome.database.id} is left to lapse; creating a new one.`)
    outcome = await core.group('Create a new instant database (the seed changed)', () =>
      provisionInstant(endpoint, { ...settings, reuse: false })
    )
  }
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
    replacedBecause: outcome.replacedBecause,
    rebuiltBecause: rebuiltBecause ?? undefined
  }
  const record: CommentRecord = {
    mode: 'instant',
    databaseId: db.id,
    expiresAt: db.expiresAt,
    fingerprint: outcome.created ? fingerprint : keptFingerprint(previous, fingerprint)
  }
  let diff: SchemaDiff | SchemaUnavailable | null = null
  let total: string | undefined
  if (outcome.created) {
    diff = await seedOrUndo(settings, seed, connection, report, async () => {
      // The instant service has no delete: record nothing reusable instead.
      await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'instant' })
    })
  } else if (settings.migrateCommand) {
    ;({ diff, total } = await migrateOrKeep(settings, connection, pub, report, record))
  }
  const schema = schemaResult(settings, diff, outcome.created || !!settings.migrateCommand)
  report.schema = withMadeBy(settings, schema.report, outcome.created, total)

  throwIfCancelled()
  setOutputs({
    mode: 'instant',
    created: outcome.created,
    connection,
    claimUrl: db.claimUrl,
    expiresAt: db.expiresAt,
    databaseId: db.id,
    projectId: db.projectId,
    schema: schema.outputs,
    reseeded: !!rebuiltBecause
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
  await publish(pub, report, record)
}

/**
 * Runs `migrate-command` on a reused database. When it fails (or its change
 * is destructive under `fail-on-destructive`), the comment says so at this
 * commit and keeps recording the database, which keeps its data: the next run
 * runs the command again. Nothing is handed out; the error is rethrown.
 */
async function migrateOrKeep(
  settings: Settings,
  connection: Connection,
  pub: Publication,
  report: Report,
  record: CommentRecord,
  total?: () => Promise<string>
): Promise<{ diff: SchemaDiff | SchemaUnavailable | null; total?: string }> {
  try {
    return await migrateReused(settings, connection, total)
  } catch (err) {
    if (isCancelled() || !(err instanceof MigrateCommandError || err instanceof DestructiveSchemaError)) throw err
    const migrateFailure =
      err instanceof MigrateCommandError
        ? { commit: headCommit(), exitCode: err.exitCode }
        : { commit: headCommit(), reason: "this push's schema change is destructive and `fail-on-destructive` is true" }
    await publish(pub, { ...report, state: 'migrate-failed', migrateFailure }, record)
    throw err
  }
}

/** The commit this run is for: the PR's head, else the workflow's commit. */
function headCommit(): string {
  const head = (github.context.payload.pull_request?.head as { sha?: string } | undefined)?.sha
  return head || github.context.sha || ''
}

/** The schema report with what made the change named (`migrate-command` on a reused database) and the PR's total (branch mode). */
function withMadeBy(settings: Settings, report: SchemaReport | undefined, created: boolean, total?: string): SchemaReport | undefined {
  if (!report || !settings.migrateCommand) return report
  const madeBy = created
    ? settings.seedCommand
      ? '`seed-command` and `migrate-command`'
      : '`migrate-command`'
    : '`migrate-command` in this run'
  return { ...report, madeBy: report.source === 'platform' ? undefined : madeBy, total }
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

/**
 * Branch mode, `command: create`. `fingerprint`: this run's seed (reseed.ts).
 * A reused branch whose seed changed is rebuilt: reset in place from its
 * parent and seeded again (reset.ts: same name and id, never handed out
 * unseeded), or, where the platform cannot restore it (anonymized,
 * schema-only), deleted and created again under the same name.
 */
async function createBranch(settings: Settings, seed: SeedPlan | null, pub: Publication, fingerprint: string): Promise<void> {
  preloadSchemaTools('branch', settings)
  const client = platformClient(settings)
  const branchName = branchNameOf(settings, pub)
  const extras = createExtras(settings, ownerOfRun())
  const anonymized = settings.maskingRules.length ? anonymizedBranch(settings, settings.maskingRules) : undefined
  const provision = (reuse: boolean): Promise<BranchOutcome> =>
    core
      .group(`Provision branch "${branchName}"`, () =>
        provisionBranch(client, { ...settings, reuse, branchName, createExtras: extras, anonymized })
      )
      .catch((err: unknown) => Promise.reject(explainCreateRefusal(err, settings)))
  let outcome = await provision(settings.reuse)
  const earlier = pub.existing?.record
  const previous = earlier?.mode === 'branch' && earlier.branchId === outcome.branch.id ? earlier : undefined
  const rebuiltBecause = outcome.created ? null : rebuildReason(settings, previous, fingerprint)
  if (rebuiltBecause && (anonymized || settings.schemaOnly)) {
    core.info(`Rebuilding: ${rebuiltBecause}. The platform cannot restore this branch from its parent, so it is created again.`)
    outcome = await provision(false)
  }
  const inPlace = !!rebuiltBecause && !outcome.created
  // issue 14: a reused branch's expiry moves to `expires-in` from now; issue 20: every reuse is recorded as the branch's last use (max-age)
  const expiresAt = outcome.created
    ? (outcome.branch.expires_at ?? extras.branch?.expires_at)
    : await recordUse(client, outcome.branch, settings)
  if (outcome.created || inPlace) forgetReusable(pub, 'branch')
  let connection = describeConnection(outcome.pooledUrl, outcome.directUrl)
  maskConnection(connection)
  const report: Report = {
    mode: 'branch',
    state: outcome.created ? 'created' : inPlace ? 'reset' : 'reused',
    projectId: settings.projectId,
    branchId: outcome.branch.id,
    branchName,
    parentBranch: outcome.parent?.name,
    host: connection.directHost,
    operations: outcome.operations.map(summarise),
    expiresAt,
    schemaOnly: outcome.created && settings.schemaOnly,
    anonymized: anonymized?.columns(),
    rebuiltBecause: rebuiltBecause ?? undefined
  }
  const seededRecord = (): CommentRecord => ({ mode: 'branch', branchId: outcome.branch.id, branchName: outcome.branch.name, fingerprint })
  let record: CommentRecord = { ...seededRecord(), fingerprint: keptFingerprint(previous, fingerprint) }
  let diff: SchemaDiff | SchemaUnavailable | null = null
  let total: string | undefined
  const parent = outcome.parent
  const platformDiff = parent ? () => client.compareSchema(outcome.branch.id, parent.id, connection.database) : undefined
  /** Seeds the branch; on failure `undoBranch` deletes it and the comment says the seed failed. */
  const seedBranch = (undoBranch: () => Promise<void>): Promise<SchemaDiff | SchemaUnavailable | null> =>
    seedOrUndo(
      settings,
      seed,
      connection,
      report,
      async () => {
        await undoBranch()
        await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'branch' })
      },
      platformDiff
    )
  if (outcome.created) {
    // provisionBranch registered the UNSEEDED_BRANCH undo step when it created the branch; it stays until seeded.
    diff = await seedBranch(async () => {
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
    })
    // Only now does the branch carry the PR's name, which is what later runs reuse (platform/lifecycle.ts).
    outcome.branch = await core.group(`Mark branch "${branchName}" seeded`, () => markSeeded(client, outcome.branch, branchName, settings))
    offCancel(UNSEEDED_BRANCH)
    clearUnseeded()
    record = seededRecord()
  } else if (inPlace && parent) {
    outcome.branch = await reseedInPlace(
      client,
      settings,
      outcome.branch,
      parent,
      branchName,
      async (restoredConnection, restored, undoBranch) => {
        connection = restoredConnection
        report.operations = [...(report.operations ?? []), ...restored.operations.map(summarise)]
        report.resetAt = (restored.branch as { last_reset_at?: string }).last_reset_at ?? new Date().toISOString()
        diff = await seedBranch(undoBranch)
      }
    )
    record = seededRecord()
  } else if (settings.migrateCommand) {
    ;({ diff, total } = await migrateOrKeep(settings, connection, pub, report, record, platformDiff))
  }
  throwIfCancelled()
  const ran = outcome.created || inPlace
  const schema = schemaResult(settings, diff, ran || !!settings.migrateCommand)
  report.schema = withMadeBy(settings, schema.report, ran, total)
  setOutputs({
    mode: 'branch',
    created: outcome.created,
    connection,
    projectId: settings.projectId,
    branchId: outcome.branch.id,
    branchName: outcome.branch.name,
    schema: schema.outputs,
    expiresAt,
    anonymized: !!anonymized,
    reseeded: !!rebuiltBecause
  })
  if (settings.envFile) {
    await writeEnvFile(settings.envFile, { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl }, settings.envNames)
    const v = envVariables(settings.envNames)
    core.info(`Wrote ${v.url} and ${v.direct} to ${settings.envFile}.`)
  }
  await publish(pub, report, record)
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
    const s = settings
    // Hashed while the comment lock is taken (reading the files needs no network).
    const fingerprinting =
      s.command === 'create' || s.command === 'reset' ? seedCheck.then((plan) => fingerprintOf(s, seedFiles, plan)) : Promise.resolve('')
    fingerprinting.catch(() => undefined) // awaited below; not an unhandled rejection meanwhile
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
    const fingerprint = await fingerprinting
    if (settings.mode === 'instant') {
      if (settings.command === 'create') await createInstant(settings, seed, pub, fingerprint)
      else await closeInstant(settings, pub)
    } else {
      if (settings.command === 'create') await createBranch(settings, seed, pub, fingerprint)
      else if (settings.command === 'delete') await removeBranch(settings, pub)
      else {
        const [s, p] = [settings, pub]
        await resetBranch(s, branchNameOf(s, p), {
          // a branch seeded again records what it was seeded from
          publish: (report, record) => publish(p, report, record.branchId ? { ...record, fingerprint } : record),
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

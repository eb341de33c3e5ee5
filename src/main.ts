/**
 * The action's story: read and check the inputs, check the seed files while
 * taking the PR comment's lock (which finds what an earlier run of this PR
 * left), run the command, and release the lock whatever happened.
 */
import * as core from '@actions/core'
import { readSettings } from './inputs.js'
import type { MaskingRuleInput, Settings } from './settings.js'
import { isCancelled } from './cancel.js'
import { neonClientOf } from './platform/client.js'
import { waitForBusyProject } from './platform/project-wait.js'
import { runCleanup } from './sweep/cleanup.js'
import { create } from './commands/create.js'
import { deletePreview } from './commands/delete.js'
import { resetBranch } from './commands/reset.js'
import { branchDriver, branchNameOf } from './commands/branch-driver.js'
import { instantDriver } from './commands/instant-driver.js'
import { checkedSeed, startSeedCheck } from './commands/seed-step.js'
import { seedFingerprintOf } from './commands/reseed.js'
import { resolveSeedFiles } from './seed/files.js'
import { preloadSchemaTools } from './schema/track.js'
import { endSessions } from './pg-sessions.js'
import { type Publication, openPublication, releaseLock } from './publish/publication.js'
import { publishReport } from './commands/publish.js'
import { writeRunReport } from './publish/run-report.js'
import type { PreviewDeployment } from './deployment/deployment.js'
import { deactivateDeployments, environmentUrlOf, startDeployment } from './deployment/run-deployment.js'
import { mark, phaseLog } from './phases.js'
import { recordIdsFrom } from './platform/recorded-ids.js'
import { NeonLimitError } from './platform/api-errors.js'
import { removeVercelVariables } from './vercel/cleanup.js'
import { commandRefusedBecause } from './run-source.js'

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
  let deploying: Promise<PreviewDeployment | null> = Promise.resolve(null)
  let failed = false
  let failedBecause: string | undefined
  try {
    settings = checked ?? readSettings()
    const refused = commandRefusedBecause(settings.command)
    if (refused) return core.notice(refused) // before any request: nothing provisioned, nothing written
    const client = neonClientOf(settings) // the run's one Neon API client (branch mode; no request until used)
    waitForBusyProject(client, settings) // a request that meets 423 twice (or five times) waits for the project's running operations
    if (settings.command === 'cleanup') return await runCleanup(settings, client)
    if (settings.command === 'publish') return await publishReport(settings)

    mark('seed files')
    const seedFiles = settings.command === 'create' || settings.command === 'reset' ? await resolveSeedFiles(settings.seed) : []
    const seedCheck = startSeedCheck(seedFiles)
    const fingerprinting = seedFingerprintOf(settings, seedFiles, seedCheck) // hashed while the lock is taken
    if (settings.command === 'create') {
      // overlaps the comment lock's requests
      void preloadSchemaTools(settings.mode, { ...settings, seedCommand: settings.seedCommand || settings.migrateCommand })
    }
    mark('comment lock')
    pub = await openPublication(settings, seedCheck)
    mark('check pass (the rest)')
    const seed = await checkedSeed(seedFiles, seedCheck)
    const fingerprint = await fingerprinting

    const branchName = branchNameOf(settings, pub.pr)
    const driver =
      settings.mode === 'instant' ? instantDriver(settings, pub) : branchDriver(settings, client, branchName, pub.existing?.record)
    if (settings.command === 'create') {
      deploying = startDeployment(settings, pub) // beside provisioning: it needs nothing of the database
      const { lock } = pub
      const started = deploying
      // A branch this run creates records both ids, so the sweep writes to them without listing.
      recordIdsFrom(() => ({ commentId: lock?.claim.id || undefined, deploymentId: started.then((d) => d?.id) }))
      const { command, seedCommand, schemaOnly } = settings
      const under = (maskingRules: MaskingRuleInput[]): Promise<string> =>
        seedFingerprintOf({ command, seedCommand, schemaOnly, maskingRules }, seedFiles, seedCheck)
      const done = await create(settings, seed, pub, driver, fingerprint, under)
      await (await deploying)?.succeed(environmentUrlOf(done.report))
      await writeRunReport(settings, pub, done)
    } else if (settings.command === 'delete') {
      await deletePreview(pub, driver)
      await deactivateDeployments(settings, pub.pr)
      await removeVercelVariables(settings, pub.pr)
    } else await resetBranch(client, settings, branchName, seed, pub, fingerprint)
  } catch (err) {
    if (isCancelled()) return // the cancel handler reports and undoes
    failed = true
    // A plan limit of Neon's is named in the PR comment too, with its way out.
    if (err instanceof NeonLimitError) failedBecause = err.message
    await (await deploying)?.fail()
    core.setFailed(err instanceof Error ? err.message : String(err))
  } finally {
    mark('finish')
    await endSessions() // an open connection would keep the process running
    if (settings) await releaseLock(pub, settings.mode, failed, failedBecause)
    core.info(`Where the time went:\n${phaseLog()}`)
  }
}

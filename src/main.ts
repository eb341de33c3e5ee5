/**
 * The action's story: read and check the inputs, check the seed files while
 * taking the PR comment's lock (which finds what an earlier run of this PR
 * left), run the command, and release the lock whatever happened.
 */
import * as core from '@actions/core'
import { readSettings } from './inputs.js'
import type { Settings } from './settings.js'
import { isCancelled } from './cancel.js'
import { neonClientOf } from './platform/client.js'
import { runCleanup } from './commands/cleanup.js'
import { create } from './commands/create.js'
import { deletePreview } from './commands/delete.js'
import { resetBranch } from './commands/reset.js'
import { branchDriver, branchNameOf } from './commands/branch-driver.js'
import { instantDriver } from './commands/instant-driver.js'
import { checkedSeed, startSeedCheck } from './commands/seed-step.js'
import { resolveSeedFiles } from './seed/files.js'
import { endSessions } from './pg-sessions.js'
import { type Publication, openPublication, releaseLock } from './publish/publication.js'

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
    const client = neonClientOf(settings) // the run's one Neon API client (branch mode; no request until used)
    if (settings.command === 'cleanup') return await runCleanup(settings, client)

    const seedFiles = settings.command === 'create' || settings.command === 'reset' ? await resolveSeedFiles(settings.seed) : []
    const seedCheck = startSeedCheck(seedFiles)
    pub = await openPublication(settings, seedCheck)
    const seed = await checkedSeed(seedFiles, seedCheck)

    const branchName = branchNameOf(settings, pub.pr)
    const driver = settings.mode === 'instant' ? instantDriver(settings, pub) : branchDriver(settings, client, branchName)
    if (settings.command === 'create') await create(settings, seed, pub, driver)
    else if (settings.command === 'delete') await deletePreview(pub, driver)
    else await resetBranch(client, settings, branchName, seed, pub)
  } catch (err) {
    if (isCancelled()) return // the cancel handler reports and undoes
    failed = true
    core.setFailed(err instanceof Error ? err.message : String(err))
  } finally {
    await endSessions() // an open connection would keep the process running
    if (settings) await releaseLock(pub, settings.mode, failed)
  }
}

/**
 * One swept branch's delete and what follows it (run.ts decides when): a
 * branch with child branches left is kept (Neon does not delete a branch
 * with children); the delete retries 423 and waits for its operations
 * (deleteBranchAndWait), and a project still busy after those retries is
 * tried again after a poll interval, {@link BUSY_TRIES} times in all; then
 * the preview's deployments are set `inactive` (only where its environment
 * has any), its Vercel variables are removed (vercel/cleanup.ts), and the
 * report for the PR's comment says swept.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import type { Branch, NeonClient } from '../platform/client.js'
import { type DeleteSharing, deleteBranchAndWait } from '../platform/branch-delete.js'
import { ProjectBusyError } from '../platform/retry-423.js'
import { summarise } from '../platform/operations.js'
import { renderReport } from '../publish/report.js'
import { usageOf } from '../platform/usage.js'
import { runUrl } from '../publish/publication.js'
import { deactivateEnvironment, environmentOf, setInactive } from '../deployment/deployment.js'
import type { Octokit } from '../comment/comment.js'
import { removeSweptVariables } from '../vercel/cleanup.js'
import { deploymentsToDeactivate } from './direct.js'
import type { SweepRow } from './decide.js'

/** Times a delete is tried again after its 423 retries found the project still busy. */
const BUSY_TRIES = 3

/** What a swept branch's delete needs: the sweep's clients and settings, and what the sweep knows so far. */
export interface DeleteContext {
  client: NeonClient
  octokit: Octokit
  settings: Settings
  /** Every branch of the project when the sweep began. */
  branches: Branch[]
  /** Short reasons of the branches that could not be handled (a failed Vercel removal adds one). */
  failures: string[]
  /** How the sweep's deletes share the project (pace.ts, deleteSharing). */
  sharing: DeleteSharing
  /** Ids of the branches this sweep deleted: added to here. */
  gone: Set<string>
  /**
   * The repository's deployments by environment (deployment.ts, previewEnvironments); null when
   * they were not listed (each environment is then listed alone), undefined when the sweep does not touch deployments.
   */
  envs: Map<string, { id: number }[]> | null | undefined
}

/**
 * Deletes the row's branch unless child branches are left, sets its PR's
 * deployments `inactive`, removes its Vercel variables, and renders what the
 * PR's comment should say. Updates `row` (decision `deleted`, `already gone`
 * or `keep`).
 * @returns the comment's Markdown, or null when the branch was kept.
 * @throws the delete's error (ProjectBusyError after {@link BUSY_TRIES} tries, HttpError), or the deployments' GitHub error.
 */
export async function deleteSwept(x: DeleteContext, row: SweepRow): Promise<string | null> {
  const children = x.branches.filter((b) => b.parent_id === row.branch.id && !x.gone.has(b.id))
  if (children.length) {
    Object.assign(row, {
      decision: 'keep',
      reason: `${row.reason}, but it has child branch${children.length === 1 ? '' : 'es'} ${children.map((c) => `"${c.name}"`).join(', ')}, and Neon does not delete a branch with children: delete them first`
    })
    return null
  }
  let ops
  for (let attempt = 1; ; attempt++) {
    try {
      ops = await deleteBranchAndWait(x.client, row.branch, x.settings, x.sharing)
      break
    } catch (err) {
      if (!(err instanceof ProjectBusyError) || attempt >= BUSY_TRIES) throw err
      await new Promise((r) => setTimeout(r, x.settings.pollIntervalSeconds * 1000))
    }
  }
  x.gone.add(row.branch.id)
  row.decision = ops === null ? 'already gone' : 'deleted'
  core.info(`Deleted branch "${row.branch.name}" (${row.branch.id}): ${row.reason}.`)
  await deactivate(x, row)
  const unwired = await removeSweptVariables(x.settings, row.pr, row.preview ?? '')
  if (unwired) x.failures.push(`"${row.branch.name}": ${unwired}`)
  return renderReport({
    mode: 'branch',
    state: 'swept',
    projectId: x.settings.projectId,
    branchId: row.branch.id,
    branchName: row.branch.name,
    sweptBecause: row.reason,
    usage: usageOf(row.branch),
    operations: (ops ?? []).map(summarise)
  })
}

/** Sets the preview's deployments `inactive`, only where its environment has any. */
async function deactivate(x: DeleteContext, row: SweepRow): Promise<void> {
  if (!row.pr || !x.settings.deployment || x.envs === undefined) return
  const environment = environmentOf(row.pr, row.preview ?? '')
  const known = x.envs?.get(environment)
  const recorded = row.recorded?.deploymentId
  // From the id the run recorded: no status read (direct.ts); without the repository's listing, the environment's as below.
  if (recorded && x.envs)
    return void (await setInactive(x.octokit, github.context.repo, deploymentsToDeactivate(recorded, known), runUrl() ?? ''))
  if (x.envs && !known) return
  await deactivateEnvironment(x.octokit, github.context.repo, environment, runUrl() ?? '', known)
}

/**
 * `command: create`'s Vercel wiring, once the database is handed out: the
 * PR's head branch gets its Preview variables (variables.ts), and the head
 * commit's preview reads them. Vercel documents that changed variables
 * apply only to new deployments, and that a redeploy inherits the earlier
 * deployment's variables; so a deployment of the commit created before the
 * variables were written (or changed) is replaced by a new deployment of
 * the same commit from its Git source (`POST /v13/deployments` with
 * `gitSource`), and cancelled if it is still queued or building. Without a
 * deployment of the commit, nothing more is done: the one Vercel's Git
 * integration builds from now on reads the variables. At most one new
 * deployment per run; none when a deployment already reads them. Only the
 * PR's branch's preview deployments count: another branch's, or a production
 * deployment of the same commit, is never cancelled nor published.
 *
 * Nothing is written to Vercel for a fork's PR (its branch name is the
 * fork's, and its commit is not the linked repository's) nor when the head
 * branch is the project's production branch (Vercel refuses a Preview
 * variable there, vercel/vercel#15763, and a deployment of it would be a
 * production one): the database is handed out, and one notice says why.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { CancelledError } from '../cancel.js'
import type { Connection } from '../connection.js'
import type { Settings } from '../settings.js'
import { type VercelDeployment, VercelClient, VercelError, type VercelProject } from './client.js'
import { forkOf } from './inputs.js'
import { type VercelReport, deploymentUrlOf } from './report.js'
import { markerOf, syncVariables } from './variables.js'

/** States of a deployment that will not serve (`BLOCKED`: the SDK's `readyState`): it never replaces a stale one, and a stale one in them is not cancelled. */
const ENDED = ['CANCELED', 'ERROR', 'DELETED', 'BLOCKED']
/** States of a deployment still on its way (cancelled when stale). */
const UNDERWAY = ['QUEUED', 'INITIALIZING', 'BUILDING']

/** What the wiring did: the report's row, and the failure that fails the step (the database is kept). */
export interface VercelWiring {
  report: VercelReport
  failure?: string
}

/** The run's Vercel client: 429s waited out within `wait-timeout` from now. */
export function vercelClientOf(settings: Settings): VercelClient | null {
  if (!settings.vercel) return null
  return new VercelClient(settings.vercel, settings.requestTimeoutSeconds * 1000, Date.now() + settings.waitTimeoutSeconds * 1000)
}

/** The PR's head commit: the event's `pull_request.head.sha`, else the run's commit. */
const headSha = (): string =>
  (github.context.payload.pull_request as { head?: { sha?: string } } | undefined)?.head?.sha ?? github.context.sha

/**
 * Makes the commit's preview read the variables written at `changedAt`.
 * @returns the deployment that reads them, and what was done
 * @throws VercelError when a new deployment is needed and the project has no Git link; HttpError
 */
async function previewOf(
  client: VercelClient,
  project: VercelProject,
  ref: string,
  sha: string,
  changedAt: number
): Promise<{ deployment?: VercelDeployment; note: string }> {
  const all = await client.deploymentsOf(project.id, sha, ref)
  const reading = all.find((d) => d.createdAt >= changedAt && !ENDED.includes(d.state))
  if (reading) {
    core.info(`Vercel deployment ${reading.id} of ${sha.slice(0, 7)} (${reading.state}) was made after the variables: it reads them.`)
    return { deployment: reading, note: 'reads this database' }
  }
  if (all.length === 0) {
    core.info(`No Vercel deployment of ${sha.slice(0, 7)} yet: the one Vercel's Git integration builds from now on reads the variables.`)
    return { note: `no deployment of ${sha.slice(0, 7)} yet; the next one Vercel builds for the branch reads this database` }
  }
  if (!project.link?.repoId)
    throw new VercelError(
      `Vercel project "${project.name}" has no Git repository linked, so its deployment of ${sha.slice(0, 7)} cannot be made again from Git: ` +
        'connect the repository (Vercel: Project Settings, Git), or deploy from the job with the Vercel CLI (docs/preview-deployments.md).'
    )
  const made = await client.deployCommit(project, ref, sha)
  core.info(
    `Made Vercel deployment ${made.id} of ${sha.slice(0, 7)}: the earlier one${all.length > 1 ? 's' : ''} predate${all.length > 1 ? '' : 's'} the variables.`
  )
  for (const stale of all.filter((d) => UNDERWAY.includes(d.state))) {
    core.info(
      (await client.cancel(stale.id))
        ? `Cancelled the stale Vercel deployment ${stale.id} (${stale.state}).`
        : `The stale Vercel deployment ${stale.id} was no longer underway when cancelled (its build had ended): left as it is.`
    )
  }
  return { deployment: made, note: 'a new deployment of the commit, made to read this database' }
}

/**
 * Wires the PR's Vercel preview to `connection`: never throws but for a
 * cancel; a failure is returned (the caller fails the step after
 * publishing: the database is fine and kept, and the next run wires again).
 * Sets the `vercel-deployment-url` output. A fork's PR, and a head branch
 * that is the project's production branch, get a notice and a report row
 * saying why, and no write to Vercel.
 * @returns null when the wiring is off (no `vercel-token`), the run has no PR, or `branch-id` names another branch than the PR's
 */
export async function wirePreview(
  settings: Settings,
  pr: { number: number; headRef: string } | null,
  connection: Connection
): Promise<VercelWiring | null> {
  const client = vercelClientOf(settings)
  if (!client || !settings.vercel) return null
  if (settings.branchId) return null // `branch-id` names a branch that is not the PR's preview
  if (!pr) {
    core.info('Vercel wiring skipped: the run is not for a pull request, so there is no preview branch to write variables for.')
    return null
  }
  const fork = forkOf()
  if (fork) {
    core.notice(
      `Vercel wiring skipped: the pull request's head is in the fork ${fork}, so nothing is written to Vercel for it ` +
        "(a fork's branch name is not a branch of the project's repository). The preview database is made as usual."
    )
    core.setOutput('vercel-deployment-url', '')
    return { report: { note: "not wired: the pull request comes from a fork, and nothing is written to Vercel for a fork's branch" } }
  }
  const vercel = settings.vercel
  return core.group('Wire the Vercel preview', async () => {
    try {
      const project = await client.project()
      if (project.link?.productionBranch && project.link.productionBranch === pr.headRef) {
        core.notice(
          `Vercel wiring skipped: the pull request's head branch "${pr.headRef}" is the production branch of Vercel project "${project.name}", ` +
            'which takes no Preview variables and whose deployments are production ones. The preview database is handed out as usual; nothing was written to Vercel.'
        )
        core.setOutput('vercel-deployment-url', '')
        return { report: { note: `not wired: "${pr.headRef}" is the Vercel project's production branch` } }
      }
      const sha = headSha()
      const repository = `${github.context.repo.owner}/${github.context.repo.repo}`
      const marker = markerOf(repository, pr.number, settings.previewName)
      const urls = { pooled: connection.pooledUrl, direct: connection.directUrl }
      const synced = await syncVariables(client, project.id, pr.headRef, settings.envNames, urls, marker, vercel.token)
      core.info(
        synced.written.length
          ? `Wrote ${synced.written.join(' and ')} for branch "${pr.headRef}" of Vercel project "${project.name}" (Preview, encrypted).`
          : `The Vercel variables of branch "${pr.headRef}" already hold this database's connection strings (their comments record it): nothing written.`
      )
      if (synced.moved.length) core.info(`Removed ${synced.moved.join(', ')}: the head branch was renamed to "${pr.headRef}".`)
      const { deployment, note } = await previewOf(client, project, pr.headRef, sha, synced.changedAt)
      const url = deployment ? deploymentUrlOf(deployment.url) : ''
      core.setOutput('vercel-deployment-url', url)
      return { report: { url: url || undefined, state: deployment?.state, note } }
    } catch (err) {
      if (err instanceof CancelledError) throw err
      const message = (err as Error).message
      core.setOutput('vercel-deployment-url', '')
      return {
        report: { note: 'not wired: the run failed to write its variables or deployment (see the job log); the next run tries again' },
        failure: `The preview database is ready and kept, but wiring the Vercel preview failed: ${message}`
      }
    }
  })
}

/** Fails the step for a wiring failure (after the comment and summary are written). */
export function failWiring(wiring: VercelWiring | null): void {
  if (wiring?.failure) core.setFailed(wiring.failure)
}

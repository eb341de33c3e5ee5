/**
 * The PR's GitHub deployment: what reviewers find through the pull request's
 * "View deployment" button and the repository's environments. One
 * deployment per run that provisions or reuses, for the PR's head commit,
 * in the environment `preview-postgres/pr-<N>` (GitHub REST, "Create a
 * deployment": `transient_environment: true`, `production_environment:
 * false`, `auto_merge: false`, `required_contexts: []`), and its statuses
 * (GitHub REST, "Create a deployment status"): `in_progress` when the run
 * starts, then `success` with `environment_url` and `log_url`, or
 * `failure`; `inactive` once the preview is deleted.
 *
 * Nothing here fails a run: a token without `deployments: write` (403) gets
 * one notice naming the permission and no further deployment request; any
 * other error, GitHub's rate limit included (403 or 429 with
 * `x-ratelimit-remaining: 0`: comment/lock/budget.ts), is a warning.
 */
import * as core from '@actions/core'
import { type Octokit, describeGitHubError, statusOf } from '../comment/comment.js'
import { finishBeforeUndo, offCancel, onCancel } from '../cancel.js'
import { isRateLimited } from '../comment/lock/budget.js'

/** The undo step that sets a cancelled run's deployment `failure` (cancel.ts), so it is not left `in_progress`. */
const DEPLOYMENT_STATUS = 'the deployment status'

/** The repository and pull request a deployment belongs to. */
export interface DeploymentTarget {
  owner: string
  repo: string
  number: number
  /** The PR's head commit (40 hex digits on GitHub). */
  sha: string
}

/**
 * The environment of a PR's previews: `preview-postgres/pr-<N>`, with
 * `-<previewName>` appended when a workflow names its preview (the
 * `preview-name` input, once there is one; every name gets its own
 * environment).
 */
export function environmentOf(prNumber: number, previewName = ''): string {
  return `preview-postgres/pr-${prNumber}${previewName ? `-${previewName}` : ''}`
}

/** The branch's page in the Neon Console: a branch-mode deployment's `environment_url`. */
export function branchConsoleUrl(projectId: string, branchId: string): string {
  return `https://console.neon.tech/app/projects/${encodeURIComponent(projectId)}/branches/${encodeURIComponent(branchId)}`
}

/** Set once a deployment request was refused for the permission: the run makes no further one. */
let refused = false

/** The notice for a 403, once per run; other errors are warnings. Returns null so callers can `.catch(skip(…))`. */
function skip(what: string): (err: unknown) => null {
  return (err: unknown) => {
    if (isRateLimited(err)) {
      core.warning(`Could not ${what}: ${describeGitHubError(err)}. The run goes on without it.`)
    } else if (statusOf(err) === 403) {
      if (!refused)
        core.notice(
          'GitHub refused the deployment (HTTP 403): grant the workflow `permissions: deployments: write` for the PR\'s "View deployment" button. The run goes on without it.'
        )
      refused = true
    } else core.warning(`Could not ${what}: ${describeGitHubError(err)}. The run goes on without it.`)
    return null
  }
}

/** A deployment this run created, whose statuses it sets. */
export class PreviewDeployment {
  private constructor(
    private readonly octokit: Octokit,
    private readonly target: DeploymentTarget,
    readonly id: number,
    readonly environment: string,
    private readonly logUrl: string
  ) {}

  /**
   * Creates the deployment for `target.sha` in `environment` and sets it
   * `in_progress`; sets the `deployment-id` output. Until it ends, a cancel
   * sets it `failure` (an undo step, cancel.ts), once the create and the
   * `in_progress` status it may have caught in flight have landed.
   * @returns the deployment, or null when GitHub refused it (a notice or warning says why).
   */
  static async start(octokit: Octokit, target: DeploymentTarget, environment: string, logUrl: string): Promise<PreviewDeployment | null> {
    if (refused) return null
    // A cancel lets the create finish, so the deployment it made is known and set `failure`.
    const created = await finishBeforeUndo(
      octokit.rest.repos.createDeployment({
        owner: target.owner,
        repo: target.repo,
        ref: target.sha,
        environment,
        description: `Preview Postgres for pull request #${target.number}`,
        transient_environment: true,
        production_environment: false,
        auto_merge: false,
        required_contexts: []
      })
    ).catch(skip('create the deployment'))
    // 202 ("Auto-merged …") has no id: with auto_merge false GitHub answers 201 or an error.
    const id = created && 'id' in created.data ? created.data.id : undefined
    if (!id) return null
    core.setOutput('deployment-id', String(id))
    const deployment = new PreviewDeployment(octokit, target, id, environment, logUrl)
    const inProgress = deployment.status('in_progress')
    // after `in_progress` has landed, so that `failure` is the status GitHub keeps
    onCancel(DEPLOYMENT_STATUS, () => inProgress.then(() => deployment.status('failure')))
    await inProgress
    return deployment
  }

  /** Sets `success` with the preview's address (instant: the claim URL; branch: the Console's branch page). */
  succeed(environmentUrl: string | undefined): Promise<void> {
    offCancel(DEPLOYMENT_STATUS)
    return this.status('success', environmentUrl)
  }

  /** Sets `failure`. */
  fail(): Promise<void> {
    offCancel(DEPLOYMENT_STATUS)
    return this.status('failure')
  }

  private async status(state: 'in_progress' | 'success' | 'failure', environmentUrl?: string): Promise<void> {
    if (refused) return
    await setStatus(this.octokit, this.target, this.id, state, this.logUrl, environmentUrl)
  }
}

async function setStatus(
  octokit: Octokit,
  where: { owner: string; repo: string },
  id: number,
  state: 'in_progress' | 'success' | 'failure' | 'inactive',
  logUrl: string,
  environmentUrl?: string
): Promise<void> {
  await octokit.rest.repos
    .createDeploymentStatus({
      owner: where.owner,
      repo: where.repo,
      deployment_id: id,
      state,
      log_url: logUrl || undefined,
      environment_url: environmentUrl || undefined,
      auto_inactive: false
    })
    .catch(skip(`set deployment ${id} ${state}`))
}

/**
 * Sets `inactive` on every deployment of `environment` whose latest status
 * is not already `inactive` (the preview was deleted: `command: delete`, the
 * sweep). GitHub lists deployments newest first, 100 a page.
 * @param known the environment's deployments when already listed ({@link previewEnvironments}): not listed again
 */
export async function deactivateEnvironment(
  octokit: Octokit,
  where: { owner: string; repo: string },
  environment: string,
  logUrl: string,
  known?: { id: number }[]
): Promise<void> {
  if (refused) return
  const deployments =
    known ??
    (await octokit
      .paginate(octokit.rest.repos.listDeployments, { ...where, environment, per_page: 100 })
      .catch(skip(`list the deployments of ${environment}`)))
  for (const d of deployments ?? []) {
    const latest = await octokit.rest.repos
      .listDeploymentStatuses({ ...where, deployment_id: d.id, per_page: 1 })
      .then(({ data }) => data[0]?.state)
      .catch(() => undefined)
    if (latest === 'inactive') continue
    await setStatus(octokit, where, d.id, 'inactive', logUrl)
    if (refused) return
  }
}

/**
 * Sets `inactive` on the deployments `ids` (the sweep, from the ids a run
 * recorded: sweep/direct.ts), without reading their statuses.
 * @returns the requests sent
 */
export async function setInactive(
  octokit: Octokit,
  where: { owner: string; repo: string },
  ids: number[],
  logUrl: string
): Promise<number> {
  let sent = 0
  for (const id of ids) {
    if (refused) break
    await setStatus(octokit, where, id, 'inactive', logUrl)
    sent++
  }
  return sent
}

/** The prefix of every environment this action deploys to ({@link environmentOf}). */
const ENVIRONMENT_PREFIX = 'preview-postgres/pr-'

/**
 * The repository's deployments to this action's environments, by
 * environment, newest first: one listing of the repository's deployments
 * (GitHub REST, "List deployments": newest first, 100 a page) for a sweep
 * of many PRs, where one listing per environment would cost a request per PR.
 * @returns null when the repository has more than `maxPages` pages of
 *   deployments (list per environment instead), `mayRead` stopped it, or they cannot be listed
 */
export async function previewEnvironments(
  octokit: Octokit,
  where: { owner: string; repo: string },
  maxPages: number,
  /** Asked as each page arrives (the first was sent already): false stops the listing (null). */
  mayRead: () => boolean = () => true
): Promise<Map<string, { id: number }[]> | null> {
  if (refused) return null
  const found = new Map<string, { id: number }[]>()
  let pages = 0
  try {
    for await (const { data } of octokit.paginate.iterator(octokit.rest.repos.listDeployments, { ...where, per_page: 100 })) {
      if (++pages > maxPages || !mayRead()) return null
      for (const d of data) {
        if (!d.environment.startsWith(ENVIRONMENT_PREFIX)) continue
        found.set(d.environment, [...(found.get(d.environment) ?? []), { id: d.id }])
      }
    }
  } catch (err) {
    return skip('list the deployments')(err)
  }
  return found
}

/**
 * Where the create, delete and publish flows and the sweep meet the PR's
 * GitHub deployment (deployment.ts): when a run makes one, which commit and
 * environment it is for, and the address a finished report gives it.
 */
import { performance } from 'node:perf_hooks'
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import { type PullRequest, githubClient } from '../comment/comment.js'
import { type Publication, runUrl } from '../publish/publication.js'
import type { Report } from '../publish/report.js'
import { overlapped } from '../phases.js'
import { PreviewDeployment, branchConsoleUrl, deactivateEnvironment, environmentOf } from './deployment.js'

/**
 * The preview's name within its PR (`preview-name`; '' for the PR's one
 * preview), for the environment's name: each name gets its own environment
 * `preview-postgres/pr-<N>-<name>`.
 */
export function previewNameOf(settings: Settings): string {
  return settings.previewName
}

/** The PR's environment for this run's settings. */
export const environmentOfRun = (settings: Settings, prNumber: number): string => environmentOf(prNumber, previewNameOf(settings))

/** The address a finished report's deployment shows: instant mode's claim URL, branch mode's Console page. */
export function environmentUrlOf(report: Report): string | undefined {
  if (report.mode === 'instant') return report.claimUrl
  return report.projectId && report.branchId ? branchConsoleUrl(report.projectId, report.branchId) : undefined
}

/**
 * Creates the run's deployment, `in_progress`, for `command: create` with
 * `deployment` on, a token and a PR whose token may write (a fork's run
 * leaves it to `command: publish`). Meant to run beside provisioning: it
 * never rejects (an error is a warning), and its wall time is recorded as
 * the overlapped phase "deployment" (its HTTP requests count in the phase
 * they ran in).
 * @param sha the PR's head commit; default the event's `pull_request.head.sha`
 * @returns null when no deployment is made or GitHub refused it
 */
export async function startDeployment(settings: Settings, pub: Publication, sha?: string): Promise<PreviewDeployment | null> {
  if (!settings.deployment || !settings.githubToken || !pub.pr || pub.readOnly) return null
  const started = performance.now()
  try {
    const head = sha ?? (github.context.payload.pull_request?.head as { sha?: string } | undefined)?.sha ?? github.context.sha
    const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
    const target = { owner: pub.pr.owner, repo: pub.pr.repo, number: pub.pr.number, sha: head }
    return await PreviewDeployment.start(octokit, target, environmentOfRun(settings, pub.pr.number), runUrl() ?? '')
  } catch (err) {
    core.warning(`Could not create the deployment: ${err instanceof Error ? err.message : String(err)}. The run goes on without it.`)
    return null
  } finally {
    overlapped('deployment', performance.now() - started)
  }
}

/** Sets `inactive` on the PR's deployments once its preview is gone (`command: delete`, the sweep). */
export async function deactivateDeployments(settings: Settings, pr: PullRequest | null): Promise<void> {
  if (!settings.deployment || !settings.githubToken || !pr) return
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  await deactivateEnvironment(octokit, { owner: pr.owner, repo: pr.repo }, environmentOfRun(settings, pr.number), runUrl() ?? '')
}

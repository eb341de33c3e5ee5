/**
 * `command: publish`, run by a `workflow_run` workflow with a write token
 * after a fork PR's run: posts or updates the PR's one comment from the
 * fork run's `report-file`, under the PR's comment lock, and makes the PR's
 * deployment. The report is for this repository and for the pull request
 * of the triggering run, or it is refused.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import { type PullRequest, githubClient, markerOf } from '../comment/comment.js'
import { type Publication, openPublication, publish, releaseLock } from '../publish/publication.js'
import { ReportFileError, readReportFile } from '../publish/report-file.js'
import { COMMENT_LIMIT, renderReport } from '../publish/report.js'
import { logLine } from '../publish/inert.js'
import { environmentUrlOf, startDeployment } from '../deployment/run-deployment.js'
import type { PreviewDeployment } from '../deployment/deployment.js'

/** The `workflow_run` event's fields this command reads (GitHub webhook events, workflow_run). */
interface WorkflowRun {
  head_sha?: string
  head_branch?: string
  head_repository?: { full_name?: string; owner?: { login?: string } }
  pull_requests?: { number: number; head?: { ref?: string; sha?: string } }[]
}

/**
 * The PR of the triggering run: `workflow_run.pull_requests` when it names
 * one; else (GitHub leaves it empty for a fork's PR) the open PR of this
 * repository whose head is `head_repository`'s `head_branch` at `head_sha`.
 * @throws ReportFileError when the event is not `workflow_run` or no PR matches
 */
async function triggeringPullRequest(settings: Settings): Promise<{ pr: PullRequest; sha: string }> {
  const run = github.context.payload.workflow_run as WorkflowRun | undefined
  if (github.context.eventName !== 'workflow_run' || !run)
    throw new ReportFileError(
      `\`command: publish\` runs from a \`workflow_run\` workflow (this event is \`${github.context.eventName}\`): the triggering run says which PR the report is for`
    )
  const { owner, repo } = github.context.repo
  const sha = run.head_sha ?? ''
  const listed = run.pull_requests?.[0]
  if (listed) return { pr: { owner, repo, number: listed.number, headRef: listed.head?.ref ?? run.head_branch ?? '' }, sha }
  const headOwner = run.head_repository?.owner?.login ?? run.head_repository?.full_name?.split('/')[0]
  if (headOwner && run.head_branch && settings.githubToken) {
    const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
    const { data } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${headOwner}:${run.head_branch}`, per_page: 100 })
    const match = data.find((p) => p.head.sha === sha)
    if (match) return { pr: { owner, repo, number: match.number, headRef: match.head.ref }, sha }
  }
  throw new ReportFileError(
    `the triggering run (${run.head_branch ?? '?'} at ${sha || '?'}) belongs to no open pull request of ${owner}/${repo}`
  )
}

/**
 * Runs `command: publish`. Everything is checked before the first write
 * (lock, comment, deployment); a failure after the deployment was created
 * sets it `failure`.
 * @throws ReportFileError (the step fails, nothing is posted) when the report
 *   is unreadable or refused (report-file.ts), for another repository, for
 *   another PR than the triggering run's, or would not fit in a comment; what
 *   taking the lock or posting throws
 */
export async function publishReport(settings: Settings): Promise<void> {
  const file = await readReportFile(settings.reportFile, settings.instantUrl)
  const repository = `${github.context.repo.owner}/${github.context.repo.repo}`
  if (file.repository !== repository)
    throw new ReportFileError(`The report is for ${file.repository}, not for this repository (${repository}): nothing is posted`)
  const { pr, sha } = await triggeringPullRequest(settings)
  if (file.pullRequest.number !== pr.number)
    throw new ReportFileError(
      `The report is for pull request #${file.pullRequest.number}, but the triggering run is of pull request #${pr.number}: nothing is posted`
    )
  // The comment as publish() renders it (the run's URL only adds a line) must fit GitHub's limit with its marker.
  const longest = renderReport({ ...file.report, runUrl: '' }, Date.now(), COMMENT_LIMIT).length + markerOf(file.record).length + 200
  if (longest > COMMENT_LIMIT)
    throw new ReportFileError(
      `the report would not fit in a comment (${longest} of GitHub's ${COMMENT_LIMIT} characters): nothing is posted`
    )
  const own: Settings = { ...settings, mode: file.report.mode }
  let pub: Publication | undefined
  let deployment: PreviewDeployment | null = null
  let failed = true
  try {
    pub = await openPublication(own, Promise.resolve(), pr)
    deployment = await startDeployment(own, pub, sha)
    await publish(pub, file.report, file.record)
    await deployment?.succeed(environmentUrlOf(file.report))
    core.info(`Published the report of pull request #${pr.number} (database ${logLine(file.report.databaseId ?? '?', 100)}).`)
    failed = false
  } finally {
    if (failed) await deployment?.fail().catch(() => undefined)
    await releaseLock(pub, own.mode, failed)
  }
}

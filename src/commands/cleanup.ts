/**
 * `command: cleanup`, for a scheduled workflow: looks at every branch of the
 * project, recognises the ones this action made by their annotations alone
 * (platform annotations, see annotations.ts), and deletes those whose pull
 * request is closed or merged (GitHub's pulls API), or, with `max-age`, those
 * not used (platform `updated_at`) for longer than that. It never touches the
 * default branch or a protected branch. Deletes retry 423 and wait for their
 * operations (deleteBranchAndWait). The job summary tables every branch
 * looked at with the decision and the reason; each swept PR's comment says so.
 * `dry-run: true` decides the same and deletes nothing.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../inputs.js'
import type { Branch } from '../platform/client.js'
import { ownerOf } from '../platform/annotations.js'
import { deleteBranchAndWait } from '../platform/lifecycle.js'
import { lifecycleClientOf, type LifecycleClient } from '../platform/lifecycle-client.js'
import { summarise } from '../platform/operations.js'
import { renderReport } from '../publish/report.js'
import { describeGitHubError, githubClient } from '../publish/comment.js'
import { acquireLock } from '../publish/lock.js'

type Octokit = ReturnType<typeof githubClient>

/** What the sweep decided about one branch. */
export interface SweepRow {
  branch: Branch
  pr?: number
  decision: 'keep' | 'delete' | 'would delete' | 'deleted' | 'already gone' | 'failed'
  reason: string
}

/** A PR's state per GitHub's `GET /repos/{owner}/{repo}/pulls/{pull_number}`: open, closed or merged; null when it cannot be read. */
type PullState = { state: 'open' | 'closed' | 'merged' } | { state: null; why: string }

async function pullState(octokit: Octokit, number: number): Promise<PullState> {
  try {
    const { data } = await octokit.rest.pulls.get({ ...github.context.repo, pull_number: number })
    return { state: data.merged ? 'merged' : data.state === 'closed' ? 'closed' : 'open' }
  } catch (err) {
    return { state: null, why: describeGitHubError(err) }
  }
}

/** "3 d 4 h", "40 min": a whole-unit rendering of `seconds`. */
export function humanDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400)
  const h = Math.floor((seconds % 86400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  return d ? `${d} d${h ? ` ${h} h` : ''}` : h ? `${h} h${m ? ` ${m} min` : ''}` : `${Math.max(m, 0)} min`
}

/**
 * Decides one branch: default, protected, not ours, another repository's, a
 * closed or merged PR, older than `max-age`, or kept.
 */
async function decide(client: LifecycleClient, branch: Branch, settings: Settings, pulls: (n: number) => Promise<PullState>, now: number): Promise<SweepRow> {
  if (branch.default) return { branch, decision: 'keep', reason: "the project's default branch: never touched" }
  if (branch.protected) return { branch, decision: 'keep', reason: 'a protected branch: never touched' }
  const found = await client.branchWithAnnotations(branch.id)
  if (!found) return { branch, decision: 'keep', reason: 'gone before it could be read' }
  const owner = ownerOf(found.annotations)
  if (!owner) return { branch, decision: 'keep', reason: 'not made by this action (no preview-postgres annotations), whatever its name' }
  const repo = `${github.context.repo.owner}/${github.context.repo.repo}`
  if (owner.repository !== repo) return { branch, pr: owner.pr, decision: 'keep', reason: `made for another repository (${owner.repository})` }
  const row = (decision: SweepRow['decision'], reason: string): SweepRow => ({ branch: found.branch, pr: owner.pr, decision, reason })
  if (owner.pr) {
    const pr = await pulls(owner.pr)
    if (pr.state === 'merged' || pr.state === 'closed') return row('delete', `pull request #${owner.pr} is ${pr.state}`)
    if (pr.state === null) core.warning(`Could not read pull request #${owner.pr} of branch "${branch.name}": ${pr.why}. Keeping the branch unless max-age applies.`)
  }
  if (settings.maxAgeSeconds > 0) {
    const lastUsed = Date.parse(found.branch.updated_at ?? found.branch.created_at)
    const age = (now - lastUsed) / 1000
    if (Number.isFinite(age) && age > settings.maxAgeSeconds) {
      return row('delete', `not used for ${humanDuration(age)} (max-age ${humanDuration(settings.maxAgeSeconds)})`)
    }
  }
  if (!owner.pr) return row('keep', settings.maxAgeSeconds > 0 ? 'made outside a pull request, used within max-age' : 'made outside a pull request; set `max-age` to sweep it')
  return row('keep', `pull request #${owner.pr} is open${settings.maxAgeSeconds > 0 ? ' and the branch was used within max-age' : ''}`)
}

/** The job summary: every branch looked at, with the decision and the reason. */
export function renderSweep(rows: SweepRow[], settings: Pick<Settings, 'dryRun' | 'maxAgeSeconds' | 'projectId'>): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
  const deleted = rows.filter((r) => r.decision === 'deleted' || r.decision === 'already gone').length
  const lines = [
    `### 🐘 Preview Postgres: cleanup of project \`${settings.projectId}\`${settings.dryRun ? ' (dry run: nothing deleted)' : ''}`,
    '',
    `Looked at ${rows.length} branch${rows.length === 1 ? '' : 'es'}; ${settings.dryRun ? `would delete ${rows.filter((r) => r.decision === 'would delete').length}` : `deleted ${deleted}`}.` +
      (settings.maxAgeSeconds ? ` max-age: ${humanDuration(settings.maxAgeSeconds)}.` : ''),
    '',
    '| Branch | Pull request | Decision | Reason |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| \`${cell(r.branch.name)}\` (\`${r.branch.id}\`) | ${r.pr ? `#${r.pr}` : ''} | ${r.decision} | ${cell(r.reason)} |`)
  ]
  return lines.join('\n')
}

/** Tells a swept PR's comment that its branch was deleted by the cleanup. A GitHub error is a warning. */
async function tellPullRequest(octokit: Octokit, row: SweepRow, settings: Settings, operations: ReturnType<typeof summarise>[]): Promise<void> {
  const pr = { ...github.context.repo, number: row.pr!, headRef: '' }
  try {
    // Through the PR's comment lock (publish/lock.ts): it waits for a run of that PR that holds it,
    // and it learns which comment is ours from the claim it posts, for any kind of token.
    const lock = await acquireLock(octokit, pr, {
      mode: 'branch',
      placeholder: renderReport({ mode: 'branch', state: 'closing' }),
      pollSeconds: Math.min(settings.pollIntervalSeconds, 2),
      timeoutSeconds: Math.min(settings.waitTimeoutSeconds, 120)
    })
    const markdown = renderReport({
      mode: 'branch',
      state: 'swept',
      projectId: settings.projectId,
      branchId: row.branch.id,
      branchName: row.branch.name,
      sweptBecause: row.reason,
      operations
    })
    await lock.finish(markdown, { mode: 'branch' })
  } catch (err) {
    core.warning(`Could not update the comment of pull request #${row.pr}: ${describeGitHubError(err)}.`)
  }
}

/**
 * Runs the sweep. In instant mode a notice and nothing else (the instant
 * service has no delete; its databases lapse by themselves).
 * @throws Error after every branch was looked at, when some delete failed.
 */
export async function runCleanup(settings: Settings): Promise<void> {
  if (settings.mode === 'instant') {
    core.notice('`command: cleanup` does nothing in instant mode: the instant service has no delete, and its unclaimed databases lapse by themselves.')
    return
  }
  if (!settings.githubToken) throw new Error('`command: cleanup` needs `github-token` to read the state of pull requests (the default `${{ github.token }}` with `pull-requests: write`).')
  const client = lifecycleClientOf(settings)
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  const cache = new Map<number, Promise<PullState>>()
  const pulls = (n: number): Promise<PullState> => cache.get(n) ?? cache.set(n, pullState(octokit, n)).get(n)!
  const now = Date.now()
  const branches = await client.listBranches()
  const rows: SweepRow[] = []
  await core.group(`Look at the project's ${branches.length} branches`, async () => {
    for (const b of branches) {
      const row = await decide(client, b, settings, pulls, now)
      core.info(`${b.name} (${b.id}): ${row.decision}, ${row.reason}.`)
      rows.push(row)
    }
  })
  const failures: string[] = []
  for (const row of rows.filter((r) => r.decision === 'delete')) {
    if (settings.dryRun) {
      row.decision = 'would delete'
      continue
    }
    await core.group(`Delete branch "${row.branch.name}"`, async () => {
      try {
        const ops = await deleteBranchAndWait(client, row.branch, settings)
        row.decision = ops === null ? 'already gone' : 'deleted'
        core.info(`Deleted branch "${row.branch.name}" (${row.branch.id}): ${row.reason}.`)
        if (row.pr && settings.comment) await tellPullRequest(octokit, row, settings, (ops ?? []).map(summarise))
      } catch (err) {
        row.decision = 'failed'
        row.reason += `; the delete failed: ${(err as Error).message}`
        failures.push(`"${row.branch.name}": ${(err as Error).message}`)
      }
    })
  }
  const markdown = renderSweep(rows, settings)
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write()
  if (failures.length) throw new Error(`The cleanup could not delete ${failures.length} branch(es): ${failures.join('; ')} The other branches were handled; re-run to retry.`)
}

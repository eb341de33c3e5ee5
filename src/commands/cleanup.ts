/**
 * `command: cleanup`, for a scheduled workflow: looks at every branch of the
 * project, recognises the ones this action made by their annotations alone
 * (platform annotations, see annotations.ts), and deletes those whose pull
 * request is closed or merged (GitHub's pulls API), or, with `max-age`, those
 * not used for longer than that: the branch's `updated_at`, which every run
 * that reuses it moves (expiry.ts, recordUse). It never touches the default
 * branch or a protected branch.
 *
 * Before it deletes a PR's branch it takes that PR's comment lock
 * (comment/lock/lock.ts), so it waits for a run of the PR that holds it, and then
 * reads the branch again and decides again under the lock: a branch used
 * meanwhile is kept. A branch with child branches is kept (the platform does
 * not delete it) unless its children are deleted first in the same sweep.
 * A branch or PR that cannot be read is reported and counted, and the sweep
 * goes on. Deletes retry 423 and wait for their operations
 * (deleteBranchAndWait). The job summary tables every branch looked at with
 * the decision and the true reason; each swept PR's comment says so.
 * `dry-run: true` decides the same and deletes nothing.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import type { Branch } from '../platform/client.js'
import { ownerOf } from '../platform/annotations.js'
import { deleteBranchAndWait } from '../platform/lifecycle.js'
import type { NeonClient } from '../platform/client.js'
import { summarise } from '../platform/operations.js'
import { renderReport } from '../publish/report.js'
import { deactivateDeployments } from '../deployment/run-deployment.js'
import { describeGitHubError, githubClient } from '../comment/comment.js'
import { type CommentLock, acquireLock } from '../comment/lock/lock.js'

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
async function decide(
  client: NeonClient,
  branch: Branch,
  settings: Settings,
  pulls: (n: number) => Promise<PullState>,
  now: number
): Promise<SweepRow> {
  if (branch.default) return { branch, decision: 'keep', reason: "the project's default branch: never touched" }
  if (branch.protected) return { branch, decision: 'keep', reason: 'a protected branch: never touched' }
  const found = await client.branchWithAnnotations(branch.id)
  if (!found) return { branch, decision: 'keep', reason: 'gone before it could be read' }
  const owner = ownerOf(found.annotations)
  if (!owner) return { branch, decision: 'keep', reason: 'not made by this action (no preview-postgres annotations), whatever its name' }
  const repo = `${github.context.repo.owner}/${github.context.repo.repo}`
  if (owner.repository !== repo)
    return { branch, pr: owner.pr, decision: 'keep', reason: `made for another repository (${owner.repository})` }
  const row = (decision: SweepRow['decision'], reason: string): SweepRow => ({ branch: found.branch, pr: owner.pr, decision, reason })
  let unread: string | null = null
  if (owner.pr) {
    const pr = await pulls(owner.pr)
    if (pr.state === 'merged' || pr.state === 'closed') return row('delete', `pull request #${owner.pr} is ${pr.state}`)
    if (pr.state === null) {
      unread = `pull request #${owner.pr} could not be read (${pr.why})`
      core.warning(
        `Could not read pull request #${owner.pr} of branch "${branch.name}": ${pr.why}. Keeping the branch unless max-age applies.`
      )
    }
  }
  if (settings.maxAgeSeconds > 0) {
    const lastUsed = Date.parse(found.branch.updated_at ?? found.branch.created_at)
    const age = (now - lastUsed) / 1000
    if (Number.isFinite(age) && age > settings.maxAgeSeconds) {
      return row('delete', `not used for ${humanDuration(age)} (max-age ${humanDuration(settings.maxAgeSeconds)})`)
    }
  }
  if (!owner.pr)
    return row(
      'keep',
      settings.maxAgeSeconds > 0
        ? 'made outside a pull request, used within max-age'
        : 'made outside a pull request; set `max-age` to sweep it'
    )
  const within = settings.maxAgeSeconds > 0 ? ' and the branch was used within max-age' : ''
  if (unread) return row('keep', `${unread}${within}: kept`)
  return row('keep', `pull request #${owner.pr} is open${within}`)
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
    ...rows.map(
      (r) => `| \`${cell(r.branch.name)}\` (\`${r.branch.id}\`) | ${r.pr ? `#${r.pr}` : ''} | ${r.decision} | ${cell(r.reason)} |`
    )
  ]
  return lines.join('\n')
}

/** The PR's comment lock for the sweep of `row`'s branch (its placeholder says "being swept by the scheduled cleanup"). */
async function lockOf(octokit: Octokit, row: SweepRow, settings: Settings): Promise<CommentLock> {
  const pr = { ...github.context.repo, number: row.pr!, headRef: '' }
  try {
    return await acquireLock(octokit, pr, {
      mode: 'branch',
      placeholder: renderReport({
        mode: 'branch',
        state: 'sweeping',
        branchName: row.branch.name,
        branchId: row.branch.id,
        sweptBecause: row.reason
      }),
      pollSeconds: Math.min(settings.pollIntervalSeconds, 2),
      timeoutSeconds: Math.min(settings.waitTimeoutSeconds, 120)
    })
  } catch (err) {
    throw new Error(
      `could not take the comment lock of pull request #${row.pr}, so a run of it may be using the branch (${describeGitHubError(err)})`,
      { cause: err }
    )
  }
}

/** What a sweep needs to delete one branch. */
interface SweepContext {
  client: NeonClient
  octokit: Octokit
  settings: Settings
  pulls: (n: number) => Promise<PullState>
  /** Every branch of the project when the sweep began. */
  branches: Branch[]
  /** Ids deleted (or found gone) so far in this sweep. */
  gone: Set<string>
}

/**
 * Deletes `row`'s branch: under its PR's comment lock when it has a PR and
 * `comment` is on, after reading it again and deciding again (a branch used
 * meanwhile is kept), unless child branches are left. Updates `row`.
 * @throws Error when the branch cannot be read, the lock cannot be taken, or the delete fails.
 */
async function sweepOne(row: SweepRow, x: SweepContext): Promise<void> {
  const lock = row.pr && x.settings.comment ? await lockOf(x.octokit, row, x.settings) : null
  let markdown: string | null = null
  try {
    // Under the lock the PR is read again: it may have been reopened, and a run of it have used the branch, since the sweep began.
    const again = await decide(x.client, row.branch, x.settings, lock ? (n) => pullState(x.octokit, n) : x.pulls, Date.now())
    if (again.reason === 'gone before it could be read') {
      row.decision = 'already gone'
      return
    }
    if (again.decision !== 'delete') {
      Object.assign(row, {
        decision: 'keep',
        reason: `${again.reason} (read again before the delete${lock ? ", under the PR's lock" : ''})`
      })
      return
    }
    row.branch = again.branch
    const children = x.branches.filter((b) => b.parent_id === row.branch.id && !x.gone.has(b.id))
    if (children.length) {
      Object.assign(row, {
        decision: 'keep',
        reason: `${again.reason}, but it has child branch${children.length === 1 ? '' : 'es'} ${children.map((c) => `"${c.name}"`).join(', ')}, and Neon does not delete a branch with children: delete them first`
      })
      return
    }
    const ops = await deleteBranchAndWait(x.client, row.branch, x.settings)
    x.gone.add(row.branch.id)
    row.decision = ops === null ? 'already gone' : 'deleted'
    if (row.pr) await deactivateDeployments(x.settings, { ...github.context.repo, number: row.pr, headRef: '' })
    core.info(`Deleted branch "${row.branch.name}" (${row.branch.id}): ${row.reason}.`)
    const operations = (ops ?? []).map(summarise)
    markdown = renderReport({
      mode: 'branch',
      state: 'swept',
      projectId: x.settings.projectId,
      branchId: row.branch.id,
      branchName: row.branch.name,
      sweptBecause: row.reason,
      operations
    })
  } finally {
    // Kept: only the claim goes, the PR's comment stays as its last run wrote it. Deleted: the comment says swept.
    await lock?.finish(markdown, markdown ? { mode: 'branch' } : (lock.home?.record ?? { mode: 'branch' }))
  }
}

/** Children before their parents: deepest first, so a parent the sweep deletes has no child of ours left. */
function depthOf(b: Branch, byId: Map<string, Branch>): number {
  let depth = 0
  for (let p = b.parent_id; p && byId.has(p) && depth < 1000; p = byId.get(p)!.parent_id) depth++
  return depth
}

/**
 * Runs the sweep. In instant mode a notice and nothing else (the instant
 * service has no delete; its databases lapse by themselves).
 * @throws Error after every branch was looked at and the summary written, when some branch could not be read or deleted.
 */
export async function runCleanup(settings: Settings, client: NeonClient): Promise<void> {
  if (settings.mode === 'instant') {
    core.notice(
      '`command: cleanup` does nothing in instant mode: the instant service has no delete, and its unclaimed databases lapse by themselves.'
    )
    return
  }
  if (!settings.githubToken)
    throw new Error(
      '`command: cleanup` needs `github-token` to read the state of pull requests (the default `${{ github.token }}` with `pull-requests: write`).'
    )
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  const cache = new Map<number, Promise<PullState>>()
  const pulls = (n: number): Promise<PullState> => cache.get(n) ?? cache.set(n, pullState(octokit, n)).get(n)!
  const now = Date.now()
  const branches = await client.listBranches()
  const rows: SweepRow[] = []
  const failures: string[] = []
  await core.group(`Look at the project's ${branches.length} branches`, async () => {
    for (const b of branches) {
      let row: SweepRow
      try {
        row = await decide(client, b, settings, pulls, now)
      } catch (err) {
        row = { branch: b, decision: 'failed', reason: `kept: it could not be read (${(err as Error).message})` }
        failures.push(`"${b.name}" could not be read: ${(err as Error).message}`)
      }
      core.info(`${b.name} (${b.id}): ${row.decision}, ${row.reason}.`)
      rows.push(row)
    }
  })
  const byId = new Map(branches.map((b) => [b.id, b]))
  const doomed = rows.filter((r) => r.decision === 'delete').sort((a, b) => depthOf(b.branch, byId) - depthOf(a.branch, byId))
  const x: SweepContext = { client, octokit, settings, pulls, branches, gone: new Set() }
  for (const row of doomed) {
    if (settings.dryRun) {
      row.decision = 'would delete'
      continue
    }
    await core.group(`Delete branch "${row.branch.name}"`, async () => {
      try {
        await sweepOne(row, x)
      } catch (err) {
        row.decision = 'failed'
        row.reason += `; kept: ${(err as Error).message}`
        failures.push(`"${row.branch.name}": ${(err as Error).message}`)
        core.warning(`Branch "${row.branch.name}" (${row.branch.id}) was not deleted: ${(err as Error).message}`)
      }
    })
  }
  const markdown = renderSweep(rows, settings)
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write()
  if (failures.length) {
    throw new Error(
      `The cleanup could not handle ${failures.length} branch(es): ${failures.join('; ')}. The other branches were handled (see the job summary); re-run to retry.`
    )
  }
}

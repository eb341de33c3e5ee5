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
import type { Branch, NeonClient } from '../platform/client.js'
import { ownerOf } from '../platform/annotations.js'
import { githubClient } from '../comment/comment.js'
import { GitHubBudget } from '../comment/lock/budget.js'
import { type PullState, pullStates, pullState } from './github.js'
import { SweepRun } from './run.js'
import { readGitBranchesWith } from './kinds.js'
import { type SweepRow, decide, humanDuration } from './decide.js'
import { renderSweepUsage } from './usage.js'

/** The job summary: every branch looked at, with the decision and the reason; then what the previews used (usage.ts). */
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
    ),
    ...renderSweepUsage(rows, settings.dryRun)
  ]
  return lines.join('\n')
}

/** Children before their parents: deepest first, so a parent the sweep deletes has no child of ours left. */
function depthOf(b: Branch, byId: Map<string, Branch>): number {
  let depth = 0
  for (let p = b.parent_id; p && byId.has(p) && depth < 1000; p = byId.get(p)!.parent_id) depth++
  return depth
}

/**
 * Runs the sweep. In instant mode a notice and nothing else (the instant
 * service has no delete; its databases lapse by themselves). The branches
 * and their annotations come from the branch list; the PRs' states from the
 * pulls list (github.ts); the deletes and the PRs' comments and
 * deployments are run.ts's. When GitHub's rate limit runs low the
 * sweep stops before the next branch and says how many are left for the
 * next run: a success.
 * @throws Error after every branch was looked at and the summary written, when some branch could not be read or deleted;
 *   SweepPermissionError before anything is deleted when the token may not write to pull requests.
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
  const budget = new GitHubBudget()
  const octokit = budget.watch(githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000))
  readGitBranchesWith(octokit)
  const now = Date.now()
  const annotations = new Map<string, Record<string, unknown>>()
  const branches = await client.listBranches(annotations)
  const repository = `${github.context.repo.owner}/${github.context.repo.repo}`
  const numbers = new Set<number>()
  for (const b of branches) {
    const owner = ownerOf(annotations.get(b.id))
    if (owner?.pr && owner.repository === repository && !b.default && !b.protected) numbers.add(owner.pr)
  }
  await budget.read(octokit)
  if (!budget.allows(budget.reserve() + Math.ceil(numbers.size / 100) + 1)) {
    core.notice(
      `The cleanup did not start: it leaves the last ${budget.reserve()} GitHub requests of the hour to the repository's pull requests (${budget.describe()}), ` +
        `and reading the state of ${numbers.size} pull request${numbers.size === 1 ? '' : 's'} would go below that. The next run sweeps them.`
    )
    return
  }
  const states = await pullStates(octokit, numbers)
  const pulls = async (n: number): Promise<PullState> => states.get(n) ?? pullState(octokit, n)
  const rows: SweepRow[] = []
  const failures: string[] = []
  await core.group(`Look at the project's ${branches.length} branches`, async () => {
    for (const b of branches) {
      let row: SweepRow
      try {
        row = await decide(client, b, settings, pulls, now, annotations.get(b.id))
      } catch (err) {
        row = { branch: b, decision: 'failed', reason: `kept: it could not be read (${(err as Error).message})` }
        failures.push(`"${b.name}" could not be read: ${(err as Error).message}`)
      }
      core.info(`${b.name} (${b.id}): ${row.decision}, ${row.reason}.`)
      rows.push(row)
    }
  })
  const byId = new Map(branches.map((b) => [b.id, b]))
  const doomed = rows.filter((r) => r.decision === 'delete')
  for (const r of doomed) r.depth = depthOf(r.branch, byId)
  if (settings.dryRun) for (const row of doomed) row.decision = 'would delete'
  else await new SweepRun({ client, octokit, settings, pulls, branches, budget, failures }).run(doomed)
  const markdown = renderSweep(rows, settings)
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write()
  const left = rows.filter((r) => r.decision === 'left for the next run').length
  if (left)
    core.notice(
      `The cleanup stopped at the ${budget.reserve()} GitHub requests it leaves to the repository's pull requests this hour (${budget.describe()}): ` +
        `${left} branch${left === 1 ? '' : 'es'} left for the next run, which goes on where this one stopped.`
    )
  core.info(`GitHub requests: ${budget.sent}; ${budget.describe()}.`)
  if (failures.length) {
    const shown = failures.slice(0, 3).join('; ')
    throw new Error(
      `The cleanup could not handle ${failures.length} branch(es): ${shown}${failures.length > 3 ? `; and ${failures.length - 3} more (see the job summary)` : ''}. The other branches were handled (see the job summary); re-run to retry.`
    )
  }
}

/**
 * At Neon's branch limit (HTTP 422 `BRANCHES_LIMIT_EXCEEDED`): counts the
 * project's branches, this action's previews among them and those of closed
 * or merged pull requests, and with `make-room` deletes one of the latter,
 * the least recently used (the branch's `updated_at`, which every reuse
 * moves), by the sweep's own rules (decide.ts) and under its PR's lock (run.ts),
 * so that the create can be sent again. Never an open PR's preview, a branch
 * this action did not create (no annotations of ours), another repository's,
 * the default or a protected branch.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import type { NeonClient } from '../platform/client.js'
import { ownerOf } from '../platform/annotations.js'
import type { NeonLimitError } from '../platform/api-errors.js'
import { githubClient } from '../comment/comment.js'
import { GitHubBudget } from '../comment/lock/budget.js'
import { pullState, pullStates } from './github.js'
import { LOCKED_COST, SweepRun } from './run.js'
import { type SweepRow, decide } from './decide.js'

/**
 * The provision's `atBranchLimit` hook (platform/lifecycle.ts): makes room
 * and resolves (the log says which branch was deleted), or throws `err`
 * with the project's figures and, when no room could be made, why.
 * @param currentPr this run's PR, never a candidate
 */
export function branchLimitHandler(settings: Settings, client: NeonClient, currentPr?: number): (err: NeonLimitError) => Promise<void> {
  return async (err) => {
    const annotations = new Map<string, Record<string, unknown>>()
    const branches = await client.listBranches(annotations)
    const repository = `${github.context.repo.owner}/${github.context.repo.repo}`
    const ours = branches.flatMap((b) => {
      const owner = ownerOf(annotations.get(b.id))
      return owner && owner.repository === repository && !b.default && !b.protected ? [{ branch: b, owner }] : []
    })
    const budget = new GitHubBudget()
    const octokit = settings.githubToken ? budget.watch(githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)) : null
    const prs = new Set(ours.flatMap((o) => (o.owner.pr && o.owner.pr !== currentPr ? [o.owner.pr] : [])))
    if (octokit) await budget.read(octokit)
    // The same reserve as the sweep's (budget.ts): the repository's other pull requests keep their share of the hour.
    if (octokit && !budget.allows(budget.reserve() + Math.ceil(prs.size / 100) + 1 + LOCKED_COST))
      throw err.withFigures(
        `The project has ${branches.length} branch${branches.length === 1 ? '' : 'es'}; ${ours.length} of them are this action's previews for this repository. ` +
          `GitHub's rate limit: ${budget.describe()}, and \`make-room\` leaves the last ${budget.reserve()} requests of the hour to the repository's pull requests, so it deleted nothing.`
      )
    const states = octokit ? await pullStates(octokit, prs) : new Map()
    const closed = ours
      .filter((o) => o.owner.pr && o.owner.pr !== currentPr && ['closed', 'merged'].includes(String(states.get(o.owner.pr)?.state)))
      .sort((a, b) => Date.parse(a.branch.updated_at ?? a.branch.created_at) - Date.parse(b.branch.updated_at ?? b.branch.created_at))
    const figures =
      `The project has ${branches.length} branch${branches.length === 1 ? '' : 'es'}; ${ours.length} of them are this action's previews for this repository, ` +
      `${closed.length} of those of closed or merged pull requests${octokit ? '' : ' (not known without `github-token`)'}.`
    if (!settings.makeRoom || !octokit || !closed.length) {
      const why = !settings.makeRoom
        ? ' `make-room` is off.'
        : closed.length
          ? ''
          : " No preview of a closed or merged pull request to delete (`make-room` never deletes an open PR's preview or a branch this action did not create)."
      throw err.withFigures(`${figures}${why}`)
    }
    for (const candidate of closed) {
      const pulls = (n: number) => Promise.resolve(states.get(n) ?? pullState(octokit, n))
      const row: SweepRow = await decide(client, candidate.branch, settings, pulls, Date.now(), annotations.get(candidate.branch.id))
      if (row.decision !== 'delete') continue
      row.reason = `${row.reason}; deleted to make room at Neon's branch limit`
      const failures: string[] = []
      await new SweepRun({ client, octokit, settings, pulls, branches, budget, failures, alwaysLock: true }).run([row])
      const outcome = row.decision as SweepRow['decision']
      if (outcome === 'deleted' || outcome === 'already gone') {
        core.warning(
          `Neon's branch limit of the project is reached (HTTP 422 "${err.serviceMessage ?? ''}"). ${figures} ` +
            `Deleted branch "${row.branch.name}" (${row.branch.id}), the least recently used preview of pull request #${row.pr} (${states.get(row.pr!)?.state}), to make room (\`make-room\`); creating again.`
        )
        return
      }
      core.info(`Could not delete branch "${row.branch.name}" to make room: ${row.reason}.`)
    }
    throw err.withFigures(`${figures} None of those could be deleted to make room (see the log).`)
  }
}

/**
 * The sweep's rules for the previews no pull request owns (run-source.ts,
 * annotations.ts `preview-postgres/kind`), beside a closed PR's (cleanup.ts):
 *
 * - a merge group's branch lives for its job alone: the job's post step
 *   deletes it, and Neon at its `expires_at`; the sweep deletes one whose
 *   expiry has passed (a project where Neon did not remove it) or, without
 *   an expiry, one older than GitHub's default job timeout (6 h). No GitHub request.
 * - a git branch's preview (push, `workflow_dispatch`) lives while the git
 *   branch does: one `GET /repos/{owner}/{repo}/branches/{branch}` (GitHub
 *   REST, "Get a branch") per git branch and sweep, as a closed PR's preview
 *   costs one pull request read; only a 404 `Branch not found` means it was
 *   deleted (a token that may not read the repository's contents gets 404
 *   `Not Found`: the preview is kept). Each read goes through the sweep's
 *   client and keeps the reserve of GitHub's rate limit that the sweep
 *   leaves to the repository's pull requests (comment/lock/budget.ts): below
 *   it the preview is left for the next run, unread.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import type { Branch } from '../platform/client.js'
import type { BranchOwner } from '../platform/annotations.js'
import { type Octokit, describeGitHubError, githubClient, statusOf } from '../comment/comment.js'
import { budgetOf } from '../comment/lock/budget.js'
import { QUEUE_EXPIRY_SECONDS } from '../run-source.js'

/** A decision of the sweep for a branch no pull request owns. */
export interface KindDecision {
  decision: 'delete' | 'keep' | 'left for the next run'
  reason: string
}

/** Whether each git branch exists, read once per sweep (the process is one run). */
const gitBranches = new Map<string, Promise<boolean | string>>()
let octokit: Octokit | undefined

/** Sends the git-branch reads through `client`: the sweep's, so that they count in the budget it checks (budget.ts, budgetOf). */
export function readGitBranchesWith(client: Octokit): void {
  octokit = client
}

/** The `message` of a GitHub error's body (octokit's RequestError), '' when none. */
function messageOf(err: unknown): string {
  const data = (err as { response?: { data?: { message?: unknown } } }).response?.data
  return typeof data?.message === 'string' ? data.message : ''
}

/**
 * True when git branch `name` exists on GitHub, false when GitHub answers 404 `Branch not found`, or why it could not be read;
 * null, unread, when its request would take GitHub's budget below the reserve.
 */
function gitBranchExists(settings: Settings, name: string): Promise<boolean | string> | null {
  let known = gitBranches.get(name)
  if (!known) {
    octokit ??= githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
    const client = octokit
    const budget = budgetOf(client)
    if (!budget.allows(budget.reserve() + 1)) return null
    known = client.rest.repos.getBranch({ ...github.context.repo, branch: name }).then(
      () => true,
      // GitHub answers 404 `Not Found` too when the token may not read the repository's contents: only `Branch not found` says it is gone
      (err: unknown) => (statusOf(err) === 404 && /branch not found/i.test(messageOf(err)) ? false : describeGitHubError(err))
    )
    gitBranches.set(name, known)
  }
  return known
}

/**
 * The sweep's decision for a branch of ours no pull request owns, by the kind
 * its annotations name (see the module comment); null for a branch of no kind
 * (a commit's, made outside a PR by an earlier version), which cleanup.ts decides.
 * @param now milliseconds since the epoch
 */
export async function decideByKind(owner: BranchOwner, branch: Branch, settings: Settings, now: number): Promise<KindDecision | null> {
  if (owner.kind === 'merge-group') {
    const expires = Date.parse(branch.expires_at ?? '')
    if (Number.isFinite(expires) && expires <= now)
      return { decision: 'delete', reason: "a merge group's branch past its expiry: its job is over" }
    const age = (now - Date.parse(branch.created_at)) / 1000
    if (!Number.isFinite(expires) && age > QUEUE_EXPIRY_SECONDS)
      return { decision: 'delete', reason: "a merge group's branch older than 6 h: its job is over" }
    return { decision: 'keep', reason: "a merge group's branch whose job may still run (its post step deletes it, or its expiry)" }
  }
  if (owner.kind === 'git-branch' && owner.gitBranch) {
    const reading = gitBranchExists(settings, owner.gitBranch)
    if (!reading)
      return {
        decision: 'left for the next run',
        reason: `git branch \`${owner.gitBranch}\` not read: the sweep leaves GitHub's last ${budgetOf(octokit!).reserve()} requests of the hour to the repository's pull requests`
      }
    const exists = await reading
    if (exists === false) return { decision: 'delete', reason: `git branch \`${owner.gitBranch}\` was deleted` }
    if (exists === true) return { decision: 'keep', reason: `git branch \`${owner.gitBranch}\` exists` }
    core.warning(`Could not read git branch "${owner.gitBranch}" of branch "${branch.name}": ${exists}. Keeping the branch.`)
    return { decision: 'keep', reason: `git branch \`${owner.gitBranch}\` could not be read (${exists}): kept` }
  }
  return null
}

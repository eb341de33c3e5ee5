/**
 * The sweep's rules for one branch (the module comment of cleanup.ts): the
 * default and protected branches are never touched, a branch without this
 * action's annotations (annotations.ts) is not ours, another repository's is
 * kept; a closed or merged PR's preview is deleted, as is one not used for
 * longer than `max-age`; a preview no PR owns follows its kind (kinds.ts).
 * The sweep (cleanup.ts), its deletes deciding again (run.ts) and
 * `make-room` (make-room.ts) all decide here.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import type { Branch, NeonClient } from '../platform/client.js'
import { ownerOf } from '../platform/annotations.js'
import type { PullState } from './github.js'
import { decideByKind } from './kinds.js'

/** What the sweep decided about one branch. */
export interface SweepRow {
  branch: Branch
  pr?: number
  /** The branch's `preview-name` ('' or absent for the PR's one preview). */
  preview?: string
  /** How many ancestors of the branch the project has (children are deleted before their parents). */
  depth?: number
  decision: 'keep' | 'delete' | 'would delete' | 'deleted' | 'already gone' | 'failed' | 'left for the next run'
  reason: string
  /** What the run that made the branch recorded in its annotations (GitHub ids of its PR comment and deployment). */
  recorded?: { commentId?: number; deploymentId?: number }
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
 * closed or merged PR, older than `max-age`, or kept. `listed`: the
 * branch's annotation values from the branch list, when it answered them
 * (else the branch is read).
 */
export async function decide(
  client: NeonClient,
  branch: Branch,
  settings: Settings,
  pulls: (n: number) => Promise<PullState>,
  now: number,
  listed?: Record<string, unknown>
): Promise<SweepRow> {
  if (branch.default) return { branch, decision: 'keep', reason: "the project's default branch: never touched" }
  if (branch.protected) return { branch, decision: 'keep', reason: 'a protected branch: never touched' }
  const found = listed ? { branch, annotations: listed } : await client.branchWithAnnotations(branch.id)
  if (!found) return { branch, decision: 'keep', reason: 'gone before it could be read' }
  const owner = ownerOf(found.annotations)
  if (!owner) return { branch, decision: 'keep', reason: 'not made by this action (no preview-postgres annotations), whatever its name' }
  const repo = `${github.context.repo.owner}/${github.context.repo.repo}`
  if (owner.repository !== repo)
    return { branch, pr: owner.pr, decision: 'keep', reason: `made for another repository (${owner.repository})` }
  const row = (decision: SweepRow['decision'], reason: string): SweepRow => ({
    branch: found.branch,
    pr: owner.pr,
    preview: owner.preview,
    decision,
    reason,
    recorded: { commentId: owner.commentId, deploymentId: owner.deploymentId }
  })
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
  const byKind = owner.pr ? null : await decideByKind(owner, found.branch, settings, now) // merge groups, git branches
  if (byKind) return row(byKind.decision, byKind.reason)
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

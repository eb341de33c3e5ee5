/**
 * A pull request's branches found by the PR's identity, not by a name that
 * can change: GitHub lets a PR's head branch be renamed (the PR follows), and
 * the default branch name (`preview/pr-<number>-<head ref>`) changes with it.
 * What identifies the PR's branch: the id the PR comment's record names, and
 * the annotations the action set on the branch when it created it
 * (annotations.ts: repository, PR number, `preview-name`), which stay through
 * a rename.
 */
import * as core from '@actions/core'
import type { CommentRecord } from '../comment/comment.js'
import { type BranchOwner, ownerOf } from './annotations.js'
import type { Branch, NeonClient } from './client.js'
import type { BranchOptions } from './lifecycle.js'
import { deleteBranchAndWait } from './branch-delete.js'
import { waitForPendingOf } from './branch-wait.js'
import { waitForOperations } from './operations.js'
import { findPreviewBranches, unseededName } from './preview-branch.js'
import { retryLocked } from './retry-423.js'

type Waits = Pick<BranchOptions, 'pollIntervalSeconds' | 'waitTimeoutSeconds'>

/** True when a branch's annotation values say it was made for `run`'s repository, PR and preview. */
export function madeFor(annotations: Record<string, unknown> | undefined, run: BranchOwner): boolean {
  const owner = ownerOf(annotations)
  return !!owner && !!run.pr && owner.repository === run.repository && owner.pr === run.pr && (owner.preview ?? '') === (run.preview ?? '')
}

/**
 * The PR's branch the comment recorded, under an earlier name than `name`,
 * given that name: the head branch was renamed. Renames it to `name` (PATCH,
 * 423 retried, after the operations still running on it), so the create that
 * follows finds and reuses it under the PR's name. Nothing changes when the
 * record names no other branch, the branch is gone, no longer carries the
 * recorded name (renamed since, or taken out of reuse under `~seeding`), is not
 * annotated as this PR's preview, or a branch `name` exists already (that one
 * is used; `command: delete` removes both).
 * Costs one GET of the branch, and one search and one PATCH when it renames.
 * @returns the renamed branch, or null when nothing was renamed
 * @throws HttpError, OperationError from the requests
 */
export async function followRenamedHead(
  client: NeonClient,
  earlier: CommentRecord | undefined,
  name: string,
  run: BranchOwner,
  o: Waits
): Promise<Branch | null> {
  if (earlier?.mode !== 'branch' || !earlier.branchId || !earlier.branchName || earlier.branchName === name || !run.pr) return null
  const found = await client.branchWithAnnotations(earlier.branchId)
  if (!found || found.branch.name !== earlier.branchName || found.branch.default || found.branch.protected) return null
  if (!madeFor(found.annotations, run)) return null
  const there = await findPreviewBranches(client, name)
  if (there.seeded) {
    core.info(
      `Branch "${name}" exists beside "${found.branch.name}" (${found.branch.id}), this PR's branch under its head branch's earlier name: using "${name}"; \`command: delete\` removes both.`
    )
    return null
  }
  const branch = found.branch
  await waitForPendingOf(client, branch, o)
  const renamed = await retryLocked(`Rename branch "${branch.name}"`, () => client.renameBranch(branch.id, name))
  await waitForOperations(renamed.operations, { ...o, get: (id: string) => client.getOperation(id) })
  core.info(
    `The pull request's head branch was renamed: renamed branch "${branch.name}" (${branch.id}) to "${name}", so it is reused as the PR's preview.`
  )
  return renamed.branch
}

/**
 * Every branch of the run's PR and preview other than those named `name` and
 * `<name>~seeding` (which the caller handles): the branch the record names
 * when annotated as this PR's, and the branches a search for
 * `preview/pr-<number>` finds whose annotations name this repository, PR and
 * preview (earlier head branch names). One search (a page per 100 matches)
 * and, when the record names a branch outside it, one GET.
 */
export async function otherBranchesOfPr(client: NeonClient, run: BranchOwner, name: string, earlier?: CommentRecord): Promise<Branch[]> {
  if (!run.pr) return []
  const skip = new Set([name, unseededName(name)])
  const annotations = new Map<string, Record<string, unknown>>()
  const listed = await client.listBranches(annotations, `preview/pr-${run.pr}`)
  const prefix = `preview/pr-${run.pr}`
  const ours = listed.filter(
    (b) =>
      !skip.has(b.name) &&
      (b.name === prefix || b.name.startsWith(`${prefix}-`) || b.name === unseededName(prefix)) &&
      !b.default &&
      !b.protected &&
      madeFor(annotations.get(b.id), run)
  )
  const recorded = earlier?.mode === 'branch' ? earlier.branchId : undefined
  if (recorded && !ours.some((b) => b.id === recorded) && !listed.some((b) => b.id === recorded && skip.has(b.name))) {
    const found = await client.branchWithAnnotations(recorded)
    if (found && !skip.has(found.branch.name) && !found.branch.default && !found.branch.protected && madeFor(found.annotations, run))
      ours.push(found.branch)
  }
  return ours
}

/**
 * Deletes `branches` (other branches of the PR, {@link otherBranchesOfPr})
 * one by one, each after the operations still running on it.
 * @returns the ids of those deleted (or already gone)
 * @throws what a delete throws (BranchRefusedError, HttpError, OperationError)
 */
export async function deleteBranches(client: NeonClient, branches: Branch[], o: Waits): Promise<string[]> {
  const done: string[] = []
  for (const branch of branches) {
    await waitForPendingOf(client, branch, o)
    await deleteBranchAndWait(client, branch, o)
    core.info(`Deleted branch "${branch.name}" (${branch.id}), this pull request's preview under an earlier head branch name.`)
    done.push(branch.id)
  }
  return done
}

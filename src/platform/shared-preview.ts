/**
 * Previews that runs without a pull request share (a git branch's: two pushes a few seconds apart start two
 * runs, and no PR comment lock serialises them; docs/lifecycle.md, "Where runs come from").
 *
 * The lock is the unseeded name itself. Neon refuses a second branch under a name a branch of the project
 * already has (HTTP 409: platform spec, createProjectBranch and updateProjectBranch), so one run at a time holds
 * `<name>~seeding`, from its create until its rename to `<name>` after the seed committed. Another run that
 * finds it, or meets the 409, waits here until the name is free again: renamed (the seeded preview, reused) or
 * deleted (the holder failed; its undo steps or post step delete it), then goes on. Safe under lost answers: after
 * a lost create answer the lookup by name finds the branch, this run's only when it carries this run's claim
 * (create-unseeded.ts, annotations.ts), else another run's, met as a 409; a lost rename answer is settled by the
 * next lookup; a waiting run changes nothing until the name is free. Safe under kills: a cancelled or failed holder's post step
 * deletes its branch; one whose runner died leaves it, and it is deleted as abandoned once
 * {@link ABANDONED_AFTER_SECONDS} passed since it last changed (no job of GitHub's runs longer).
 *
 * The git branch a preview was made for is recorded in its annotations (annotations.ts); reuse and delete check
 * it, so a preview is never handed to, or deleted for, another git branch whose name maps to the same one.
 */
import * as core from '@actions/core'
import type { NeonClient } from './client.js'
import type { Branch } from './shapes.js'
import { ownerOf } from './annotations.js'
import { BranchRefusedError, type FoundBranches, findPreviewBranches } from './preview-branch.js'
import { sleep } from '../http.js'

/** Seconds after its last change when an unseeded branch is abandoned: GitHub's default job limit, `timeout-minutes: 360`. */
export const ABANDONED_AFTER_SECONDS = 6 * 3600

/** Milliseconds since the epoch when `branch` last changed (its rename to the unseeded name, else its create). */
const changedAt = (branch: Branch): number => Math.max(Date.parse(branch.created_at) || 0, Date.parse(branch.updated_at ?? '') || 0)

/**
 * Waits while another run holds `<name>~seeding` (see the module comment), polling the lookup every
 * `pollIntervalSeconds`, at most `waitTimeoutSeconds`.
 * @returns the preview's branches once the unseeded name is free, or held by a branch abandoned
 *   ({@link ABANDONED_AFTER_SECONDS}), which the caller deletes.
 * @throws BranchRefusedError when the other run still holds it at the deadline; HttpError.
 */
export async function awaitOtherSeed(
  client: NeonClient,
  name: string,
  found: FoundBranches,
  o: { pollIntervalSeconds: number; waitTimeoutSeconds: number }
): Promise<FoundBranches> {
  const deadline = Date.now() + o.waitTimeoutSeconds * 1000
  let logged = false
  while (found.unseeded && Date.now() - changedAt(found.unseeded) < ABANDONED_AFTER_SECONDS * 1000) {
    const held = found.unseeded
    if (Date.now() >= deadline)
      throw new BranchRefusedError(
        `Branch "${held.name}" (${held.id}) is still being seeded by another run of this preview after ${o.waitTimeoutSeconds} s (\`wait-timeout\`). ` +
          `Re-run this job once that run has finished. A branch whose run was killed is deleted by the next run ${ABANDONED_AFTER_SECONDS / 3600} h after it last changed, or delete it by hand.`
      )
    if (!logged)
      core.info(
        `Branch "${held.name}" (${held.id}) is being seeded by another run of this preview: waiting until it is seeded (then reused) or removed, polling every ${o.pollIntervalSeconds} s.`
      )
    logged = true
    await sleep(Math.min(o.pollIntervalSeconds * 1000, Math.max(0, deadline - Date.now())))
    found = await findPreviewBranches(client, name)
  }
  return found
}

/**
 * The check of a git branch's preview before a run reuses or deletes it: why `branch` must not be taken as
 * git branch `gitBranch`'s, or null when it may (its annotations record that git branch).
 * @throws HttpError from the read of its annotations.
 */
export function recordedGitBranchCheck(client: NeonClient, gitBranch: string): (branch: Branch) => Promise<string | null> {
  return async (branch) => {
    const found = await client.branchWithAnnotations(branch.id)
    if (!found) return null // gone: nothing to reuse or delete
    const owner = ownerOf(found.annotations)
    if (owner?.kind === 'git-branch' && owner.gitBranch === gitBranch) return null
    const whose = !owner
      ? 'it was not made by this action'
      : owner.kind === 'git-branch'
        ? `it is the preview of git branch "${owner.gitBranch ?? ''}"`
        : owner.pr
          ? `it is the preview of pull request #${owner.pr}`
          : "it is not a git branch's preview"
    return (
      `Branch "${branch.name}" (${branch.id}) has the name of git branch "${gitBranch}"'s preview, but ${whose}: it is left as it is. ` +
      'Set `branch-name` to give this git branch a preview of its own name.'
    )
  }
}

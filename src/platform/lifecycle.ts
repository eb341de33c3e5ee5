/**
 * Branch mode's lifecycle: find or create the PR's branch, wait for the
 * operations each request started, pick its connection strings, and delete
 * it again (on `reuse: false`, or after a failed seed; the delete and the waits
 * it shares with the other commands are in branch-delete.ts and branch-wait.ts).
 *
 * Proof of a completed seed lives on the branch itself, in its name: a run
 * creates the branch under an unseeded name (`<name>~seeding`) and renames
 * it to `<name>` (platform spec, updateProjectBranch) only once it is seeded.
 * So a branch found under the PR's name was seeded, and one found under the
 * unseeded name (a run that was cancelled, crashed, or lost the create's
 * answer) is never reused: it is deleted and made again, after waiting for
 * the operations still running on it. Annotations would not do: the spec
 * sets them only on create.
 *
 * The rule holds for every command that changes a branch under the
 * PR's name. `command: reset` first takes the branch back to the unseeded
 * name ({@link markUnseeded}) and gives it the PR's name again only after
 * its seed ({@link markSeeded}); the post step deletes a branch only while it
 * still has the id and unseeded name this run left it with.
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import { type Branch, type CreatedBranch, NeonClient } from './client.js'
import { chooseUri, connectionOf, pooledOf } from './branch-connection.js'
import {
  BranchRefusedError,
  type FoundBranches,
  findPreviewAndParent,
  findPreviewBranches,
  refuseProtected,
  unseededName
} from './preview-branch.js'
import { UNSEEDED_BRANCH, isCancelled, offCancel, onCancel } from '../cancel.js'
import { retryLocked } from './retry-423.js'
import { NeonLimitError } from './api-errors.js'
import { waitForComputeSlot } from './compute-wait.js'
import { type Operation, waitForOperations } from './operations.js'
import { createUnseeded } from './create-unseeded.js'
import { logArchived, waitForPendingOf, waitOptions } from './branch-wait.js'
import { deleteBranchAndWait } from './branch-delete.js'
import { awaitOtherSeed } from './shared-preview.js'
import type { CreateBranchExtras } from './shapes.js'
import { clearUnseeded, saveUnseeded } from '../post-state.js'
import { mark } from '../phases.js'

/** What branch mode needs from the settings. Seconds for the durations. */
export interface BranchOptions {
  branchName: string
  parentBranch: string
  database: string
  role: string
  reuse: boolean
  pollIntervalSeconds: number
  waitTimeoutSeconds: number
  /** Lifecycle fields of a create request (expiry, annotations, init source, endpoint settings). */
  branchCreateExtras?: CreateBranchExtras
  /** Completes `branchCreateExtras` just before the create is sent (recorded-ids.ts: the ids the sweep needs); called once, only when a branch is created. */
  completeExtras?: (extras: CreateBranchExtras | undefined) => Promise<CreateBranchExtras | undefined>
  /** Make (or reuse) an anonymized branch through these (platform/anonymized.ts). */
  anonymized?: AnonymizedHooks
  /**
   * Called when the create is refused for the project's branch limit: makes
   * room (sweep/make-room.ts) and resolves, and the create is sent again
   * once; or throws the error to report (with the project's figures).
   */
  atBranchLimit?: (err: NeonLimitError) => Promise<void>
  /**
   * Runs that no PR comment lock serialises may hold the name at once (shared-preview.ts): a branch found
   * under the unseeded name, or a create refused with 409, is waited out instead of deleted or reported.
   */
  sharedName?: boolean
  /** Why a branch found under the preview's names is not this preview's (shared-preview.ts), or null; checked before it is reused or deleted. */
  foreignBecause?: (branch: Branch) => Promise<string | null>
}

/**
 * What the lifecycle needs for an anonymized branch (implemented
 * in platform/anonymized.ts): its create request, the wait for its masking,
 * and whether a seeded branch may be reused.
 */
export interface AnonymizedHooks {
  /** Creates the branch with its masking rules and `start_anonymization: true`. @throws HttpError as createBranch. */
  create(parent: Branch, name: string, extras?: CreateBranchExtras): Promise<CreatedBranch>
  /** Polls until masking ended in `anonymized`. @param deadline ms since the epoch. @throws on an error state or at the deadline. */
  waitUntilMasked(branch: Branch, deadline: number): Promise<void>
  /** Why `branch` must not be reused (not anonymized, masking not finished, other rules), or null when it may. */
  unreusable(branch: Branch, parent: Branch): Promise<string | null>
}

/** A usable branch and how this run came by it. */
export interface BranchOutcome {
  branch: Branch
  parent?: Branch
  created: boolean
  /** Secrets: mask before logging. */
  pooledUrl: string
  directUrl: string
  /** Operations this run waited for, in their terminal state. */
  operations: Operation[]
}

/**
 * Reuses `branch` after waiting for any operation still running on it (for
 * example another run's create); an archived branch's unarchive is waited out
 * as its own phase of the run's trace ('unarchive').
 */
async function reuse(client: NeonClient, branch: Branch, o: BranchOptions): Promise<BranchOutcome> {
  logArchived(branch)
  const back = branch.current_state === 'archived' ? mark('unarchive') : () => undefined
  const operations = await waitForPendingOf(client, branch, o).finally(back)
  core.info(`Reusing branch "${branch.name}" (${branch.id}).`)
  return { branch, created: false, operations, ...(await connectionOf(client, branch, o)) }
}

/** How long a failed run waits for its new branch's operations before deleting the branch, seconds. */
const CLEANUP_WAIT_SECONDS = 30

/** Time kept for the DELETE (with its 423 retries) after waiting for the operations, when undoing a cancel, in milliseconds. */
const CANCEL_DELETE_RESERVE_MS = 1000

/**
 * Registers the cancel's undo step for `branch`, which this run holds under
 * its unseeded name: wait for `pending` (its operations hold the project,
 * a DELETE meets 423 until they end) until shortly before the cancel's
 * deadline (cancel.ts), polling every 0.2 s, then delete it with the 423
 * retry, and clear the post step's state.
 */
export function undoOnCancel(
  client: NeonClient,
  branch: Branch,
  pending: Operation[],
  o: Pick<BranchOptions, 'pollIntervalSeconds' | 'waitTimeoutSeconds'>
): void {
  onCancel(UNSEEDED_BRANCH, async (deadline) => {
    const waitSeconds = Math.max(0.1, (deadline - CANCEL_DELETE_RESERVE_MS - Date.now()) / 1000)
    await waitForOperations(pending, {
      ...waitOptions(client, o as BranchOptions),
      pollIntervalSeconds: 0.2,
      waitTimeoutSeconds: waitSeconds
    }).catch(() => undefined)
    await retryLocked(`Delete branch "${branch.name}"`, () => client.deleteBranch(branch.id))
    clearUnseeded()
  })
}

/** Throws the reason a found branch is not this preview's ({@link BranchOptions.foreignBecause}), before anything changes it. */
async function refuseForeign(found: FoundBranches, o: BranchOptions): Promise<void> {
  for (const branch of [found.seeded, found.unseeded]) {
    const why = branch && o.foreignBecause ? await o.foreignBecause(branch) : null
    if (why) throw new BranchRefusedError(why)
  }
}

/**
 * Finds the PR's seeded branch and reuses it, or creates it under its
 * unseeded name from the parent with a read-write compute and waits for
 * the operations the create started. An unseeded branch found (a run whose
 * seed did not complete) is deleted first, unless `sharedName` says another run may
 * still be seeding it (then it is waited out); `reuse: false` deletes the seeded
 * one too. A newly created branch must be passed to {@link markSeeded} once seeded.
 * @param attempt 1, or the count of looks after creates refused with 409 under `sharedName`
 * @throws BranchRefusedError, ProjectBusyError, OperationError, HttpError.
 */
export async function provisionBranch(client: NeonClient, o: BranchOptions, attempt = 1): Promise<BranchOutcome> {
  const first = await findPreviewAndParent(client, o.branchName, o.parentBranch)
  const parent = first.parent
  const found = o.sharedName ? await awaitOtherSeed(client, o.branchName, first.found, o) : first.found
  await refuseForeign(found, o)
  if (found.unseeded) {
    core.warning(
      `Branch "${found.unseeded.name}" (${found.unseeded.id}) was left by a run whose seed did not complete: deleting it and starting again.`
    )
    // A cancelled run's compute start may still run on it; a DELETE before it ends meets 423.
    await waitForPendingOf(client, found.unseeded, o)
    await deleteBranchAndWait(client, found.unseeded, o)
  }
  const existing = found.seeded
  if (existing) {
    refuseProtected(existing, o.reuse ? 'reuse' : 'delete and recreate')
    // An anonymized branch is reused only when masked, under the same rules
    const unreusable = o.reuse && o.anonymized ? await o.anonymized.unreusable(existing, parent) : null
    if (o.reuse && !unreusable) return { ...(await reuse(client, existing, o)), parent }
    if (unreusable) core.warning(`Not reusing branch "${existing.name}" (${existing.id}): ${unreusable}. Deleting it to create it again.`)
    else core.info(`reuse is false: deleting branch "${existing.name}" (${existing.id}) to recreate it.`)
    await deleteBranchAndWait(client, existing, o)
  }
  const unseeded = unseededName(o.branchName)
  let created
  try {
    const extras = o.completeExtras ? await o.completeExtras(o.branchCreateExtras) : o.branchCreateExtras
    const create = () => createUnseeded(client, parent, unseeded, extras, o.anonymized)
    created = await create().catch(async (err: unknown) => {
      if (err instanceof NeonLimitError && err.limit === 'computes') return await waitForComputeSlot(err, create, o)
      if (!(err instanceof NeonLimitError && err.limit === 'branches' && o.atBranchLimit)) throw err
      // Room made (or the hook throws the limit with its figures): create again, once.
      await o.atBranchLimit(err)
      return await create()
    })
  } catch (err) {
    if (err instanceof HttpError && err.status === 409) {
      // another run holds the unseeded name: wait until it is free, then look again (at most three times)
      if (o.sharedName && attempt < 3) {
        await awaitOtherSeed(client, o.branchName, await findPreviewBranches(client, o.branchName), o)
        return await provisionBranch(client, o, attempt + 1)
      }
      const now = await findPreviewBranches(client, o.branchName)
      if (now.seeded && o.reuse && !(o.anonymized && (await o.anonymized.unreusable(now.seeded, parent)))) {
        core.info(`Branch "${o.branchName}" was created and seeded by another run first (HTTP 409); reusing it.`)
        return { ...(await reuse(client, now.seeded, o)), parent }
      }
      throw new BranchRefusedError(
        `Branch "${unseeded}" already exists: another run of this PR is creating and seeding "${o.branchName}" right now. ` +
          'Re-run this job once it has finished; a branch it leaves unseeded is deleted then.'
      )
    }
    if (err instanceof HttpError && err.status === 404) {
      throw new HttpError(
        `${err.message} Check \`project-id\` and \`parent-branch\` ("${parent.name}", ${parent.id}).`,
        404,
        err.serviceMessage
      )
    }
    throw err
  }
  // From here until it is seeded, a cancelled run deletes the branch (the create flow keeps this step through seeding).
  const { branch } = created
  const pending = created.operations
  saveUnseeded(branch) // the post step deletes it if this run ends before it is seeded
  undoOnCancel(client, branch, pending, o)
  core.info(`Created branch "${branch.name}" (${branch.id}) from "${parent.name}"; waiting for ${pending.length} operation(s).`)
  try {
    const waitStart = Date.now()
    const operations = await waitForOperations(pending, { ...waitOptions(client, o), since: created.sentAt })
    // Nothing is handed out before masking finished; `wait-timeout` covers both waits
    if (o.anonymized) await o.anonymized.waitUntilMasked(branch, waitStart + o.waitTimeoutSeconds * 1000)
    const uri = chooseUri(created.uris, o.database, o.role)
    const connection = uri
      ? { directUrl: uri.connection_uri, pooledUrl: pooledOf(uri.connection_uri, uri.connection_parameters.pooler_host) }
      : await connectionOf(client, branch, o)
    return { branch, parent, created: true, operations, ...connection }
  } catch (err) {
    if (isCancelled()) throw err // the cancel's undo step deletes the branch, after this flow stopped
    offCancel(UNSEEDED_BRANCH)
    // A branch whose creation did not finish (or whose connection could not be read) must not be left behind.
    core.warning(`Deleting branch "${branch.name}" again: ${(err as Error).message}`)
    // Its own operations hold the project (a DELETE meets 423 until they end, Neon operations guide): give them a bounded while more.
    await waitForOperations(pending, {
      ...waitOptions(client, o),
      pollIntervalSeconds: Math.min(o.pollIntervalSeconds, 1),
      waitTimeoutSeconds: CLEANUP_WAIT_SECONDS
    }).catch(() => undefined)
    await deleteBranchAndWait(client, branch, o).then(clearUnseeded, (e: Error) =>
      core.warning(
        `Could not delete branch "${branch.name}" (${branch.id}): ${e.message} The next run deletes it (its name says its seed did not complete), or delete it by hand.`
      )
    )
    throw err
  }
}

/**
 * Takes the seeded branch `branch` out of reuse before a command changes it
 * (`command: reset`): saves the post step's state first (so a kill
 * or a lost answer from here on is undone by the post step, which deletes
 * the branch only while it still has the unseeded name), then renames it
 * to `<name>~seeding` (PATCH, 423 retried, its operations waited on), and
 * registers the cancel's undo step. From then on no run reuses it, and the
 * next run deletes it if this one does not finish; {@link markSeeded} gives
 * the name back after the seed.
 * @returns the branch under its unseeded name.
 * @throws HttpError, ProjectBusyError, OperationError (the branch may then carry either name; both cases are handled as above).
 */
export async function markUnseeded(
  client: NeonClient,
  branch: Branch,
  o: Pick<BranchOptions, 'pollIntervalSeconds' | 'waitTimeoutSeconds'>
): Promise<Branch> {
  const unseeded = unseededName(branch.name)
  saveUnseeded({ id: branch.id, name: unseeded })
  const renamed = await retryLocked(`Rename branch "${branch.name}"`, () => client.renameBranch(branch.id, unseeded))
  undoOnCancel(client, renamed.branch, renamed.operations, o)
  await waitForOperations(renamed.operations, waitOptions(client, o as BranchOptions))
  core.info(`Renamed branch "${branch.name}" to "${unseeded}" until it is seeded again: no run reuses it meanwhile.`)
  return renamed.branch
}

/**
 * Records on the branch that its seed completed: renames the unseeded
 * branch to `name` (PATCH, 423 retried) and waits for any operation the
 * update started. On failure deletes the branch (a later run would delete it
 * anyway) and rethrows.
 * @returns the renamed branch.
 */
export async function markSeeded(
  client: NeonClient,
  branch: Branch,
  name: string,
  o: Pick<BranchOptions, 'pollIntervalSeconds' | 'waitTimeoutSeconds'>
): Promise<Branch> {
  try {
    const renamed = await retryLocked(`Rename branch "${branch.name}"`, () => client.renameBranch(branch.id, name))
    await waitForOperations(renamed.operations, waitOptions(client, o as BranchOptions))
    core.info(`Seed complete: renamed branch "${branch.name}" to "${name}", so later runs reuse it.`)
    return renamed.branch
  } catch (err) {
    core.warning(`Deleting branch "${branch.name}": it could not be renamed to "${name}" after its seed (${(err as Error).message}).`)
    await deleteBranchAndWait(client, branch, o).catch((e: Error) =>
      core.warning(`Could not delete branch "${branch.name}" (${branch.id}): ${e.message} The next run deletes it.`)
    )
    throw err
  }
}

/**
 * Branch mode's lifecycle: find or create the PR's branch, wait for the
 * operations each request started, pick its connection strings, and delete
 * it again (on `command: delete`, on `reuse: false`, or after a failed seed).
 */
import * as core from '@actions/core'
import { HttpError } from '../http.js'
import { replaceHost } from '../connection.js'
import { type Branch, type ConnectionUri, PlatformClient } from './client.js'
import { UNSEEDED_BRANCH, isCancelled, offCancel, onCancel } from '../cancel.js'
import { retryLocked } from './locked.js'
import { type Operation, waitForOperations } from './operations.js'

/** What branch mode needs from the settings. Seconds for the durations. */
export interface BranchOptions {
  branchName: string
  parentBranch: string
  database: string
  role: string
  reuse: boolean
  pollIntervalSeconds: number
  waitTimeoutSeconds: number
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

/** A request the action refuses to make, with what to change. */
export class BranchRefusedError extends Error {}

/**
 * `preview/pr-<number>-<head ref>` in a PR, else `preview/<short sha>`;
 * characters other than letters, digits, `.`, `_` and `-` become `-`, at most 256 characters.
 */
export function defaultBranchName(pr: { number: number; headRef: string } | null, sha: string): string {
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/^-|-$/g, '')
  const name = pr ? `preview/pr-${pr.number}${pr.headRef ? `-${clean(pr.headRef)}` : ''}` : `preview/${clean(sha).slice(0, 7) || 'local'}`
  return name.slice(0, 256)
}

function waitOptions(client: PlatformClient, o: BranchOptions) {
  return { pollIntervalSeconds: o.pollIntervalSeconds, waitTimeoutSeconds: o.waitTimeoutSeconds, get: (id: string) => client.getOperation(id) }
}

function refuseProtected(branch: Branch, what: string): void {
  if (branch.default || branch.protected) {
    throw new BranchRefusedError(
      `Refusing to ${what} branch "${branch.name}" (${branch.id}): it is the project's ${branch.default ? 'default' : 'protected'} branch. ` +
        'Set `branch-name` to a preview branch name.'
    )
  }
}

/** Resolves `parent-branch` (an id or a name) or the project's default branch. */
function resolveParent(branches: Branch[], parentBranch: string): Branch {
  if (parentBranch) {
    const parent = branches.find((b) => b.id === parentBranch) ?? branches.find((b) => b.name === parentBranch)
    if (!parent) throw new BranchRefusedError(`Parent branch "${parentBranch}" was not found in the project (input \`parent-branch\`, an id or a name).`)
    return parent
  }
  const parent = branches.find((b) => b.default)
  if (!parent) throw new BranchRefusedError('The project has no default branch; set `parent-branch`.')
  return parent
}

/** The pooled form of a direct URL: the pooler host when given, else `-pooler` added to the first label. */
function pooledOf(directUrl: string, poolerHost?: string): string {
  return replaceHost(directUrl, (host) => poolerHost || host.replace(/^([^.]+)/, '$1-pooler'))
}

/** Chooses the connection URI of the `database`/`role` inputs, or the only one. */
function chooseUri(uris: ConnectionUri[], database: string, role: string): ConnectionUri | undefined {
  const matching = uris.filter(
    (u) => (!database || u.connection_parameters.database === database) && (!role || u.connection_parameters.role === role)
  )
  return matching.length === 1 || (matching.length > 1 && (database || role)) ? matching[0] : undefined
}

/** Connection strings of an existing branch, from the connection-URI endpoint (pooled and direct). */
async function connectionOf(client: PlatformClient, branch: Branch, o: BranchOptions): Promise<{ pooledUrl: string; directUrl: string }> {
  const endpoints = await client.listEndpoints(branch.id)
  if (!endpoints.some((e) => e.type === 'read_write')) {
    throw new BranchRefusedError(`Branch "${branch.name}" has no read-write compute; delete it or set \`reuse: false\`.`)
  }
  let { database, role } = o
  if (!database || !role) {
    const dbs = await client.listDatabases(branch.id)
    const db = database ? dbs.find((d) => d.name === database) : dbs.length === 1 ? dbs[0] : undefined
    if (!db) {
      throw new BranchRefusedError(
        database
          ? `Branch "${branch.name}" has no database "${database}" (input \`database\`); it has: ${dbs.map((d) => d.name).join(', ') || 'none'}.`
          : `Branch "${branch.name}" has ${dbs.length} databases (${dbs.map((d) => d.name).join(', ')}); set \`database\` to choose one.`
      )
    }
    database = db.name
    role ||= db.owner_name
  }
  const [pooledUrl, directUrl] = await Promise.all([
    client.connectionUri(branch.id, database, role, true),
    client.connectionUri(branch.id, database, role, false)
  ])
  return { pooledUrl, directUrl }
}

/** Reuses `branch` after waiting for any operation still running on it (for example another run's create). */
async function reuse(client: PlatformClient, branch: Branch, o: BranchOptions): Promise<BranchOutcome> {
  const since = new Date(Math.max(Date.parse(branch.created_at) || 0, Date.now() - 3600_000)).toISOString()
  const pending = await client.pendingOperationsOf(branch.id, since)
  let operations: Operation[] = []
  if (pending.length) {
    core.info(`Waiting for ${pending.length} operation(s) still running on branch "${branch.name}".`)
    operations = await waitForOperations(pending, waitOptions(client, o))
  }
  core.info(`Reusing branch "${branch.name}" (${branch.id}).`)
  return { branch, created: false, operations, ...(await connectionOf(client, branch, o)) }
}

/**
 * Deletes `branch` (423 retried per seed 000) and waits for the operations
 * the delete started.
 * @returns those operations; empty when the branch was already gone.
 */
export async function deleteBranchAndWait(client: PlatformClient, branch: Branch, o: Pick<BranchOptions, 'pollIntervalSeconds' | 'waitTimeoutSeconds'>): Promise<Operation[] | null> {
  refuseProtected(branch, 'delete')
  const ops = await retryLocked(`Delete branch "${branch.name}"`, () => client.deleteBranch(branch.id))
  if (ops === null) return null
  return await waitForOperations(ops, waitOptions(client, o as BranchOptions))
}

/** Time kept for the DELETE (with its 423 retries) after waiting for the operations, when undoing a cancel, in milliseconds. */
const CANCEL_DELETE_RESERVE_MS = 1000

/**
 * Finds the branch named `branchName` and reuses it, or creates it from the
 * parent with a read-write compute and waits for the operations the create
 * started. `reuse: false` deletes an existing branch first. A 409 (another
 * run created the branch first) turns into a reuse.
 * @throws BranchRefusedError, ProjectBusyError, OperationError, HttpError.
 */
export async function provisionBranch(client: PlatformClient, o: BranchOptions): Promise<BranchOutcome> {
  const branches = await client.listBranches()
  const parent = resolveParent(branches, o.parentBranch)
  const existing = branches.find((b) => b.name === o.branchName)
  if (existing) {
    refuseProtected(existing, o.reuse ? 'reuse' : 'delete and recreate')
    if (o.reuse) return { ...(await reuse(client, existing, o)), parent }
    core.info(`reuse is false: deleting branch "${existing.name}" (${existing.id}) to recreate it.`)
    await deleteBranchAndWait(client, existing, o)
  }
  let created
  try {
    created = await retryLocked(`Create branch "${o.branchName}"`, () => client.createBranch(parent.id, o.branchName))
  } catch (err) {
    if (err instanceof HttpError && err.status === 409) {
      core.info(`Branch "${o.branchName}" was created by another run first (HTTP 409); reusing it.`)
      const winner = (await client.listBranches()).find((b) => b.name === o.branchName)
      if (!winner) throw err
      return { ...(await reuse(client, winner, o)), parent }
    }
    if (err instanceof HttpError && err.status === 404) {
      throw new HttpError(`${err.message} Check \`project-id\` and \`parent-branch\` ("${parent.name}", ${parent.id}).`, 404, err.serviceMessage)
    }
    throw err
  }
  // From here until it is seeded, a cancelled run deletes the branch (main.ts keeps this step through seeding).
  const { branch } = created
  const pending = created.operations
  onCancel(UNSEEDED_BRANCH, async (deadline) => {
    // The create's operations hold the project (a DELETE meets 423) until they end: wait for them
    // until shortly before the cancel's deadline (cancel.ts), polling every 0.2 s, then delete with the 423 retry.
    const waitSeconds = Math.max(0.1, (deadline - CANCEL_DELETE_RESERVE_MS - Date.now()) / 1000)
    await waitForOperations(pending, { ...waitOptions(client, o), pollIntervalSeconds: 0.2, waitTimeoutSeconds: waitSeconds }).catch(() => undefined)
    await retryLocked(`Delete branch "${branch.name}"`, () => client.deleteBranch(branch.id))
  })
  core.info(
    `Created branch "${created.branch.name}" (${created.branch.id}) from "${parent.name}"; waiting for ${created.operations.length} operation(s).`
  )
  try {
    const operations = await waitForOperations(created.operations, waitOptions(client, o))
    const uri = chooseUri(created.connection_uris, o.database, o.role)
    const connection = uri
      ? { directUrl: uri.connection_uri, pooledUrl: pooledOf(uri.connection_uri, uri.connection_parameters.pooler_host) }
      : await connectionOf(client, created.branch, o)
    return { branch: created.branch, parent, created: true, operations, ...connection }
  } catch (err) {
    if (isCancelled()) throw err // the cancel's undo step deletes the branch, after this flow stopped
    offCancel(UNSEEDED_BRANCH)
    // A branch whose creation did not finish (or whose connection could not be read) must not be left for a later run to reuse.
    core.warning(`Deleting branch "${created.branch.name}" again: ${(err as Error).message}`)
    await deleteBranchAndWait(client, created.branch, o).catch((e: Error) =>
      core.warning(`Could not delete branch "${created.branch.name}" (${created.branch.id}): ${e.message} Delete it by hand.`)
    )
    throw err
  }
}

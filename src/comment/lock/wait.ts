/**
 * The waiting side of the PR's lock (lock.ts has the protocol): its timing
 * constants, the lock reactions on the PR, and the wait until the lock
 * reaction is gone (released, or deleted here by its id when stale or
 * orphaned).
 */
import * as core from '@actions/core'
import { sleep } from '../../http.js'
import { type GitHubBudget, ReserveKeptError, budgetOf } from './budget.js'
import {
  type CommentRecord,
  type Octokit,
  type PullRequest,
  anyPreviewRecordOf,
  describeGitHubError,
  lockReactionOf,
  recordOf,
  statusOf
} from '../comment.js'

/** How often the holder refreshes `heartbeatAt` in the marker (and so the comment's `updated_at`), in milliseconds. */
export const HEARTBEAT_MS = 60_000
/** A lock whose marker comment GitHub last saw written this long ago (GitHub's clock) is stale: its run is gone. Milliseconds. */
export const STALE_AFTER_MS = 5 * 60_000
/**
 * A lock reaction no marker names for this long, as one waiter watches it,
 * is orphaned, in milliseconds: longer than a heartbeat and its requests, so
 * a holder whose marker a user erased (comment deleted or edited) has
 * written it again well before.
 */
export const ORPHAN_AFTER_MS = 3 * 60_000
/** The holder keeps a take only when its naming write was answered within this long of sending its create, in milliseconds. */
export const NAME_WITHIN_MS = 30_000
/** GitHub requests one look at the lock costs: its reactions, and its marker comment (one page each). */
export const POLL_COST = 2

/** The reaction that is the PR's lock when no `preview-name` is set (comment.ts: lockReactionOf). */
export const LOCK_REACTION = 'eyes'

/** A reaction as GitHub answers it (the fields the lock reads). */
export interface LockReaction {
  id: number
  login: string
}

/** Deletes lock reaction `reactionId` on the PR; a 404 (already gone) is success. @throws other GitHub errors. */
export async function deleteLockReaction(octokit: Octokit, pr: PullRequest, reactionId: number): Promise<void> {
  try {
    await octokit.rest.reactions.deleteForIssue({ owner: pr.owner, repo: pr.repo, issue_number: pr.number, reaction_id: reactionId })
  } catch (err) {
    if (statusOf(err) !== 404) throw err
  }
}

/** The ids of `login`'s lock reactions on the PR itself (all pages). @throws the GitHub error. */
export async function lockReactionIds(octokit: Octokit, pr: PullRequest, login: string): Promise<number[]> {
  const reactions = await octokit.paginate(octokit.rest.reactions.listForIssue, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    content: lockReactionOf(),
    per_page: 100
  })
  return reactions.filter((r) => r.user?.login === login).map((r) => r.id)
}

/** A marker comment of `login` on the PR: its id, body and record, and how long ago GitHub last saw it written. */
export interface MarkerComment {
  id: number
  body: string
  record: CommentRecord
  /** Milliseconds between the comment's `updated_at` and the answer's `Date` header (both GitHub's clock). */
  age: number
}

/** GitHub's clock from a response's `Date` header (milliseconds since the epoch), else this machine's. */
const githubNow = (headers: { date?: string }): number => {
  const at = Date.parse(headers.date ?? '')
  return Number.isFinite(at) ? at : Date.now()
}

/**
 * `login`'s marker comments on the PR, oldest first (all pages): this
 * preview's, or with `anyPreview` every preview's (`preview-name`).
 * @throws the GitHub error.
 */
export async function markerComments(octokit: Octokit, pr: PullRequest, login: string, anyPreview = false): Promise<MarkerComment[]> {
  const found: MarkerComment[] = []
  await octokit.paginate(
    octokit.rest.issues.listComments,
    { owner: pr.owner, repo: pr.repo, issue_number: pr.number, per_page: 100 },
    (response) => {
      const now = githubNow(response.headers)
      for (const c of response.data) {
        const body = c.body ?? ''
        const record = c.user?.login !== login ? null : anyPreview ? (anyPreviewRecordOf(body)?.record ?? null) : recordOf(body)
        if (record) found.push({ id: c.id, body: c.body ?? '', record, age: now - Date.parse(c.updated_at) })
      }
      return []
    }
  )
  return found.sort((a, b) => a.id - b.id)
}

/**
 * Reads the marker that names lock reaction `reactionId`: the comment
 * `commentId` when given, still ours and naming it, else the marker comment
 * of `login` that names it, of any preview (two `preview-name`s may share a
 * lock reaction: comment.ts, lockReactionOf), else this preview's oldest.
 * Null when the PR has no marker comment of `login`.
 * @throws the GitHub error.
 */
async function readMarker(
  octokit: Octokit,
  pr: PullRequest,
  login: string,
  commentId: number | null,
  reactionId: number | undefined
): Promise<MarkerComment | null> {
  if (commentId !== null) {
    const got = await octokit.rest.issues.getComment({ owner: pr.owner, repo: pr.repo, comment_id: commentId }).catch((err: unknown) => {
      if (statusOf(err) === 404) return null
      throw err
    })
    const record = got?.data.user?.login === login ? (anyPreviewRecordOf(got.data.body ?? '')?.record ?? null) : null
    if (got && record && (reactionId === undefined || record.reaction === reactionId))
      return { id: commentId, body: got.data.body ?? '', record, age: githubNow(got.headers) - Date.parse(got.data.updated_at) }
  }
  const all = await markerComments(octokit, pr, login, true)
  const naming = reactionId === undefined ? undefined : all.find((m) => m.record.reaction === reactionId)
  if (naming) return naming
  return all.find((m) => recordOf(m.body) !== null) ?? null
}

/**
 * Waits until `login`'s lock reaction on the PR is gone: released by its
 * holder, or deleted here by its id when stale or orphaned (lock.ts). Polls
 * the PR's lock reactions and the comment's marker every `pollSeconds`
 * seconds while a look ({@link POLL_COST} requests) leaves the reserve of
 * GitHub's rate limit that the sweep keeps for the repository's pull
 * requests (budget.ts, the budget of `octokit`'s answers); below it the
 * wait slows down to one look when the window resets. Milliseconds for
 * `staleAfterMs` and `orphanAfterMs`.
 * @throws Error naming the comment when the lock is still live at `deadline`
 *   (milliseconds since the epoch); ReserveKeptError when the reserve kept
 *   it from looking again before `deadline`; CancelledError on a cancel.
 */
export async function waitForRelease(
  octokit: Octokit,
  pr: PullRequest,
  seen: LockReaction,
  deadline: number,
  o: { pollSeconds: number; staleAfterMs: number; orphanAfterMs: number }
): Promise<void> {
  const budget = budgetOf(octokit)
  await budget.read(octokit)
  let slowed = false
  /** Per reaction id: since when this waiter has seen no marker name it (milliseconds since the epoch). */
  const unnamedSince = new Map<number, number>([[seen.id, Date.now()]])
  let commentId: number | null = null
  let told = false
  for (;;) {
    const until = budget.pausedUntil(POLL_COST)
    if (until !== undefined) {
      if (Date.now() >= deadline)
        throw new ReserveKeptError(
          `${lowBudget(pr, budget)} It could not look at the lock again before wait-timeout: re-run ${at(budget.resetAt, 'after')}, or once the other run is done.`
        )
      if (!slowed) core.info(`${lowBudget(pr, budget)} It looks at the lock again ${at(until, 'at')}.`)
      slowed = true
      await sleep(Math.min(until, deadline) - Date.now())
      continue
    }
    let marker: MarkerComment | null
    let ids: number[]
    try {
      ids = await lockReactionIds(octokit, pr, seen.login)
      marker = await readMarker(octokit, pr, seen.login, commentId, ids[0])
      commentId = marker?.id ?? null
    } catch (err) {
      // A GitHub hiccup (after the client's retries): decide nothing on it, keep waiting.
      if (Date.now() >= deadline)
        throw new Error(`Could not read the lock of PR #${pr.number} before wait-timeout: ${describeGitHubError(err)}.`, { cause: err })
      await sleep(Math.min(o.pollSeconds * 1000, Math.max(0, deadline - Date.now())))
      continue
    }
    const id = ids[0]
    const named = id !== undefined && marker?.record.reaction === id
    if (!told) {
      // Said once, even when the holder released it meanwhile: the 200 meant another run held it.
      told = true
      core.info(
        `Another run of this PR holds the lock${named ? ` (comment ${marker!.id}, provisioning since ${marker!.record.provisioningSince})` : ''}: waiting for it.`
      )
    }
    if (id === undefined) return
    const now = Date.now()
    if (named) unnamedSince.delete(id)
    else if (!unnamedSince.has(id)) unnamedSince.set(id, now)
    let reason: string | null = null
    if (named && marker!.age >= o.staleAfterMs) {
      reason = `stale: its comment was last written ${Math.round(marker!.age / 1000)} s ago (GitHub's clock)`
    } else if (!named && now - unnamedSince.get(id)! >= o.orphanAfterMs) {
      reason = `orphaned: no marker named it for ${o.orphanAfterMs / 1000} s`
    }
    if (reason) {
      core.info(`Taking over the lock of PR #${pr.number}: its reaction ${id} is ${reason}.`)
      await deleteLockReaction(octokit, pr, id).catch(() => undefined)
      return
    }
    if (now >= deadline) {
      throw new Error(
        `Another run of PR #${pr.number} has been provisioning its preview database since ${named ? marker!.record.provisioningSince : 'a moment ago'}` +
          `${marker ? ` (comment ${marker.id})` : ''} and did not finish within wait-timeout. Re-run when it is done; a lock whose run was killed is taken over ` +
          `${o.staleAfterMs / 60_000} minutes after its last heartbeat.`
      )
    }
    await sleep(Math.min(o.pollSeconds * 1000, Math.max(0, deadline - now)))
  }
}

/** "at 21:04 UTC" (`word` first), or "when GitHub's hourly window resets" when the time is not known. */
const at = (ms: number | undefined, word: string): string =>
  ms !== undefined && Number.isFinite(ms) ? `${word} ${new Date(ms).toISOString().slice(11, 16)} UTC` : "when GitHub's hourly window resets"

/** Why a wait for the lock of `pr` slows down: the budget's figures and the reserve it keeps. */
const lowBudget = (pr: PullRequest, budget: GitHubBudget): string =>
  `Another run of PR #${pr.number} holds its lock, and GitHub's rate limit is low (${budget.describe()}): the wait for the lock leaves the last ` +
  `${budget.reserve()} requests of the hour to the repository's pull requests, as the cleanup does.`

/**
 * Where a run publishes and how it holds the PR's comment lock: opened before
 * anything is provisioned, written once at the end (success, failure or
 * cancel), and the job summary.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import type { Settings } from '../settings.js'
import { COMMENT_LOCK, isCancelled, offCancel, onCancel, throwIfCancelled, unlessCancelled } from '../cancel.js'
import { type Report, renderReport } from './report.js'
import { mark, phaseTrace } from '../phases.js'
import {
  type CommentRecord,
  type FoundComment,
  type PullRequest,
  githubClient,
  pullRequestOfEvent,
  withoutLock
} from '../comment/comment.js'
import { acquireLock } from '../comment/lock/lock.js'
import type { CommentLock } from '../comment/lock/held.js'
import { ClaimNotPostedError } from '../comment/lock/errors.js'
import { clearLock, markLock } from '../comment/lock/saved.js'
import { COMMENT_LIMIT } from './report.js'
import { forkRecord } from './read-only.js'

/** Where the run publishes: the PR, the lock this run holds (when there is a PR and commenting is on), and what an earlier run recorded. */
export interface Publication {
  pr: PullRequest | null
  lock: CommentLock | null
  /** The PR's comment from an earlier run, whose record says what may be reused. */
  existing: FoundComment | null
  /**
   * What the comment records if this run fails or is cancelled: what the
   * earlier run recorded, until this run makes something new ({@link forgetReusable}).
   */
  reusable: CommentRecord
  /** A fork PR's run: its token may not write to the PR, so no comment, lock or deployment; `command: publish` posts them. */
  readOnly?: boolean
}

/** The earlier run's record without the lock's fields, when it is of this mode; else nothing reusable. */
function reusableOf(home: FoundComment | null, mode: CommentRecord['mode']): CommentRecord {
  if (!home || home.record.mode !== mode) return { mode }
  return withoutLock(home.record)
}

/** This run made a new database or branch: a failure or cancel from now on records nothing reusable. */
export function forgetReusable(pub: Publication, mode: CommentRecord['mode']): void {
  pub.reusable = { mode }
}

/** The workflow run's page (`<server>/<owner>/<repo>/actions/runs/<id>`), when the runner says which run this is. */
export function runUrl(): string | undefined {
  const { serverUrl, runId } = github.context
  const repo = process.env.GITHUB_REPOSITORY
  return repo && runId ? `${serverUrl}/${repo}/actions/runs/${runId}` : undefined
}

/**
 * Takes the PR's comment lock (lock.ts), so only one run of the PR
 * provisions or deletes at a time, whatever comment an earlier run left;
 * the lock's comment says what an earlier run recorded. `seedCheck` is
 * awaited before the lock's placeholder is posted (a refused seed posts no
 * comment). A claim that cannot be posted is a warning: the run goes on
 * without a lock and without reuse. A lock that stays held by another run
 * for `wait-timeout` fails the run.
 */
export async function openPublication(
  settings: Settings,
  seedCheck: Promise<unknown>,
  pr: PullRequest | null = pullRequestOfEvent()
): Promise<Publication> {
  if (!pr) {
    core.notice('No pull request in this event: the PR comment is skipped and nothing is recorded for reuse.')
    return { pr: null, lock: null, existing: null, reusable: { mode: settings.mode } }
  }
  if (!settings.comment || !settings.githubToken) {
    core.info(
      `${settings.comment ? 'No `github-token`' : '`comment` is false'}: no PR comment, so no earlier database can be found for reuse.`
    )
    return { pr, lock: null, existing: null, reusable: { mode: settings.mode } }
  }
  await unlessCancelled(seedCheck)
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  const cancelled = renderReport({ mode: settings.mode, state: 'cancelled', runUrl: runUrl() })
  let pub: Publication | undefined
  return core.group('Take the PR comment lock', async () => {
    let lock: CommentLock
    try {
      lock = await acquireLock(octokit, pr, {
        mode: settings.mode,
        placeholder: renderReport({
          mode: settings.mode,
          state:
            settings.command === 'create' || settings.command === 'publish'
              ? 'provisioning'
              : settings.command === 'reset'
                ? 'resetting'
                : 'closing',
          runUrl: runUrl()
        }),
        pollSeconds: Math.min(settings.pollIntervalSeconds, 2),
        timeoutSeconds: settings.waitTimeoutSeconds,
        // As soon as the lock's reaction exists: a cancel, or a kill before the post step, releases it.
        // What an earlier run recorded is read once the naming in flight has settled, whatever step the run was in.
        onTaken: (taken) => {
          markLock(taken.reaction.id, taken.reaction.login)
          onCancel(COMMENT_LOCK, () =>
            taken.finish(cancelled, () => pub?.reusable ?? reusableOf(taken.home, settings.mode)).then(clearLock)
          )
        }
      })
    } catch (err) {
      if (!(err instanceof ClaimNotPostedError)) throw err
      // Nothing of the lock is left (unless its reaction's delete failed too): nothing for a cancel or the post step to release.
      offCancel(COMMENT_LOCK)
      if (!err.reactionLeft) clearLock()
      const fork = await forkRecord(octokit, pr, settings.mode, err, settings.commentAuthor)
      if (fork) return { pr, lock: null, existing: fork.home, reusable: reusableOf(fork.home, settings.mode), readOnly: true }
      core.warning(
        `${err.message} Going on without it: a concurrent run of this PR is not kept out, and nothing an earlier run recorded is reused.`
      )
      return { pr, lock: null, existing: null, reusable: { mode: settings.mode } }
    }
    pub = { pr, lock, existing: lock.home, reusable: reusableOf(lock.home, settings.mode) }
    if (isCancelled()) {
      // The cancel's undo steps may have run while the lock was being taken.
      offCancel(COMMENT_LOCK)
      await lock.finish(cancelled, pub.reusable)
      clearLock()
      throwIfCancelled()
    }
    core.info(
      `This run holds the PR's comment lock (comment ${lock.claim.id}).` +
        (lock.home ? ' The comment records what an earlier run left.' : '')
    )
    return pub
  })
}

/**
 * Writes the run's report into the PR comment (releasing the lock) and the
 * job summary. The comment's schema diff is cut to GitHub's comment limit;
 * the summary keeps all of it.
 */
export async function publish(pub: Publication, report: Report, record: CommentRecord): Promise<void> {
  throwIfCancelled()
  mark('publish')
  const markdown = renderReport({ ...report, runUrl: runUrl(), phases: phaseTrace() })
  const lock = pub.lock
  if (lock?.held) {
    const comment = renderReport({ ...report, runUrl: runUrl() }, Date.now(), COMMENT_LIMIT)
    const written = await core.group('Update the PR comment', () => lock.finish(comment, record))
    if (written !== null && lock.url) core.setOutput('comment-url', lock.url)
    offCancel(COMMENT_LOCK)
    clearLock()
  }
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write()
}

/**
 * At the end of a run that did not publish (failed, or had nothing to
 * report): releases the lock. After a failure the comment says the run
 * failed, and records what an earlier run recorded unless this run made
 * something new (and `failedBecause`, a failure the reviewer can act on:
 * a Neon plan limit); otherwise only the claim is removed. A cancelled run
 * leaves this to its undo step.
 */
export async function releaseLock(
  pub: Publication | undefined,
  mode: CommentRecord['mode'],
  failed: boolean,
  failedBecause?: string
): Promise<void> {
  if (!pub?.lock?.held || isCancelled()) return
  offCancel(COMMENT_LOCK)
  await pub.lock.finish(failed ? renderReport({ mode, state: 'failed', runUrl: runUrl(), failedBecause }) : null, pub.reusable)
  clearLock()
}

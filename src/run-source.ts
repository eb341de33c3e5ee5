/**
 * Where a run comes from, read from the triggering event (GitHub docs,
 * "Events that trigger workflows" and "Webhook events and payloads"): the
 * event name in `GITHUB_EVENT_NAME` and its payload. What a preview is keyed
 * on, and who ends it, follows from this (docs/lifecycle.md, "Where runs
 * come from").
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { randomBytes } from 'node:crypto'

/** The kind of run, as far as a preview's owner goes. */
export type RunSource =
  /** `pull_request` / `pull_request_target` (or any event whose payload carries a pull request): the PR owns the preview. */
  | { kind: 'pull-request'; number: number; closed: boolean }
  /**
   * `merge_group` (GitHub's merge queue): the job owns a database of its own, keyed on the queue entry's head
   * commit and `job`, this job's key ({@link queueJobKey}).
   */
  | { kind: 'merge-group'; headSha: string; job: string }
  /**
   * `push` or `workflow_dispatch` on a branch, and the `delete` event of a branch: the git branch owns the preview.
   * `deleted`: the git branch is gone (the `delete` event, or a push that deleted it).
   */
  | { kind: 'git-branch'; branch: string; deleted: boolean }
  /**
   * A tag: a push of `refs/tags/…`, `workflow_dispatch` on a tag, or the tag's `create` or `delete` event
   * (`deleted`). No git branch follows it: the run's commit names the preview, which expires.
   */
  | { kind: 'tag'; tag: string; deleted: boolean }
  /** Anything else (`schedule`, `workflow_run`, …): the run's commit names the preview, which expires. */
  | { kind: 'other'; event: string }

/** Events whose `GITHUB_REF` names the git branch that owns the preview. */
const BRANCH_EVENTS = new Set(['push', 'workflow_dispatch'])

/** The run's source, from `github.context` (the event name and payload the runner gave the step). */
export function runSource(): RunSource {
  const { payload, eventName, ref } = github.context
  const pr = payload.pull_request as { number?: unknown; state?: unknown } | undefined
  if (pr && typeof pr.number === 'number') {
    const closed = payload.action === 'closed' || pr.state === 'closed'
    return { kind: 'pull-request', number: pr.number, closed }
  }
  if (eventName === 'merge_group') {
    const group = payload.merge_group as { head_sha?: unknown } | undefined
    const headSha = typeof group?.head_sha === 'string' ? group.head_sha : (github.context.sha ?? '')
    return { kind: 'merge-group', headSha, job: queueJobKey() }
  }
  // the create and delete events: `ref` is the short name, `ref_type` branch or tag (GitHub webhook events, create and delete)
  if ((eventName === 'delete' || eventName === 'create') && typeof payload.ref === 'string' && payload.ref) {
    const deleted = eventName === 'delete'
    if (payload.ref_type === 'tag') return { kind: 'tag', tag: payload.ref, deleted }
    if (payload.ref_type === 'branch') return { kind: 'git-branch', branch: payload.ref, deleted }
  }
  if (BRANCH_EVENTS.has(eventName) && ref?.startsWith('refs/heads/') && ref.length > 'refs/heads/'.length)
    return { kind: 'git-branch', branch: ref.slice('refs/heads/'.length), deleted: payload.deleted === true }
  if (BRANCH_EVENTS.has(eventName) && ref?.startsWith('refs/tags/') && ref.length > 'refs/tags/'.length)
    return { kind: 'tag', tag: ref.slice('refs/tags/'.length), deleted: payload.deleted === true }
  return { kind: 'other', event: eventName ?? '' }
}

/** The job environment variable that carries {@link queueJobKey} to the job's later steps. */
export const QUEUE_JOB_VARIABLE = 'PREVIEW_POSTGRES_QUEUE_JOB'

/**
 * This job's key among the jobs of one merge-queue entry: `<GITHUB_JOB>-<6 random hex digits>`, made by the
 * job's first step that asks and handed to its later steps through `GITHUB_ENV` ({@link QUEUE_JOB_VARIABLE}).
 * Nothing GitHub gives a step names the job uniquely (GitHub docs, "Variables reference"): `GITHUB_JOB` is the
 * workflow's job id, the same for every job of a matrix; `GITHUB_RUN_ID` is the same for every job of the run;
 * `RUNNER_NAME` "may not be unique" across runner levels; the `matrix` context exists only in expressions.
 * `GITHUB_ENV`'s variables reach the later steps of this job alone, so each job, matrix jobs included, has its own.
 */
export function queueJobKey(): string {
  const kept = process.env[QUEUE_JOB_VARIABLE]
  if (kept && /^[A-Za-z0-9._-]{1,80}$/.test(kept)) return kept
  const job = (process.env.GITHUB_JOB ?? '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40)
  const key = `${job ? `${job}-` : ''}${randomBytes(3).toString('hex')}`
  core.exportVariable(QUEUE_JOB_VARIABLE, key)
  return key
}

/**
 * The branch expiry a run's create sets when `expires-in` is empty, in seconds:
 * a merge queue's database lives for its job alone (the post step deletes it),
 * so it carries Neon's `expires_at` 6 hours ahead (GitHub's default job
 * timeout, `timeout-minutes: 360`) should the post step never run.
 */
export const QUEUE_EXPIRY_SECONDS = 6 * 3600

/**
 * The expiry, in seconds, of a preview that no pull request or git branch ends (`schedule`, `workflow_run`,
 * a tag, …: no event of theirs deletes it): 24 hours, a day's runs apart.
 */
export const UNOWNED_EXPIRY_SECONDS = 24 * 3600

/**
 * `expires-in` for this run's create: the input when given, else {@link QUEUE_EXPIRY_SECONDS} for a merge group,
 * {@link UNOWNED_EXPIRY_SECONDS} for a run with no PR and no git branch, 0 (none) for a PR's or a git branch's preview.
 */
export function expiryFor(expiresInSeconds: number, source: RunSource = runSource()): number {
  if (expiresInSeconds) return expiresInSeconds
  if (source.kind === 'merge-group') return QUEUE_EXPIRY_SECONDS
  return source.kind === 'tag' || source.kind === 'other' ? UNOWNED_EXPIRY_SECONDS : 0
}

/**
 * Why `command: create` must provision nothing for this run, or null when it
 * may: a pull request that is closed (the `closed` event, or a payload whose
 * `pull_request.state` is `closed`) gets no new preview; its previews are
 * `command: delete`'s and the sweep's to remove.
 */
export function createRefusedBecause(source: RunSource = runSource()): string | null {
  if (source.kind === 'pull-request' && source.closed)
    return (
      `Pull request #${source.number} is closed: \`command: create\` provisions nothing for a closed pull request ` +
      '(no branch, database, comment or deployment). Its preview is removed by `command: delete` on the `closed` event, or by `command: cleanup`. ' +
      "To skip this step, give the create job `if: github.event.action != 'closed'`."
    )
  if (source.kind === 'git-branch' && source.deleted)
    return (
      `Git branch "${source.branch}" was deleted: \`command: create\` provisions nothing for it. ` +
      'Its preview is removed by `command: delete` on the `delete` event, or by `command: cleanup`.'
    )
  if (source.kind === 'tag' && source.deleted) return tagDeleted(source.tag, 'create', 'provisions nothing')
  return null
}

/**
 * Why `command` (delete, reset) must change nothing for this run, or null when it may: a tag's `delete` event
 * names no preview (a tag's preview is named by its commit and expires, run-source.ts).
 */
export function commandRefusedBecause(command: string, source: RunSource = runSource()): string | null {
  if (command === 'create') return createRefusedBecause(source)
  if (source.kind === 'tag' && source.deleted && (command === 'delete' || command === 'reset'))
    return tagDeleted(source.tag, command, command === 'delete' ? 'deletes nothing' : 'changes nothing')
  return null
}

const tagDeleted = (tag: string, command: string, outcome: string): string =>
  `Tag "${tag}" was deleted: \`command: ${command}\` ${outcome} on a tag's \`delete\` event. ` +
  "Previews belong to pull requests and git branches; a tag's run makes one named by its commit, which expires on its own. " +
  "To skip this step, give the job `if: github.event.ref_type == 'branch'`."

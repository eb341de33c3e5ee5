/**
 * Where a run comes from, read from the triggering event (GitHub docs,
 * "Events that trigger workflows" and "Webhook events and payloads"): the
 * event name in `GITHUB_EVENT_NAME` and its payload. What a preview is keyed
 * on, and who ends it, follows from this (docs/lifecycle.md, "Where runs
 * come from").
 */
import * as github from '@actions/github'

/** The kind of run, as far as a preview's owner goes. */
export type RunSource =
  /** `pull_request` / `pull_request_target` (or any event whose payload carries a pull request): the PR owns the preview. */
  | { kind: 'pull-request'; number: number; closed: boolean }
  /** `merge_group` (GitHub's merge queue): the job owns a database of its own, keyed on the queue entry's head commit. */
  | { kind: 'merge-group'; headSha: string }
  /**
   * `push` or `workflow_dispatch` on a branch, and the `delete` event of a branch: the git branch owns the preview.
   * `deleted`: the git branch is gone (the `delete` event, or a push that deleted it).
   */
  | { kind: 'git-branch'; branch: string; deleted: boolean }
  /** Anything else (`schedule`, a tag, …): the run's commit names the preview. */
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
    return { kind: 'merge-group', headSha: typeof group?.head_sha === 'string' ? group.head_sha : (github.context.sha ?? '') }
  }
  // the delete event: `ref` is the short name, `ref_type` branch or tag (GitHub webhook events, delete)
  if (eventName === 'delete' && payload.ref_type === 'branch' && typeof payload.ref === 'string' && payload.ref)
    return { kind: 'git-branch', branch: payload.ref, deleted: true }
  if (BRANCH_EVENTS.has(eventName) && ref?.startsWith('refs/heads/') && ref.length > 'refs/heads/'.length)
    return { kind: 'git-branch', branch: ref.slice('refs/heads/'.length), deleted: payload.deleted === true }
  return { kind: 'other', event: eventName ?? '' }
}

/**
 * The branch expiry a run's create sets when `expires-in` is empty, in seconds:
 * a merge queue's database lives for its job alone (the post step deletes it),
 * so it carries Neon's `expires_at` 6 hours ahead (GitHub's default job
 * timeout, `timeout-minutes: 360`) should the post step never run; 0 (none) otherwise.
 */
export const QUEUE_EXPIRY_SECONDS = 6 * 3600

/** `expires-in` for this run's create: the input when given, else {@link QUEUE_EXPIRY_SECONDS} for a merge group, else 0. */
export function expiryFor(expiresInSeconds: number, source: RunSource = runSource()): number {
  return expiresInSeconds || (source.kind === 'merge-group' ? QUEUE_EXPIRY_SECONDS : 0)
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
  return null
}

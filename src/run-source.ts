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
  /** Anything else (`push`, `merge_group`, `workflow_dispatch`, `schedule`, …): the run's commit names the preview. */
  | { kind: 'other'; event: string }

/** The run's source, from `github.context` (the event name and payload the runner gave the step). */
export function runSource(): RunSource {
  const pr = github.context.payload.pull_request as { number?: unknown; state?: unknown } | undefined
  if (pr && typeof pr.number === 'number') {
    const closed = github.context.payload.action === 'closed' || pr.state === 'closed'
    return { kind: 'pull-request', number: pr.number, closed }
  }
  return { kind: 'other', event: github.context.eventName ?? '' }
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
  return null
}

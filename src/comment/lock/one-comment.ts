/**
 * One comment, whatever the network does. A POST of a comment whose answer
 * is lost after GitHub made it (the connection drops on the way back) is
 * sent again by the client's retry (comment.ts, githubClient), and GitHub
 * makes a second comment: POST is not idempotent (GitHub REST, "Create an
 * issue comment"). A run that posted its comment therefore looks for the
 * copies it made before it relies on the one it was answered: its own
 * comments are those of the token's user whose marker carries this run's
 * `run` id (comment.ts, CommentRecord) or whose body is exactly the one it
 * posted. It keeps the oldest, the one every later run reads (the PR's
 * oldest marker comment, lock.ts), and deletes the others.
 */
import * as core from '@actions/core'
import { type Octokit, type PullRequest, describeGitHubError, recordOf, statusOf } from '../comment.js'

/** A comment as GitHub answers it (the fields read here). */
interface Listed {
  id: number
  body?: string
  html_url: string
  user?: { login: string } | null
}

/**
 * The copies of one POST among `comments`: `login`'s comments whose marker
 * names `runId` or whose body is `body`, oldest first. Pure (no request).
 */
export function copiesOf<C extends Listed>(comments: C[], login: string, runId: string, body: string): C[] {
  return comments
    .filter((c) => c.user?.login === login && (c.body === body || (runId !== '' && recordOf(c.body ?? '')?.run === runId)))
    .sort((a, b) => a.id - b.id)
}

/**
 * After this run posted `posted` (a comment of the token's user `login`,
 * with body `body`): lists the PR's comments (all pages), keeps the oldest
 * copy this run made ({@link copiesOf}) and deletes the others; when the
 * copy kept is not the one GitHub answered and says something else (an
 * earlier write of this run), writes `body` into it.
 * @returns the comment kept (its id and `html_url`); `posted` itself when the comments cannot be listed (a warning says the PR may show a copy).
 * Never throws.
 */
export async function keepOneCopy(
  octokit: Octokit,
  pr: PullRequest,
  login: string,
  runId: string,
  body: string,
  posted: { id: number; html_url: string }
): Promise<{ id: number; html_url: string }> {
  const { owner, repo, number } = pr
  let copies: Listed[]
  try {
    const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 })
    copies = copiesOf(all, login, runId, body)
  } catch (err) {
    core.warning(
      `Posted the preview comment ${posted.id} on PR #${number}, but could not read the PR's comments to check that a retried POST made no copy: ${describeGitHubError(err)}.`
    )
    return posted
  }
  // The copy GitHub answered is one of them even when the listing does not show it yet.
  if (!copies.some((c) => c.id === posted.id)) copies = [...copies, { ...posted, body }].sort((a, b) => a.id - b.id)
  const [kept, ...extras] = copies
  for (const extra of extras) {
    await octokit.rest.issues.deleteComment({ owner, repo, comment_id: extra.id }).catch((err: unknown) => {
      if (statusOf(err) !== 404)
        core.warning(`Could not delete the copy ${extra.id} of the preview comment on PR #${number}: ${describeGitHubError(err)}.`)
    })
  }
  if (extras.length)
    core.info(`A retried POST made ${copies.length} copies of the preview comment on PR #${number}: kept ${kept.id}, deleted the others.`)
  if (kept.body !== body) {
    await octokit.rest.issues
      .updateComment({ owner, repo, comment_id: kept.id, body })
      .catch((err: unknown) =>
        core.warning(`Could not write the preview comment ${kept.id} on PR #${number}: ${describeGitHubError(err)}.`)
      )
  }
  return { id: kept.id, html_url: kept.html_url }
}

/**
 * Deletes `newer` comments (the PR's marker comments of ours after its
 * oldest, which every run reads) that are placeholders a run left with the
 * lock's fields (`run` in the marker): copies a lost answer made of a run
 * that is gone. Called by the lock's holder, so no live run of the preview
 * writes them. What cannot be deleted stays (a warning).
 * Never throws.
 */
export async function dropLeftClaims(octokit: Octokit, pr: PullRequest, newer: { id: number; record: { run?: string } }[]): Promise<void> {
  for (const c of newer.filter((m) => m.record.run !== undefined)) {
    await octokit.rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id }).then(
      () => core.info(`Deleted comment ${c.id} on PR #${pr.number}: a copy of a placeholder a run that is gone left.`),
      (err: unknown) => {
        if (statusOf(err) !== 404)
          core.warning(`Could not delete the left placeholder ${c.id} on PR #${pr.number}: ${describeGitHubError(err)}.`)
      }
    )
  }
}

/**
 * The sweep's writes to a preview's comment and deployment without listing
 * them per PR (run.ts calls these): a run that creates a branch
 * records the PR comment's id and its deployment's id in the branch's
 * annotations (platform/recorded-ids.ts), so a swept preview costs its two
 * writes, the comment's edit and the deployment's `inactive`, and the
 * sweep's bulk reads (the pulls list, the repository's deployments, the
 * repository's recent comments) are shared by a hundred previews a page.
 *
 * Whether a run of a closed PR holds its lock is read from the repository's
 * comments written lately (GitHub REST, "List issue comments for a
 * repository", `since`): a holder writes its comment every
 * {@link HEARTBEAT_MS}, so a claim not among the comments written within
 * {@link STALE_AFTER_MS} (and a margin for the clocks) is stale, its run
 * gone, and its comment is written over as any other (the gone run's
 * reaction stays on the closed PR; a run of it reopened takes it over as
 * orphaned, lock.ts). Each listing asks only for what was written since the
 * previous one.
 */
import * as github from '@actions/github'
import { type Octokit, anyPreviewRecordOf, commentBody, statusOf } from '../comment/comment.js'
import { STALE_AFTER_MS } from '../comment/lock/wait.js'
import { type PreviewComment, previewComments } from './github.js'

/** Slack for the runner's clock against GitHub's (the first listing), in milliseconds. */
const CLOCK_MARGIN_MS = 120_000
/** Slack for a write GitHub was doing while it answered the previous listing (whose `Date` has whole seconds), in milliseconds. */
const WRITE_MARGIN_MS = 5000

/** Our preview comments written lately, from the repository's comment listings. */
export class RecentComments {
  private since = 0
  private readonly latest = new Map<string, PreviewComment>()
  /** True once a listing failed (not for the rate limit): the sweep lists each PR's comments instead. */
  failed = false

  constructor(
    private readonly octokit: Octokit,
    private readonly login: string
  ) {}

  /**
   * Lists the repository's comments written since the previous listing (the
   * first: within {@link STALE_AFTER_MS} and the margin), a page at a time
   * while `allow(1)` says one more request fits.
   * @returns false when `allow` stopped it before the last page.
   * @throws the GitHub error of a rate limit (other errors set {@link failed}).
   */
  async refresh(allow: (n: number) => boolean, isRateLimited: (err: unknown) => boolean): Promise<boolean> {
    if (this.failed) return true
    // The first listing by this runner's clock, with a margin for it; the next ones from the previous one's `Date` (GitHub's clock).
    const since = new Date(this.since ? this.since - WRITE_MARGIN_MS : Date.now() - STALE_AFTER_MS - CLOCK_MARGIN_MS).toISOString()
    let listedAt = 0
    try {
      const pages = this.octokit.paginate.iterator(this.octokit.rest.issues.listCommentsForRepo, {
        ...github.context.repo,
        since,
        per_page: 100
      })
      const next = pages[Symbol.asyncIterator]()
      for (;;) {
        if (!allow(1)) return false
        const page = await next.next()
        if (page.done) break
        const now = Date.parse(page.value.headers.date ?? '') || Date.now()
        listedAt ||= now
        for (const c of page.value.data) this.take(c, now)
      }
    } catch (err) {
      if (isRateLimited(err)) throw err
      this.failed = true
      return true
    }
    this.since = listedAt || this.since
    return true
  }

  private take(c: { id: number; body?: string; issue_url: string; updated_at: string; user: { login: string } | null }, now: number): void {
    if (c.user?.login !== this.login) return
    const pr = Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1])
    const parsed = anyPreviewRecordOf(c.body ?? '')
    if (!pr || !parsed) return
    const key = `${pr} ${parsed.preview}`
    const known = this.latest.get(key)
    // The PR's oldest comment of the preview is its comment (lock.ts); a newer one is a copy.
    if (known && known.id < c.id) return
    this.latest.set(key, { id: c.id, preview: parsed.preview, record: parsed.record, age: now - Date.parse(c.updated_at) })
  }

  /** Preview `preview`'s comment on PR `pr` as last listed, when it was written lately; else undefined (not written lately, or never). */
  of(pr: number, preview: string): PreviewComment | undefined {
    return this.latest.get(`${pr} ${preview}`)
  }
}

/**
 * Writes `markdown` (and the record `{mode: 'branch'}`) into the preview's
 * comment `commentId` on PR `pr`; when it is gone (404: a user deleted it,
 * or a run posted it again under another id), into the preview's comment the
 * PR's listing finds, if any (the sweep never creates a comment).
 * @returns the requests sent
 * @throws the GitHub error (other than that 404)
 */
export async function writeComment(
  octokit: Octokit,
  pr: number,
  preview: string,
  commentId: number,
  markdown: string,
  login: string
): Promise<number> {
  const body = commentBody(markdown, { mode: 'branch' })
  try {
    await octokit.rest.issues.updateComment({ ...github.context.repo, comment_id: commentId, body })
    return 1
  } catch (err) {
    if (statusOf(err) !== 404) throw err
  }
  const found = (await previewComments(octokit, pr, login)).find((c) => c.preview === preview)
  if (!found) return 2
  await octokit.rest.issues.updateComment({ ...github.context.repo, comment_id: found.id, body })
  return 3
}

/**
 * The deployments of a preview the sweep sets `inactive` without reading
 * their statuses: the one the run that made the preview recorded
 * (`recorded`) and every later one of its environment (`listed`: the
 * environment's deployments; GitHub's ids grow), the deployments of the
 * preview's reuses. Older ones belong to an earlier preview of the PR,
 * already set `inactive` when it was deleted. Ascending ids.
 */
export function deploymentsToDeactivate(recorded: number, listed: { id: number }[] | undefined): number[] {
  return [...new Set([recorded, ...(listed ?? []).map((d) => d.id).filter((id) => id > recorded)])].sort((a, b) => a - b)
}

/**
 * GitHub requests a swept preview's writes may cost: its comment's edit
 * (`comment`), and its deployments' `inactive`: from the recorded id, one
 * per deployment to deactivate; without it, a status read and an
 * `inactive` per deployment of its environment; without the repository's
 * listing (`envs` null), the environment's listing too (one deployment
 * assumed). `envs` undefined: deployments are not touched.
 */
export function writesCost(
  comment: boolean,
  envs: Map<string, { id: number }[]> | null | undefined,
  environment: string,
  recorded?: number
): number {
  const n = comment ? 1 : 0
  if (envs === undefined) return n
  if (envs === null) return n + 3
  const listed = envs.get(environment)
  return n + (recorded ? deploymentsToDeactivate(recorded, listed).length : 2 * (listed?.length ?? 0))
}

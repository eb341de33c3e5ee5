/**
 * The deleting half of `command: cleanup` (decide.ts decides): deletes the
 * branches it was given, {@link SWEEP_CONCURRENCY} at a time (each delete
 * retries 423 and waits for its operations; a project still busy after
 * those retries is tried again after a poll interval: delete.ts), and tells
 * each PR's preview what happened, within GitHub's rate limit:
 *
 * - one check, before any delete, that the token may write to pull requests
 *   (github.ts, checkWrite): a read-only token fails the sweep naming
 *   the permission, with nothing deleted;
 * - a branch whose run recorded its comment's and deployment's ids costs
 *   their two writes, no listing of its own (direct.ts); for a branch
 *   made before, its PR's comments are listed once; each branch belongs to
 *   one preview of its PR (`preview-name`: the annotation, else the comment
 *   whose record names the branch), whose own comment it updates: the sweep
 *   never creates a comment on a closed PR;
 * - a closed or merged PR's lock is taken only when its preview's comment
 *   shows a claim (a run of it may be using the branch); then the branch is
 *   read and decided again under the lock, as for an open PR's branch that
 *   `max-age` sweeps, which always takes the lock;
 * - deployments are touched only in the environments that have any (one
 *   listing of the repository's deployments), each set `inactive`;
 * - before each branch the sweep checks GitHub's rate limit
 *   (`x-ratelimit-remaining`, comment/lock/budget.ts; its account in ledger.ts): it never takes the
 *   hour's budget below the reserve it leaves to the repository's pull
 *   requests (a quarter of `x-ratelimit-limit`), counting what the branches
 *   under way are still to send; there it stops and leaves the rest for the
 *   next run.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import Bottleneck from 'bottleneck'
import type { Settings } from '../settings.js'
import type { Branch, NeonClient } from '../platform/client.js'
import { environmentOf, previewEnvironments } from '../deployment/deployment.js'
import { type Octokit, commentScope, describeGitHubError, scopeComments } from '../comment/comment.js'
import { type GitHubBudget, isRateLimited } from '../comment/lock/budget.js'
import { type PreviewComment, type PullState, checkWrite, previewComments, pullState, sweepLock } from './github.js'
import { MinutePace, SWEEP_NEON_PER_MINUTE, deleteSharing } from './pace.js'
import { RecentComments, writeComment, writesCost } from './direct.js'
import { type SweepRow, decide } from './decide.js'
import { SweepLedger } from './ledger.js'
import { type DeleteContext, deleteSwept } from './delete.js'

/** Branches deleted at once: one DELETE is sent at a time, the others wait for their operations together (pace.ts). */
export const SWEEP_CONCURRENCY = 16
/** GitHub requests a branch under its PR's lock may need: take (3), read the PR again, write, release (2), with room for a retry. */
export const LOCKED_COST = 8
/** Branches whose comments are read before their deletes start. */
const CHUNK = 40

/** What the sweep needs. */
export interface SweepContext {
  client: NeonClient
  octokit: Octokit
  settings: Settings
  pulls: (n: number) => Promise<PullState>
  /** Every branch of the project when the sweep began. */
  branches: Branch[]
  budget: GitHubBudget
  /** Short reasons of the branches that could not be handled. */
  failures: string[]
  /** Every branch with a PR is deleted under the PR's lock (`make-room`), whatever its comment shows. */
  alwaysLock?: boolean
}

/** One sweep's deletes (see the module comment). */
export class SweepRun {
  private readonly comments = new Map<number, Promise<PreviewComment[]>>()
  private readonly commentOf = new Map<SweepRow, PreviewComment | null>()
  private login = ''
  private recent?: RecentComments
  /** GitHub requests kept back from the budget (ledger.ts). */
  private readonly ledger: SweepLedger
  /** What each delete needs (delete.ts): `envs` is set once the repository's deployments are listed. */
  private readonly deletes: DeleteContext

  constructor(private readonly x: SweepContext) {
    this.ledger = new SweepLedger(x.budget)
    const sharing = deleteSharing(x.client, x.settings.pollIntervalSeconds)
    this.deletes = { ...x, sharing, gone: new Set<string>(), envs: undefined }
  }

  /** Deletes the branches of `doomed` (rows decided `delete`), updating each row. @throws SweepPermissionError before any delete. */
  async run(doomed: SweepRow[]): Promise<void> {
    const { settings, octokit } = this.x
    const withPr = doomed.filter((r) => r.pr)
    if (withPr.length && (settings.comment || settings.deployment)) {
      await this.x.budget.read(octokit)
      if (!this.reserve(2)) return this.deferAll(doomed)
      try {
        this.login = await checkWrite(octokit, withPr[0].pr!)
      } catch (err) {
        if (!isRateLimited(err)) throw err
        return this.deferAll(doomed)
      }
      if (settings.deployment && this.reserve(1))
        this.deletes.envs = await previewEnvironments(octokit, github.context.repo, 20, () => this.reserve(1))
      this.recent = new RecentComments(octokit, this.login)
    }
    // Children before their parents; a chunk's comments are read just before its deletes, so a budget that runs low stops both together.
    const ordered = [...doomed].sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0))
    const pace = new MinutePace(SWEEP_NEON_PER_MINUTE)
    this.x.client.pace = pace.wait
    try {
      for (let i = 0; i < ordered.length; i += CHUNK) await this.chunk(ordered.slice(i, i + CHUNK))
    } finally {
      this.x.client.pace = undefined
    }
  }

  /** Reads the comments of a chunk of rows, then deletes their branches, preview by preview and deepest first. */
  private async chunk(rows: SweepRow[]): Promise<void> {
    const withPr = rows.filter((r) => r.pr && r.decision === 'delete')
    if (this.x.settings.comment && this.recent && !this.ledger.stopped && withPr.some((r) => r.recorded?.commentId)) {
      const complete = await this.recent
        .refresh((n) => this.reserve(n), isRateLimited)
        .catch((err: unknown) => {
          if (!isRateLimited(err)) throw err
          return false
        })
      if (!complete) this.ledger.stopped = true
    }
    if (this.x.settings.comment) await this.pool(withPr, (row) => this.read(row))
    const groups = new Map<string, SweepRow[]>()
    for (const row of rows) {
      const key = `${String(1000 - (row.depth ?? 0)).padStart(4, '0')} ${row.preview ?? ''}`
      groups.set(key, [...(groups.get(key) ?? []), row])
    }
    const scope = commentScope()
    try {
      for (const key of [...groups.keys()].sort()) {
        const group = groups.get(key)!.filter((r) => r.decision === 'delete')
        // Markers, lock reactions and reports are the preview's own (comment/scope.ts).
        scopeComments(group[0]?.preview ?? '')
        await this.pool(group, (row) => this.one(row))
      }
    } finally {
      scopeComments(scope)
    }
  }

  /** Runs `f` for every row, {@link SWEEP_CONCURRENCY} at a time; a row that throws is failed (or left for the next run on a rate limit). */
  private async pool(rows: SweepRow[], f: (row: SweepRow) => Promise<void>): Promise<void> {
    const limiter = new Bottleneck({ maxConcurrent: SWEEP_CONCURRENCY })
    await Promise.all(
      rows.map((row) =>
        limiter.schedule(async () => {
          if (row.decision !== 'delete') return
          if (this.ledger.stopped) return this.defer(row)
          try {
            await f(row)
          } catch (err) {
            if (isRateLimited(err)) {
              this.ledger.stopped = true
              return this.defer(row)
            }
            const message = err instanceof Error ? err.message : String(err)
            row.decision = 'failed'
            row.reason += `; kept: ${message}`
            this.x.failures.push(`"${row.branch.name}": ${message}`)
            core.warning(`Branch "${row.branch.name}" (${row.branch.id}) was not deleted: ${message}`)
          }
        })
      )
    )
  }

  /** True when `n` more GitHub requests fit above the reserve (ledger.ts); else the sweep stops taking branches. */
  private reserve(n: number): boolean {
    return this.ledger.reserve(n)
  }

  private defer(row: SweepRow): void {
    this.ledger.defer(row)
  }

  /** GitHub requests the row's writes cost (direct.ts, writesCost). */
  private costOf(row: SweepRow): number {
    return writesCost(
      Boolean(this.commentOf.get(row)),
      row.pr && this.x.settings.deployment ? this.deletes.envs : undefined,
      row.pr ? environmentOf(row.pr, row.preview ?? '') : '',
      row.recorded?.deploymentId
    )
  }

  /** Keeps back the row's writes until it is handled. */
  private promise(row: SweepRow): void {
    this.ledger.promise(row, this.costOf(row))
  }

  private deferAll(rows: SweepRow[]): void {
    this.ledger.deferAll(rows)
  }

  /** Reads the PR's preview comments (once per PR) and finds the row's preview and its comment. */
  private async read(row: SweepRow): Promise<void> {
    const pr = row.pr!
    const recorded = row.recorded?.commentId
    if (recorded && this.recent && !this.recent.failed) {
      // Written lately (a claim shows there), else as the run that made the branch recorded it.
      row.preview ??= ''
      this.commentOf.set(
        row,
        this.recent.of(pr, row.preview) ?? { id: recorded, preview: row.preview, record: { mode: 'branch' }, age: Infinity }
      )
      return this.promise(row)
    }
    if (!this.comments.has(pr) && !this.reserve(2)) return this.defer(row)
    let listing = this.comments.get(pr)
    if (!listing) this.comments.set(pr, (listing = previewComments(this.x.octokit, pr, this.login)))
    this.ledger.reading++
    const found = await listing.finally(() => this.ledger.reading--)
    row.preview ??= found.find((c) => c.record.branchId === row.branch.id)?.preview ?? ''
    const comment = found.find((c) => c.preview === row.preview) ?? null
    this.commentOf.set(row, comment)
    this.promise(row)
  }

  /** Deletes one row's branch: under its PR's lock when it is open or its comment shows a claim, else directly. */
  private async one(row: SweepRow): Promise<void> {
    const comment = this.commentOf.get(row) ?? null
    const state = row.pr ? (await this.x.pulls(row.pr)).state : null
    const open = Boolean(row.pr) && state !== 'closed' && state !== 'merged'
    const locked = Boolean(row.pr && this.x.settings.comment && (open || this.x.alwaysLock || comment?.record.reaction !== undefined))
    this.ledger.settle(row)
    const cost = this.costOf(row) + (locked ? LOCKED_COST : 0)
    if (!this.reserve(cost)) return this.defer(row)
    this.ledger.underWay += cost
    try {
      if (locked) return await this.underLock(row)
      if (!(await (open ? this.stillDoomed(row, '') : this.unusedSinceListed(row)))) return
      const markdown = await deleteSwept(this.deletes, row)
      if (markdown && comment)
        await writeComment(this.x.octokit, row.pr!, row.preview ?? '', comment.id, markdown, this.login).catch((err: unknown) =>
          core.warning(`Could not update the preview comment of PR #${row.pr} after deleting its branch: ${describeGitHubError(err)}.`)
        )
    } finally {
      this.ledger.underWay -= cost
    }
  }

  /**
   * Reads the branch and its PR again and decides again just before the
   * delete (a PR reopened, or a branch used, meanwhile is kept): updates
   * `row` and returns false when it is no longer to be deleted.
   */
  private async stillDoomed(row: SweepRow, how: string): Promise<boolean> {
    const again = await decide(this.x.client, row.branch, this.x.settings, (n) => pullState(this.x.octokit, n), Date.now())
    if (again.reason === 'gone before it could be read') {
      row.decision = 'already gone'
      return false
    }
    if (again.decision !== 'delete') {
      Object.assign(row, { decision: 'keep', reason: `${again.reason} (read again before the delete${how})` })
      return false
    }
    row.branch = again.branch
    return true
  }

  /**
   * Reads the branch again from Neon (no GitHub request) just before a
   * delete without the PR's lock: a branch whose `updated_at` moved since
   * the sweep listed it was used meanwhile (every reuse records its use,
   * expiry.ts; a run of a PR reopened since the pulls list was read) and is
   * kept for the next sweep. Updates `row` and returns false when it is not
   * to be deleted.
   */
  private async unusedSinceListed(row: SweepRow): Promise<boolean> {
    const found = await this.x.client.branchWithAnnotations(row.branch.id)
    if (!found) {
      row.decision = 'already gone'
      return false
    }
    const listed = row.branch.updated_at ?? row.branch.created_at
    if ((found.branch.updated_at ?? found.branch.created_at) !== listed) {
      Object.assign(row, {
        decision: 'keep',
        reason: `${row.reason}, but the branch was used since the sweep listed it (read again before the delete)`
      })
      return false
    }
    row.branch = found.branch
    return true
  }

  /**
   * Deletes `row`'s branch under its PR's comment lock, after reading it
   * again and deciding again (a branch used meanwhile is kept).
   */
  private async underLock(row: SweepRow): Promise<void> {
    const lock = await sweepLock(this.x.octokit, this.x.settings, row.pr!, row.branch, row.reason)
    let markdown: string | null = null
    try {
      // Under the lock the PR is read again: it may have been reopened, and a run of it have used the branch, since the sweep began.
      if (await this.stillDoomed(row, ", under the PR's lock")) markdown = await deleteSwept(this.deletes, row)
    } finally {
      // Kept: only the claim goes, the PR's comment stays as its last run wrote it. Deleted: the comment says swept.
      await lock.finish(markdown, markdown ? { mode: 'branch' } : (lock.home?.record ?? { mode: 'branch' }))
    }
  }
}

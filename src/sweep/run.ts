/**
 * The deleting half of `command: cleanup` (cleanup.ts decides): deletes the
 * branches it was given, {@link SWEEP_CONCURRENCY} at a time (each delete
 * retries 423 and waits for its operations: deleteBranchAndWait; a project
 * still busy after those retries is tried again after a poll interval), and
 * tells each PR's preview what happened, within GitHub's rate limit:
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
 *   (`x-ratelimit-remaining`, comment/lock/budget.ts): it never takes the
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
import { type DeleteSharing, deleteBranchAndWait } from '../platform/lifecycle.js'
import { ProjectBusyError } from '../platform/retry-423.js'
import { summarise } from '../platform/operations.js'
import { renderReport } from '../publish/report.js'
import { runUrl } from '../publish/publication.js'
import { deactivateEnvironment, environmentOf, previewEnvironments, setInactive } from '../deployment/deployment.js'
import { type Octokit, commentScope, describeGitHubError, scopeComments } from '../comment/comment.js'
import { type GitHubBudget, isRateLimited } from '../comment/lock/budget.js'
import { type PreviewComment, type PullState, checkWrite, previewComments, pullState, sweepLock } from './github.js'
import { removeSweptVariables } from '../vercel/cleanup.js'
import { MinutePace, SWEEP_NEON_PER_MINUTE, deleteSharing } from './pace.js'
import { RecentComments, deploymentsToDeactivate, writeComment, writesCost } from './direct.js'

/** What the sweep decided about one branch. */
export interface SweepRow {
  branch: Branch
  pr?: number
  /** The branch's `preview-name` ('' or absent for the PR's one preview). */
  preview?: string
  /** How many ancestors of the branch the project has (children are deleted before their parents). */
  depth?: number
  decision: 'keep' | 'delete' | 'would delete' | 'deleted' | 'already gone' | 'failed' | 'left for the next run'
  reason: string
  /** What the run that made the branch recorded in its annotations (GitHub ids of its PR comment and deployment). */
  recorded?: { commentId?: number; deploymentId?: number }
}

/** Branches deleted at once: one DELETE is sent at a time, the others wait for their operations together (pace.ts). */
export const SWEEP_CONCURRENCY = 16
/** GitHub requests a branch under its PR's lock may need: take (3), read the PR again, write, release (2), with room for a retry. */
export const LOCKED_COST = 8
/** Branches whose comments are read before their deletes start. */
const CHUNK = 40
/** Times a delete is tried again after its 423 retries found the project still busy. */
const BUSY_TRIES = 3

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

type Decide = (
  client: NeonClient,
  branch: Branch,
  settings: Settings,
  pulls: (n: number) => Promise<PullState>,
  now: number
) => Promise<SweepRow>

/** One sweep's deletes (see the module comment). */
export class SweepRun {
  private readonly gone = new Set<string>()
  private readonly comments = new Map<number, Promise<PreviewComment[]>>()
  private readonly commentOf = new Map<SweepRow, PreviewComment | null>()
  private envs: Map<string, { id: number }[]> | null | undefined
  private login = ''
  /** Requests promised to rows already read, per row: kept back from the budget. */
  private readonly promised = new Map<SweepRow, number>()
  private pendingWrites = 0
  /** Comment listings under way (their answers not yet counted in the budget). */
  private reading = 0
  /** Requests the rows being handled now may still send (a row under its PR's lock: {@link LOCKED_COST} more). */
  private underWay = 0
  private recent?: RecentComments
  private stopped = false
  private readonly sharing: DeleteSharing

  constructor(
    private readonly x: SweepContext,
    private readonly decide: Decide
  ) {
    this.sharing = deleteSharing(x.client, x.settings.pollIntervalSeconds)
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
        this.envs = await previewEnvironments(octokit, github.context.repo, 20, () => this.reserve(1))
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
    if (this.x.settings.comment && this.recent && !this.stopped && withPr.some((r) => r.recorded?.commentId)) {
      const complete = await this.recent
        .refresh((n) => this.reserve(n), isRateLimited)
        .catch((err: unknown) => {
          if (!isRateLimited(err)) throw err
          return false
        })
      if (!complete) this.stopped = true
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
          if (this.stopped) return this.defer(row)
          try {
            await f(row)
          } catch (err) {
            if (isRateLimited(err)) {
              this.stopped = true
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

  /** True when `n` more GitHub requests fit above the reserve (budget.ts), after what is promised and under way; else the sweep stops taking branches. */
  private reserve(n: number): boolean {
    const { budget } = this.x
    if (budget.allows(budget.reserve() + this.reading + this.pendingWrites + this.underWay + n)) return true
    this.stopped = true
    return false
  }

  private defer(row: SweepRow): void {
    row.decision = 'left for the next run'
    row.reason += `; left for the next run: the sweep leaves GitHub's last ${this.x.budget.reserve()} requests of the hour to the repository's pull requests`
  }

  /** GitHub requests the row's writes cost (direct.ts, writesCost). */
  private costOf(row: SweepRow): number {
    return writesCost(
      Boolean(this.commentOf.get(row)),
      row.pr && this.x.settings.deployment ? this.envs : undefined,
      row.pr ? environmentOf(row.pr, row.preview ?? '') : '',
      row.recorded?.deploymentId
    )
  }

  /** Keeps back the row's writes until it is handled. */
  private promise(row: SweepRow): void {
    const cost = this.costOf(row)
    this.promised.set(row, cost)
    this.pendingWrites += cost
  }

  private deferAll(rows: SweepRow[]): void {
    this.stopped = true
    for (const row of rows) this.defer(row)
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
    this.reading++
    const found = await listing.finally(() => this.reading--)
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
    this.pendingWrites -= this.promised.get(row) ?? 0
    this.promised.delete(row)
    const cost = this.costOf(row) + (locked ? LOCKED_COST : 0)
    if (!this.reserve(cost)) return this.defer(row)
    this.underWay += cost
    try {
      if (locked) return await this.underLock(row)
      if (!(await (open ? this.stillDoomed(row, '') : this.unusedSinceListed(row)))) return
      const markdown = await this.deleteBranch(row)
      if (markdown && comment)
        await writeComment(this.x.octokit, row.pr!, row.preview ?? '', comment.id, markdown, this.login).catch((err: unknown) =>
          core.warning(`Could not update the preview comment of PR #${row.pr} after deleting its branch: ${describeGitHubError(err)}.`)
        )
    } finally {
      this.underWay -= cost
    }
  }

  /**
   * Deletes the branch unless child branches are left, sets its PR's
   * deployments `inactive`, and renders what the PR's comment should say.
   * @returns the comment's Markdown, or null when the branch was kept.
   */
  private async deleteBranch(row: SweepRow): Promise<string | null> {
    const children = this.x.branches.filter((b) => b.parent_id === row.branch.id && !this.gone.has(b.id))
    if (children.length) {
      Object.assign(row, {
        decision: 'keep',
        reason: `${row.reason}, but it has child branch${children.length === 1 ? '' : 'es'} ${children.map((c) => `"${c.name}"`).join(', ')}, and Neon does not delete a branch with children: delete them first`
      })
      return null
    }
    let ops
    for (let attempt = 1; ; attempt++) {
      try {
        ops = await deleteBranchAndWait(this.x.client, row.branch, this.x.settings, this.sharing)
        break
      } catch (err) {
        if (!(err instanceof ProjectBusyError) || attempt >= BUSY_TRIES) throw err
        await new Promise((r) => setTimeout(r, this.x.settings.pollIntervalSeconds * 1000))
      }
    }
    this.gone.add(row.branch.id)
    row.decision = ops === null ? 'already gone' : 'deleted'
    core.info(`Deleted branch "${row.branch.name}" (${row.branch.id}): ${row.reason}.`)
    await this.deactivate(row)
    const unwired = await removeSweptVariables(this.x.settings, row.pr, row.preview ?? '')
    if (unwired) this.x.failures.push(`"${row.branch.name}": ${unwired}`)
    return renderReport({
      mode: 'branch',
      state: 'swept',
      projectId: this.x.settings.projectId,
      branchId: row.branch.id,
      branchName: row.branch.name,
      sweptBecause: row.reason,
      operations: (ops ?? []).map(summarise)
    })
  }

  /** Sets the preview's deployments `inactive`, only where its environment has any. */
  private async deactivate(row: SweepRow): Promise<void> {
    if (!row.pr || !this.x.settings.deployment || this.envs === undefined) return
    const environment = environmentOf(row.pr, row.preview ?? '')
    const known = this.envs?.get(environment)
    const recorded = row.recorded?.deploymentId
    // From the id the run recorded: no status read (direct.ts); without the repository's listing, the environment's as below.
    if (recorded && this.envs)
      return void (await setInactive(this.x.octokit, github.context.repo, deploymentsToDeactivate(recorded, known), runUrl() ?? ''))
    if (this.envs && !known) return
    await deactivateEnvironment(this.x.octokit, github.context.repo, environment, runUrl() ?? '', known)
  }

  /**
   * Reads the branch and its PR again and decides again just before the
   * delete (a PR reopened, or a branch used, meanwhile is kept): updates
   * `row` and returns false when it is no longer to be deleted.
   */
  private async stillDoomed(row: SweepRow, how: string): Promise<boolean> {
    const again = await this.decide(this.x.client, row.branch, this.x.settings, (n) => pullState(this.x.octokit, n), Date.now())
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
      if (await this.stillDoomed(row, ", under the PR's lock")) markdown = await this.deleteBranch(row)
    } finally {
      // Kept: only the claim goes, the PR's comment stays as its last run wrote it. Deleted: the comment says swept.
      await lock.finish(markdown, markdown ? { mode: 'branch' } : (lock.home?.record ?? { mode: 'branch' }))
    }
  }
}

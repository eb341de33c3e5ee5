/**
 * The sweep's account of GitHub requests (run.ts): before each branch the
 * sweep checks GitHub's rate limit (`x-ratelimit-remaining`,
 * comment/lock/budget.ts) and never takes the hour's budget below the
 * reserve it leaves to the repository's pull requests (a quarter of
 * `x-ratelimit-limit`), counting what is promised to the rows already read,
 * the comment listings under way and what the branches under way may still
 * send. Once a request does not fit, the sweep takes no more branches and
 * leaves the rest for the next run.
 */
import type { GitHubBudget } from '../comment/lock/budget.js'
import type { SweepRow } from './decide.js'

/** One sweep's GitHub requests kept back from the budget, in requests. */
export class SweepLedger {
  /** Requests promised to rows already read, per row: kept back from the budget. */
  private readonly promised = new Map<SweepRow, number>()
  private pendingWrites = 0
  /** Comment listings under way (their answers not yet counted in the budget). */
  reading = 0
  /** Requests the rows being handled now may still send (a row under its PR's lock: run.ts's `LOCKED_COST` more). */
  underWay = 0
  /** True once a request did not fit or GitHub's rate limit was met: the sweep takes no more branches. */
  stopped = false

  constructor(private readonly budget: GitHubBudget) {}

  /** True when `n` more GitHub requests fit above the reserve (budget.ts), after what is promised and under way; else the sweep stops taking branches. */
  reserve(n: number): boolean {
    const { budget } = this
    if (budget.allows(budget.reserve() + this.reading + this.pendingWrites + this.underWay + n)) return true
    this.stopped = true
    return false
  }

  /** Keeps back `cost` requests for the row's writes until it is handled ({@link settle}). */
  promise(row: SweepRow, cost: number): void {
    this.promised.set(row, cost)
    this.pendingWrites += cost
  }

  /** Gives back what {@link promise} kept for the row, once it is being handled. */
  settle(row: SweepRow): void {
    this.pendingWrites -= this.promised.get(row) ?? 0
    this.promised.delete(row)
  }

  /** Leaves the row for the next run, saying why in its reason. */
  defer(row: SweepRow): void {
    row.decision = 'left for the next run'
    row.reason += `; left for the next run: the sweep leaves GitHub's last ${this.budget.reserve()} requests of the hour to the repository's pull requests`
  }

  /** Stops the sweep and leaves every row of `rows` for the next run. */
  deferAll(rows: SweepRow[]): void {
    this.stopped = true
    for (const row of rows) this.defer(row)
  }
}

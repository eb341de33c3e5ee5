/**
 * What the previews cost, for the job summary of `command: cleanup`
 * (cleanup.ts, renderSweep): each swept preview with what its branch used
 * and the total, then the previews that stay: how many, their compute time
 * this billing period and the oldest. The figures are the counters of the
 * branch objects the sweep read anyway (platform/usage.ts; Neon counts them
 * over the billing period, docs/costs.md); one Neon did not give is left
 * blank and out of the totals.
 */
import type { SweepRow } from './decide.js'
import { type BranchUsage, totalUsage, usageOf } from '../platform/usage.js'
import { PRICING_URL, binarySize, cuHours } from '../publish/usage-report.js'
import { utc } from '../publish/report.js'

/** Rows of this repository's previews: the ones `decide` read annotations of ours on (it records their GitHub ids, if any). */
const isPreview = (r: SweepRow): boolean => r.recorded !== undefined

const compute = (u: BranchUsage | undefined): string =>
  u?.computeTimeSeconds === undefined ? '' : `${cuHours(u.computeTimeSeconds)} CU-hours`
const size = (u: BranchUsage | undefined): string => (u?.logicalSizeBytes === undefined ? '' : binarySize(u.logicalSizeBytes))

/**
 * The summary's usage section (Markdown lines): nothing when the sweep looked
 * at no preview of this repository.
 * @param now milliseconds since the epoch, for the oldest preview's age
 */
export function renderSweepUsage(rows: SweepRow[], dryRun: boolean, now = Date.now()): string[] {
  const previews = rows.filter(isPreview)
  if (!previews.length) return []
  const swept = previews.filter((r) => r.decision === (dryRun ? 'would delete' : 'deleted'))
  const kept = previews.filter((r) => !['deleted', 'already gone', 'would delete'].includes(r.decision))
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/`/g, "'")
  const lines = ['', '#### What the previews used', '']
  if (swept.length) {
    const usages = swept.map((r) => usageOf(r.branch))
    const total = totalUsage(usages)
    const unknown = usages.filter((u) => u?.computeTimeSeconds === undefined).length
    lines.push(
      `${dryRun ? 'Would sweep' : 'Swept'} ${swept.length} preview${swept.length === 1 ? '' : 's'}:`,
      '',
      `| Branch | Pull request | Compute | Data size${dryRun ? '' : ' when deleted'} |`,
      '| --- | --- | --- | --- |',
      ...swept.map((r, i) => `| \`${cell(r.branch.name)}\` | ${r.pr ? `#${r.pr}` : ''} | ${compute(usages[i])} | ${size(usages[i])} |`),
      `| **Total**${unknown ? ` (${unknown} without a compute figure)` : ''} | | ${total?.computeTimeSeconds === undefined ? '' : `**${compute(total)}**`} | ${total?.logicalSizeBytes === undefined ? '' : `**${size(total)}**`} |`,
      ''
    )
  } else lines.push(`${dryRun ? 'Would sweep' : 'Swept'} no preview.`, '')
  if (kept.length) {
    const total = totalUsage(kept.map((r) => usageOf(r.branch)))
    const oldest = kept.reduce((a, b) => (Date.parse(b.branch.created_at) < Date.parse(a.branch.created_at) ? b : a))
    const days = Math.floor((now - Date.parse(oldest.branch.created_at)) / 86_400_000)
    const used =
      total?.computeTimeSeconds === undefined ? 'no compute figure from Neon' : `${compute(total)} of compute this billing period`
    lines.push(
      `Kept ${kept.length} preview${kept.length === 1 ? '' : 's'}: ${used}${total?.logicalSizeBytes === undefined ? '' : `, ${size(total)} of data`}. ` +
        `The oldest: \`${cell(oldest.branch.name)}\`${oldest.pr ? ` (#${oldest.pr})` : ''}, made ${utc(oldest.branch.created_at)}${Number.isFinite(days) && days > 0 ? ` (${days} d ago)` : ''}.`,
      ''
    )
  } else lines.push('Kept no preview.', '')
  lines.push(
    `<sub>Neon's counters on each branch, this billing period; a CU-hour and a GB-month are priced on [Neon's pricing page](${PRICING_URL}).</sub>`
  )
  return lines
}

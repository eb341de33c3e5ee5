/**
 * A preview's usage in words, for the PR comment, the job summary and the
 * sweep's summary: compute time in CU-hours with one decimal (Neon docs,
 * "Compute time": compute size × active hours; `compute_time_seconds` / 3,600),
 * sizes in binary units (Neon bills storage and transfer in GiB). A counter
 * Neon did not give is left out, never shown as 0 (platform/usage.ts).
 */
import type { BranchUsage } from '../platform/usage.js'

/** Neon's pricing page, where a CU-hour and a GB-month are priced per plan (docs/costs.md). */
export const PRICING_URL = 'https://neon.com/pricing'

/** `seconds` of compute as CU-hours with one decimal: 5400 → "1.5". */
export function cuHours(seconds: number): string {
  return (seconds / 3600).toFixed(1)
}

/** `bytes` in the largest binary unit that keeps the number at least 1, one decimal: "7.6 MiB"; under 1 KiB, "512 B". */
export function binarySize(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  if (bytes < 1024) return `${bytes} B`
  let n = bytes / 1024
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${n.toFixed(1)} ${units[i]}`
}

/**
 * "1.5 CU-hours of compute (6.0 hours active), 7.6 MiB of data, 2.0 MiB sent to clients":
 * the counters `u` has, in that order; '' when it has none of them.
 * @param sizeWord how the data size is named ("of data", "of data when deleted")
 */
export function describeUsage(u: BranchUsage, sizeWord = 'of data'): string {
  const parts: string[] = []
  if (u.computeTimeSeconds !== undefined) {
    const active = u.activeTimeSeconds !== undefined ? ` (${(u.activeTimeSeconds / 3600).toFixed(1)} hours active)` : ''
    parts.push(`${cuHours(u.computeTimeSeconds)} CU-hours of compute${active}`)
  } else if (u.activeTimeSeconds !== undefined) parts.push(`${(u.activeTimeSeconds / 3600).toFixed(1)} hours active`)
  if (u.logicalSizeBytes !== undefined) parts.push(`${binarySize(u.logicalSizeBytes)} ${sizeWord}`)
  if (u.dataTransferBytes) parts.push(`${binarySize(u.dataTransferBytes)} sent to clients`)
  return parts.join(', ')
}

/**
 * The report's usage row of a branch-mode preview: "Used so far" while it
 * lives, "Used in all" once deleted or swept; null when Neon gave no counter.
 */
export function usageRow(usage: BranchUsage | undefined, state: string): [string, string] | null {
  const gone = state === 'deleted' || state === 'swept'
  const text = usage && describeUsage(usage, gone ? 'of data when deleted' : 'of data')
  if (!text) return null
  return [gone ? 'Used in all' : 'Used so far', `${text}, by Neon's count this billing period ([pricing](${PRICING_URL}))`]
}

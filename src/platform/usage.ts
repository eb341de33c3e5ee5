/**
 * What a preview branch has used, as Neon counts it on the branch object
 * (platform spec `public-v2-for-users.gen.yaml` in `@neondatabase/api-client`,
 * schema Branch: `compute_time_seconds`, `active_time_seconds`,
 * `written_data_bytes`, `data_transfer_bytes`, `logical_size`). A run reads
 * these from the branch object it already has (the lookup's List branches,
 * Get branch): no request of its own. docs/costs.md says what each counts.
 */
import type { Branch } from './shapes.js'

/**
 * A branch's counters. Each field is present only when Neon's answer gave
 * it as a non-negative integer: an older API answer without it, or a value
 * that is not a count, leaves it out (never 0).
 */
export interface BranchUsage {
  /** Seconds of compute: active seconds × the compute's size in CU (Neon docs, "Compute time"); 3,600 make one CU-hour. */
  computeTimeSeconds?: number
  /** Wall-clock seconds the branch's computes were active. */
  activeTimeSeconds?: number
  /** Bytes of WAL written to storage. */
  writtenDataBytes?: number
  /** Bytes sent from Neon to clients (egress). */
  dataTransferBytes?: number
  /** The branch's logical data size, bytes (a size now, not a sum over time). */
  logicalSizeBytes?: number
}

/** The Branch schema's field behind each counter. */
const FIELDS: Record<keyof BranchUsage, keyof Branch> = {
  computeTimeSeconds: 'compute_time_seconds',
  activeTimeSeconds: 'active_time_seconds',
  writtenDataBytes: 'written_data_bytes',
  dataTransferBytes: 'data_transfer_bytes',
  logicalSizeBytes: 'logical_size'
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** The counters `branch` carries; undefined when it carries none (an older API answer). */
export function usageOf(branch: Branch | undefined): BranchUsage | undefined {
  if (!branch) return undefined
  const usage: BranchUsage = {}
  for (const [key, field] of Object.entries(FIELDS) as [keyof BranchUsage, keyof Branch][]) {
    const v = branch[field]
    if (isCount(v)) usage[key] = v
  }
  return Object.keys(usage).length ? usage : undefined
}

/**
 * The sum of `usages`, counter by counter: a counter is in the total when at
 * least one usage has it (those without it add nothing); undefined when none has any.
 */
export function totalUsage(usages: (BranchUsage | undefined)[]): BranchUsage | undefined {
  const total: BranchUsage = {}
  for (const u of usages)
    for (const [key, v] of Object.entries(u ?? {}) as [keyof BranchUsage, number][]) total[key] = (total[key] ?? 0) + v
  return Object.keys(total).length ? total : undefined
}

/**
 * Masking and step outputs.
 */
import * as core from '@actions/core'
import { type Connection, secretsOf } from '../connection.js'
import type { BranchUsage } from '../platform/usage.js'

/**
 * Registers every secret form of a connection with the runner
 * (`::add-mask::`). Call before anything about the connection is logged or
 * written. Empty strings are skipped: the runner refuses to mask them.
 */
export function maskConnection(c: Connection): void {
  for (const secret of secretsOf(c)) core.setSecret(secret)
}

/** Everything the action outputs; absent fields become ''. */
export interface ActionOutputs {
  mode: 'instant' | 'branch'
  created: boolean
  connection?: Connection
  claimUrl?: string
  /** ISO 8601 UTC. */
  expiresAt?: string
  databaseId?: string
  projectId?: string
  branchId?: string
  branchName?: string
  /** The run's schema diff: whether it changed anything, the file with the diff, whether it is destructive. */
  schema?: { changed: boolean; file: string; destructive: boolean }
  /** The `migration-report` file, when a user command's cost was measured (migration-cost/). */
  migrationReport?: string
  /** Branch mode: the branch is anonymized and its masking finished. */
  anonymized?: boolean
  /** This run rebuilt the PR's database because its seed changed (`reseed: on-change`). */
  reseeded?: boolean
  /** Branch mode: the branch's counters as Neon gave them (platform/usage.ts). */
  usage?: BranchUsage
}

/**
 * Sets every output declared in action.yml. The connection must have been
 * masked with {@link maskConnection} first.
 */
export function setOutputs(o: ActionOutputs): void {
  const c = o.connection
  const values: Record<string, string> = {
    'database-url': c?.pooledUrl ?? '',
    'database-url-direct': c?.directUrl ?? '',
    'database-host': c?.pooledHost ?? '',
    'database-host-direct': c?.directHost ?? '',
    'database-name': c?.database ?? '',
    'database-user': c?.user ?? '',
    'database-password': c?.password ?? '',
    'claim-url': o.claimUrl ?? '',
    'expires-at': o.expiresAt ?? '',
    'database-id': o.databaseId ?? '',
    'project-id': o.projectId ?? '',
    'branch-id': o.branchId ?? '',
    'branch-name': o.branchName ?? '',
    created: String(o.created),
    mode: o.mode,
    'schema-changed': String(o.schema?.changed ?? false),
    'schema-diff': o.schema?.file ?? '',
    'schema-destructive': String(o.schema?.destructive ?? false),
    'migration-report': o.migrationReport ?? '',
    anonymized: String(o.anonymized ?? false),
    reseeded: String(o.reseeded ?? false),
    ...usageOutputs(o.usage)
  }
  for (const [name, value] of Object.entries(values)) core.setOutput(name, value)
}

/**
 * The usage outputs (action.yml) of a branch's counters: each a decimal
 * integer as Neon gave it, '' for a counter Neon did not give (never "0").
 */
export function usageOutputs(u: BranchUsage | undefined): Record<string, string> {
  const out = (n: number | undefined): string => (n === undefined ? '' : String(n))
  return {
    'compute-time-seconds': out(u?.computeTimeSeconds),
    'active-time-seconds': out(u?.activeTimeSeconds),
    'logical-size': out(u?.logicalSizeBytes),
    'written-data-bytes': out(u?.writtenDataBytes),
    'data-transfer-bytes': out(u?.dataTransferBytes)
  }
}

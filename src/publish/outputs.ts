/**
 * Masking and step outputs.
 */
import * as core from '@actions/core'
import { type Connection, secretsOf } from '../connection.js'

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
  /** Branch mode: the branch is anonymized and its masking finished. */
  anonymized?: boolean
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
    anonymized: String(o.anonymized ?? false)
  }
  for (const [name, value] of Object.entries(values)) core.setOutput(name, value)
}

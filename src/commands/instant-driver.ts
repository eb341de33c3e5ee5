/**
 * The instant mode's driver (instant service API): provision or reuse the
 * PR's database, and "delete", which the service has no request for: the
 * comment says that the PR closed and when the database lapses unless claimed.
 */
import * as core from '@actions/core'
import { describeConnection } from '../connection.js'
import { INSTANT_PG_VERSION, INSTANT_REGION, getDatabase } from '../instant/client.js'
import { provisionInstant } from '../instant/lifecycle.js'
import type { Publication } from '../publish/publication.js'
import type { Report } from '../publish/report.js'
import type { Settings } from '../settings.js'
import type { Deleted, ModeDriver, Provisioned } from './driver.js'

/** The instant driver for this run's settings and publication (whose record names an earlier database). */
export function instantDriver(settings: Settings, pub: Publication): ModeDriver {
  const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 }
  return {
    provision: () => provision(settings, pub, endpoint),
    delete: () => deleteInstant(pub, endpoint)
  }
}

type Endpoint = { baseUrl: string; timeoutMs: number }

async function provision(settings: Settings, pub: Publication, endpoint: Endpoint): Promise<Provisioned> {
  const previous = pub.existing?.record.mode === 'instant' ? pub.existing.record.databaseId : undefined
  const outcome = await core.group('Provision the instant database', () =>
    provisionInstant(endpoint, { ...settings, previousId: previous })
  )
  const db = { ...outcome.database, expiresAt: outcome.database.expiresAt ?? undefined }
  const report: Report = {
    mode: 'instant',
    state: outcome.created ? 'created' : 'reused',
    databaseId: db.id,
    claimUrl: db.claimUrl,
    expiresAt: db.expiresAt,
    region: INSTANT_REGION,
    pgVersion: INSTANT_PG_VERSION,
    projectId: db.projectId,
    replacedBecause: outcome.replacedBecause
  }
  return {
    created: outcome.created,
    connection: describeConnection(db.connectionString),
    report,
    // The instant service has no delete: the flow records nothing reusable instead.
    undoUnseeded: async () => undefined,
    markSeeded: async () => undefined,
    outputs: () => ({ mode: 'instant', claimUrl: db.claimUrl, expiresAt: db.expiresAt, databaseId: db.id, projectId: db.projectId }),
    record: () => ({ mode: 'instant', databaseId: db.id, expiresAt: db.expiresAt }),
    env: { claimUrl: db.claimUrl, expiresAt: db.expiresAt },
    envVariables: 'with-claim'
  }
}

/**
 * `command: delete` of an instant database. The service has no delete
 * (instant service API): reports when the recorded database lapses, from its
 * current state when the service answers.
 */
async function deleteInstant(pub: Publication, endpoint: Endpoint): Promise<Deleted | null> {
  const record = pub.existing?.record
  if (!record?.databaseId) {
    core.notice('No preview database of this pull request was found: nothing to close.')
    return null
  }
  let expiresAt = record.expiresAt
  let claimUrl: string | undefined
  try {
    const db = await getDatabase(endpoint, record.databaseId)
    if (db) {
      expiresAt = db.status === 'CLAIMED' ? undefined : (db.expiresAt ?? undefined)
      claimUrl = db.status === 'UNCLAIMED' ? db.claimUrl : undefined
    }
  } catch (err) {
    core.warning(`Could not fetch database ${record.databaseId}: ${(err as Error).message} The comment uses the expiry recorded earlier.`)
  }
  core.info(
    `The instant service has no delete: database ${record.databaseId} lapses ${expiresAt ? `at ${expiresAt}` : 'never (it was claimed)'}.`
  )
  return {
    report: { mode: 'instant', state: 'closed', databaseId: record.databaseId, expiresAt, claimUrl },
    record: { mode: 'instant', expiresAt }
  }
}

/**
 * The action's story: read and check the inputs, find what an earlier run of
 * this PR left, provision (or reuse, or tear down) the database, seed it,
 * publish masked outputs, the PR comment and the job summary.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { type Settings, readSettings } from './inputs.js'
import { INSTANT_PG_VERSION, INSTANT_REGION, getDatabase } from './instant/client.js'
import { provisionInstant } from './instant/lifecycle.js'
import { describeConnection } from './connection.js'
import { resolveSeedFiles } from './seed/files.js'
import { seedDatabase } from './seed/run.js'
import { maskConnection, setOutputs } from './publish/outputs.js'
import { writeEnvFile } from './publish/env-file.js'
import { type Report, renderReport } from './publish/report.js'
import {
  type CommentRecord,
  type FoundComment,
  type PullRequest,
  findComment,
  githubClient,
  pullRequestOfEvent,
  upsertComment
} from './publish/comment.js'

/** Where the run publishes: the PR and a GitHub client, when there is a PR and commenting is on. */
interface Publication {
  pr: PullRequest | null
  octokit: ReturnType<typeof githubClient> | null
  existing: FoundComment | null
}

function runUrl(): string | undefined {
  const { serverUrl, runId } = github.context
  const repo = process.env.GITHUB_REPOSITORY
  return repo && runId ? `${serverUrl}/${repo}/actions/runs/${runId}` : undefined
}

async function openPublication(settings: Settings): Promise<Publication> {
  const pr = pullRequestOfEvent()
  if (!pr) {
    core.notice('No pull request in this event: the PR comment is skipped and nothing is recorded for reuse.')
    return { pr: null, octokit: null, existing: null }
  }
  if (!settings.comment || !settings.githubToken) {
    core.info(`${settings.comment ? 'No `github-token`' : '`comment` is false'}: no PR comment, so no earlier database can be found for reuse.`)
    return { pr, octokit: null, existing: null }
  }
  const octokit = githubClient(settings.githubToken, settings.requestTimeoutSeconds * 1000)
  const existing = await core.group('Find the preview comment of an earlier run', () => findComment(octokit, pr))
  if (existing) core.info(`Found the preview comment ${existing.id} of an earlier run.`)
  return { pr, octokit, existing }
}

async function publish(pub: Publication, report: Report, record: CommentRecord): Promise<void> {
  const markdown = renderReport({ ...report, runUrl: runUrl() })
  if (pub.pr && pub.octokit) {
    await core.group('Update the PR comment', () => upsertComment(pub.octokit!, pub.pr!, pub.existing, markdown, record))
  }
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write()
}

/** Instant mode, `command: create`. */
async function createInstant(settings: Settings, seedFiles: string[], pub: Publication): Promise<void> {
  const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 }
  const previous = pub.existing?.record.mode === 'instant' ? pub.existing.record.databaseId : undefined
  const outcome = await core.group('Provision the instant database', () =>
    provisionInstant(endpoint, { ...settings, previousId: previous })
  )
  const db = outcome.database
  const connection = describeConnection(db.connectionString)
  maskConnection(connection)

  const report: Report = {
    mode: 'instant',
    state: outcome.created ? 'created' : 'reused',
    databaseId: db.id,
    claimUrl: db.claimUrl,
    expiresAt: db.expiresAt,
    region: INSTANT_REGION,
    pgVersion: INSTANT_PG_VERSION,
    projectId: db.svcProjectId,
    replacedBecause: outcome.replacedBecause
  }
  if (outcome.created && seedFiles.length > 0) {
    try {
      const result = await core.group(`Seed the database (${seedFiles.length} file${seedFiles.length === 1 ? '' : 's'})`, () =>
        seedDatabase(connection, seedFiles)
      )
      core.info(`Seeded ${result.files} file(s) in ${(result.durationMs / 1000).toFixed(1)} s.`)
      report.seedFiles = result.files
    } catch (err) {
      // Record nothing reusable: the next run must not pick up an unseeded database.
      await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'instant' })
      throw err
    }
  }

  setOutputs({
    mode: 'instant',
    created: outcome.created,
    connection,
    claimUrl: db.claimUrl,
    expiresAt: db.expiresAt,
    databaseId: db.id,
    projectId: db.svcProjectId
  })
  if (settings.envFile) {
    await writeEnvFile(settings.envFile, {
      databaseUrl: connection.pooledUrl,
      databaseUrlDirect: connection.directUrl,
      claimUrl: db.claimUrl,
      expiresAt: db.expiresAt
    })
    core.info(`Wrote DATABASE_URL, DATABASE_URL_DIRECT and PUBLIC_POSTGRES_CLAIM_URL to ${settings.envFile}.`)
  }
  await publish(pub, report, { mode: 'instant', databaseId: db.id, expiresAt: db.expiresAt })
}

/**
 * Instant mode, `command: delete`. The service has no delete (seed 001): say
 * in the comment that the PR closed and when the database lapses unless claimed.
 */
async function closeInstant(settings: Settings, pub: Publication): Promise<void> {
  const record = pub.existing?.record
  if (!record?.databaseId) {
    core.notice('No preview database of this pull request was found: nothing to close.')
    return
  }
  const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 }
  let expiresAt = record.expiresAt
  let claimUrl: string | undefined
  try {
    const db = await getDatabase(endpoint, record.databaseId)
    if (db) {
      expiresAt = db.status === 'CLAIMED' ? undefined : db.expiresAt
      claimUrl = db.status === 'UNCLAIMED' ? db.claimUrl : undefined
    }
  } catch (err) {
    core.warning(`Could not fetch database ${record.databaseId}: ${(err as Error).message} The comment uses the expiry recorded earlier.`)
  }
  core.info(`The instant service has no delete: database ${record.databaseId} lapses ${expiresAt ? `at ${expiresAt}` : 'never (it was claimed)'}.`)
  await publish(
    pub,
    { mode: 'instant', state: 'closed', databaseId: record.databaseId, expiresAt, claimUrl },
    { mode: 'instant', expiresAt }
  )
}

/**
 * Runs the action. Every failure ends in `core.setFailed` with a message
 * that says what to fix; nothing secret is ever part of it.
 */
export async function run(): Promise<void> {
  try {
    const settings = readSettings()
    const seedFiles = settings.command === 'create' ? await resolveSeedFiles(settings.seed) : []
    if (settings.mode === 'branch') {
      throw new Error('Branch mode is not available yet in this version of the action: use `mode: instant` (or leave `project-id` empty).')
    }
    const pub = await openPublication(settings)
    if (settings.command === 'delete') await closeInstant(settings, pub)
    else await createInstant(settings, seedFiles, pub)
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err))
  }
}

/**
 * The `report-file`: what the PR comment of an instant-mode run says, as
 * JSON, for a fork PR's `workflow_run` job (`command: publish`), which
 * posts the comment with a write token. It never holds a password or a
 * connection string: only the report's public facts (claim URL, expiry,
 * database id, schema diff) and the PR and repository it is for.
 *
 * The file comes from a run of the fork's code, so `command: publish`
 * trusts nothing in it: {@link readReportFile} keeps only the known fields,
 * of the right types and sizes, and refuses a database id of another shape,
 * a claim URL other than the instant service's for that id, and a time that
 * is not one. The text it keeps is still the fork's: report.ts renders it
 * inert (inert.ts).
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { CommentRecord, PullRequest } from '../comment/comment.js'
import type { Report, SchemaReport } from './report.js'
import { FINGERPRINT } from '../seed/fingerprint.js'

/** The file's `format`. */
export const REPORT_FORMAT = 'preview-postgres-report/v1'

/** What the file holds. */
export interface ReportFile {
  format: typeof REPORT_FORMAT
  /** `owner/repo` the run was for (`GITHUB_REPOSITORY`). */
  repository: string
  pullRequest: { number: number; headRef: string }
  report: Report
  /** What the comment records for the next run. */
  record: CommentRecord
}

/** A report file `command: publish` must not post. */
export class ReportFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReportFileError'
  }
}

/**
 * The report file's name: `preview-postgres-report.json` for the PR's one
 * preview, `preview-postgres-report-<preview-name>.json` for a named one, so
 * two previews of one job (`preview-name: api` and `web`) write two files.
 * @param previewName the `preview-name` input, as inputs.ts checked it (letters, digits, `-`, `_`, `.`); '' for none
 */
export function reportFileName(previewName: string): string {
  return previewName ? `preview-postgres-report-${previewName}.json` : 'preview-postgres-report.json'
}

/**
 * Writes the report of a finished instant-mode run to `<dir>/`{@link
 * reportFileName} and returns its path.
 * @param previewName the `preview-name` input ('' for the PR's one preview)
 * @throws the file system's error
 */
export async function writeReportFile(
  dir: string,
  pr: PullRequest,
  report: Report,
  record: CommentRecord,
  previewName = ''
): Promise<string> {
  const file = path.join(dir, reportFileName(previewName))
  const content: ReportFile = {
    format: REPORT_FORMAT,
    repository: `${pr.owner}/${pr.repo}`,
    pullRequest: { number: pr.number, headRef: pr.headRef },
    report: instantReport(report, null),
    record: instantRecord(record)
  }
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`)
  return file
}

/** Longest text field kept, in characters (the schema diff: GitHub's comment limit). */
const MAX_TEXT = 1_000
const MAX_DIFF = 65_536

const str = (v: unknown, max = MAX_TEXT): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** An instant database id as the service writes it (a UUID): letters, digits, `-` and `_`, at most 100. */
const DATABASE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/
/** An ISO 8601 UTC time as the service and this action write it (`2026-11-25T10:17:00.000Z`). */
const UTC_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z$/

/**
 * The instant service's claim URL of database `id` (instant service API:
 * `claim_url` is `{instant_base_url}/claim/<id>`) on `origin`, serialized
 * as a WHATWG URL.
 */
export const claimUrlOf = (origin: string, id: string): string => new URL(`/claim/${id}`, origin).href

/**
 * Checks the fields a reader of the file acts on: `databaseId` of the
 * service's shape, `expiresAt` a time.
 * @throws ReportFileError naming the field (`what` says where it is)
 */
function checkIdAndTime(fields: { databaseId?: unknown; expiresAt?: unknown }, what: string): void {
  const { databaseId, expiresAt } = fields
  if (databaseId !== undefined && (typeof databaseId !== 'string' || !DATABASE_ID.test(databaseId)))
    throw new ReportFileError(`its ${what} database id is not one of the instant service (letters, digits, \`-\` and \`_\`)`)
  if (expiresAt !== undefined && (typeof expiresAt !== 'string' || !UTC_TIME.test(expiresAt) || !Number.isFinite(Date.parse(expiresAt))))
    throw new ReportFileError(`its ${what} \`expiresAt\` is not an ISO 8601 UTC time`)
}

/** The schema part of a report, fields checked. */
function schemaOf(v: unknown): SchemaReport | undefined {
  if (!v || typeof v !== 'object') return undefined
  const s = v as Record<string, unknown>
  const source = ['migra', 'platform', 'listing', 'none'].includes(String(s.source)) ? (s.source as SchemaReport['source']) : 'none'
  const destructive = Array.isArray(s.destructive) ? s.destructive.filter((d): d is string => typeof d === 'string').slice(0, 100) : []
  return {
    summary: str(s.summary) ?? '',
    diff: str(s.diff, MAX_DIFF) ?? '',
    source,
    note: str(s.note),
    unavailable: str(s.unavailable),
    destructive: destructive.map((d) => d.slice(0, MAX_TEXT)),
    failOnDestructive: s.failOnDestructive === true ? true : undefined
  }
}

/**
 * An instant-mode report with only its known fields. With `claimOrigin`
 * (reading a file): its database id and expiry are checked, and its claim
 * URL, when it has one, must be exactly {@link claimUrlOf} that origin and id.
 * @throws ReportFileError for a refused field
 */
function instantReport(r: Report, claimOrigin: string | null): Report {
  const claimUrl = str(r.claimUrl)
  if (claimOrigin !== null) {
    checkIdAndTime(r, "report's")
    if (r.claimUrl !== undefined && (claimUrl === undefined || !r.databaseId || claimUrl !== claimUrlOf(claimOrigin, r.databaseId)))
      throw new ReportFileError(
        `its claim URL is not one of the instant service: it must be ${claimOrigin}/claim/<database id> for its database id, as the service writes it`
      )
  }
  return {
    mode: 'instant',
    state: r.state === 'reused' ? 'reused' : 'created',
    databaseId: str(r.databaseId, 100),
    claimUrl,
    expiresAt: str(r.expiresAt, 40),
    region: str(r.region, 100),
    pgVersion: num(r.pgVersion),
    projectId: str(r.projectId, 100),
    replacedBecause: str(r.replacedBecause),
    seedFiles: num(r.seedFiles),
    schema: schemaOf(r.schema)
  }
}

/** An instant-mode record with only its reuse fields: the database, its expiry and the seed's fingerprint. */
function instantRecord(r: CommentRecord): CommentRecord {
  const fingerprint = typeof r.fingerprint === 'string' && FINGERPRINT.test(r.fingerprint) ? r.fingerprint : undefined
  return { mode: 'instant', databaseId: str(r.databaseId, 100), expiresAt: str(r.expiresAt, 40), ...(fingerprint && { fingerprint }) }
}

/**
 * Reads and checks a report file for `command: publish`.
 * @param instantUrl the `instant-url` input: a claim URL must be of its origin
 * @throws ReportFileError when the file cannot be read, is not a report of
 *   this format, or is not of instant mode
 */
export async function readReportFile(file: string, instantUrl: string): Promise<ReportFile> {
  let data: Record<string, unknown>
  try {
    data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
  } catch (err) {
    throw new ReportFileError(`\`report-file\` ${file} could not be read as JSON (${(err as Error).message})`)
  }
  if (!data || data.format !== REPORT_FORMAT)
    throw new ReportFileError(`\`report-file\` ${file} is not a Preview Postgres report (its \`format\` is not ${REPORT_FORMAT})`)
  const pr = (data.pullRequest ?? {}) as Record<string, unknown>
  const report = (data.report ?? {}) as Report
  const number = num(pr.number)
  if (!str(data.repository) || !number || !Number.isInteger(number))
    throw new ReportFileError(`\`report-file\` ${file} does not name its repository and pull request`)
  if (report.mode !== 'instant')
    throw new ReportFileError(`\`report-file\` ${file} is not of instant mode (only instant mode serves fork PRs)`)
  let checked: Report
  const record = (data.record ?? {}) as CommentRecord
  try {
    checked = instantReport(report, new URL(instantUrl).origin)
    checkIdAndTime(record, "record's")
    if (record.databaseId !== undefined && record.databaseId !== checked.databaseId)
      throw new ReportFileError('its record names another database than its report')
  } catch (err) {
    throw new ReportFileError(`\`report-file\` ${file}: ${(err as Error).message}`)
  }
  return {
    format: REPORT_FORMAT,
    repository: data.repository as string,
    pullRequest: { number, headRef: str(pr.headRef) ?? '' },
    report: checked,
    record: instantRecord(record)
  }
}

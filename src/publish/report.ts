/**
 * What one run did, rendered once as Markdown for both the PR comment and the
 * job summary. Holds no secret: no connection string, no password.
 */
import { ANONYMIZATION_DOCS } from '../platform/shapes.js'
import type { PhaseTiming } from '../phases.js'
import { commentScope } from '../comment/scope.js'
import { COMMENT_HEADING } from '../comment/comment.js'
import { markdownCode, markdownText, markdownUrl } from './inert.js'
import { type VercelReport, vercelRow } from '../vercel/report.js'
import { type SchemaReport, renderSchema } from './schema-section.js'
import type { BranchUsage } from '../platform/usage.js'
import { usageRow } from './usage-report.js'

export type { SchemaReport } from './schema-section.js'

/** The facts of one run. Times are ISO 8601 UTC strings. */
export interface Report {
  mode: 'instant' | 'branch'
  /** What happened to the database or branch in this run. */
  state:
    | 'provisioning'
    | 'closing'
    | 'resetting'
    | 'sweeping'
    | 'created'
    | 'reused'
    | 'closed'
    | 'deleted'
    | 'seed-failed'
    | 'failed'
    | 'cancelled'
    | 'swept'
    | 'reset'
    | 'migrate-failed'
  databaseId?: string
  claimUrl?: string
  expiresAt?: string
  region?: string
  pgVersion?: number
  projectId?: string
  branchId?: string
  branchName?: string
  parentBranch?: string
  /** Branch mode: the parent's point the branch was made from (`at LSN 0/1DE2850`, `as of 2026-02-26T12:00:00Z`). */
  parentPoint?: string
  /** Host of the direct connection, without credentials. */
  host?: string
  /** Why an earlier database was not reused, if it was not. */
  replacedBecause?: string
  /** Why this run rebuilt the PR's database (`reseed: on-change`: the seed changed). */
  rebuiltBecause?: string
  /** `migrate-failed`: the commit the migrations failed at (the PR's head), and `migrate-command`'s exit code or why its change was refused. */
  migrateFailure?: { commit: string; exitCode?: number; reason?: string }
  seedFiles?: number
  /** Branch mode: time spent waiting for a busy project (other runs' or the platform's operations) to be free. */
  projectWait?: { seconds: number; operations: number }
  /** Operations the platform ran for this run (branch mode). */
  operations?: { name: string; status: string; durationSeconds: number }[]
  /** Branch mode: the branch is anonymized; its masked columns (names and function names, never a value). */
  anonymized?: { schema: string; table: string; column: string; masking: string }[]
  /** Branch mode: created with `init_source: schema-only` (the parent's schema, none of its rows). */
  schemaOnly?: boolean
  /** Branch mode, `command: reset`: when the branch was restored from its parent (ISO 8601 UTC). */
  resetAt?: string
  /** `failed`: a cause the reviewer can act on (a Neon plan limit and its way out: platform/api-errors.ts); our own words and Neon's message. */
  failedBecause?: string
  /** `command: cleanup`: why the branch was swept. */
  sweptBecause?: string
  /** Link to the workflow run. */
  runUrl?: string
  /**
   * What a user command cost on the data it ran on (migration-cost/): the
   * command's input name, the warning lines (Markdown; [] when there is
   * nothing to warn about) and the `migration-report` file. Absent when
   * nothing was measured.
   */
  migrationCost?: { command: string; lines: string[]; file: string }
  /** The schema change of this run; `noChange` for a reused database, where nothing ran. */
  schema?: SchemaReport
  /** The PR's Vercel preview deployment that reads this database (vercel/), with `vercel-token`. */
  vercel?: VercelReport
  /** Branch mode: what the branch has used, from the branch object the run read (platform/usage.ts); absent when Neon gave no counter. */
  usage?: BranchUsage
  /** Job summary only: where the run's time went (phases.ts), up to the summary's writing. */
  phases?: PhaseTiming[]
}

/** GitHub's limit on a comment body, in characters. */
export const COMMENT_LIMIT = 65_536

/**
 * The migration cost section: one line per finding (migration-cost/findings.ts);
 * nothing when there is none, or nothing was measured.
 */
export function renderMigrationCost(r: Report): string[] {
  const m = r.migrationCost
  if (!m?.lines.length || r.state === 'seed-failed') return []
  return [
    '#### Migration cost',
    '',
    `Measured on this preview's data while \`${m.command}\` ran:`,
    '',
    ...m.lines.map((l) => l.replace(/\n/g, ' ')),
    '',
    "<sub>Times are this preview's; on production the same statements wait at least as long, and so does every query queued behind their locks. All tables and locks: the `migration-report` output.</sub>",
    ''
  ]
}

/** The platform's docs on anonymized branches. */

/** The masked columns of an anonymized branch: schema.table.column and the function's name, never a value. */
export function renderMasked(r: Report): string[] {
  if (!r.anonymized?.length || r.state === 'seed-failed') return []
  const n = r.anonymized.length
  const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``
  return [
    '#### Anonymized',
    '',
    `**anonymized: ${n} column${n === 1 ? '' : 's'} masked** before the branch was handed out ([anonymized branches](${ANONYMIZATION_DOCS})).`,
    '',
    '| Column | Masked with |',
    '| --- | --- |',
    ...r.anonymized.map(
      (c) =>
        `| ${code(`${c.schema}.${c.table}.${c.column}`).replace(/\|/g, '\\|')} | ${c.masking === 'value' ? 'a fixed value' : code(c.masking).replace(/\|/g, '\\|')} |`
    ),
    ''
  ]
}

/**
 * The "where the time went" table of the job summary: each phase's wall
 * time (milliseconds, the share of the run), its PostgreSQL round trips and
 * HTTP requests; work overlapped with the timeline is marked so.
 */
export function renderPhases(phases: PhaseTiming[] | undefined): string[] {
  if (!phases?.length) return []
  const total = phases.filter((p) => !p.overlapped).reduce((sum, p) => sum + p.ms, 0)
  return [
    '<details><summary>Where the time went</summary>',
    '',
    '| Phase | Time | Share | PostgreSQL round trips | HTTP requests |',
    '| --- | --- | --- | --- | --- |',
    ...phases.map(
      (p) =>
        `| ${p.phase}${p.overlapped ? ' (overlapped)' : ''} | ${Math.round(p.ms)} ms | ${p.overlapped ? '' : `${Math.round((100 * p.ms) / Math.max(total, 1))} %`} | ${p.pgRoundTrips} | ${p.httpRequests} |`
    ),
    `| **run so far** | **${Math.round(total)} ms** | | ${phases.reduce((n, p) => n + p.pgRoundTrips, 0)} | ${phases.reduce((n, p) => n + p.httpRequests, 0)} |`,
    '',
    '</details>',
    ''
  ]
}

/** "in 71 hours", "in 40 minutes", or "expired" for a time `iso` relative to `now` (milliseconds since the epoch). */
export function relativeExpiry(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now
  if (ms <= 0) return 'expired'
  const hours = Math.floor(ms / 3_600_000)
  if (hours >= 1) return `in ${hours} hour${hours === 1 ? '' : 's'}`
  const minutes = Math.max(1, Math.floor(ms / 60_000))
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** "2026-11-25 10:17 UTC"; text that is not a date is shown as inert text. */
export function utc(iso: string): string {
  if (!Number.isFinite(Date.parse(iso))) return markdownText(iso, 40)
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/:\d\d\.\d+Z$/, ' UTC')
}

const HEADLINES: Record<Report['state'], string> = {
  created: 'created for this pull request',
  reused: 'reused from an earlier run of this pull request',
  closed: 'kept after the pull request closed',
  deleted: 'deleted: the pull request closed',
  'seed-failed': 'not ready: seeding failed',
  provisioning: 'being provisioned',
  closing: 'being closed: the pull request closed',
  resetting: 'being reset to its parent and seeded again',
  sweeping: 'being swept by the scheduled cleanup',
  failed: 'not ready: the run failed',
  cancelled: 'not ready: the run was cancelled',
  swept: 'deleted by the scheduled cleanup',
  reset: 'reset to its parent and seeded again',
  'migrate-failed': 'kept, but its migrations failed'
}

/**
 * Renders the report as Markdown (comment and summary share it). `limit`
 * (characters) cuts the schema diff so the whole text fits: the PR comment
 * uses {@link COMMENT_LIMIT}; the job summary takes up to 1 MiB.
 */
export function renderReport(r: Report, now = Date.now(), limit = 1_000_000): string {
  const kind = r.mode === 'instant' ? 'Instant Postgres database' : 'Postgres branch'
  const preview = commentScope()
  const lines = [`${COMMENT_HEADING}${preview ? ` \`${preview}\`` : ''}: ${kind} ${HEADLINES[r.state]}`, '']
  if (r.replacedBecause) lines.push(`> A new database was created because ${markdownText(r.replacedBecause)}.`, '')
  if (r.rebuiltBecause) lines.push(`> Rebuilt because ${markdownText(r.rebuiltBecause)}.`, '')
  if (r.state === 'migrate-failed' && r.migrateFailure) {
    lines.push(
      `**The migrations failed at commit ${markdownCode(r.migrateFailure.commit.slice(0, 7))}** (${r.migrateFailure.exitCode !== undefined ? `\`migrate-command\` exit code ${r.migrateFailure.exitCode}` : markdownText(r.migrateFailure.reason ?? '')}). ` +
        'This run handed out no connection. The database is kept with its data, and the next run runs `migrate-command` again; see the job log for its output.',
      ''
    )
  }
  if (r.state === 'provisioning') {
    lines.push(
      'A run of this pull request is provisioning the database; this comment is updated when it is ready. Other runs of the PR wait for it.',
      ''
    )
  }
  if (r.state === 'swept' && r.sweptBecause) lines.push(`The scheduled cleanup swept this branch: ${markdownText(r.sweptBecause)}.`, '')
  if (r.state === 'closing') lines.push('A run of this pull request is closing its database; this comment is updated when it is done.', '')
  if (r.state === 'resetting')
    lines.push(
      'A run of this pull request is resetting its branch and seeding it again; no run uses the branch until that is done. This comment is updated when it is.',
      ''
    )
  if (r.state === 'sweeping')
    lines.push(
      'The scheduled cleanup (`command: cleanup`) is sweeping this branch once it has checked again that no run uses it; this comment is updated when it is done.',
      ''
    )
  if (r.state === 'failed') {
    lines.push('The run failed before it handed anything out; nothing it made is recorded for reuse. See the job log for what to fix.', '')
    // Neon's message is quoted in it: no HTML, link, image, mention or table cell from it.
    if (r.failedBecause) {
      const inert = r.failedBecause
        .replace(/\s*\n\s*/g, ' ')
        .replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!)
        .replace(/[[\]!@|]/g, '\\$&')
      lines.push(`> ${inert}`, '')
    }
  }
  if (r.state === 'cancelled') {
    lines.push(
      'The run was cancelled: it stopped before handing anything out, and deleted (or does not record) what it made but had not seeded.',
      ''
    )
  }
  if (r.state === 'seed-failed') {
    lines.push(
      'The seed was rolled back and this database is not recorded for reuse; the next run creates a fresh one. See the job log for the file and line.',
      ''
    )
  }
  const rows: [string, string][] = []
  if (r.claimUrl && r.state !== 'seed-failed')
    rows.push(['Claim URL', `${markdownUrl(r.claimUrl)} (anyone with this link can claim the database)`])
  if (r.expiresAt) {
    const unless =
      r.mode === 'instant'
        ? ' unless claimed'
        : r.state === 'deleted' || r.state === 'swept'
          ? ''
          : ', pushed forward by every run that uses it'
    rows.push(['Expires', `${utc(r.expiresAt)} (${relativeExpiry(r.expiresAt, now)})${unless}`])
  }
  if (r.databaseId) rows.push(['Database id', markdownCode(r.databaseId)])
  if (r.branchName) rows.push(['Branch', `${markdownCode(r.branchName)}${r.branchId ? ` (${markdownCode(r.branchId)})` : ''}`])
  if (r.parentBranch)
    rows.push([
      r.schemaOnly ? 'Schema from' : 'Parent branch',
      `${markdownCode(r.parentBranch)}${r.parentPoint ? ` ${r.parentPoint}` : ''}`
    ])
  if (r.schemaOnly) rows.push(['Data', "schema only: the parent's tables without their rows (`schema-only`)"])
  if (r.anonymized && r.state !== 'seed-failed')
    rows.push(['Data', `anonymized: ${r.anonymized.length} column${r.anonymized.length === 1 ? '' : 's'} masked (see below)`])
  if (r.resetAt) rows.push(['Reset', `${utc(r.resetAt)}: restored from the parent's latest state`])
  if (r.projectId) rows.push(['Project', markdownCode(r.projectId)])
  if (r.host) rows.push(['Host', markdownCode(r.host)])
  if (r.region) rows.push(['Region', markdownText(r.region, 100)])
  if (r.pgVersion) rows.push(['Postgres', String(r.pgVersion)])
  if (r.vercel) rows.push(vercelRow(r.vercel))
  const used = r.mode === 'branch' ? usageRow(r.usage, r.state) : null
  if (used) rows.push(used)
  const action: Record<Report['state'], string> = {
    created: 'created',
    reused: 'reused (not seeded again)',
    closed: 'none (pull request closed)',
    deleted: 'deleted',
    'seed-failed': 'created, seed rolled back',
    provisioning: 'provisioning',
    closing: 'closing',
    resetting: 'resetting',
    sweeping: 'being swept by `command: cleanup`',
    failed: 'failed',
    cancelled: 'cancelled',
    swept: 'deleted by `command: cleanup`',
    reset: 'reset in place (same branch and connection strings)',
    'migrate-failed': 'reused; `migrate-command` failed, nothing handed out'
  }
  if (r.projectWait) {
    const n = r.projectWait.operations
    rows.push([
      'Waited for the project',
      `${r.projectWait.seconds.toFixed(1)} s, for ${n} operation${n === 1 ? '' : 's'} of other runs or of Neon`
    ])
  }
  rows.push(['This run', action[r.state] + (r.seedFiles ? `, seeded from ${r.seedFiles} file${r.seedFiles === 1 ? '' : 's'}` : '')])
  lines.push('| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v.replace(/(?<!\\)\|/g, '\\|')} |`), '')
  if (r.operations?.length) {
    lines.push('| Operation | Status | Duration |', '| --- | --- | --- |')
    for (const op of r.operations)
      lines.push(`| ${markdownText(op.name, 100)} | ${markdownText(op.status, 100)} | ${op.durationSeconds.toFixed(1)} s |`)
    lines.push('')
  }
  const tail = [
    ...renderMigrationCost(r),
    ...renderPhases(r.phases),
    '<sub>Connection strings are in the step outputs `database-url` and `database-url-direct` (masked); they are never posted here.</sub>',
    ...(r.runUrl ? [`<sub>Last updated by [this run](${r.runUrl}).</sub>`] : [])
  ]
  lines.push(...renderMasked(r))
  const head = lines.join('\n')
  const full = [head, ...renderSchema(r), ...tail].join('\n')
  if (full.length <= limit) return full
  // Over the limit: cut the diff so the whole comment fits (headroom for the marker the comment adds).
  const budget =
    limit -
    2_000 -
    head.length -
    tail.join('\n').length -
    renderSchema({ ...r, schema: r.schema && { ...r.schema, diff: '' } }).join('\n').length
  return [head, ...renderSchema(r, Math.max(0, budget)), ...tail].join('\n')
}

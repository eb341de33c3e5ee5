/**
 * What one run did, rendered once as Markdown for both the PR comment and the
 * job summary. Holds no secret: no connection string, no password.
 */

/** The facts of one run. Times are ISO 8601 UTC strings. */
export interface Report {
  mode: 'instant' | 'branch'
  /** What happened to the database or branch in this run. */
  state: 'provisioning' | 'closing' | 'created' | 'reused' | 'closed' | 'deleted' | 'seed-failed' | 'failed' | 'cancelled'
  databaseId?: string
  claimUrl?: string
  expiresAt?: string
  region?: string
  pgVersion?: number
  projectId?: string
  branchId?: string
  branchName?: string
  parentBranch?: string
  /** Host of the direct connection, without credentials. */
  host?: string
  /** Why an earlier database was not reused, if it was not. */
  replacedBecause?: string
  seedFiles?: number
  /** Operations the platform ran for this run (branch mode). */
  operations?: { name: string; status: string; durationSeconds: number }[]
  /** Link to the workflow run. */
  runUrl?: string
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

/** "2026-11-25 10:17 UTC". */
export function utc(iso: string): string {
  return new Date(iso).toISOString().replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC')
}

const HEADLINES: Record<Report['state'], string> = {
  created: 'created for this pull request',
  reused: 'reused from an earlier run of this pull request',
  closed: 'kept after the pull request closed',
  deleted: 'deleted: the pull request closed',
  'seed-failed': 'not ready: seeding failed',
  provisioning: 'being provisioned',
  closing: 'being closed: the pull request closed',
  failed: 'not ready: the run failed',
  cancelled: 'not ready: the run was cancelled'
}

/** Renders the report as Markdown (comment and summary share it). */
export function renderReport(r: Report, now = Date.now()): string {
  const kind = r.mode === 'instant' ? 'Instant Postgres database' : 'Postgres branch'
  const lines = [`### 🐘 Preview Postgres: ${kind} ${HEADLINES[r.state]}`, '']
  if (r.replacedBecause) lines.push(`> A new database was created because ${r.replacedBecause}.`, '')
  if (r.state === 'provisioning') {
    lines.push('A run of this pull request is provisioning the database; this comment is updated when it is ready. Other runs of the PR wait for it.', '')
  }
  if (r.state === 'closing') lines.push('A run of this pull request is closing its database; this comment is updated when it is done.', '')
  if (r.state === 'failed') {
    lines.push('The run failed before it handed anything out; nothing it made is recorded for reuse. See the job log for what to fix.', '')
  }
  if (r.state === 'cancelled') {
    lines.push('The run was cancelled: it stopped before handing anything out, and deleted (or does not record) what it made but had not seeded.', '')
  }
  if (r.state === 'seed-failed') {
    lines.push('The seed was rolled back and this database is not recorded for reuse; the next run creates a fresh one. See the job log for the file and line.', '')
  }
  const rows: [string, string][] = []
  if (r.claimUrl && r.state !== 'seed-failed') rows.push(['Claim URL', `${r.claimUrl} (anyone with this link can claim the database)`])
  if (r.expiresAt) {
    rows.push(['Expires', `${utc(r.expiresAt)} (${relativeExpiry(r.expiresAt, now)}) unless claimed`])
  }
  if (r.databaseId) rows.push(['Database id', `\`${r.databaseId}\``])
  if (r.branchName) rows.push(['Branch', `\`${r.branchName}\`${r.branchId ? ` (\`${r.branchId}\`)` : ''}`])
  if (r.parentBranch) rows.push(['Parent branch', `\`${r.parentBranch}\``])
  if (r.projectId) rows.push(['Project', `\`${r.projectId}\``])
  if (r.host) rows.push(['Host', `\`${r.host}\``])
  if (r.region) rows.push(['Region', r.region])
  if (r.pgVersion) rows.push(['Postgres', String(r.pgVersion)])
  const action: Record<Report['state'], string> = {
    created: 'created',
    reused: 'reused (not seeded again)',
    closed: 'none (pull request closed)',
    deleted: 'deleted',
    'seed-failed': 'created, seed rolled back',
    provisioning: 'provisioning',
    closing: 'closing',
    failed: 'failed',
    cancelled: 'cancelled'
  }
  rows.push(['This run', action[r.state] + (r.seedFiles ? `, seeded from ${r.seedFiles} file${r.seedFiles === 1 ? '' : 's'}` : '')])
  lines.push('| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`), '')
  if (r.operations?.length) {
    lines.push('| Operation | Status | Duration |', '| --- | --- | --- |')
    for (const op of r.operations) lines.push(`| ${op.name} | ${op.status} | ${op.durationSeconds.toFixed(1)} s |`)
    lines.push('')
  }
  lines.push('<sub>Connection strings are in the step outputs `database-url` and `database-url-direct` (masked); they are never posted here.</sub>')
  if (r.runUrl) lines.push(`<sub>Last updated by [this run](${r.runUrl}).</sub>`)
  return lines.join('\n')
}

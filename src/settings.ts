/**
 * The settings' types: what the action's inputs become once read and
 * checked (inputs.ts reads them). The bottom of the module graph: it imports
 * nothing, so every folder can name these types without importing upward.
 */

/** One masking rule as the input gives it, validated. `database` undefined: the branch's database. */
export interface MaskingRuleInput {
  database?: string
  schema: string
  table: string
  column: string
  /** A PostgreSQL Anonymizer call such as `anon.fake_email()` or `anon.partial(email, 2, '***', 4)`. */
  function?: string
  /** The SQL text of the value set on every row, sent as `masking_value` (`'CARD HOLDER'`, `0`, `NULL`, `true`). */
  value?: string
}

/**
 * The two names a workflow chooses (instant service API, command-line client): `key`
 * (`--key`, default `DATABASE_URL`) names the pooled connection string and,
 * with `_DIRECT` appended, the direct one; `prefix` (`--prefix`, default
 * `PUBLIC_`) goes before `POSTGRES_CLAIM_URL`, the claim URL's variable.
 */
export interface EnvNames {
  key: string
  prefix: string
}

/** Where on the parent's history a new branch starts: an LSN or a time (Neon API spec, BranchCreateRequest.branch `parent_lsn` / `parent_timestamp`). */
export type BranchPoint = { lsn: string } | { timestamp: string }

/**
 * The Vercel wiring's inputs (vercel/): present when `vercel-token` is set.
 * The variables it writes are named from `env-key` (default `DATABASE_URL`):
 * `<key>` (pooled) and `<key>_UNPOOLED` (direct), as Neon's Vercel integration names them.
 */
export interface VercelSettings {
  /** `vercel-token`: masked; never logged, posted, output or given to a command. */
  token: string
  /** `vercel-project`: the project's id (`prj_…`) or name. */
  project: string
  /** `vercel-team`: a team id (`team_…`, sent as `teamId`) or slug (sent as `slug`); '' for a personal account. */
  team: string
  /** `vercel-api-url`, without a trailing slash. */
  apiUrl: string
}

export type Mode = 'instant' | 'branch'
export type Reseed = 'on-change' | 'never'
export type Command = 'create' | 'delete' | 'cleanup' | 'reset' | 'publish'

/** The validated inputs. Durations are in seconds, as the inputs are. */
export interface Settings {
  /** Resolved mode (`auto` becomes `branch` when `project-id` is set, else `instant`). */
  mode: Mode
  command: Command
  /** Sent as `ref` to the instant service (instant service API: required, non-empty). */
  referrer: string
  logicalReplication: boolean
  /** Base address of the instant service, without `/api/v1`. */
  instantUrl: string
  /** Base address of the platform API; already contains `/api/v2` (Neon operations guide). */
  apiUrl: string
  apiKey: string
  projectId: string
  parentBranch: string
  /** `parent-lsn` or `parent-timestamp`: the parent's point to branch from; undefined for its latest state. */
  parentPoint?: BranchPoint
  branchName: string
  /** `branch-id`: `command: delete` and `reset` act on this branch instead of the PR's, found by name; '' when not set. */
  branchId: string
  /** `preview-name`: which of the PR's previews this run is; '' for the PR's one preview. */
  previewName: string
  database: string
  role: string
  /** Seed paths or globs, in the order given. */
  seed: string[]
  seedCommand: string
  /** `migrate-command`: run on every run that hands out a database (new: after the seed; reused: before it is handed out). */
  migrateCommand: string
  /** `reseed`: `on-change` rebuilds a reused database whose seed fingerprint changed; `never` always reuses. */
  reseed: Reseed
  reuse: boolean
  githubToken: string
  comment: boolean
  /** `poll-interval`: the longest wait between polls of a pending operation or a busy project, in seconds (the Neon operations guide recommends 5); platform/poll-schedule.ts. */
  pollIntervalSeconds: number
  /** Seconds to wait for the operations of one request before failing. */
  waitTimeoutSeconds: number
  /** Seconds before any single HTTP request is abandoned. */
  requestTimeoutSeconds: number
  envFile: string
  /** `env-key` and `env-prefix`: the env file's variable names (instant service API, the CLI's `--key` and `--prefix`). */
  envNames: EnvNames
  /** Show what the run's seed and migrations did to the schema. */
  compareSchema: boolean
  /** Fail the step (and undo, like a failed seed) when the schema change is destructive. */
  failOnDestructive: boolean
  /** `expires-in` in seconds; 0 when empty (no expiry). Sent as `branch.expires_at` (platform spec, BranchCreateRequest). */
  expiresInSeconds: number
  /** `max-age` in seconds for `command: cleanup`; 0 when empty (sweep by PR state only). */
  maxAgeSeconds: number
  /** `dry-run`: `command: cleanup` lists what it would delete and deletes nothing. */
  dryRun: boolean
  /** `make-room`: at Neon's branch limit, delete the least recently used preview of a closed or merged PR and create again, once. */
  makeRoom: boolean
  /** `suspend-timeout` in seconds (platform spec, SuspendTimeoutSeconds: -1, 0, or 60 to 604800); undefined: not sent. */
  suspendTimeoutSeconds?: number
  /** `min-cu` / `max-cu` in compute units (platform spec, ComputeUnit: at least 0.25); undefined: not sent. */
  minCu?: number
  maxCu?: number
  /** `schema-only`: create the branch with `init_source: schema-only`. */
  schemaOnly: boolean
  /** `masking-rules`: non-empty makes the branch anonymized (platform spec, createProjectBranchAnonymized). */
  maskingRules: MaskingRuleInput[]
  /** `deployment`: keep the PR's GitHub deployment (environment `preview-postgres/pr-<N>`). */
  deployment: boolean
  /** `report-file`: `command: publish` reads the report a fork PR's run wrote (a path; '' when not given). */
  reportFile: string
  /** `comment-author`: the GitHub login a fork PR's read-only run trusts comments of (the one `command: publish` comments as). */
  commentAuthor: string
  /** The Vercel wiring; null when `vercel-token` is empty. */
  vercel: VercelSettings | null
}

/** A wrong input value. The message names the input and what it accepts. */
export class InputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InputError'
  }
}

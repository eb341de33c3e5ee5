/**
 * What a mode (instant database, Neon branch) provides to the create and
 * delete flows (commands/create.ts, commands/delete.ts): the mode-specific
 * requests, and the report, outputs, comment record and env values they
 * produce. The flows do the rest the same way in both modes.
 */
import type { Connection } from '../connection.js'
import type { CommentRecord } from '../comment/comment.js'
import type { ActionOutputs } from '../publish/outputs.js'
import type { Report } from '../publish/report.js'
import type { MaskingRule } from '../platform/masking-rules.js'

/** A database the create flow provisioned or reused. */
export interface Provisioned {
  /** True when this run created it: it is unseeded until {@link markSeeded}. */
  created: boolean
  /** True when {@link rebuild} made it: a reused database taken back to unseeded (branch mode: restored in place), until {@link markSeeded}. */
  rebuilt?: boolean
  /** What the PR comment recorded for this very database, if it names it: its fingerprint says what it was seeded from. */
  previous?: CommentRecord
  /** Branch mode: the masking rules (Neon's) a reused anonymized branch was made with, when this run gave no `masking-rules`. */
  madeWithRules?: MaskingRule[]
  connection: Connection
  /** The run's report so far; the flow adds the seed's and the schema's parts. */
  report: Report
  /** Branch mode: fetches the Neon API's compare_schema diff against the parent. */
  platformDiff?: () => Promise<string>
  /** After a failed seed: removes the unseeded database (instant: nothing to remove, it is not recorded for reuse). */
  undoUnseeded(): Promise<void>
  /** After the seed committed: the database may now be handed out and reused. */
  markSeeded(): Promise<void>
  /** The mode's outputs (after {@link markSeeded}); the flow adds `created`, the connection and the schema. */
  outputs(): Omit<ActionOutputs, 'created' | 'connection' | 'schema'>
  /** What the PR comment records for the next run (after {@link markSeeded}). */
  record(): CommentRecord
  /**
   * For a reused database whose seed changed: makes it again, unseeded. Branch mode restores it in
   * place from its parent (same name and id), or deletes and creates it where the Neon API cannot
   * restore it (anonymized, schema-only); instant mode creates a new database.
   */
  rebuild(): Promise<Provisioned>
  /** The env file's claim URL and expiry (instant mode). */
  env: { claimUrl?: string; expiresAt?: string }
  /** The env file's variables named in the log line after it is written. */
  envVariables: 'with-claim' | 'connection-only'
}

/** What a delete leaves to report: the comment's report and record; null when there is nothing to report. */
export interface Deleted {
  report: Report
  record: CommentRecord
  /** Published only over a comment an earlier run left (nothing was found to delete). */
  onlyOverEarlierComment?: boolean
}

/** One mode's part of `command: create` and `command: delete`. */
export interface ModeDriver {
  /** Creates the database (unseeded) or reuses the one an earlier run of the PR left. */
  provision(): Promise<Provisioned>
  /** Deletes the PR's database (instant: the service has no delete, so it reports when it lapses). */
  delete(): Promise<Deleted | null>
}

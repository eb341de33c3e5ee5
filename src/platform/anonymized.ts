/**
 * Anonymized preview branches, per the platform's published spec
 * (public-v2-for-users.gen.yaml in `@neondatabase/api-client`, Beta):
 *
 * - create: `POST /projects/{project_id}/branch_anonymized`
 *   (BranchAnonymizedCreateRequest: `branch_create`, `masking_rules`,
 *   `start_anonymization: true`, `annotation_value`), answered 201 CreatedBranch;
 * - wait: `GET …/branches/{branch_id}/anonymized_status`
 *   (AnonymizedBranchStatusResponse.state: created, initialized,
 *   initialization_error, anonymizing, anonymized, error), polled on the
 *   schedule of every operation wait (poll-schedule.ts: soon, then less often
 *   up to `poll-interval`) until `anonymized`, within the one `wait-timeout`;
 * - reuse: `GET …/branches/{branch_id}/masking_rules` (MaskingRulesResponse).
 *
 * The lifecycle (platform/lifecycle.ts) calls these through {@link AnonymizedHooks}
 * and hands nothing out before the wait ended in `anonymized`.
 */
import * as core from '@actions/core'
import { pollSchedule, sleepNext } from './poll-schedule.js'
import { throwIfCancelled } from '../cancel.js'
import type { Settings } from '../settings.js'
import type { Branch, CreatedBranch, NeonClient } from './client.js'
import type { CreateBranchExtras } from './shapes.js'
import { ANONYMIZATION_DOCS } from './shapes.js'
import type { AnonymizedHooks } from './lifecycle.js'
import { type MaskingRule, maskingLabel, ruleSecrets, sameRules, toPlatformRules } from './masking-rules.js'
import type { MaskingRuleInput } from '../settings.js'

/** Masking ended in `initialization_error` or `error` (the platform's `status_message` quoted), or did not end in time. */
export class AnonymizationError extends Error {}

/** One masked column as the comment and summary show it: names and the function's name, never a value. */
export interface MaskedColumn {
  database: string
  schema: string
  table: string
  column: string
  /** `anon.fake_email`, or `value` for a literal. */
  masking: string
}

/** A rule as the report shows it. */
function maskedColumn(r: MaskingRule): MaskedColumn {
  return { database: r.database_name, schema: r.schema_name, table: r.table_name, column: r.column_name, masking: maskingLabel(r) }
}

/** The anonymized branch of one run: the hooks the lifecycle calls, and what the report shows. */
export interface AnonymizedBranch extends AnonymizedHooks {
  /** The masked columns (after {@link AnonymizedHooks.create} or {@link AnonymizedHooks.unreusable} resolved the database). */
  columns(): MaskedColumn[]
}

/**
 * The anonymized branch for these settings. Rules without `database` take
 * `database`, else the parent's only database (its copy has the same name).
 */
export function anonymizedBranch(client: NeonClient, settings: Settings, rules: MaskingRuleInput[]): AnonymizedBranch {
  let resolved: MaskingRule[] | null = null
  // The platform's status_message may quote a rule's value (a PostgreSQL error such as `invalid input syntax`): never repeat it.
  const secrets = ruleSecrets(rules).sort((a, b) => b.length - a.length)
  const scrub = (text: string): string => secrets.reduce((t, v) => t.split(v).join('***'), text)

  async function platformRules(parent: Branch): Promise<MaskingRule[]> {
    if (resolved) return resolved
    let database = settings.database
    if (!database && rules.some((r) => r.database === undefined)) {
      const dbs = await client.listDatabases(parent.id)
      if (dbs.length !== 1) {
        throw new AnonymizationError(
          `Parent branch "${parent.name}" has ${dbs.length} databases (${dbs.map((d) => d.name).join(', ')}): set \`database\`, or \`database\` in each rule of \`masking-rules\`.`
        )
      }
      database = dbs[0].name
    }
    resolved = toPlatformRules(rules, database)
    return resolved
  }

  async function waitUntilMasked(branch: Branch, deadline: number): Promise<void> {
    let last = ''
    const schedule = pollSchedule(settings.pollIntervalSeconds)
    for (;;) {
      throwIfCancelled() // a cancelled run stops polling; its undo step deletes the branch (cancel.ts)
      const status = await client.anonymizedStatus(branch.id)
      if (!status)
        throw new AnonymizationError(
          `Branch "${branch.name}" (${branch.id}) has no anonymization status: Neon does not treat it as an anonymized branch.`
        )
      const message = status.status_message ? scrub(status.status_message) : ''
      const seen = `${status.state}${message ? `: ${message}` : ''}`
      if (seen !== last) core.info(`Anonymization of branch "${branch.name}": ${seen}`)
      last = seen
      if (status.state === 'anonymized') return
      if (status.state === 'initialization_error' || status.state === 'error') {
        throw new AnonymizationError(
          `Branch "${branch.name}" could not be anonymized: Neon reports state \`${status.state}\`` +
            `${message ? `: "${message}"` : ' without a message'}. Check \`masking-rules\` (see ${ANONYMIZATION_DOCS}).`
        )
      }
      const left = deadline - Date.now()
      if (left <= 0) {
        throw new AnonymizationError(
          `Branch "${branch.name}" was still \`${status.state}\` when \`wait-timeout\` (${settings.waitTimeoutSeconds} s, covering its operations and its masking) ran out; ` +
            'nothing was handed out. Raise `wait-timeout` for large tables.'
        )
      }
      await sleepNext(schedule, left)
    }
  }

  return {
    async create(parent: Branch, name: string, extras?: CreateBranchExtras): Promise<CreatedBranch> {
      return client.createAnonymizedBranch(parent.id, name, await platformRules(parent), extras)
    },
    waitUntilMasked,
    async unreusable(branch: Branch, parent: Branch): Promise<string | null> {
      const status = await client.anonymizedStatus(branch.id)
      if (!status) return 'it is not an anonymized branch'
      if (status.state !== 'anonymized') return `its masking is \`${status.state}\`, not \`anonymized\``
      const current = await client.maskingRules(branch.id)
      if (!current || !sameRules(current, await platformRules(parent)))
        return 'its masking rules differ from `masking-rules` (masking the copy again would not undo what was readable before)'
      return null
    },
    columns(): MaskedColumn[] {
      return (resolved ?? toPlatformRules(rules, settings.database)).map(maskedColumn)
    }
  }
}

/**
 * The masking rules a reused branch was made with, when this run gave no
 * `masking-rules`: what the branch IS, so output `anonymized`, the report and
 * a rebuild keep it masked. Asks Neon only when the branch lists `restore`
 * among its `restricted_actions` (Neon API spec, Branch: an anonymized branch
 * restricts restore), then reads its `anonymized_status` and `masking_rules`.
 * @returns Neon's rules when the branch's state is `anonymized`, else undefined.
 * @throws HttpError, PlatformResponseError from the reads.
 */
export async function recordedRulesOf(client: NeonClient, branch: Branch): Promise<MaskingRule[] | undefined> {
  if (!isAnonymized(branch)) return undefined
  if ((await client.anonymizedStatus(branch.id))?.state !== 'anonymized') return undefined
  return (await client.maskingRules(branch.id)) ?? undefined
}

/** Whether Neon restricts `restore` on `branch` (Neon API spec, Branch.restricted_actions): an anonymized branch. */
export const isAnonymized = (branch: Branch): boolean => !!branch.restricted_actions?.some((a) => a.name === 'restore')

/** The masked columns of `rules` as the report shows them (names and function names, never a value). */
export const maskedColumns = (rules: MaskingRule[]): MaskedColumn[] => rules.map(maskedColumn)

/** One line for the log naming `rules` by column and function (never a value or an argument). */
export function describeRules(rules: MaskingRule[]): string {
  return rules.map((r) => `${r.schema_name}.${r.table_name}.${r.column_name} (${maskingLabel(r)})`).join(', ')
}

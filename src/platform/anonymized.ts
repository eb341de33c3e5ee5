/**
 * Anonymized preview branches (issue 25), per the platform's published spec
 * (public-v2-for-users.gen.yaml in `@neondatabase/api-client`, Beta):
 *
 * - create: `POST /projects/{project_id}/branch_anonymized`
 *   (BranchAnonymizedCreateRequest: `branch_create`, `masking_rules`,
 *   `start_anonymization: true`, `annotation_value`), answered 201 CreatedBranch;
 * - wait: `GET …/branches/{branch_id}/anonymized_status`
 *   (AnonymizedBranchStatusResponse.state: created, initialized,
 *   initialization_error, anonymizing, anonymized, error), polled at
 *   `poll-interval` until `anonymized`, within the one `wait-timeout`;
 * - reuse: `GET …/branches/{branch_id}/masking_rules` (MaskingRulesResponse).
 *
 * The lifecycle (platform/lifecycle.ts) calls these through {@link AnonymizedHooks}
 * and hands nothing out before the wait ended in `anonymized`.
 */
import * as core from '@actions/core'
import { HttpError, sleep } from '../http.js'
import { throwIfCancelled } from '../cancel.js'
import type { Settings } from '../inputs.js'
import { type Branch, type CreatedBranch, createdBranchOf } from './client.js'
import type { CreateBranchExtras } from './create-options.js'
import { LifecycleClient } from './lifecycle-client.js'
import type { AnonymizedHooks } from './lifecycle.js'
import { type MaskingRule, type MaskingRuleInput, maskingLabel, ruleSecrets, sameRules, toPlatformRules } from './masking-rules.js'

/** Platform spec, AnonymizedBranchStatusResponse (the fields the action reads). */
export interface AnonymizedStatus {
  state: string
  status_message?: string
  failed_at?: string
  last_run?: { masked_columns?: number }
}

/** The platform's docs on anonymized branches, linked from the comment and the errors. */
export const ANONYMIZATION_DOCS = 'https://neon.com/docs/workflows/data-anonymization'

/** Masking ended in `initialization_error` or `error` (the platform's `status_message` quoted), or did not end in time. */
export class AnonymizationError extends Error {}

/** The anonymized-branch requests, on top of the lifecycle client. */
export class AnonymizedClient extends LifecycleClient {
  /**
   * `POST /projects/{project_id}/branch_anonymized` with a read-write
   * endpoint, the `extras` of create-options.ts, the rules, and
   * `start_anonymization: true`. Retried on 503 only, like create branch
   * (the name makes a duplicate answer 409). Wrap in retryLocked for 423.
   * @throws HttpError (409 when the name exists, 423 when locked), PlatformResponseError.
   */
  async createAnonymizedBranch(
    parentId: string,
    name: string,
    rules: MaskingRule[],
    extras: CreateBranchExtras = {}
  ): Promise<CreatedBranch> {
    const label = `Create anonymized branch "${name}"`
    const { endpoint, branch, annotation_value } = extras
    const body = await this.callJson(label, 'POST', '/branch_anonymized', {
      body: {
        branch_create: { endpoints: [{ type: 'read_write', ...endpoint }], branch: { parent_id: parentId, name, ...branch } },
        masking_rules: rules,
        start_anonymization: true,
        ...(annotation_value ? { annotation_value } : {})
      },
      idempotent: false,
      retryOn503: true
    })
    return createdBranchOf(body, label)
  }

  /** `GET …/branches/{branch_id}/anonymized_status`; null on 404 (not an anonymized branch, or gone). */
  async anonymizedStatus(branchId: string): Promise<AnonymizedStatus | null> {
    const label = `Get the anonymization status of branch ${branchId}`
    try {
      const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/anonymized_status`)
      if (typeof body.state !== 'string') throw new AnonymizationError(`${label}: the platform's response has no valid \`state\`.`)
      return body as unknown as AnonymizedStatus
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return null
      throw err
    }
  }

  /** `GET …/branches/{branch_id}/masking_rules`; null on 404. */
  async maskingRules(branchId: string): Promise<MaskingRule[] | null> {
    const label = `Get the masking rules of branch ${branchId}`
    try {
      const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/masking_rules`)
      if (!Array.isArray(body.masking_rules))
        throw new AnonymizationError(`${label}: the platform's response has no valid \`masking_rules\`.`)
      return body.masking_rules as MaskingRule[]
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return null
      throw err
    }
  }
}

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
export function anonymizedBranch(settings: Settings, rules: MaskingRuleInput[]): AnonymizedBranch {
  const client = new AnonymizedClient(settings.apiUrl, settings.apiKey, settings.requestTimeoutSeconds * 1000, settings.projectId)
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
    for (;;) {
      throwIfCancelled() // a cancelled run stops polling; its undo step deletes the branch (cancel.ts)
      const status = await client.anonymizedStatus(branch.id)
      if (!status)
        throw new AnonymizationError(
          `Branch "${branch.name}" (${branch.id}) has no anonymization status: the platform does not treat it as an anonymized branch.`
        )
      const message = status.status_message ? scrub(status.status_message) : ''
      const seen = `${status.state}${message ? `: ${message}` : ''}`
      if (seen !== last) core.info(`Anonymization of branch "${branch.name}": ${seen}`)
      last = seen
      if (status.state === 'anonymized') return
      if (status.state === 'initialization_error' || status.state === 'error') {
        throw new AnonymizationError(
          `Branch "${branch.name}" could not be anonymized: the platform reports state \`${status.state}\`` +
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
      await sleep(Math.min(settings.pollIntervalSeconds * 1000, left))
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
 * The masked columns of a reused branch that this run gave no `masking-rules`:
 * what the branch IS, so output `anonymized` and the report say so. Asks Neon
 * only when the branch lists `restore` among its `restricted_actions` (Neon API
 * spec, Branch: an anonymized branch restricts restore), then reads its
 * `anonymized_status` and `masking_rules`.
 * @returns the columns when the branch's state is `anonymized`, else undefined.
 * @throws HttpError, PlatformResponseError from the reads.
 */
export async function maskedColumnsOf(settings: Settings, branch: Branch): Promise<MaskedColumn[] | undefined> {
  if (!branch.restricted_actions?.some((a) => a.name === 'restore')) return undefined
  const client = new AnonymizedClient(settings.apiUrl, settings.apiKey, settings.requestTimeoutSeconds * 1000, settings.projectId)
  if ((await client.anonymizedStatus(branch.id))?.state !== 'anonymized') return undefined
  return (await client.maskingRules(branch.id))?.map(maskedColumn)
}

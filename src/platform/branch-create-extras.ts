/**
 * The optional parts of a create-branch request that the lifecycle inputs
 * add (platform spec, `POST /projects/{project_id}/branches`:
 * BranchCreateRequest + AnnotationCreateValueRequest): the branch's
 * `expires_at`, `init_source` and `parent_lsn` or `parent_timestamp`, the new read-write endpoint's
 * `suspend_timeout_seconds` and autoscaling limits, and the annotations that
 * mark the branch as this action's. A field whose input is empty is not sent,
 * so the project's defaults apply.
 */
import { HttpError } from '../http.js'
import type { Settings } from '../settings.js'
import { type BranchOwner, annotationsOf } from './annotations.js'
import { expiresAtFrom, explainExpiryRefusal } from './expiry.js'
import { describePoint, pointFields } from './branch-point.js'
import type { CreateBranchExtras } from './shapes.js'

type LifecycleSettings = Pick<Settings, 'expiresInSeconds' | 'schemaOnly' | 'suspendTimeoutSeconds' | 'minCu' | 'maxCu'> &
  Partial<Pick<Settings, 'parentPoint'>>

/**
 * The extras of a create request for these settings, made at `now`
 * (milliseconds since the epoch) for `owner`.
 */
export function branchCreateExtras(s: LifecycleSettings, owner: BranchOwner, now = Date.now()): CreateBranchExtras {
  const branch: CreateBranchExtras['branch'] = {}
  if (s.expiresInSeconds > 0) branch.expires_at = expiresAtFrom(s.expiresInSeconds, now)
  if (s.schemaOnly) branch.init_source = 'schema-only'
  Object.assign(branch, pointFields(s.parentPoint))
  const endpoint: CreateBranchExtras['endpoint'] = {}
  if (s.suspendTimeoutSeconds !== undefined) endpoint.suspend_timeout_seconds = s.suspendTimeoutSeconds
  if (s.minCu !== undefined) endpoint.autoscaling_limit_min_cu = s.minCu
  if (s.maxCu !== undefined) endpoint.autoscaling_limit_max_cu = s.maxCu
  return {
    ...(Object.keys(branch).length ? { branch } : {}),
    ...(Object.keys(endpoint).length ? { endpoint } : {}),
    annotation_value: annotationsOf(owner)
  }
}

/**
 * A create refused (400 or 422) over a field an input asked for becomes an
 * error that names the input: `expires-in` (see explainExpiryRefusal),
 * `schema-only`, `suspend-timeout`, `min-cu`/`max-cu`. Others are returned as they are.
 */
export function explainCreateRefusal(err: unknown, s: LifecycleSettings): unknown {
  const expiry = explainExpiryRefusal(err, s.expiresInSeconds)
  if (expiry !== err || !(err instanceof HttpError) || ![400, 422].includes(err.status)) return expiry
  const message = err.serviceMessage ?? ''
  const inputs: [boolean, RegExp, string][] = [
    [s.schemaOnly, /init_source|schema/i, '`schema-only` (sent as `branch.init_source: schema-only`)'],
    [
      s.parentPoint !== undefined,
      /lsn|timestamp|point|history|retention/i,
      `\`parent-lsn\`/\`parent-timestamp\` (${s.parentPoint ? describePoint(s.parentPoint) : ''}; it must lie within the parent's history retention)`
    ],
    [s.suspendTimeoutSeconds !== undefined, /suspend/i, "`suspend-timeout` (sent as the endpoint's `suspend_timeout_seconds`)"],
    [
      s.minCu !== undefined || s.maxCu !== undefined,
      /autoscaling|compute unit|\bcu\b/i,
      "`min-cu`/`max-cu` (sent as the endpoint's `autoscaling_limit_min_cu`/`autoscaling_limit_max_cu`)"
    ]
  ]
  const hit = inputs.find(([given, pattern]) => given && pattern.test(message))
  if (!hit) return err
  return new HttpError(
    `Neon refused what input ${hit[2]} asks for (HTTP ${err.status}: "${message}"). Change or remove that input.`,
    err.status,
    err.serviceMessage
  )
}

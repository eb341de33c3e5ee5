/**
 * The branch mode's driver (Neon API): create the PR's branch under its
 * unseeded name (or reuse the seeded one), delete it after a failed seed,
 * give it the PR's name once seeded; and delete the PR's branch.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { UNSEEDED_BRANCH, offCancel, throwIfCancelled } from '../cancel.js'
import { describeConnection } from '../connection.js'
import { ownerOfRun } from '../platform/annotations.js'
import { withRecordedIds } from '../platform/recorded-ids.js'
import {
  AnonymizationError,
  anonymizedBranch,
  describeRules,
  isAnonymized,
  maskedColumns,
  recordedRulesOf
} from '../platform/anonymized.js'
import { type MaskingRule, fromPlatformRules, ruleSecrets } from '../platform/masking-rules.js'
import { maskSecret } from '../secrets.js'
import type { NeonClient } from '../platform/client.js'
import { branchCreateExtras, explainCreateRefusal } from '../platform/branch-create-extras.js'
import { recordUse } from '../platform/expiry.js'
import { type BranchOptions, markSeeded, provisionBranch } from '../platform/lifecycle.js'
import { deleteBranchAndWait } from '../platform/branch-delete.js'
import { waitForPendingOf } from '../platform/branch-wait.js'
import { branchLimitHandler } from '../sweep/make-room.js'
import { type RunSource, expiryFor, runSource } from '../run-source.js'
import { recordedGitBranchCheck } from '../platform/shared-preview.js'
import { deleteBranches, followRenamedHead, otherBranchesOfPr } from '../platform/pr-branches.js'
import { BranchRefusedError, defaultBranchName, findPreviewBranches, refuseProtected } from '../platform/preview-branch.js'
import { describePoint } from '../platform/branch-point.js'
import { summarise } from '../platform/operations.js'
import { usageOf } from '../platform/usage.js'
import { projectWaitSummary } from '../platform/project-wait.js'
import { clearUnseeded, saveJobBranch } from '../post-state.js'
import type { CommentRecord, PullRequest } from '../comment/comment.js'
import type { Branch } from '../platform/client.js'
import { restoreUnseeded } from './reset.js'
import type { Report } from '../publish/report.js'
import type { MaskingRuleInput, Settings } from '../settings.js'
import type { Deleted, ModeDriver, Provisioned } from './driver.js'

/** The preview's branch name: `branch-name`, else the default one for the PR (or, outside one, the git branch, the merge group or the commit) and `preview-name`. */
export function branchNameOf(settings: Settings, pr: PullRequest | null): string {
  return settings.branchName || defaultBranchName(pr, github.context.sha ?? '', settings.previewName, runSource())
}

/** The branch driver for this run's settings, the run's one Neon API client, the PR's branch name and what the comment recorded. */
export function branchDriver(settings: Settings, client: NeonClient, branchName: string, earlier?: CommentRecord): ModeDriver {
  return {
    provision: () => provision(settings, client, branchName, earlier),
    delete: () => deleteBranch(settings, client, branchName, earlier)
  }
}

async function provision(
  settings: Settings,
  client: NeonClient,
  branchName: string,
  earlier: CommentRecord | undefined,
  reuse = settings.reuse
): Promise<Provisioned> {
  // `reuse: false` without `masking-rules` would delete an anonymized preview and copy the unmasked parent in its place
  const kept = reuse || settings.maskingRules.length ? undefined : await rulesOfAnonymizedPreview(client, branchName)
  if (kept) return provision({ ...settings, maskingRules: kept }, client, branchName, earlier, reuse)
  // a merge group's branch carries an expiry without `expires-in` (run-source.ts)
  const lifetime = { ...settings, expiresInSeconds: expiryFor(settings.expiresInSeconds) }
  const extras = branchCreateExtras(lifetime, ownerOfRun())
  const anonymized = settings.maskingRules.length ? anonymizedBranch(client, settings, settings.maskingRules) : undefined
  const outcome = await core
    .group(`Provision branch "${branchName}"`, async () => {
      // a renamed head branch changes the default name: the PR's branch is found by the id its comment recorded
      if (!settings.branchName) await followRenamedHead(client, earlier, branchName, ownerOfRun(), settings)
      return provisionBranch(client, {
        ...settings,
        reuse,
        branchName,
        branchCreateExtras: extras,
        completeExtras: (made) => withRecordedIds(made ?? extras, ownerOfRun()),
        anonymized,
        atBranchLimit: branchLimitHandler(settings, client, ownerOfRun().pr),
        ...sharing(settings, client)
      })
    })
    .catch((err: unknown) => Promise.reject(explainCreateRefusal(err, lifetime)))
  if (runSource().kind === 'merge-group') saveJobBranch(outcome.branch) // the post step deletes it when the job ends
  // A reused branch's expiry moves to `expires-in` from now, and every reuse is recorded as the branch's last use (max-age).
  const expiresAt = outcome.created
    ? (outcome.branch.expires_at ?? extras.branch?.expires_at)
    : await recordUse(client, outcome.branch, lifetime)
  const connection = describeConnection(outcome.pooledUrl, outcome.directUrl)
  // A reused branch is reported as what it is, anonymized or not, whatever this run's `masking-rules`.
  const madeWith = anonymized || outcome.created ? undefined : await recordedRulesOf(client, outcome.branch)
  if (madeWith) maskRuleValues(madeWith)
  if (madeWith)
    core.info(
      `Branch "${branchName}" is anonymized, made with the masking rules ${describeRules(madeWith)}. ` +
        'This run gives no `masking-rules`: it is reused as it is, still masked; a rebuild creates it anonymized again under those rules.'
    )
  const masked = anonymized?.columns() ?? (madeWith && maskedColumns(madeWith))
  const report: Report = {
    mode: 'branch',
    state: outcome.created ? 'created' : 'reused',
    projectId: settings.projectId,
    branchId: outcome.branch.id,
    branchName,
    parentBranch: outcome.parent?.name,
    parentPoint: settings.parentPoint && describePoint(settings.parentPoint),
    host: connection.directHost,
    operations: outcome.operations.map(summarise),
    projectWait: projectWaitSummary(),
    expiresAt,
    schemaOnly: outcome.created && settings.schemaOnly,
    anonymized: masked,
    usage: usageOf(outcome.branch)
  }
  const parent = outcome.parent
  const provisioned: Provisioned = {
    created: outcome.created,
    previous: earlier?.mode === 'branch' && earlier.branchId === outcome.branch.id ? earlier : undefined,
    madeWithRules: madeWith,
    connection,
    report,
    async rebuild() {
      // An anonymized branch is never restored from its parent (that would hand out the parent's unmasked rows):
      // it is made again, anonymized under this run's rules or, when it gives none, the ones it was made with.
      const masking = anonymized || madeWith || isAnonymized(outcome.branch)
      if (masking || settings.schemaOnly || !parent) {
        core.info(
          `The Neon API cannot restore branch "${branchName}" from its parent (${masking ? 'anonymized' : 'schema-only'}): deleting it and creating it again.`
        )
        // without `masking-rules`, an anonymized one is made again under the rules Neon holds for it (rulesOfAnonymizedPreview)
        return provision(settings, client, branchName, earlier, false)
      }
      return rebuildInPlace(settings, client, branchName, provisioned, outcome.branch, parent)
    },
    platformDiff: parent ? () => client.compareSchema(outcome.branch.id, parent.id, connection.database) : undefined,
    // provisionBranch registered the UNSEEDED_BRANCH undo step when it created the branch; it stays until seeded.
    async undoUnseeded() {
      offCancel(UNSEEDED_BRANCH)
      await core.group(`Delete the unseeded branch "${outcome.branch.name}"`, async () => {
        try {
          await deleteBranchAndWait(client, outcome.branch, settings)
          clearUnseeded()
          core.info(`Deleted branch "${outcome.branch.name}" so the next run starts clean.`)
        } catch (err) {
          core.warning(
            `Could not delete the unseeded branch "${outcome.branch.name}" (${outcome.branch.id}): ${(err as Error).message} Its name marks it unseeded, so no run reuses it: the next run deletes it.`
          )
        }
      })
    },
    async markSeeded() {
      // Only now does the branch carry the PR's name, which is what later runs reuse (platform/lifecycle.ts).
      outcome.branch = await core.group(`Mark branch "${branchName}" seeded`, () =>
        markSeeded(client, outcome.branch, branchName, settings)
      )
      offCancel(UNSEEDED_BRANCH)
      clearUnseeded()
    },
    outputs: () => ({
      mode: 'branch',
      projectId: settings.projectId,
      branchId: outcome.branch.id,
      branchName: outcome.branch.name,
      expiresAt,
      anonymized: !!masked,
      usage: report.usage
    }),
    record: () => ({ mode: 'branch', branchId: outcome.branch.id, branchName: outcome.branch.name }),
    env: {},
    envVariables: 'connection-only'
  }
  return provisioned
}

/**
 * How a run without a PR meets other runs of its preview (platform/shared-preview.ts): no comment lock
 * serialises them, so they wait for each other's seeds; a git branch's default name is reused and deleted
 * only for the git branch its annotations record.
 */
function sharing(
  settings: Settings,
  client: NeonClient,
  source: RunSource = runSource()
): Pick<BranchOptions, 'sharedName' | 'foreignBecause'> {
  if (source.kind === 'pull-request') return {}
  const recorded = source.kind === 'git-branch' && !settings.branchName
  return { sharedName: true, ...(recorded ? { foreignBecause: recordedGitBranchCheck(client, source.branch) } : {}) }
}

/**
 * The masking rules (input shape) of the PR's seeded branch when it is
 * anonymized, for a run that will replace it without `masking-rules`: it is
 * made again under them.
 * @throws AnonymizationError when it is anonymized but its rules cannot be read (nothing changed)
 */
async function rulesOfAnonymizedPreview(client: NeonClient, branchName: string): Promise<MaskingRuleInput[] | undefined> {
  const { seeded } = await findPreviewBranches(client, branchName)
  if (!seeded || !isAnonymized(seeded)) return undefined
  const rules = await client.maskingRules(seeded.id)
  if (!rules?.length)
    throw new AnonymizationError(
      `Branch "${branchName}" is anonymized but its masking rules could not be read, so it cannot be made again masked. Nothing was changed. ` +
        'Run with `masking-rules`, or delete it with `command: delete`.'
    )
  core.info(`Branch "${branchName}" is anonymized, made with the masking rules ${describeRules(rules)}: it is made again under them.`)
  maskRuleValues(rules)
  return fromPlatformRules(rules, true)
}

/** Masks in the log the values and arguments of rules read from Neon, as the input's are (inputs.ts). */
function maskRuleValues(rules: MaskingRule[]): void {
  for (const secret of ruleSecrets(fromPlatformRules(rules, true))) maskSecret(secret)
}

/**
 * Rebuilds the reused branch in place (commands/reset.ts, restoreUnseeded):
 * under `<name>~seeding` until seeded, restored from `parent`; same name, id
 * and connection strings.
 */
async function rebuildInPlace(
  settings: Settings,
  client: NeonClient,
  branchName: string,
  reused: Provisioned,
  branch: Branch,
  parent: Branch
): Promise<Provisioned> {
  const r = await restoreUnseeded(client, settings, branch, parent, branchName)
  let named = branch
  const report: Report = {
    ...reused.report,
    state: 'reset',
    operations: [...(reused.report.operations ?? []), ...r.restored.operations.map(summarise)],
    resetAt: (r.restored.branch as { last_reset_at?: string }).last_reset_at ?? new Date().toISOString()
  }
  return {
    ...reused,
    rebuilt: true,
    connection: r.connection,
    report,
    platformDiff: () => client.compareSchema(branch.id, parent.id, r.connection.database),
    undoUnseeded: r.undoUnseeded,
    async markSeeded() {
      named = await r.markSeededAgain()
    },
    outputs: () => ({ ...reused.outputs(), branchName: named.name }),
    record: () => ({ mode: 'branch', branchId: named.id, branchName: named.name })
  }
}

/**
 * Deletes the PR's branch (and an unseeded one a failed run left), and every
 * other branch of the PR and preview (its head branch's earlier names,
 * platform/pr-branches.ts), and waits for the operations.
 */
async function deleteBranch(settings: Settings, client: NeonClient, name: string, earlier?: CommentRecord): Promise<Deleted | null> {
  if (settings.branchId) return deleteBranchById(settings, client, settings.branchId)
  const branchName = name
  const others = await otherBranchesOfPr(client, ownerOfRun(), branchName, earlier)
  const renamedAway = others.length ? await deleteBranches(client, others, settings) : []
  const found = await findPreviewBranches(client, branchName)
  const foreign = sharing(settings, client).foreignBecause
  for (const b of [found.seeded, found.unseeded]) {
    const why = b && foreign ? await foreign(b) : null
    if (why) throw new BranchRefusedError(why)
  }
  if (found.unseeded) {
    core.info(`Deleting branch "${found.unseeded.name}", left by a run whose seed did not complete.`)
    await waitForPendingOf(client, found.unseeded, settings) // a cancelled run's compute start may still run on it
    await deleteBranchAndWait(client, found.unseeded, settings)
  }
  const branch = found.seeded
  if (!branch && renamedAway.length) {
    return {
      report: { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchId: others[0].id, branchName: others[0].name },
      record: { mode: 'branch' }
    }
  }
  if (!branch) {
    core.notice(`Branch "${branchName}" does not exist (already deleted): nothing to do.`)
    return {
      report: { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchName },
      record: { mode: 'branch' },
      onlyOverEarlierComment: true
    }
  }
  const ops = await core.group(`Delete branch "${branchName}"`, () => deleteBranchAndWait(client, branch, settings))
  throwIfCancelled()
  if (ops === null) core.notice(`Branch "${branchName}" was already gone.`)
  else core.info(`Deleted branch "${branchName}" (${branch.id}).`)
  return {
    report: {
      mode: 'branch',
      state: 'deleted',
      projectId: settings.projectId,
      branchId: branch.id,
      branchName,
      operations: (ops ?? []).map(summarise),
      usage: usageOf(branch)
    },
    record: { mode: 'branch' }
  }
}

/** `branch-id`: deletes the branch with that id, whatever its name, refusing the default and protected branches. */
async function deleteBranchById(settings: Settings, client: NeonClient, id: string): Promise<Deleted> {
  const branch = await client.getBranch(id)
  if (!branch) {
    core.notice(`Branch ${id} (input \`branch-id\`) does not exist (already deleted): nothing to do.`)
    return {
      report: { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchId: id },
      record: { mode: 'branch' },
      onlyOverEarlierComment: true
    }
  }
  refuseProtected(branch, 'delete', 'branch-id')
  await waitForPendingOf(client, branch, settings)
  const ops = await core.group(`Delete branch "${branch.name}" (${id})`, () => deleteBranchAndWait(client, branch, settings))
  throwIfCancelled()
  core.info(ops === null ? `Branch "${branch.name}" was already gone.` : `Deleted branch "${branch.name}" (${id}).`)
  return {
    report: {
      mode: 'branch',
      state: 'deleted',
      projectId: settings.projectId,
      branchId: id,
      branchName: branch.name,
      operations: (ops ?? []).map(summarise),
      usage: usageOf(branch)
    },
    record: { mode: 'branch' }
  }
}

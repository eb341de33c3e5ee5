/**
 * The annotations that mark a branch as this action's (platform spec,
 * AnnotationValueData: string values, at most 50 properties; set with
 * `annotation_value` on create, read from `annotation.value` of
 * `GET /projects/{project_id}/branches/{branch_id}`). `command: cleanup`
 * recognises its branches by these alone, never by name.
 */
import * as github from '@actions/github'
import { randomBytes } from 'node:crypto'
import { ACTION_VERSION } from '../version.js'
import { commentScope } from '../comment/scope.js'
import { runSource } from '../run-source.js'

/** Annotation keys. */
export const ANNOTATION = {
  repository: 'preview-postgres/repository',
  pr: 'preview-postgres/pr',
  headSha: 'preview-postgres/head-sha',
  version: 'preview-postgres/action-version',
  preview: 'preview-postgres/preview-name',
  /** Outside a pull request: `merge-group` or `git-branch` (run-source.ts), what owns the preview. */
  kind: 'preview-postgres/kind',
  /** `git-branch` previews: the git branch's name. */
  gitBranch: 'preview-postgres/git-branch',
  /** The PR comment's id (GitHub REST), recorded for the sweep's direct edit. */
  comment: 'preview-postgres/comment-id',
  /** The GitHub deployment's id, recorded for the sweep's direct `inactive`. */
  deployment: 'preview-postgres/deployment-id',
  /** A value drawn once per run (step): a branch found after a lost create answer is this run's only when it carries it. */
  claim: 'preview-postgres/claim'
} as const

/** Owners other than a pull request: a merge queue's job, or a git branch (push, `workflow_dispatch`). */
export type OwnerKind = 'merge-group' | 'git-branch'

/**
 * Who a branch was made for: `owner/repo`, the PR number (none outside a
 * PR), the head commit and the `preview-name` ('' or absent for the PR's one
 * preview); and what the run that made it recorded for the sweep: the PR
 * comment's id and the GitHub deployment's id (GitHub REST ids), so that
 * the sweep writes to them without listing (sweep/direct.ts).
 */
export interface BranchOwner {
  repository: string
  pr?: number
  headSha: string
  preview?: string
  /** Outside a pull request: what owns the branch (absent: a PR's, or a commit's as before). */
  kind?: OwnerKind
  /** The git branch of a `git-branch` preview. */
  gitBranch?: string
  commentId?: number
  deploymentId?: number
  /** The run that created the branch ({@link RUN_CLAIM}); absent on branches of earlier versions. */
  claim?: string
}

/** This run's claim (12 hex digits, drawn when the module loads): recorded on the branch it creates. */
export const RUN_CLAIM = randomBytes(6).toString('hex')

/** The annotation values for a branch made for `owner` by this version of the action. */
export function annotationsOf(owner: BranchOwner): Record<string, string> {
  return {
    [ANNOTATION.repository]: owner.repository,
    ...(owner.pr ? { [ANNOTATION.pr]: String(owner.pr) } : {}),
    [ANNOTATION.headSha]: owner.headSha,
    [ANNOTATION.version]: ACTION_VERSION,
    ...(owner.preview ? { [ANNOTATION.preview]: owner.preview } : {}),
    ...(owner.kind ? { [ANNOTATION.kind]: owner.kind } : {}),
    ...(owner.gitBranch ? { [ANNOTATION.gitBranch]: owner.gitBranch } : {}),
    ...(owner.commentId ? { [ANNOTATION.comment]: String(owner.commentId) } : {}),
    ...(owner.deploymentId ? { [ANNOTATION.deployment]: String(owner.deploymentId) } : {}),
    ...(owner.claim ? { [ANNOTATION.claim]: owner.claim } : {})
  }
}

/** A positive safe integer from an annotation's string, else undefined. */
const idOf = (text: string | undefined): number | undefined => {
  const n = Number(text)
  return text && Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/**
 * Reads the owner back from a branch's annotation values; null when the
 * branch carries no repository and version annotation of ours (a branch that
 * merely looks like ours by name).
 */
export function ownerOf(value: Record<string, unknown> | undefined): (BranchOwner & { version: string }) | null {
  const get = (k: string): string | undefined => (typeof value?.[k] === 'string' ? (value[k] as string) : undefined)
  const repository = get(ANNOTATION.repository)
  const version = get(ANNOTATION.version)
  if (!repository || !version) return null
  const kind = get(ANNOTATION.kind)
  return {
    repository,
    version,
    headSha: get(ANNOTATION.headSha) ?? '',
    pr: idOf(get(ANNOTATION.pr)),
    preview: get(ANNOTATION.preview),
    kind: kind === 'merge-group' || kind === 'git-branch' ? kind : undefined,
    gitBranch: get(ANNOTATION.gitBranch),
    commentId: idOf(get(ANNOTATION.comment)),
    deploymentId: idOf(get(ANNOTATION.deployment)),
    claim: get(ANNOTATION.claim)
  }
}

/** The owner of a branch this run creates: the workflow's repository, its PR and head commit (the PR's head, else the run's commit), and its `preview-name`. */
export function ownerOfRun(): BranchOwner {
  const { owner, repo } = github.context.repo
  const pr = github.context.payload.pull_request as { number?: number; head?: { sha?: string } } | undefined
  const source = runSource()
  return {
    repository: `${owner}/${repo}`,
    pr: typeof pr?.number === 'number' ? pr.number : undefined,
    headSha: pr?.head?.sha ?? (source.kind === 'merge-group' && source.headSha ? source.headSha : github.context.sha) ?? '',
    preview: commentScope() || undefined,
    ...(source.kind === 'merge-group' ? { kind: source.kind } : {}),
    ...(source.kind === 'git-branch' ? { kind: source.kind, gitBranch: source.branch } : {}),
    claim: RUN_CLAIM
  }
}

/**
 * What a run records in the branch it creates for the sweep (annotations.ts:
 * `preview-postgres/comment-id`, `preview-postgres/deployment-id`): the id
 * of the PR's comment (the lock names it before anything is provisioned)
 * and the id of the run's GitHub deployment (created beside provisioning).
 * Annotations are set on create only (platform spec: AnnotationCreateValueRequest
 * on `POST /projects/{project_id}/branches`; no update), so the create waits
 * for the deployment's id, at most {@link ID_WAIT_MS}; an id not known by
 * then is not recorded and the sweep lists for it instead.
 */
import { type BranchOwner, annotationsOf } from './annotations.js'
import type { CreateBranchExtras } from './shapes.js'

/** Longest wait of a create for the deployment's id, in milliseconds. */
export const ID_WAIT_MS = 5000

/** Where this run's ids come from: the comment's id now, the deployment's id once its create is answered (undefined when none). */
type IdSource = () => { commentId?: number; deploymentId?: Promise<number | undefined> }
let source: IdSource = () => ({})

/** Sets where the ids this run records come from (main.ts, once the lock is held and the deployment started). */
export function recordIdsFrom(from: IdSource): void {
  source = from
}

/** The ids to record now: the comment's, and the deployment's when known within `waitMs` milliseconds. */
export async function recordedIds(waitMs = ID_WAIT_MS): Promise<Pick<BranchOwner, 'commentId' | 'deploymentId'>> {
  const { commentId, deploymentId } = source()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)))
  const deployment = deploymentId ? await Promise.race([deploymentId.catch(() => undefined), late]) : undefined
  clearTimeout(timer)
  return { ...(commentId ? { commentId } : {}), ...(deployment ? { deploymentId: deployment } : {}) }
}

/**
 * `extras` (branch-create-extras.ts, made for `owner`) with this run's ids
 * added to its annotations, as the create is about to be sent.
 */
export async function withRecordedIds(extras: CreateBranchExtras, owner: BranchOwner): Promise<CreateBranchExtras> {
  return { ...extras, annotation_value: annotationsOf({ ...owner, ...(await recordedIds()) }) }
}

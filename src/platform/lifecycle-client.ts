/**
 * The platform requests of the preview lifecycle (issue 14), on top of
 * {@link PlatformClient}: update branch, restore branch, and a branch with
 * its annotation. Shapes from the platform's published spec
 * (public-v2-for-users.gen.yaml in `@neondatabase/api-client`).
 */
import { HttpError } from '../http.js'
import { type Branch, PlatformClient } from './client.js'
import type { Operation } from './operations.js'
import { waitForBusyProject } from './project-wait.js'

/** Platform spec, BranchUpdateRequest.branch. `expires_at: null` removes the expiry. */
export interface BranchUpdate {
  name?: string
  protected?: boolean
  expires_at?: string | null
}

/** Platform spec, BranchRestoreRequest. */
export interface BranchRestore {
  source_branch_id: string
  source_lsn?: string
  source_timestamp?: string
  preserve_under_name?: string
}

/** A branch with its operations (platform spec, BranchOperations). */
export interface BranchOperations {
  branch: Branch
  operations: Operation[]
}

const asOperations = (v: unknown): Operation[] => (Array.isArray(v) ? (v as Operation[]) : [])

function branchOf(v: unknown, label: string): Branch {
  const b = v as Partial<Branch> | undefined
  if (!b || typeof b !== 'object' || typeof b.id !== 'string' || typeof b.name !== 'string') {
    throw new Error(`${label}: the platform's response has no valid \`branch\`.`)
  }
  return b as Branch
}

export class LifecycleClient extends PlatformClient {
  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: update}`
   * (platform spec, updateProjectBranch: 200 BranchOperations). Not retried
   * blindly; wrap in retryLocked for 423.
   */
  async updateBranch(branchId: string, update: BranchUpdate): Promise<BranchOperations> {
    const label = `Update branch ${branchId}`
    const body = await this.callJson(label, 'PATCH', `/branches/${encodeURIComponent(branchId)}`, {
      body: { branch: update },
      idempotent: false
    })
    return { branch: branchOf(body.branch, label), operations: asOperations(body.operations) }
  }

  /**
   * `POST /projects/{project_id}/branches/{branch_id}/restore` (platform spec,
   * restoreProjectBranch: 200 BranchOperations). Sent once; wrap in retryLocked for 423.
   */
  async restoreBranch(branchId: string, request: BranchRestore): Promise<BranchOperations> {
    const label = `Restore branch ${branchId}`
    const body = await this.callJson(label, 'POST', `/branches/${encodeURIComponent(branchId)}/restore`, {
      body: request,
      idempotent: false
    })
    return { branch: branchOf(body.branch, label), operations: asOperations(body.operations) }
  }

  /**
   * `GET /projects/{project_id}/branches/{branch_id}` with its annotation
   * (platform spec: BranchResponse + AnnotationResponse, `annotation.value`
   * a string map). Null on 404.
   */
  async branchWithAnnotations(branchId: string): Promise<{ branch: Branch; annotations: Record<string, unknown> } | null> {
    const label = `Get branch ${branchId}`
    try {
      const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}`)
      const annotation = body.annotation as { value?: unknown } | undefined
      const value = annotation?.value
      return {
        branch: branchOf(body.branch, label),
        annotations: value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
      }
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return null
      throw err
    }
  }
}

/**
 * The lifecycle client of the settings' project (timeout in seconds from `request-timeout`); its
 * project is the one the run waits for when a request that starts work meets 423 (project-wait.ts).
 */
export function lifecycleClientOf(s: {
  apiUrl: string
  apiKey: string
  requestTimeoutSeconds: number
  projectId: string
  pollIntervalSeconds: number
  waitTimeoutSeconds: number
}): LifecycleClient {
  const client = new LifecycleClient(s.apiUrl, s.apiKey, s.requestTimeoutSeconds * 1000, s.projectId)
  waitForBusyProject(client, s)
  return client
}

/**
 * The emulated Vercel's records (its projects, variables, deployments) and
 * what the variables' writer (vercel-env.ts) needs of the service, apart
 * from the service itself so that neither module imports the other.
 */

/** A Vercel team: id `team_…` and slug. */
export interface VercelTeam {
  id: string
  slug: string
  /**
   * The team's policy "Enforce Sensitive Environment Variables": every
   * Preview and Production variable is stored as `sensitive`, whatever type
   * the write asked for (vercel/vercel#17641: `vercel env add` defaults to
   * sensitive there).
   */
  enforceSensitive?: boolean
}

export interface EmulatedEnv {
  id: string
  key: string
  value: string
  type: 'encrypted' | 'sensitive' | 'plain' | 'secret' | 'system'
  target: string[]
  gitBranch?: string
  comment?: string
  createdAt: number
  updatedAt: number
}

export interface EmulatedProject {
  id: string
  name: string
  /** Team id, or undefined for the personal account. */
  teamId?: string
  link?: { type: 'github'; repoId: number; org: string; repo: string; productionBranch: string }
  envs: EmulatedEnv[]
}

/** A deployment's state (`readyState`; the SDK's enum, `BLOCKED` included). */
export type DeploymentState = 'QUEUED' | 'INITIALIZING' | 'BUILDING' | 'READY' | 'ERROR' | 'CANCELED' | 'BLOCKED'

export interface EmulatedDeployment {
  uid: string
  url: string
  name: string
  projectId: string
  state: DeploymentState
  createdAt: number
  ref: string
  sha: string
  /** `production` for a deployment of the project's production branch, else null (a preview). */
  target: 'production' | null
  /** `git` (Vercel's Git integration) or `api` (`POST /v13/deployments`). */
  source: 'git' | 'api'
  /** The variables the deployment's build and functions read: fixed when it was created. */
  env: Record<string, string>
}

/** What the variables' writer needs of the service. */
export interface EnvStore {
  /** Keys the next upserts refuse (in `failed[]`) with this code and message, once each. */
  readonly refuse: Map<string, { code: string; message: string }>
  readonly teams: VercelTeam[]
  now(): number
  nextId(prefix: string): string
}

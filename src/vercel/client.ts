/**
 * Vercel's REST API, the requests the wiring makes (Vercel REST API
 * reference; request and response shapes checked against `@vercel/sdk`'s
 * models in __tests__/contract/vercel.test.ts): the project and its Git
 * link, the project's environment variables (list, upsert, remove) and
 * deployments (list by commit, create from a Git source, cancel).
 *
 * Sent through http.ts's `requestJson`, so the run's timeout, cancel, secret
 * redaction and proxy apply. Every request carries the team as `teamId`
 * (`team_…`) or `slug`. A 429 (`rate_limited`) is waited out until its
 * reset (`X-RateLimit-Reset`, epoch seconds) while within `wait-timeout`.
 */
import { HttpError, type JsonRequest, requestJson } from '../http.js'
import type { VercelSettings } from '../settings.js'

/** A project as `GET /v9/projects/{idOrName}` answers it (the fields read). */
export interface VercelProject {
  id: string
  name: string
  /** The Git repository the project is linked to; absent when it has none. */
  link?: { type?: string; repoId?: number | string; org?: string; repo?: string }
}

/** One environment variable (`GET /v10/projects/{idOrName}/env`). `value` is the plain value with `decrypt=true`. */
export interface VercelEnv {
  id: string
  key: string
  value?: string
  type: string
  target?: string[] | string
  gitBranch?: string
  comment?: string
  createdAt?: number
  updatedAt?: number
}

/** A variable to upsert (`POST /v10/projects/{idOrName}/env?upsert=true`). */
export interface EnvWrite {
  key: string
  value: string
  type: 'encrypted'
  target: ['preview']
  gitBranch: string
  comment: string
}

/** One deployment (`GET /v7/deployments` item, or `POST /v13/deployments`' answer, normalised). */
export interface VercelDeployment {
  id: string
  /** Host name without scheme, as Vercel gives it (`my-app-abc123.vercel.app`). */
  url: string
  /** `QUEUED`, `INITIALIZING`, `BUILDING`, `READY`, `ERROR`, `CANCELED`. */
  state: string
  /** Milliseconds since the epoch. */
  createdAt: number
  sha?: string
}

/** A failure of the wiring, with what to fix in its message. */
export class VercelError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'VercelError'
  }
}

/** The Vercel API client of one run. */
export class VercelClient {
  constructor(
    private readonly settings: VercelSettings,
    private readonly timeoutMs: number,
    /** Milliseconds since the epoch: 429s are waited out until then (`wait-timeout` from the client's start). */
    private readonly deadline: number
  ) {}

  /** Where the project lives, for messages: `team acme` or `your personal account`. */
  get scope(): string {
    return this.settings.team ? `team "${this.settings.team}"` : 'the personal account of the token'
  }

  private url(path: string, query: Record<string, string> = {}): string {
    const q = new URLSearchParams(query)
    const { team } = this.settings
    if (team) q.set(team.startsWith('team_') ? 'teamId' : 'slug', team)
    const s = q.toString()
    return `${this.settings.apiUrl}${path}${s ? `?${s}` : ''}`
  }

  private async send(label: string, method: JsonRequest['method'], path: string, query?: Record<string, string>, body?: unknown) {
    try {
      return await requestJson({
        label: `Vercel: ${label}`,
        method,
        url: this.url(path, query),
        body,
        headers: { Authorization: `Bearer ${this.settings.token}` },
        timeoutMs: this.timeoutMs,
        idempotent: method === 'GET',
        rateLimitWait: (h) => {
          const reset = Number(h.get('x-ratelimit-reset'))
          return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - Date.now() / 1000) : undefined
        },
        rateLimitDeadline: this.deadline
      })
    } catch (err) {
      throw this.explain(err)
    }
  }

  /** An HttpError in the words of what to fix (403: the token's access; 429: the reset passes `wait-timeout`). */
  private explain(err: unknown): unknown {
    if (!(err instanceof HttpError)) return err
    if (err.status === 403 || err.status === 401)
      return new VercelError(
        `${err.message} The Vercel token has no access to project "${this.settings.project}" in ${this.scope}: ` +
          'create the token (Vercel: Account Settings, Tokens) with the scope of the team that owns the project, set `vercel-team` to that team, ' +
          'and store it as the secret VERCEL_TOKEN.'
      )
    if (err.status === 429)
      return new VercelError(
        `${err.message} Vercel's rate limit (rate_limited) resets later than \`wait-timeout\` allows: re-run the job once it has reset.`
      )
    return err
  }

  /** The project and its Git link. @throws VercelError naming the project and scope when it does not exist (404). */
  async project(): Promise<VercelProject> {
    const p = encodeURIComponent(this.settings.project)
    try {
      return (await this.send('read the project', 'GET', `/v9/projects/${p}`)).body as VercelProject
    } catch (err) {
      if (err instanceof HttpError && err.status === 404)
        throw new VercelError(
          `Vercel project "${this.settings.project}" was not found in ${this.scope}: check \`vercel-project\` (the project's id prj_… or name) and \`vercel-team\`.`
        )
      throw err
    }
  }

  /** The project's variables scoped to `gitBranch` (values decrypted). */
  async branchEnvs(projectId: string, gitBranch: string): Promise<VercelEnv[]> {
    const r = await this.send('list environment variables', 'GET', `/v10/projects/${projectId}/env`, { gitBranch, decrypt: 'true' })
    return ((r.body as { envs?: VercelEnv[] }).envs ?? []).filter((e) => e.gitBranch === gitBranch)
  }

  /** Every variable of the project (values not decrypted): the sweep finds its own by their comment. */
  async allEnvs(projectId: string): Promise<VercelEnv[]> {
    const r = await this.send('list environment variables', 'GET', `/v10/projects/${projectId}/env`)
    return (r.body as { envs?: VercelEnv[] }).envs ?? []
  }

  /**
   * Writes `envs` in one upsert request.
   * @returns when they were written (the latest `updatedAt` of the answer's `created`, Vercel's clock; else now), milliseconds
   * @throws VercelError when the answer's `failed[]` is not empty, naming each key with Vercel's code and message.
   */
  async upsertEnvs(projectId: string, envs: EnvWrite[]): Promise<number> {
    const r = await this.send('write environment variables', 'POST', `/v10/projects/${projectId}/env`, { upsert: 'true' }, envs)
    const failed = (r.body as { failed?: { error?: { code?: string; message?: string; key?: string; envVarKey?: string } }[] }).failed ?? []
    if (failed.length)
      throw new VercelError(
        `Vercel refused ${failed.length} of the preview's variables: ` +
          failed
            .map(({ error: e }) => `${e?.key ?? e?.envVarKey ?? '(no key)'}: ${e?.code ?? 'error'}: ${e?.message ?? ''}`.trim())
            .join('; ') +
          '.'
      )
    const created = [(r.body as { created?: VercelEnv | VercelEnv[] }).created ?? []].flat()
    return Math.max(0, ...created.map((e) => e.updatedAt ?? e.createdAt ?? 0)) || Date.now()
  }

  /** Removes one variable; one already gone counts as removed. */
  async removeEnv(projectId: string, id: string): Promise<void> {
    try {
      await this.send('remove an environment variable', 'DELETE', `/v9/projects/${projectId}/env/${encodeURIComponent(id)}`)
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 404)) throw err
    }
  }

  /** The project's deployments of commit `sha`, newest first. */
  async deploymentsOf(projectId: string, sha: string): Promise<VercelDeployment[]> {
    const r = await this.send('list deployments', 'GET', '/v7/deployments', { projectId, sha, limit: '20' })
    const items = (r.body as { deployments?: Record<string, unknown>[] }).deployments ?? []
    return items
      .map((d) => ({
        id: String(d.uid ?? d.id),
        url: String(d.url ?? ''),
        state: String(d.readyState ?? d.state ?? ''),
        createdAt: Number(d.createdAt ?? d.created ?? 0),
        sha: (d.meta as Record<string, string> | undefined)?.githubCommitSha
      }))
      .filter((d) => d.sha === undefined || d.sha === sha)
      .sort((a, b) => b.createdAt - a.createdAt)
  }

  /** A new preview deployment of `sha` on `ref` from the project's linked Git repository (not a redeploy: it reads today's variables). */
  async deployCommit(project: VercelProject, ref: string, sha: string): Promise<VercelDeployment> {
    const gitSource = { type: project.link!.type ?? 'github', repoId: project.link!.repoId!, ref, sha }
    const r = await this.send('create a deployment', 'POST', '/v13/deployments', undefined, {
      name: project.name,
      project: project.id,
      gitSource
    })
    const d = r.body as Record<string, unknown>
    return {
      id: String(d.id),
      url: String(d.url ?? ''),
      state: String(d.readyState ?? d.status ?? 'QUEUED'),
      createdAt: Number(d.createdAt ?? Date.now()),
      sha
    }
  }

  /** Cancels a deployment that is still queued or building. */
  async cancel(id: string): Promise<void> {
    await this.send('cancel a deployment', 'PATCH', `/v12/deployments/${encodeURIComponent(id)}/cancel`)
  }
}

/**
 * Vercel's REST API, the requests the wiring makes (Vercel REST API
 * reference; request and response shapes checked against `@vercel/sdk`'s
 * models in __tests__/contract/vercel.test.ts): the project and its Git
 * link, the project's environment variables (list, upsert, remove) and
 * deployments (list by commit and branch, create from a Git source, cancel).
 * Endpoint versions are those `@vercel/sdk` 1.28 calls.
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
  link?: { type?: string; repoId?: number | string; org?: string; repo?: string; productionBranch?: string }
}

/**
 * One environment variable (`GET /v10/projects/{idOrName}/env`). Its value
 * is never read: the list gives an encrypted variable's ciphertext whatever
 * `decrypt` asks (vercel/vercel#9072, vercel/sdk#118) and no value for a
 * sensitive one (Vercel's docs, "Sensitive environment variables").
 */
export interface VercelEnv {
  id: string
  key: string
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
  /** `QUEUED`, `INITIALIZING`, `BUILDING`, `READY`, `ERROR`, `CANCELED`, `BLOCKED` (the SDK's `readyState`). */
  state: string
  /** Milliseconds since the epoch. */
  createdAt: number
  sha?: string
}

/** Variables per request of the env list are Vercel's to choose: the list is followed page by page, at most this many. */
const ENV_PAGES = 50

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

  /**
   * Every variable of the project, page after page (`pagination.next` passed
   * back as `until`: Vercel REST API, "Pagination"; the endpoint's own
   * reference lists no `until`). A page that brings no variable not seen
   * before ends the list, so a service that ignores `until` and answers the
   * first page again is read twice, not 50 times. Values are not asked for
   * (see VercelEnv).
   * @returns each variable once (by `id`)
   * @throws VercelError when the list has more than 50 pages; HttpError
   */
  async allEnvs(projectId: string): Promise<VercelEnv[]> {
    const seen = new Map<string, VercelEnv>()
    let until: number | null | undefined
    for (let page = 0; page < ENV_PAGES; page++) {
      const query: Record<string, string> = until ? { until: String(until) } : {}
      const r = await this.send('list environment variables', 'GET', `/v10/projects/${projectId}/env`, query)
      const body = r.body as { envs?: VercelEnv[]; pagination?: { next?: number | null } }
      const fresh = (body.envs ?? []).filter((e) => !seen.has(e.id))
      for (const e of fresh) seen.set(e.id, e)
      until = body.pagination?.next
      if (!until || !fresh.length) return [...seen.values()]
    }
    throw new VercelError(`Vercel's list of the project's environment variables has more than ${ENV_PAGES} pages: remove unused variables.`)
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

  /**
   * The project's preview deployments of commit `sha` on branch `ref`, newest
   * first. A commit is not a branch: the list's `branch` filter and each
   * item's `meta.githubCommitRef` keep out another branch's deployment of the
   * same commit, and `target: "production"` ones (the production branch's
   * build of a commit a PR shares) are never returned.
   */
  async deploymentsOf(projectId: string, sha: string, ref: string): Promise<VercelDeployment[]> {
    const r = await this.send('list deployments', 'GET', '/v7/deployments', { projectId, sha, branch: ref, limit: '20' })
    const items = (r.body as { deployments?: Record<string, unknown>[] }).deployments ?? []
    return items
      .filter((d) => {
        const meta = d.meta as Record<string, string> | undefined
        return d.target !== 'production' && meta?.githubCommitSha === sha && meta?.githubCommitRef === ref
      })
      .map((d) => ({
        id: String(d.uid ?? d.id),
        url: String(d.url ?? ''),
        state: String(d.readyState ?? d.state ?? ''),
        createdAt: Number(d.createdAt ?? d.created ?? 0),
        sha
      }))
      .sort((a, b) => b.createdAt - a.createdAt)
  }

  /**
   * A new preview deployment of `sha` on `ref` from the project's linked Git
   * repository (not a redeploy: it reads today's variables). `forceNew=1`:
   * without it Vercel may answer with an existing deployment of the commit.
   */
  async deployCommit(project: VercelProject, ref: string, sha: string): Promise<VercelDeployment> {
    const gitSource = { type: project.link!.type ?? 'github', repoId: project.link!.repoId!, ref, sha }
    const r = await this.send(
      'create a deployment',
      'POST',
      '/v13/deployments',
      { forceNew: '1' },
      {
        name: project.name,
        project: project.id,
        gitSource
      }
    )
    const d = r.body as Record<string, unknown>
    return {
      id: String(d.id),
      url: String(d.url ?? ''),
      state: String(d.readyState ?? d.status ?? 'QUEUED'),
      createdAt: Number(d.createdAt ?? Date.now()),
      sha
    }
  }

  /**
   * Cancels a deployment that is still queued or building, best effort.
   * @returns false when Vercel refuses because it is no longer underway (400, or 404: the build ended or went between the list and the cancel)
   * @throws HttpError for any other failure
   */
  async cancel(id: string): Promise<boolean> {
    try {
      await this.send('cancel a deployment', 'PATCH', `/v12/deployments/${encodeURIComponent(id)}/cancel`)
      return true
    } catch (err) {
      if (err instanceof HttpError && (err.status === 400 || err.status === 404)) return false
      throw err
    }
  }
}

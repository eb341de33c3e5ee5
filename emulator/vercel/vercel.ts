/**
 * Emulator of Vercel's REST API, the part the action uses (Vercel REST API
 * reference; shapes checked against `@vercel/sdk`'s models in
 * __tests__/contract/vercel.test.ts):
 *
 * - `GET /v9/projects/{idOrName}`: the project and its Git `link` (404 `not_found`).
 * - `GET /v10/projects/{idOrName}/env` (`gitBranch`, `until`): `{envs, pagination}`,
 *   newest first, `envPageSize` a page; an encrypted variable's value is its
 *   ciphertext whatever `decrypt` says, a sensitive one has none (as users
 *   report it, not as the reference says);
 *   `POST /v10/projects/{idOrName}/env` (`upsert=true`), one variable or an
 *   array: 201 `{created, failed}`, a refused variable in `failed[]` with
 *   Vercel's `{error: {code, message, key}}`; `DELETE /v9/projects/{idOrName}/env/{id}`.
 * - `GET /v7/deployments` (`projectId`, `sha`, `branch`): previews and
 *   production deployments (`target: "production"`, those of the project's
 *   production branch) in one list; `POST /v13/deployments` from a
 *   `gitSource` {type, repoId, ref, sha} (the repo must be the project's
 *   link; without `forceNew=1` a live deployment of the same commit and ref
 *   is answered instead of a new one); `PATCH /v12/deployments/{id}/cancel`
 *   (400 once the build has ended).
 *
 * A deployment reads the variables that exist when it is created (its
 * `env` snapshot, for tests): Preview variables, a branch-scoped one for its
 * branch over an unscoped one (Production ones on the production branch). Every request needs `Authorization: Bearer
 * <token>` of a known token (401 otherwise), and the team (`teamId` or
 * `slug`) must be one the token may act for (403 `forbidden`). A rate limit
 * can be switched on: answers 429 `rate_limited` with `X-RateLimit-Reset`
 * (epoch seconds) and the body's `limit.reset`, as Vercel does.
 */
import { ServiceServer, type Reply, type Request } from '../http-kit.js'
import { emulatedEnvWrites } from './vercel-env.js'
import type { DeploymentState, EmulatedDeployment, EmulatedProject, EnvStore, VercelTeam } from './vercel-types.js'

export type { DeploymentState, EmulatedDeployment, EmulatedEnv, EmulatedProject, VercelTeam } from './vercel-types.js'

export const VERCEL_TOKEN = 'vercel_emulated_token_5ecr3t'
/** A token without access to any team. */
export const VERCEL_PERSONAL_TOKEN = 'vercel_emulated_personal_token'

export class VercelService implements EnvStore {
  readonly server = new ServiceServer('vercel')
  readonly projects: EmulatedProject[] = []
  readonly deployments: EmulatedDeployment[] = []
  /** Token → team ids it may act for. */
  readonly tokens = new Map<string, Set<string>>([
    [VERCEL_TOKEN, new Set()],
    [VERCEL_PERSONAL_TOKEN, new Set()]
  ])
  readonly teams: VercelTeam[] = []
  /** Keys the next upserts refuse (in `failed[]`) with this code and message, once each. */
  readonly refuse = new Map<string, { code: string; message: string }>()
  /** Variables per page of the env list (`pagination.next`, then `until`). */
  envPageSize = 100
  /** When set, the env list ignores `until` (its reference names no such parameter) and answers the first page again. */
  envListIgnoresUntil = false
  /** When set, a deployment's build ends (READY) just before a cancel reaches it, which the cancel then refuses (400). */
  endBeforeCancel = false
  private rateLimited = 0
  private resetAt = 0
  private last = 0
  private seq = 0

  constructor() {
    this.server.admit = () => this.limit()
    this.server.route('GET', /^\/v9\/projects\/([^/]+)$/, (req, [p]) =>
      this.scoped(req, p, (project) => ({ status: 200, body: this.view(project) }))
    )
    this.server.route('GET', /^\/v10\/projects\/([^/]+)\/env$/, (req, [p]) =>
      this.scoped(req, p, (project) => {
        const branch = req.query.get('gitBranch')
        const until = this.envListIgnoresUntil ? Infinity : Number(req.query.get('until') ?? Infinity)
        const matching = project.envs
          .filter((e) => (!branch || !e.gitBranch || e.gitBranch === branch) && e.createdAt < until)
          .sort((a, b) => b.createdAt - a.createdAt)
        const page = matching.slice(0, this.envPageSize)
        const more = matching.length > page.length
        // vercel/vercel#9072, vercel/sdk#118: the list returns an encrypted variable's ciphertext (`decrypted: false`) whatever
        // `decrypt` asks; Vercel's docs: a sensitive variable's value is never returned by any endpoint
        const envs = page.map(({ value, ...e }) => ({
          ...e,
          securityIssues: [],
          ...(e.type === 'sensitive' ? {} : { value: e.type === 'plain' ? value : `enc:${Buffer.from(e.id).toString('base64')}` }),
          decrypted: false
        }))
        // Vercel REST API, "Pagination": `next` is the timestamp to pass as `until` for the next page
        const pagination = { count: envs.length, next: more ? page.at(-1)!.createdAt : null, prev: null }
        return { status: 200, body: { envs, pagination } }
      })
    )
    this.server.route('POST', /^\/v10\/projects\/([^/]+)\/env$/, (req, [p]) =>
      this.scoped(req, p, (project) => emulatedEnvWrites(this, project, req))
    )
    this.server.route('DELETE', /^\/v9\/projects\/([^/]+)\/env\/([^/]+)$/, (req, [p, id]) =>
      this.scoped(req, p, (project) => {
        const i = project.envs.findIndex((e) => e.id === id)
        if (i < 0) return notFound('Environment Variable not found')
        const [gone] = project.envs.splice(i, 1)
        return { status: 200, body: gone }
      })
    )
    this.server.route('GET', /^\/v7\/deployments$/, (req) =>
      this.scoped(req, req.query.get('projectId') ?? '', (project) => {
        const sha = req.query.get('sha')
        const branch = req.query.get('branch')
        // @vercel/sdk's GetDeploymentsResponseBody: one list of the project's deployments, each with `target` ("production" or
        // null) and `meta.githubCommitRef`; a production build of a commit a PR shares is in it (issue 63's report)
        const list = this.deployments
          .filter((d) => d.projectId === project.id && (!sha || d.sha === sha) && (!branch || d.ref === branch))
          .sort((a, b) => b.createdAt - a.createdAt)
          .slice(0, Number(req.query.get('limit') ?? 20))
        return {
          status: 200,
          body: { deployments: list.map((d) => this.listItem(d)), pagination: { count: list.length, next: null, prev: null } }
        }
      })
    )
    this.server.route('POST', /^\/v13\/deployments$/, (req) => this.createFromGit(req))
    this.server.route('PATCH', /^\/v12\/deployments\/([^/]+)\/cancel$/, (req, [id]) => {
      const d = this.deployments.find((x) => x.uid === id)
      if (!d) return notFound('Deployment not found')
      return this.scoped(req, d.projectId, () => {
        // issue 63's report: a build that ends between the list and the cancel makes the cancel answer 400
        if (this.endBeforeCancel) d.state = 'READY'
        if (!['QUEUED', 'INITIALIZING', 'BUILDING'].includes(d.state))
          return {
            status: 400,
            body: {
              error: { code: 'bad_request', message: `Deployment is ${d.state}: only a queued or building deployment can be canceled` }
            }
          }
        d.state = 'CANCELED'
        return { status: 200, body: this.view2(d) }
      })
    })
  }

  get url(): string {
    return this.server.url
  }

  /** Milliseconds since the epoch, strictly increasing (two events never share a time). */
  now(): number {
    this.last = Math.max(Date.now(), this.last + 1)
    return this.last
  }

  nextId(prefix: string): string {
    return `${prefix}${(++this.seq).toString(36).padStart(8, '0')}${Math.random().toString(36).slice(2, 10)}`
  }

  /** Makes a team the main token may act for. */
  addTeam(slug: string, o: { enforceSensitive?: boolean } = {}): VercelTeam {
    const team = { id: this.nextId('team_'), slug, ...o }
    this.teams.push(team)
    this.tokens.get(VERCEL_TOKEN)!.add(team.id)
    return team
  }

  /** Makes a project, linked to GitHub `org/repo` unless `link` is false. */
  addProject(name: string, o: { team?: VercelTeam; repository?: string; link?: boolean; productionBranch?: string } = {}): EmulatedProject {
    const [org, repo] = (o.repository ?? 'acme/shop').split('/')
    const project: EmulatedProject = {
      id: this.nextId('prj_'),
      name,
      teamId: o.team?.id,
      link:
        o.link === false
          ? undefined
          : { type: 'github', repoId: 4242_0000 + this.projects.length, org, repo, productionBranch: o.productionBranch ?? 'main' },
      envs: []
    }
    this.projects.push(project)
    return project
  }

  /** A deployment as Vercel's Git integration makes on a push: it reads the variables that exist now. */
  gitPush(project: EmulatedProject, ref: string, sha: string, state: DeploymentState = 'BUILDING'): EmulatedDeployment {
    return this.deploy(project, ref, sha, state, 'git')
  }

  /** The variables a deployment of `ref` reads: Production ones on the production branch, else Preview ones, a branch-scoped one over an unscoped one. */
  envFor(project: EmulatedProject, ref: string): Record<string, string> {
    const target = ref === project.link?.productionBranch ? 'production' : 'preview'
    const preview = project.envs.filter((e) => e.target.includes(target))
    const out: Record<string, string> = {}
    for (const e of preview.filter((x) => !x.gitBranch)) out[e.key] = e.value
    for (const e of preview.filter((x) => x.gitBranch === ref)) out[e.key] = e.value
    return out
  }

  /** Switches the rate limit on: the next `times` requests answer 429, resetting `resetSeconds` from now. */
  rateLimit(times: number, resetSeconds: number): void {
    this.rateLimited = times
    this.resetAt = Math.ceil(Date.now() / 1000 + resetSeconds)
  }

  private deploy(project: EmulatedProject, ref: string, sha: string, state: DeploymentState, source: 'git' | 'api'): EmulatedDeployment {
    const uid = this.nextId('dpl_')
    const d: EmulatedDeployment = {
      uid,
      url: `${project.name}-${uid.slice(4, 13)}-acme.vercel.app`,
      name: project.name,
      projectId: project.id,
      state,
      createdAt: this.now(),
      ref,
      sha,
      // Vercel's docs, "Environments": a deployment of the production branch is a production deployment
      target: ref === project.link?.productionBranch ? 'production' : null,
      source,
      env: this.envFor(project, ref)
    }
    this.deployments.push(d)
    return d
  }

  private limit(): Reply | undefined {
    if (this.rateLimited <= 0) return undefined
    this.rateLimited--
    const reset = this.resetAt
    return {
      status: 429,
      headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: {
        error: { code: 'rate_limited', message: 'Rate limit exceeded', limit: { remaining: 0, reset, resetMs: reset * 1000, total: 100 } }
      }
    }
  }

  /** Runs `f` on the project `idOrName` of the request's scope, or answers 401, 403 or 404 as Vercel does. */
  private scoped(req: Request, idOrName: string, f: (project: EmulatedProject) => Reply | Promise<Reply>): Reply | Promise<Reply> {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1]
    const teams = token ? this.tokens.get(token) : undefined
    if (!teams) return { status: 403, body: { error: { code: 'forbidden', message: 'Not authorized', invalidToken: true } } }
    const teamParam = req.query.get('teamId') ?? req.query.get('slug')
    const team = teamParam ? this.teams.find((t) => t.id === teamParam || t.slug === teamParam) : undefined
    if (teamParam && (!team || !teams.has(team.id)))
      return { status: 403, body: { error: { code: 'forbidden', message: "You don't have permission to access this team" } } }
    const project = this.projects.find((p) => (p.id === idOrName || p.name === idOrName) && p.teamId === team?.id)
    if (!project) return notFound('Project not found')
    return f(project)
  }

  private createFromGit(req: Request): Reply | Promise<Reply> {
    let body: { name?: string; project?: string; gitSource?: { type?: string; repoId?: number | string; ref?: string; sha?: string } }
    try {
      body = JSON.parse(req.text) as typeof body
    } catch {
      return { status: 400, body: { error: { code: 'bad_request', message: 'Invalid JSON' } } }
    }
    return this.scoped(req, body.project ?? body.name ?? '', (project) => {
      const g = body.gitSource
      if (!g || !g.ref || !g.sha || g.repoId === undefined)
        return { status: 400, body: { error: { code: 'bad_request', message: 'gitSource needs type, repoId, ref and sha' } } }
      if (!project.link || String(project.link.repoId) !== String(g.repoId))
        return {
          status: 400,
          body: { error: { code: 'incorrect_git_source_info', message: "The repository does not match the project's Git link" } }
        }
      // Vercel REST API, "Create a new deployment": without `forceNew=1` a deployment of the same commit may be answered instead
      const same = this.deployments.find(
        (x) => x.projectId === project.id && x.sha === g.sha && x.ref === g.ref && !['CANCELED', 'ERROR'].includes(x.state)
      )
      if (same && req.query.get('forceNew') !== '1') return { status: 200, body: this.view2(same) }
      const d = this.deploy(project, g.ref, g.sha, 'QUEUED', 'api')
      return { status: 200, body: this.view2(d) }
    })
  }

  private view(p: EmulatedProject) {
    const regions = { functionDefaultRegions: ['iad1'] }
    return {
      id: p.id,
      name: p.name,
      accountId: p.teamId ?? 'user_emulated',
      link: p.link ? { ...p.link, deployHooks: [] } : null,
      alias: [],
      nodeVersion: '22.x',
      defaultResourceConfig: regions,
      resourceConfig: regions,
      deploymentExpiration: {},
      createdAt: 1,
      updatedAt: 1
    }
  }

  private listItem(d: EmulatedDeployment) {
    return {
      uid: d.uid,
      name: d.name,
      url: d.url,
      created: d.createdAt,
      createdAt: d.createdAt,
      state: d.state,
      readyState: d.state,
      type: 'LAMBDAS',
      target: d.target,
      projectId: d.projectId,
      source: d.source === 'git' ? 'git' : 'api-trigger-git-deploy',
      inspectorUrl: `https://vercel.com/acme/${d.name}/${d.uid}`,
      creator: { uid: 'user_emulated', username: 'acme' },
      meta: { githubCommitSha: d.sha, githubCommitRef: d.ref }
    }
  }

  /** A deployment as `POST /v13/deployments` and the cancel answer it (the fields read, plus those the SDK requires). */
  private view2(d: EmulatedDeployment) {
    return {
      ...this.listItem(d),
      id: d.uid,
      status: d.state,
      readyState: d.state,
      gitSource: { type: 'github', ref: d.ref, sha: d.sha },
      build: { env: [] },
      env: [],
      plan: 'hobby',
      projectSettings: {},
      regions: ['iad1']
    }
  }
}

const notFound = (message: string): Reply => ({ status: 404, body: { error: { code: 'not_found', message } } })

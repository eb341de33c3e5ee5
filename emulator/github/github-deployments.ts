/**
 * GitHub's deployments REST API for the emulator (GitHub REST, "Deployments"
 * and "Deployment statuses"): create a deployment
 * (`POST /repos/{owner}/{repo}/deployments`, 201), list them (`sha`, `ref`,
 * `environment` filters, newest first, paginated with Link headers), create a status
 * (`POST …/deployments/{id}/statuses`, 201; states `error`, `failure`,
 * `inactive`, `in_progress`, `queued`, `pending`, `success`, others 422) and
 * list a deployment's statuses (newest first). A token whose
 * `deployments` permission is off (a workflow without `deployments: write`,
 * or a fork PR's read-only token) is answered 403 "Resource not accessible
 * by integration" on every write; reads need only a known token. As GitHub
 * does with `auto_inactive` (default true), a `success` status marks the
 * environment's older non-transient deployments `inactive`.
 */
import type { GitHubService } from './github.js'
import { githubPage } from './github-page.js'

/** A deployment as GitHub's REST API answers it (the fields the action or the tests read). */
export interface Deployment {
  id: number
  sha: string
  ref: string
  task: string
  environment: string
  description: string | null
  transient_environment: boolean
  production_environment: boolean
  payload: unknown
  creator: { login: string }
  created_at: string
  /** What the create request asked (not answered by GitHub; a test's view). */
  request: { auto_merge?: boolean; required_contexts?: string[] }
}

/** A deployment status as GitHub's REST API answers it. */
export interface DeploymentStatus {
  id: number
  state: string
  description: string
  environment: string
  environment_url: string
  log_url: string
  target_url: string
  creator: { login: string }
  created_at: string
}

const STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success']

export class Deployments {
  /** Every deployment per `owner/repo`, oldest first. */
  readonly byRepo = new Map<string, Deployment[]>()
  /** Statuses per deployment id, oldest first. */
  readonly statuses = new Map<number, DeploymentStatus[]>()
  private nextId = 7000
  private nextStatusId = 9000

  constructor(github: GitHubService) {
    const list = /^\/repos\/([^/]+)\/([^/]+)\/deployments\/?$/
    const statuses = /^\/repos\/([^/]+)\/([^/]+)\/deployments\/(\d+)\/statuses\/?$/
    github.server
      .route('POST', list, (req, [owner, repo]) => {
        const who = github.tokenOf(req)
        if (!who) return unauthorized()
        if (!who.canWrite || who.deployments === false) return forbidden()
        const b = JSON.parse(req.text || '{}') as Record<string, unknown>
        if (typeof b.ref !== 'string' || !b.ref) return invalid('ref')
        const environment = typeof b.environment === 'string' ? b.environment : 'production'
        const d: Deployment = {
          id: this.nextId++,
          sha: /^[0-9a-f]{6,40}$/.test(b.ref) ? b.ref : '0123456789abcdef0123456789abcdef01234567',
          ref: b.ref,
          task: typeof b.task === 'string' ? b.task : 'deploy',
          environment,
          description: typeof b.description === 'string' ? b.description : null,
          transient_environment: b.transient_environment === true,
          production_environment: typeof b.production_environment === 'boolean' ? b.production_environment : environment === 'production',
          payload: b.payload ?? {},
          creator: { login: who.login },
          created_at: new Date().toISOString(),
          request: { auto_merge: b.auto_merge as boolean | undefined, required_contexts: b.required_contexts as string[] | undefined }
        }
        const all = this.byRepo.get(`${owner}/${repo}`) ?? []
        all.push(d)
        this.byRepo.set(`${owner}/${repo}`, all)
        return { status: 201, body: d }
      })
      .route('GET', list, (req, [owner, repo]) => {
        if (!github.tokenOf(req)) return unauthorized()
        const q = (name: string): string | null => req.query.get(name)
        const found = (this.byRepo.get(`${owner}/${repo}`) ?? [])
          .filter((d) => (!q('environment') || d.environment === q('environment')) && (!q('sha') || d.sha === q('sha')))
          .filter((d) => !q('ref') || d.ref === q('ref'))
          .reverse()
        return githubPage(found, req, `${github.url}/repos/${owner}/${repo}/deployments`)
      })
      .route('POST', statuses, (req, [owner, repo, id]) => {
        const who = github.tokenOf(req)
        if (!who) return unauthorized()
        const d = this.find(owner, repo, Number(id))
        if (!d) return { status: 404, body: { message: 'Not Found' } }
        if (!who.canWrite || who.deployments === false) return forbidden()
        const b = JSON.parse(req.text || '{}') as Record<string, unknown>
        if (typeof b.state !== 'string' || !STATES.includes(b.state)) return invalid('state')
        const s: DeploymentStatus = {
          id: this.nextStatusId++,
          state: b.state,
          description: typeof b.description === 'string' ? b.description : '',
          environment: typeof b.environment === 'string' ? b.environment : d.environment,
          environment_url: typeof b.environment_url === 'string' ? b.environment_url : '',
          log_url: typeof b.log_url === 'string' ? b.log_url : '',
          target_url: typeof b.log_url === 'string' ? b.log_url : '',
          creator: { login: who.login },
          created_at: new Date().toISOString()
        }
        this.statusesOf(d.id).push(s)
        if (s.state === 'success' && b.auto_inactive !== false) {
          for (const other of this.byRepo.get(`${owner}/${repo}`) ?? []) {
            if (other.id === d.id || other.environment !== d.environment || other.transient_environment) continue
            const last = this.statusesOf(other.id).at(-1)
            if (last && last.state !== 'inactive') this.statusesOf(other.id).push({ ...last, id: this.nextStatusId++, state: 'inactive' })
          }
        }
        return { status: 201, body: s }
      })
      .route('GET', statuses, (req, [owner, repo, id]) => {
        if (!github.tokenOf(req)) return unauthorized()
        const d = this.find(owner, repo, Number(id))
        if (!d) return { status: 404, body: { message: 'Not Found' } }
        return { status: 200, body: [...this.statusesOf(d.id)].reverse() }
      })
  }

  /**
   * Makes a deployment of `repository` in `environment` (transient, not
   * production, as the action makes them) with one status `state`, without a
   * request: tests and benchmarks plant many at once.
   */
  plant(repository: string, environment: string, state = 'success', login = 'github-actions[bot]'): Deployment {
    const d: Deployment = {
      id: this.nextId++,
      sha: '0123456789abcdef0123456789abcdef01234567',
      ref: '0123456789abcdef0123456789abcdef01234567',
      task: 'deploy',
      environment,
      description: null,
      transient_environment: true,
      production_environment: false,
      payload: {},
      creator: { login },
      created_at: new Date().toISOString(),
      request: { auto_merge: false, required_contexts: [] }
    }
    this.byRepo.set(repository, [...(this.byRepo.get(repository) ?? []), d])
    const at = new Date().toISOString()
    this.statusesOf(d.id).push({
      id: this.nextStatusId++,
      state,
      description: '',
      environment,
      environment_url: '',
      log_url: '',
      target_url: '',
      creator: { login },
      created_at: at
    })
    return d
  }

  /** The deployments of `repository` in `environment`, oldest first (a test's view). */
  of(repository: string, environment: string): Deployment[] {
    return (this.byRepo.get(repository) ?? []).filter((d) => d.environment === environment)
  }

  /** A deployment's statuses, oldest first. */
  statusesOf(id: number): DeploymentStatus[] {
    const list = this.statuses.get(id) ?? []
    this.statuses.set(id, list)
    return list
  }

  private find(owner: string, repo: string, id: number): Deployment | undefined {
    return (this.byRepo.get(`${owner}/${repo}`) ?? []).find((d) => d.id === id)
  }
}

const unauthorized = () => ({ status: 401, body: { message: 'Bad credentials' } })
const forbidden = () => ({ status: 403, body: { message: 'Resource not accessible by integration' } })
const invalid = (field: string) => ({ status: 422, body: { message: 'Validation Failed', errors: [{ field, code: 'invalid' }] } })

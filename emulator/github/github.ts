/**
 * Emulator of GitHub's REST API for issue comments: list a PR's, list the
 * repository's (`since`, `sort`; both paginated with Link headers), get one,
 * create, update, delete, and `GET /user`; and reactions
 * on issue comments and on issues: list (`content` filter, paginated), create
 * (201 when created, 200 with the existing reaction when this user already
 * reacted with that content: GitHub REST, "Create reaction for an issue
 * comment") and delete by id (204). A deleted comment loses its reactions. Tokens decide who writes and
 * whether they may: the default token behaves like a workflow's GITHUB_TOKEN
 * (comments as `github-actions[bot]`, `GET /user` refused). `GET /rate_limit`
 * and a per-token budget are github-rate.ts's. A GitHub App's
 * installation token comments as `<app slug>[bot]` (a `Bot` user) and is
 * refused `GET /user` too (403 "Resource not accessible by integration"), as
 * GitHub answers for any installation token. A comment body over GitHub's
 * limit (65,536 characters) is refused with 422, as GitHub does.
 */
import { ServiceServer, type Reply, type Request } from '../http-kit.js'
import { rateLimitStatus } from './github-rate.js'
import { githubPage } from './github-page.js'

export interface TokenInfo {
  login: string
  /** An installation token (GITHUB_TOKEN): `GET /user` answers 403. */
  installation: boolean
  /** May create and update comments; false gives 403 like a fork PR's token. */
  canWrite: boolean
  /** The `deployments: write` permission (default on when `canWrite`): off answers 403 on deployment writes. */
  deployments?: boolean
}

export interface Comment {
  id: number
  /** GitHub REST, issue comment: the API address of the issue (PR) it is on, `<api>/repos/<owner>/<repo>/issues/<number>`. */
  issue_url: string
  /** GitHub REST, issue comment: the comment's page, `https://github.com/<owner>/<repo>/pull/<number>#issuecomment-<id>`. */
  html_url: string
  body: string
  user: { login: string; type: string }
  created_at: string
  updated_at: string
}

/** A PR comment's `html_url` as GitHub gives it. */
const htmlUrl = (repository: string, number: number, id: number): string =>
  `https://github.com/${repository}/pull/${number}#issuecomment-${id}`

/** A reaction (GitHub REST, reactions). */
export interface Reaction {
  id: number
  node_id: string
  user: { login: string; type: string }
  content: string
  created_at: string
}

/** The reaction contents GitHub accepts (others answer 422). */
export const REACTION_CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] as const

export const APP_TOKEN = 'ghs_emulated_workflow_token'
export const READ_ONLY_TOKEN = 'ghs_emulated_fork_token'
export const USER_TOKEN = 'ghp_emulated_user_token'
/** A workflow token that may write comments but was not granted `deployments: write`. */
export const NO_DEPLOYMENTS_TOKEN = 'ghs_emulated_token_without_deployments'
/** An installation token of a GitHub App whose slug is `preview-pilot`: comments as `preview-pilot[bot]`. */
export const APP_INSTALLATION_TOKEN = 'ghs_emulated_app_installation_token'
export const APP_BOT_LOGIN = 'preview-pilot[bot]'

export class GitHubService {
  readonly server = new ServiceServer('github')
  readonly tokens = new Map<string, TokenInfo>([
    [APP_TOKEN, { login: 'github-actions[bot]', installation: true, canWrite: true }],
    [READ_ONLY_TOKEN, { login: 'github-actions[bot]', installation: true, canWrite: false }],
    [USER_TOKEN, { login: 'octocat', installation: false, canWrite: true }],
    [NO_DEPLOYMENTS_TOKEN, { login: 'github-actions[bot]', installation: true, canWrite: true, deployments: false }],
    [APP_INSTALLATION_TOKEN, { login: APP_BOT_LOGIN, installation: true, canWrite: true }]
  ])
  /** Comments per `owner/repo#number`; a key must exist for the PR to exist. */
  readonly issues = new Map<string, Comment[]>()
  /** Reactions per subject: `comment <id>` or `issue owner/repo#number`. */
  readonly reactionsOf = new Map<string, Reaction[]>()
  private nextId = 1000
  private nextReactionId = 1

  constructor() {
    const pr = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments\/?$/
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)\/?$/
    this.server
      .route('GET', /^\/rate_limit\/?$/, (req) => rateLimitStatus(this, req))
      .route('GET', /^\/user\/?$/, (req) => {
        const who = this.auth(req)
        if (!who) return unauthorized()
        if (who.installation) return { status: 403, body: { message: 'Resource not accessible by integration' } }
        return { status: 200, body: { login: who.login, id: 1, type: 'User' } }
      })
      .route('GET', /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/?$/, (req, [owner, repo]) => this.repositoryComments(req, owner, repo))
      .route('GET', pr, (req, [owner, repo, n]) => {
        if (!this.auth(req)) return unauthorized()
        const comments = this.issues.get(`${owner}/${repo}#${n}`)
        if (!comments) return notFound()
        return githubPage(comments, req, `${this.server.url}/repos/${owner}/${repo}/issues/${n}/comments`)
      })
      .route('POST', pr, (req, [owner, repo, n]) => {
        const who = this.auth(req)
        if (!who) return unauthorized()
        const comments = this.issues.get(`${owner}/${repo}#${n}`)
        if (!comments) return notFound()
        if (!who.canWrite) return forbidden()
        const body = String((JSON.parse(req.text) as { body?: string }).body ?? '')
        if (tooLong(body)) return bodyTooLong()
        const now = new Date().toISOString()
        const id = this.nextId++
        const comment: Comment = {
          id,
          issue_url: `${this.server.url}/repos/${owner}/${repo}/issues/${n}`,
          html_url: htmlUrl(`${owner}/${repo}`, Number(n), id),
          body,
          user: { login: who.login, type: who.installation ? 'Bot' : 'User' },
          created_at: now,
          updated_at: now
        }
        comments.push(comment)
        return { status: 201, body: comment }
      })
      .route('GET', /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)\/reactions\/?$/, (req, [owner, repo, id]) =>
        this.listReactions(req, this.find(owner, repo, Number(id)) ? `comment ${id}` : null)
      )
      .route('POST', /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)\/reactions\/?$/, (req, [owner, repo, id]) =>
        this.createReaction(req, this.find(owner, repo, Number(id)) ? `comment ${id}` : null)
      )
      .route('DELETE', /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)\/reactions\/(\d+)\/?$/, (req, [owner, repo, id, rid]) =>
        this.deleteReaction(req, this.find(owner, repo, Number(id)) ? `comment ${id}` : null, Number(rid))
      )
      .route('GET', /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/reactions\/?$/, (req, [owner, repo, n]) =>
        this.listReactions(req, this.issues.has(`${owner}/${repo}#${n}`) ? `issue ${owner}/${repo}#${n}` : null)
      )
      .route('POST', /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/reactions\/?$/, (req, [owner, repo, n]) =>
        this.createReaction(req, this.issues.has(`${owner}/${repo}#${n}`) ? `issue ${owner}/${repo}#${n}` : null)
      )
      .route('DELETE', /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/reactions\/(\d+)\/?$/, (req, [owner, repo, n, rid]) =>
        this.deleteReaction(req, this.issues.has(`${owner}/${repo}#${n}`) ? `issue ${owner}/${repo}#${n}` : null, Number(rid))
      )
      .route('GET', one, (req, [owner, repo, id]) => {
        if (!this.auth(req)) return unauthorized()
        const comment = this.find(owner, repo, Number(id))
        return comment ? { status: 200, body: comment } : notFound()
      })
      .route('DELETE', one, (req, [owner, repo, id]) =>
        this.withOwnComment(req, owner, repo, Number(id), (comment) => {
          for (const comments of this.issues.values()) {
            const i = comments.indexOf(comment)
            if (i >= 0) comments.splice(i, 1)
          }
          this.reactionsOf.delete(`comment ${comment.id}`)
          return { status: 204 }
        })
      )
      .route('PATCH', one, (req, [owner, repo, id]) =>
        this.withOwnComment(req, owner, repo, Number(id), (comment) => {
          const body = String((JSON.parse(req.text) as { body?: string }).body ?? '')
          if (tooLong(body)) return bodyTooLong()
          comment.body = body
          comment.updated_at = new Date().toISOString()
          return { status: 200, body: comment }
        })
      )
  }

  /**
   * List issue comments for a repository (GitHub REST): every PR's comments,
   * `since` (only those updated at or after it), `sort` (`created`, the
   * default, or `updated`), `direction` (`asc` by default; GitHub ignores it
   * without `sort`), paginated with Link headers.
   */
  private repositoryComments(req: Request, owner: string, repo: string): Reply {
    if (!this.auth(req)) return unauthorized()
    const since = Date.parse(req.query.get('since') ?? '')
    const key = req.query.get('sort') === 'updated' ? 'updated_at' : 'created_at'
    const sign = req.query.get('sort') && req.query.get('direction') === 'desc' ? -1 : 1
    const all = [...this.issues]
      .filter(([k]) => k.startsWith(`${owner}/${repo}#`))
      .flatMap(([, comments]) => comments)
      .filter((c) => !Number.isFinite(since) || Date.parse(c.updated_at) >= since)
      .sort((a, b) => sign * (a[key].localeCompare(b[key]) || a.id - b.id))
    return githubPage(all, req, `${this.server.url}/repos/${owner}/${repo}/issues/comments`)
  }

  /** List reactions: 404 for an unknown subject; `content` filters; paginated like comments (no Link header past one page here: per_page up to 100). */
  private listReactions(req: Request, subject: string | null): Reply {
    if (!this.auth(req)) return unauthorized()
    if (!subject) return notFound()
    const content = req.query.get('content')
    const all = (this.reactionsOf.get(subject) ?? []).filter((r) => !content || r.content === content)
    const perPage = Math.min(100, Number(req.query.get('per_page') ?? 30))
    const page = Math.max(1, Number(req.query.get('page') ?? 1))
    return { status: 200, body: all.slice((page - 1) * perPage, page * perPage) }
  }

  /** Create reaction: 201 with the new one, or 200 with the one this user already has with that content (GitHub's per-user semantics). */
  private createReaction(req: Request, subject: string | null): Reply {
    const who = this.auth(req)
    if (!who) return unauthorized()
    if (!subject) return notFound()
    if (!who.canWrite) return forbidden()
    const content = String((JSON.parse(req.text || '{}') as { content?: string }).content ?? '')
    if (!(REACTION_CONTENTS as readonly string[]).includes(content))
      return { status: 422, body: { message: 'Validation Failed', errors: [{ field: 'content', code: 'invalid' }] } }
    const list = this.reactionsOf.get(subject) ?? []
    this.reactionsOf.set(subject, list)
    const had = list.find((r) => r.user.login === who.login && r.content === content)
    if (had) return { status: 200, body: had }
    const id = this.nextReactionId++
    const reaction: Reaction = {
      id,
      node_id: `REA_${id}`,
      user: { login: who.login, type: who.installation ? 'Bot' : 'User' },
      content,
      created_at: new Date().toISOString()
    }
    list.push(reaction)
    return { status: 201, body: reaction }
  }

  /** Delete a reaction by id: 204; 404 when the subject or the reaction is gone; 403 for another user's reaction. */
  private deleteReaction(req: Request, subject: string | null, id: number): Reply {
    const who = this.auth(req)
    if (!who) return unauthorized()
    if (!subject) return notFound()
    const list = this.reactionsOf.get(subject) ?? []
    const i = list.findIndex((r) => r.id === id)
    if (i < 0) return notFound()
    if (!who.canWrite || list[i].user.login !== who.login) return forbidden()
    list.splice(i, 1)
    return { status: 204 }
  }

  /** The reactions on a comment (a test's view). */
  commentReactions(commentId: number): Reaction[] {
    return this.reactionsOf.get(`comment ${commentId}`) ?? []
  }

  /** Runs `f` on a comment the token's user wrote and may change; 401, 404 or 403 otherwise. */
  private withOwnComment(req: Request, owner: string, repo: string, id: number, f: (c: Comment) => Reply): Reply {
    const who = this.auth(req)
    if (!who) return unauthorized()
    const comment = this.find(owner, repo, id)
    if (!comment) return notFound()
    if (!who.canWrite || comment.user.login !== who.login) return forbidden()
    return f(comment)
  }

  get url(): string {
    return this.server.url
  }

  /** Opens a PR (an issue with no comments yet). */
  openPullRequest(repository: string, number: number): void {
    this.issues.set(`${repository}#${number}`, [])
  }

  /** Deletes a PR, so its comment endpoints answer 404. */
  deletePullRequest(repository: string, number: number): void {
    this.issues.delete(`${repository}#${number}`)
  }

  comments(repository: string, number: number): Comment[] {
    return this.issues.get(`${repository}#${number}`) ?? []
  }

  /** Adds a comment by someone else (for tests of who counts as "us"); a login ending in `[bot]` is a `Bot` user. */
  addComment(repository: string, number: number, login: string, body: string): Comment {
    const now = new Date().toISOString()
    const id = this.nextId++
    const c: Comment = {
      id,
      issue_url: `${this.server.url}/repos/${repository}/issues/${number}`,
      html_url: htmlUrl(repository, number, id),
      body,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      created_at: now,
      updated_at: now
    }
    this.comments(repository, number).push(c)
    return c
  }

  private find(owner: string, repo: string, id: number): Comment | undefined {
    for (const [key, comments] of this.issues) {
      if (!key.startsWith(`${owner}/${repo}#`)) continue
      const c = comments.find((x) => x.id === id)
      if (c) return c
    }
    return undefined
  }

  /** The token of a request (its `Authorization` header), if the emulator knows it. */
  tokenOf(req: Request): TokenInfo | undefined {
    return this.auth(req)
  }

  private auth(req: Request): TokenInfo | undefined {
    const m = /^(?:token|bearer)\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))
    return m ? this.tokens.get(m[1]) : undefined
  }
}

const unauthorized = () => ({ status: 401, body: { message: 'Bad credentials' } })
const notFound = () => ({ status: 404, body: { message: 'Not Found' } })
/** GitHub's limit on a comment body: 65,536 characters (Unicode code points), else 422. */
const tooLong = (body: string): boolean => [...body].length > 65_536
const bodyTooLong = () => ({
  status: 422,
  body: {
    message: 'Validation Failed',
    errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }]
  }
})
const forbidden = () => ({ status: 403, body: { message: 'Resource not accessible by integration' } })

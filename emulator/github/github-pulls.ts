/**
 * GitHub's `GET /repos/{owner}/{repo}/pulls/{pull_number}` for the emulator
 * (read by the cleanup sweep): a pull request exists while its issue exists in
 * {@link GitHubService}; it is `open` until a test closes or merges it. The
 * body has the REST API's fields the action reads: `number`, `state`
 * (`open`/`closed`), `merged`, `merged_at`, `closed_at`, `head.ref`, `head.sha`,
 * `head.repo.full_name`. `GET /repos/{owner}/{repo}/pulls` lists them
 * (`state`: `open` by default, `closed`, `all`; `head`: `owner:branch`;
 * newest first, or oldest with `direction=asc`; `per_page` up to 100 and
 * `page`, with a `Link` header to the next and last pages).
 */
import type { GitHubService } from './github.js'
import { githubPage } from './github-page.js'

interface PullState {
  state: 'open' | 'closed'
  merged: boolean
  closedAt?: string
}

/** A PR's head: branch, commit and the repository (`owner/repo`) it comes from; default `feature/login` at `a1b2c3d4e5f6` of the base repository. */
export interface PullHead {
  ref: string
  sha: string
  repository: string
}

export class PullRequests {
  private readonly states = new Map<string, PullState>()
  private readonly heads = new Map<string, PullHead>()

  constructor(github: GitHubService) {
    github.server.route('GET', /^\/repos\/([^/]+)\/([^/]+)\/pulls\/?$/, (req, [owner, repo]) => {
      if (!github.tokenOf(req)) return { status: 401, body: { message: 'Bad credentials' } }
      const state = req.query.get('state') ?? 'open'
      const head = req.query.get('head')
      const found = [...github.issues.keys()]
        .filter((key) => key.startsWith(`${owner}/${repo}#`))
        .map((key) => this.view(owner, repo, Number(key.split('#')[1])))
        .filter((p) => state === 'all' || p.state === state)
        .filter((p) => !head || `${p.head.repo.full_name.split('/')[0]}:${p.head.ref}` === head)
        // sort=created (the default): newest first unless direction=asc; numbers follow creation here.
        .sort((a, b) => (req.query.get('direction') === 'asc' ? a.number - b.number : b.number - a.number))
      return githubPage(found, req, `${github.url}/repos/${owner}/${repo}/pulls`)
    })
    github.server.route('GET', /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/?$/, (req, [owner, repo, n]) => {
      if (!github.tokenOf(req)) return { status: 401, body: { message: 'Bad credentials' } }
      if (!github.issues.has(`${owner}/${repo}#${n}`)) return { status: 404, body: { message: 'Not Found' } }
      return { status: 200, body: this.view(owner, repo, Number(n)) }
    })
  }

  private view(owner: string, repo: string, n: number) {
    const key = `${owner}/${repo}#${n}`
    const s = this.states.get(key) ?? { state: 'open', merged: false }
    const head = this.heads.get(key) ?? { ref: 'feature/login', sha: 'a1b2c3d4e5f6', repository: `${owner}/${repo}` }
    return {
      number: n,
      state: s.state,
      merged: s.merged,
      merged_at: s.merged ? s.closedAt : null,
      closed_at: s.closedAt ?? null,
      head: { ref: head.ref, sha: head.sha, repo: { full_name: head.repository } },
      base: { ref: 'main', repo: { full_name: `${owner}/${repo}` } }
    }
  }

  /** Sets the PR's head (a fork's PR: `repository` is the fork). */
  setHead(repository: string, number: number, head: PullHead): void {
    this.heads.set(`${repository}#${number}`, head)
  }

  /** Closes the PR, merged or not. */
  close(repository: string, number: number, merged = false): void {
    this.states.set(`${repository}#${number}`, { state: 'closed', merged, closedAt: new Date().toISOString() })
  }

  /** Reopens a closed (not merged) PR: `open` again, as GitHub's "Reopen pull request" leaves it. */
  reopen(repository: string, number: number): void {
    this.states.delete(`${repository}#${number}`)
  }
}

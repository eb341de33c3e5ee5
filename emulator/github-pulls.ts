/**
 * GitHub's `GET /repos/{owner}/{repo}/pulls/{pull_number}` for the emulator
 * (read by the cleanup sweep): a pull request exists while its issue exists in
 * {@link GitHubService}; it is `open` until a test closes or merges it. The
 * body has the REST API's fields the action reads: `number`, `state`
 * (`open`/`closed`), `merged`, `merged_at`, `closed_at`, `head.ref`, `head.sha`.
 */
import type { GitHubService } from './github.js'

interface PullState {
  state: 'open' | 'closed'
  merged: boolean
  closedAt?: string
}

export class PullRequests {
  private readonly states = new Map<string, PullState>()

  constructor(github: GitHubService) {
    github.server.route('GET', /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/?$/, (req, [owner, repo, n]) => {
      const token = /^(?:token|bearer)\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1]
      if (!token || !github.tokens.has(token)) return { status: 401, body: { message: 'Bad credentials' } }
      const key = `${owner}/${repo}#${n}`
      if (!github.issues.has(key)) return { status: 404, body: { message: 'Not Found' } }
      const s = this.states.get(key) ?? { state: 'open', merged: false }
      return {
        status: 200,
        body: {
          number: Number(n),
          state: s.state,
          merged: s.merged,
          merged_at: s.merged ? s.closedAt : null,
          closed_at: s.closedAt ?? null,
          head: { ref: 'feature/login', sha: 'a1b2c3d4e5f6' },
          base: { ref: 'main' }
        }
      }
    })
  }

  /** Closes the PR, merged or not. */
  close(repository: string, number: number, merged = false): void {
    this.states.set(`${repository}#${number}`, { state: 'closed', merged, closedAt: new Date().toISOString() })
  }
}

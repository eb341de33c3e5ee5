/**
 * GitHub's `GET /repos/{owner}/{repo}/branches/{branch}` for the emulator
 * (read by the cleanup sweep for the previews of git branches): a branch
 * exists from a test's `push` until its `delete`. The body has the REST API's
 * fields (`name`, `commit.sha`, `commit.url`, `protected`); a missing branch
 * answers 404 `Branch not found`, as GitHub does. The branch name may hold
 * `/`, sent as is or as `%2F` (octokit encodes it).
 */
import type { GitHubService } from './github.js'

export class GitBranches {
  /** Head commit per `owner/repo` and branch name. */
  private readonly heads = new Map<string, string>()

  constructor(private readonly github: GitHubService) {
    github.server.route('GET', /^\/repos\/([^/]+)\/([^/]+)\/branches\/(.+?)\/?$/, (req, [owner, repo, raw]) => {
      if (!github.tokenOf(req)) return { status: 401, body: { message: 'Bad credentials' } }
      const name = decodeURIComponent(raw)
      const sha = this.heads.get(`${owner}/${repo}:${name}`)
      if (!sha)
        return {
          status: 404,
          body: {
            message: 'Branch not found',
            documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch',
            status: '404'
          }
        }
      return {
        status: 200,
        body: {
          name,
          commit: { sha, url: `${github.server.url}/repos/${owner}/${repo}/commits/${sha}` },
          protected: false,
          _links: {
            self: `${github.server.url}/repos/${owner}/${repo}/branches/${encodeURIComponent(name)}`,
            html: `https://github.com/${owner}/${repo}/tree/${name}`
          }
        }
      }
    })
  }

  /** Makes `name` exist in `repository` (`owner/repo`) at `sha`. */
  push(repository: string, name: string, sha = '5f120d1a2b3c4d5e6f708192a3b4c5d6e7f80912'): void {
    this.heads.set(`${repository}:${name}`, sha)
  }

  /** Deletes branch `name` of `repository`. */
  delete(repository: string, name: string): void {
    this.heads.delete(`${repository}:${name}`)
  }

  /** Requests this emulator answered for branches so far. */
  requests(): number {
    return this.github.server.requests('GET', /\/branches\//).length
  }
}

/**
 * The whole local emulator: a real PostgreSQL 17 behind the instant service,
 * the platform API, GitHub's comment API and Vercel's REST API, each on its own loopback port.
 */
import { APP_TOKEN, GitHubService } from './github/github.js'
import { PullRequests } from './github/github-pulls.js'
import { Deployments } from './github/github-deployments.js'
import { InstantService, REGION, type InstantOptions } from './instant/instant.js'
import { PlatformService } from './neon/platform.js'
import { PostgresServer } from './postgres/postgres.js'
import { type RunOptions, type RunResult, removeRunDirs, runAction } from './runner/runner.js'
import { VercelService } from './vercel/vercel.js'

export { VERCEL_PERSONAL_TOKEN, VERCEL_TOKEN } from './vercel/vercel.js'
export { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN, APP_TOKEN, NO_DEPLOYMENTS_TOKEN, READ_ONLY_TOKEN, USER_TOKEN } from './github/github.js'

export interface Emulator {
  pg: PostgresServer
  instant: InstantService
  github: GitHubService
  /** GitHub's pulls API over `github`'s PRs: open, closed, merged. */
  pulls: PullRequests
  /** GitHub's deployments and deployment statuses. */
  deployments: Deployments
  platform: PlatformService
  /** Vercel's projects, environment variables and deployments. */
  vercel: VercelService
  /** PEM file of the CA that signed PostgreSQL's certificate: give it to the action as NODE_EXTRA_CA_CERTS. */
  caCertFile: string
  /**
   * Runs the bundled action as the runner would, with this emulator's GitHub
   * API and CA filled in, and the workflow token (APP_TOKEN, which comments as
   * `github-actions[bot]`) as `github.token` unless `githubToken` is given.
   */
  run(options: Omit<RunOptions, 'githubApiUrl' | 'caCertFile'>): Promise<RunResult>
  stop(): Promise<void>
}

/** Starts PostgreSQL and the HTTP services. Call `stop()` when done. */
export async function startEmulator(options: InstantOptions = {}): Promise<Emulator> {
  const pg = await PostgresServer.start({ hostPattern: `*.${REGION}.localhost` })
  const instant = new InstantService(pg, options)
  const github = new GitHubService()
  const platform = new PlatformService(pg)
  const vercel = new VercelService()
  try {
    await instant.server.listen()
    await github.server.listen()
    await platform.server.listen()
    await vercel.server.listen()
  } catch (err) {
    await pg.stop()
    throw err
  }
  return {
    pg,
    instant,
    github,
    pulls: new PullRequests(github),
    deployments: new Deployments(github),
    platform,
    vercel,
    caCertFile: pg.certificates.caCert,
    run: (o) => runAction({ githubToken: APP_TOKEN, ...o, githubApiUrl: github.url, caCertFile: pg.certificates.caCert }),
    async stop() {
      await Promise.all([instant.server.close(), github.server.close(), platform.close(), vercel.server.close()])
      await pg.stop()
      removeRunDirs()
    }
  }
}

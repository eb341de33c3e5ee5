/**
 * The Vercel wiring's inputs (`vercel-token`, `vercel-project`,
 * `vercel-team`, `vercel-api-url`), read and checked before any network
 * call. The token is masked the moment it is read.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { InputError, type VercelSettings } from '../settings.js'
import { maskSecret } from '../secrets.js'

/** Vercel project names: up to 100 lowercase letters, digits, `.`, `_`, `-` (Vercel docs, "Project name"); ids are `prj_…`. */
const PROJECT = /^(prj_[A-Za-z0-9]{1,64}|[a-z0-9._-]{1,100})$/
/** A team id (`team_…`) or a team's slug (lowercase letters, digits, `-`). */
const TEAM = /^(team_[A-Za-z0-9]{1,64}|[a-z0-9][a-z0-9-]{0,99})$/

/**
 * The head repository (`owner/repo`) of the event's pull request when it is
 * not the base repository (a fork's PR, under any event: `pull_request`,
 * `pull_request_target`), else undefined.
 */
export function forkOf(): string | undefined {
  const pr = github.context.payload.pull_request as { head?: { repo?: { full_name?: string } } } | undefined
  const head = pr?.head?.repo?.full_name
  return head !== undefined && head !== `${github.context.repo.owner}/${github.context.repo.repo}` ? head : undefined
}

/** True when the run is for a fork's PR or Dependabot's: GitHub gives such runs no secrets. */
const withoutSecrets = (): boolean => forkOf() !== undefined || github.context.actor === 'dependabot[bot]'

/**
 * Reads the Vercel inputs. `url` checks `vercel-api-url` (inputs.ts's http(s) rule).
 * @returns the settings, or null when the wiring is off: no `vercel-token` and no
 *   `vercel-project`, or a fork's or Dependabot's PR without the secret (one notice says so).
 * @throws InputError when `vercel-token` is set without `vercel-project`, a project or team is malformed,
 *   or `vercel-project` is set and the token is empty in a run that has secrets.
 */
export function readVercelSettings(url: (name: string, fallback: string) => string): VercelSettings | null {
  const token = core.getInput('vercel-token').trim()
  maskSecret(token)
  const project = core.getInput('vercel-project').trim()
  const team = core.getInput('vercel-team').trim()
  const apiUrl = url('vercel-api-url', 'https://api.vercel.com')
  if (project && !PROJECT.test(project))
    throw new InputError(
      `Input \`vercel-project\` must be a Vercel project's id (prj_…) or name (lowercase letters, digits, ., _, -); got "${project}".`
    )
  if (team && !TEAM.test(team)) throw new InputError(`Input \`vercel-team\` must be a Vercel team's id (team_…) or slug; got "${team}".`)
  if (!token) {
    if (!project) return null
    if (withoutSecrets()) {
      core.notice(
        "Vercel wiring skipped: `vercel-token` is empty, as GitHub gives no secrets to a fork's or Dependabot's pull request. " +
          'The preview database is made as usual; the Vercel preview keeps the variables it had.'
      )
      return null
    }
    throw new InputError(
      'Input `vercel-project` is set but `vercel-token` is empty: pass `vercel-token: ${{ secrets.VERCEL_TOKEN }}` (a Vercel access token with access to the project), or remove `vercel-project`.'
    )
  }
  if (!project)
    throw new InputError("Input `vercel-token` is set but `vercel-project` is empty: give the Vercel project's id (prj_…) or name.")
  return { token, project, team, apiUrl }
}

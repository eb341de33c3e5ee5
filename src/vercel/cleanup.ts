/**
 * Removing the preview's Vercel variables when its database goes:
 * `command: delete`, and the sweep (`command: cleanup`, and `make-room`,
 * which deletes through it) for each swept PR, remove every variable that
 * carries the preview's marker in its comment, whatever branch it names (a
 * renamed head) and whatever its key (a cleanup job without the create
 * job's `env-key`). A variable a person set by hand, or another PR's or
 * preview's, stays.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { CancelledError } from '../cancel.js'
import type { Settings } from '../settings.js'
import type { VercelClient, VercelEnv } from './client.js'
import { forkOf } from './inputs.js'
import { vercelClientOf } from './preview.js'
import { markerOf, removeVariables } from './variables.js'

const repository = (): string => `${github.context.repo.owner}/${github.context.repo.repo}`

/**
 * `command: delete`: removes this action's variables of the PR's preview
 * (none for a fork's PR: its run never writes any, and writes nothing).
 * @throws Error saying the database is deleted and what Vercel answered (the step fails)
 */
export async function removeVercelVariables(settings: Settings, pr: { number: number; headRef: string } | null): Promise<void> {
  const client = vercelClientOf(settings)
  if (!client || !pr || settings.branchId) return // `branch-id`: a branch other than the PR's preview
  const fork = forkOf()
  if (fork)
    return core.notice(
      `Vercel wiring skipped: the pull request's head is in the fork ${fork}, so no Vercel variable was written for it and none is removed.`
    )
  await core.group('Remove the Vercel preview variables', async () => {
    try {
      const project = await client.project()
      const marker = markerOf(repository(), pr.number, settings.previewName)
      const removed = await removeVariables(client, project.id, marker)
      core.info(
        removed.length
          ? `Removed ${removed.join(', ')} from Vercel project "${project.name}".`
          : `No Vercel variables of this preview (${marker}): nothing to remove.`
      )
    } catch (err) {
      if (err instanceof CancelledError) throw err
      throw new Error(`The preview database was deleted, but its Vercel variables could not be removed: ${(err as Error).message}`, {
        cause: err
      })
    }
  })
}

/** The sweep's one client and listing of the project's variables, shared by every swept branch. */
let sweep: { client: VercelClient; project: Promise<{ id: string; envs: VercelEnv[] }> } | undefined

/**
 * The sweep deleted the preview `preview` of PR `pr`: removes its variables.
 * @returns null, or what went wrong (the sweep counts it as a failure and goes on)
 */
export async function removeSweptVariables(settings: Settings, pr: number | undefined, preview: string): Promise<string | null> {
  if (!pr || !settings.vercel) return null
  try {
    if (!sweep) {
      const client = vercelClientOf(settings)!
      const project = client.project().then(async (p) => ({ id: p.id, envs: await client.allEnvs(p.id) }))
      sweep = { client, project }
    }
    const { id, envs } = await sweep.project
    const removed = await removeVariables(sweep.client, id, markerOf(repository(), pr, preview), envs)
    if (removed.length) core.info(`Removed the Vercel variables of PR #${pr}: ${removed.join(', ')}.`)
    return null
  } catch (err) {
    sweep = undefined
    const message = `the Vercel variables of PR #${pr} could not be removed: ${(err as Error).message}`
    core.warning(message)
    return message
  }
}

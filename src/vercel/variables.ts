/**
 * The preview's variables on Vercel: branch-scoped Preview variables
 * (`target: ["preview"]`, `gitBranch` = the PR's head branch, type
 * `encrypted`) named from `env-key`: `<key>` = the pooled connection
 * string, `<key>_UNPOOLED` = the direct one (the names Neon's Vercel
 * integration sets). Each carries a comment with this action's marker
 * (`preview-postgres:<owner>/<repo>#<pr>[:<preview-name>]`), by which the
 * sweep, which knows the PR but not its branch, finds them.
 */
import type { EnvNames } from '../settings.js'
import type { EnvWrite, VercelClient, VercelEnv } from './client.js'

/** The two variable names the wiring manages. */
export function managedKeys(names: EnvNames): { pooled: string; direct: string } {
  return { pooled: names.key, direct: `${names.key}_UNPOOLED` }
}

/** The marker of a PR's preview in a variable's comment. */
export function markerOf(repository: string, pr: number, preview: string): string {
  return `preview-postgres:${repository}#${pr}${preview ? `:${preview}` : ''}`
}

const commentOf = (marker: string): string => `Preview database of this branch, written by Preview Postgres (${marker}).`

/** Is `env` one of ours for `marker`: a managed key, a branch-scoped variable, our comment? */
export function isOurs(env: VercelEnv, keys: string[], marker: string): boolean {
  return keys.includes(env.key) && !!env.gitBranch && env.comment === commentOf(marker)
}

/**
 * Writes the two variables for `gitBranch` unless they already hold these
 * values: one list request, then at most one upsert.
 * @returns whether anything was written, and when the variables last changed (Vercel's clock, milliseconds)
 * @throws VercelError (a `failed[]` entry) or HttpError
 */
export async function syncVariables(
  client: VercelClient,
  projectId: string,
  gitBranch: string,
  names: EnvNames,
  urls: { pooled: string; direct: string },
  marker: string
): Promise<{ written: string[]; changedAt: number }> {
  const keys = managedKeys(names)
  const wanted: EnvWrite[] = (['pooled', 'direct'] as const).map((k) => ({
    key: keys[k],
    value: urls[k],
    type: 'encrypted',
    target: ['preview'],
    gitBranch,
    comment: commentOf(marker)
  }))
  const existing = await client.branchEnvs(projectId, gitBranch)
  const current = (w: EnvWrite): VercelEnv | undefined =>
    existing.find((e) => e.key === w.key && e.value === w.value && e.type !== 'plain' && [e.target ?? []].flat().includes('preview'))
  const stale = wanted.filter((w) => !current(w))
  if (stale.length === 0) {
    const changedAt = Math.max(...wanted.map((w) => current(w)!).map((e) => e.updatedAt ?? e.createdAt ?? 0))
    return { written: [], changedAt }
  }
  const changedAt = await client.upsertEnvs(projectId, stale)
  return { written: stale.map((w) => w.key), changedAt }
}

/**
 * Removes this action's variables: every managed key of `marker` (and, when
 * given, only on `gitBranch`). A variable a person set by hand, or one of
 * another branch or PR, stays.
 * @returns the keys removed, as `KEY (branch)`
 */
export async function removeVariables(
  client: VercelClient,
  projectId: string,
  names: EnvNames,
  marker: string,
  gitBranch?: string
): Promise<string[]> {
  const keys = Object.values(managedKeys(names))
  const envs = gitBranch ? await client.branchEnvs(projectId, gitBranch) : await client.allEnvs(projectId)
  const ours = envs.filter((e) => isOurs(e, keys, marker) && (!gitBranch || e.gitBranch === gitBranch))
  for (const e of ours) await client.removeEnv(projectId, e.id)
  return ours.map((e) => `${e.key} (${e.gitBranch})`)
}

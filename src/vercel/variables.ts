/**
 * The preview's variables on Vercel: branch-scoped Preview variables
 * (`target: ["preview"]`, `gitBranch` = the PR's head branch, type
 * `encrypted`) named from `env-key`: `<key>` = the pooled connection
 * string, `<key>_UNPOOLED` = the direct one (the names Neon's Vercel
 * integration sets). Each carries a comment with this action's marker
 * (`preview-postgres:<owner>/<repo>#<pr>[:<preview-name>]`), by which the
 * sweep, which knows the PR but not its branch, finds them, and a digest of
 * the value written, by which a later run knows the variable already holds
 * its connection string: Vercel never gives the value back (see
 * `VercelEnv`), so nothing is decided from a value read.
 */
import { createHmac } from 'node:crypto'
import type { EnvNames } from '../settings.js'
import { type EnvWrite, type VercelClient, type VercelEnv, VercelError } from './client.js'

/** The two variable names the wiring manages. */
export function managedKeys(names: EnvNames): { pooled: string; direct: string } {
  return { pooled: names.key, direct: `${names.key}_UNPOOLED` }
}

/** The marker of a PR's preview in a variable's comment. */
export function markerOf(repository: string, pr: number, preview: string): string {
  return `preview-postgres:${repository}#${pr}${preview ? `:${preview}` : ''}`
}

/**
 * The digest of a variable's value kept in its comment: HMAC-SHA256 of
 * `<key>=<value>`, keyed by the Vercel token, base64url (43 characters).
 * Safe to show to whoever can read the project's variables' comments: the
 * value is a connection string holding a random password, and the key is the
 * token, which the comment's reader does not have; so the digest neither
 * gives the value back nor lets anyone test a guess of it offline. A new
 * token changes every digest: the next run writes the variables once more.
 */
export function valueDigest(token: string, key: string, value: string): string {
  return createHmac('sha256', token).update(`${key}=${value}`).digest('base64url')
}

const COMMENT =
  /^Preview database of this branch, written by Preview Postgres \((preview-postgres:[^\s;()]+)(?:; ([A-Za-z0-9_-]{43}))?\)\.$/

const commentOf = (marker: string, digest: string): string =>
  `Preview database of this branch, written by Preview Postgres (${marker}; ${digest}).`

/** The marker and value digest of a comment this action wrote, else undefined. */
function parseComment(comment: string | undefined): { marker: string; digest?: string } | undefined {
  const m = COMMENT.exec(comment ?? '')
  return m ? { marker: m[1], digest: m[2] } : undefined
}

/** Is `env` one of ours for `marker` (a branch-scoped variable whose comment carries exactly that marker), whatever its key? */
export function isOurs(env: VercelEnv, marker: string): boolean {
  return !!env.gitBranch && parseComment(env.comment)?.marker === marker
}

/** What syncVariables did. */
export interface Synced {
  /** The keys written (none when both already held these values). */
  written: string[]
  /** Our variables removed from other branches (a renamed head branch), as `KEY (branch)`. */
  moved: string[]
  /** When the variables last changed (Vercel's clock), milliseconds since the epoch. */
  changedAt: number
}

/**
 * Writes the two variables for `gitBranch` unless their comments record
 * these values (our marker and the value's digest): one listing of the
 * project's variables, then at most one upsert. Our variables of the same
 * preview on another branch (the head branch was renamed) are removed after.
 * @throws VercelError, before anything is written, when a variable of a
 *   managed key and `gitBranch` is not this preview's: another preview's of
 *   this action (two `preview-name`s, one project: each needs its own
 *   `env-key`) or one a person set; also a `failed[]` entry of the upsert. HttpError
 */
export async function syncVariables(
  client: VercelClient,
  projectId: string,
  gitBranch: string,
  names: EnvNames,
  urls: { pooled: string; direct: string },
  marker: string,
  token: string
): Promise<Synced> {
  const keys = managedKeys(names)
  const envs = await client.allEnvs(projectId)
  const wanted = (['pooled', 'direct'] as const).map((k) => {
    const digest = valueDigest(token, keys[k], urls[k])
    const write: EnvWrite = {
      key: keys[k],
      value: urls[k],
      type: 'encrypted',
      target: ['preview'],
      gitBranch,
      comment: commentOf(marker, digest)
    }
    const held = envs.find((e) => e.key === keys[k] && e.gitBranch === gitBranch && [e.target ?? []].flat().includes('preview'))
    return { write, digest, held }
  })
  for (const { write, held } of wanted) {
    const owner = held && parseComment(held.comment)?.marker
    if (!held || owner === marker) continue
    throw new VercelError(
      owner
        ? `Vercel variable ${write.key} of branch "${gitBranch}" belongs to another preview (${owner}), which would be overwritten: ` +
            'give each preview of this project its own `env-key` (e.g. `env-key: API_DATABASE_URL`). Nothing was written.'
        : `Vercel variable ${write.key} of branch "${gitBranch}" was set by someone else (it has no Preview Postgres marker), and would be overwritten: ` +
            'remove it in Vercel (Project Settings, Environment Variables), or set `env-key` to another name. Nothing was written.'
    )
  }
  const current = wanted.filter(({ held, digest }) => held && held.type !== 'plain' && parseComment(held.comment)?.digest === digest)
  const stale = wanted.filter((w) => !current.includes(w)).map((w) => w.write)
  const changedAt = stale.length
    ? await client.upsertEnvs(projectId, stale)
    : Math.max(...current.map(({ held }) => held!.updatedAt ?? held!.createdAt ?? 0))
  const elsewhere = envs.filter((e) => isOurs(e, marker) && e.gitBranch !== gitBranch)
  for (const e of elsewhere) await client.removeEnv(projectId, e.id)
  return { written: stale.map((w) => w.key), moved: elsewhere.map((e) => `${e.key} (${e.gitBranch})`), changedAt }
}

/**
 * Removes every variable of this action's `marker`, whatever its key (a
 * cleanup job without the create job's `env-key`) and whatever branch it
 * names (a renamed head branch). A variable a person set, or another PR's or
 * preview's, stays.
 * @param envs the project's variables when the caller has listed them already
 * @returns the variables removed, as `KEY (branch)`
 */
export async function removeVariables(client: VercelClient, projectId: string, marker: string, envs?: VercelEnv[]): Promise<string[]> {
  const ours = (envs ?? (await client.allEnvs(projectId))).filter((e) => isOurs(e, marker)).sort((a, b) => a.key.localeCompare(b.key))
  for (const e of ours) await client.removeEnv(projectId, e.id)
  return ours.map((e) => `${e.key} (${e.gitBranch})`)
}

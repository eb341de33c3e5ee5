/**
 * The emulated `POST /v10/projects/{idOrName}/env` (Vercel REST API,
 * "Create one or more environment variables"): one variable or an array;
 * with `upsert=true` a variable with the same key, target and `gitBranch`
 * is replaced (its `updatedAt` moves), without it such a variable fails
 * with `ENV_ALREADY_EXISTS`. A `gitBranch` needs `target: ["preview"]`. Each
 * refused variable is an entry of `failed[]` (`{error: {code, message, key}}`)
 * and the answer is still 201, as Vercel's is. A Preview variable scoped to
 * the project's production branch is refused ("Cannot set Production Branch
 * … for a Preview Environment Variable", vercel/vercel#15763), and a team
 * that enforces sensitive variables stores Preview and Production ones as
 * `sensitive` (vercel/vercel#17641).
 */
import type { Reply, Request } from '../http-kit.js'
import type { EmulatedEnv, EmulatedProject, EnvStore } from './vercel-types.js'

const TYPES = ['encrypted', 'sensitive', 'plain', 'secret', 'system']
const TARGETS = ['production', 'preview', 'development']

type Write = Partial<Pick<EmulatedEnv, 'key' | 'value' | 'type' | 'gitBranch' | 'comment'>> & { target?: string[] | string }

/** Answers one create/upsert request for `project`. */
export function emulatedEnvWrites(vercel: EnvStore, project: EmulatedProject, req: Request): Reply {
  let parsed: unknown
  try {
    parsed = JSON.parse(req.text)
  } catch {
    return { status: 400, body: { error: { code: 'bad_request', message: 'Invalid JSON' } } }
  }
  const writes = [parsed].flat() as Write[]
  const upsert = req.query.get('upsert') === 'true'
  const created: EmulatedEnv[] = []
  const failed: { error: { code: string; message: string; key?: string; gitBranch?: string } }[] = []
  for (const w of writes) {
    const key = String(w.key ?? '')
    const target = [w.target ?? []].flat()
    const fail = (code: string, message: string): void => void failed.push({ error: { code, message, key, gitBranch: w.gitBranch } })
    const refused = vercel.refuse.get(key)
    if (refused) {
      vercel.refuse.delete(key)
      fail(refused.code, refused.message)
      continue
    }
    if (!key || typeof w.value !== 'string') {
      fail('bad_request', 'Each environment variable needs a key and a string value')
      continue
    }
    if (!TYPES.includes(String(w.type)) || !target.length || target.some((t) => !TARGETS.includes(t))) {
      fail('bad_request', 'Invalid type or target')
      continue
    }
    if (w.gitBranch && (target.length !== 1 || target[0] !== 'preview')) {
      fail('git_branch_invalid_target', 'A Git branch can only be set for the Preview environment')
      continue
    }
    // vercel/vercel#15763: Vercel refuses a Preview variable for the production branch
    if (w.gitBranch && w.gitBranch === project.link?.productionBranch) {
      fail('bad_request', `Cannot set Production Branch "${w.gitBranch}" for a Preview Environment Variable`)
      continue
    }
    const same = project.envs.find(
      (e) => e.key === key && (e.gitBranch ?? '') === (w.gitBranch ?? '') && e.target.some((t) => target.includes(t))
    )
    const now = vercel.now()
    if (same && !upsert) {
      fail('ENV_ALREADY_EXISTS', `A variable with the name \`${key}\` already exists for the target and branch`)
      continue
    }
    const env: EmulatedEnv = same ?? { id: vercel.nextId(''), key, value: '', type: 'encrypted', target, createdAt: now, updatedAt: now }
    // vercel/vercel#17641: a team's "Enforce Sensitive Environment Variables" stores Preview and Production ones as sensitive
    const enforced = vercel.teams.find((t) => t.id === project.teamId)?.enforceSensitive && target.some((t) => t !== 'development')
    Object.assign(env, {
      value: w.value,
      type: enforced ? 'sensitive' : w.type,
      target,
      gitBranch: w.gitBranch || undefined,
      comment: w.comment,
      updatedAt: now
    })
    if (!same) project.envs.push(env)
    created.push(env)
  }
  return { status: 201, body: { created: Array.isArray(parsed) ? created : (created[0] ?? []), failed } }
}

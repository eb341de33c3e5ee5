/**
 * The environment of the user's commands (`seed-command`, `migrate-command`):
 * what a `run:` step of the same job would see, plus the connection in the
 * variables migration tools and libpq read.
 *
 * | Variable | Value |
 * | --- | --- |
 * | `DATABASE_URL` | direct connection string |
 * | `DIRECT_URL` | direct connection string (Prisma's `directUrl = env("DIRECT_URL")`) |
 * | `DATABASE_URL_DIRECT` | direct connection string |
 * | `DATABASE_URL_POOLED` | pooled connection string |
 * | `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGCHANNELBINDING` | the direct connection, for libpq (psql, pg_dump) |
 *
 * `DATABASE_URL` is the direct URL because migration tools need a session of
 * their own (advisory locks, prepared statements, SET), which a
 * transaction-mode pooler does not keep (Neon docs, "Connection pooling":
 * use a direct connection for schema migrations).
 */
import type { Connection } from '../connection.js'

/**
 * The variables a user command gets, added to {@link runStepEnvironment}.
 * Values are secrets (the runner masks them in the log; they are never logged by us).
 */
export function commandEnvironment(c: Connection): Record<string, string> {
  return {
    DATABASE_URL: c.directUrl,
    DIRECT_URL: c.directUrl,
    DATABASE_URL_DIRECT: c.directUrl,
    DATABASE_URL_POOLED: c.pooledUrl,
    PGHOST: c.directHost,
    PGPORT: c.port || '5432',
    PGUSER: c.user,
    PGPASSWORD: c.password,
    PGDATABASE: c.database,
    PGSSLMODE: c.sslmode || 'require',
    ...(c.channelBinding ? { PGCHANNELBINDING: 'require' } : {})
  }
}

/**
 * Variables the runner gives a JavaScript action's process and not a `run:`
 * step's (actions/runner, src/Runner.Worker/Handlers/NodeScriptActionHandler.cs
 * against ScriptHandler.cs): the Actions runtime's token and service URLs,
 * which reach the run's cache, artifacts and results. `ACTIONS_ID_TOKEN_REQUEST_URL`
 * and `ACTIONS_ID_TOKEN_REQUEST_TOKEN` (set only with `id-token: write`) and
 * `ACTIONS_ORCHESTRATION_ID` are given to `run:` steps too, so they stay.
 */
export const ACTION_ONLY_VARIABLES: readonly string[] = [
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_CACHE_SERVICE_V2',
  'ACTIONS_CACHE_MODE'
]

/**
 * Prefixes of the variables that belong to this action's own step:
 * `INPUT_` (its inputs, among them `api-key` and `github-token`: Handler.cs,
 * AddInputsToEnvironment) and `STATE_` (what the main step saved for the post
 * step: ActionRunner.cs, IntraActionState).
 */
export const ACTION_ONLY_PREFIXES: readonly string[] = ['INPUT_', 'STATE_']

/**
 * The action's own file commands: a write there would set this action's
 * outputs (`GITHUB_OUTPUT`) or the state its post step acts on
 * (`GITHUB_STATE`). A `run:` step gets files of its own; the command gets none.
 * `GITHUB_ENV`, `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` stay: a `run:` step may
 * write those for the job.
 */
export const ACTION_FILE_COMMANDS: readonly string[] = ['GITHUB_OUTPUT', 'GITHUB_STATE']

/**
 * What a `run:` step of the same job would see of `env` (the action's
 * environment): everything but {@link ACTION_ONLY_VARIABLES},
 * {@link ACTION_ONLY_PREFIXES} and {@link ACTION_FILE_COMMANDS}. Names are
 * compared in upper case (Windows' environment ignores case).
 */
export function runStepEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    const upper = name.toUpperCase()
    if (ACTION_ONLY_VARIABLES.includes(upper) || ACTION_FILE_COMMANDS.includes(upper)) continue
    if (ACTION_ONLY_PREFIXES.some((p) => upper.startsWith(p))) continue
    kept[name] = value
  }
  return kept
}

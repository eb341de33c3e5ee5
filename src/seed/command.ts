/**
 * `seed-command`: the workflow author's own command, run after the SQL seed
 * with the connection in the environment, so psql, `prisma migrate deploy`,
 * `drizzle-kit migrate` and the like work unchanged.
 */
import * as exec from '@actions/exec'
import type { Connection } from '../connection.js'

/** A seed command that exited non-zero. */
export class SeedCommandError extends Error {
  constructor(readonly exitCode: number) {
    super(`seed-command exited with code ${exitCode}. Its output is above.`)
    this.name = 'SeedCommandError'
  }
}

/** The variables the command gets: both URLs and libpq's PG* variables for the direct connection. */
export function seedEnvironment(c: Connection): Record<string, string> {
  return {
    DATABASE_URL: c.pooledUrl,
    DATABASE_URL_DIRECT: c.directUrl,
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
 * Runs `command` with `bash -eo pipefail -c`. The command text is passed as
 * one argument, never interpolated with input values; secrets reach it only
 * through the environment. Its output streams to the log (masked by the runner).
 * @throws SeedCommandError with the exit code.
 */
export async function runSeedCommand(command: string, c: Connection): Promise<void> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v
  const code = await exec.exec('bash', ['-eo', 'pipefail', '-c', command], {
    env: { ...env, ...seedEnvironment(c) },
    ignoreReturnCode: true
  })
  if (code !== 0) throw new SeedCommandError(code)
}

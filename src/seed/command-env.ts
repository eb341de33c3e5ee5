/**
 * The environment of the user's commands (`seed-command`, `migrate-command`):
 * the connection in the variables migration tools and libpq read.
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
 * The variables a user command gets, added to the runner's environment.
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

/**
 * The env file the instant service's CLI writes (instant service API, "Command-line
 * output"), kept idempotent: earlier values are replaced, not appended.
 * Its variable names follow the CLI's `--key` and `--prefix` (inputs
 * `env-key` and `env-prefix`).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { EnvNames } from '../settings.js'

/** What goes into the file. `expiresAt` is ISO 8601; it is written as an HTTP date, as the CLI does. */
export interface EnvFileValues {
  databaseUrl: string
  databaseUrlDirect: string
  claimUrl?: string
  expiresAt?: string
}

/** The CLI's defaults (instant service API). */
export const DEFAULT_ENV_NAMES: EnvNames = { key: 'DATABASE_URL', prefix: 'PUBLIC_' }

/**
 * A name a shell can `export` and `source .env` can set (POSIX, "Name"):
 * ASCII letters, digits and `_`, not starting with a digit.
 */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The variables the file gets: pooled URL, direct URL, claim URL. */
export function envVariables(names: EnvNames): { url: string; direct: string; claim: string } {
  return { url: names.key, direct: `${names.key}_DIRECT`, claim: `${names.prefix}POSTGRES_CLAIM_URL` }
}

const MANAGED_COMMENT = /^# (Claimable Postgres database expires at|Claim it to keep it|preview-postgres)/

/**
 * Writes the variables of {@link envVariables} (by default `DATABASE_URL`,
 * `DATABASE_URL_DIRECT`, `PUBLIC_POSTGRES_CLAIM_URL`; the claim URL only
 * when `v.claimUrl` is given) and the expiry comment lines into `file`,
 * replacing those variables and comment lines where the file already has
 * them and keeping every other line. `names` must be valid ({@link ENV_NAME};
 * inputs.ts checks them before any network call).
 * The comment lines never contain a secret.
 *
 * The file ends up mode 0600 even when it existed with wider permissions,
 * and no secret is ever in a file others can read: the new content goes
 * into a new file in the same directory, created 0600 (`wx`, so never one
 * that already exists), which then replaces `file` by rename (atomic on
 * POSIX). A reader sees the old file or the new one, never half of it.
 * @throws the file system error (the temporary file is removed).
 */
export async function writeEnvFile(file: string, v: EnvFileValues, names: EnvNames = DEFAULT_ENV_NAMES): Promise<void> {
  const n = envVariables(names)
  let existing = ''
  try {
    existing = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const vars: [string, string][] = [
    [n.url, v.databaseUrl],
    [n.direct, v.databaseUrlDirect]
  ]
  if (v.claimUrl) vars.push([n.claim, v.claimUrl])
  const managed = new Set([n.url, n.direct, n.claim])
  const kept = existing.split('\n').filter((line) => {
    const key = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1]
    return !(key && managed.has(key)) && !MANAGED_COMMENT.test(line)
  })
  while (kept.length && kept[kept.length - 1] === '') kept.pop()
  const block: string[] = ['# preview-postgres: written by the Preview Postgres action']
  if (v.expiresAt) {
    block.push(`# Claimable Postgres database expires at: ${new Date(v.expiresAt).toUTCString()}`)
    block.push(`# Claim it to keep it: open the link in ${n.claim}`)
  }
  for (const [k, value] of vars) block.push(`${k}="${value.replace(/(["\\$`])/g, '\\$1')}"`)
  const content = [...kept, ...(kept.length ? [''] : []), ...block].join('\n') + '\n'
  const dir = path.dirname(path.resolve(file))
  await mkdir(dir, { recursive: true })
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.chmod(0o600) // the umask can only narrow the mode; make it exact
      await handle.writeFile(content)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
}

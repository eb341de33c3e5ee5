/**
 * The run's known secrets: every value registered with the runner's masking
 * (`core.setSecret`, `::add-mask::`) through {@link maskSecret}, and every
 * connection string's secret forms (connection.ts, {@link rememberSecret}) the
 * moment it is parsed. The runner masks them in the log only; text that may
 * reach a PR comment, a summary or an error quoting a service's answer goes
 * through {@link redactSecrets} as well.
 */
import * as core from '@actions/core'

const known = new Set<string>()

/** Remembers `value` as a secret for {@link redactSecrets}, without telling the runner. Empty strings are ignored. */
export function rememberSecret(value: string): void {
  if (value !== '') known.add(value)
}

/** Registers `value` with the runner's masking (`core.setSecret`) and remembers it ({@link rememberSecret}). Empty strings are ignored (the runner refuses to mask them). */
export function maskSecret(value: string): void {
  if (value === '') return
  core.setSecret(value)
  rememberSecret(value)
}

/**
 * `text` with every known secret replaced by `***` (as the runner shows a
 * masked value), the longest first so that a connection string is replaced
 * whole rather than around its password.
 */
export function redactSecrets(text: string): string {
  if (known.size === 0 || text === '') return text
  let out = text
  for (const secret of [...known].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***')
  return out
}

/**
 * The secret scan shared by the integration tests and the fault matrix: the
 * forms a secret could leak in, and the places of a run where none may appear.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { RunResult } from '../emulator/runner/runner.js'

/** Every form in which a secret could leak: exact, URL-encoded, base64 (forms under 6 characters are left out). */
export function leakForms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')].filter((s) => s.length >= 6)
}

/**
 * The public text of one run: stdout (less the `::add-mask::` lines, which the
 * runner swallows), stderr, the summary, and the comment lines of the env
 * file (its other lines hold DATABASE_URL by design). Keys are prefixed with `prefix`.
 */
export function runPlaces(run: RunResult, envFile?: string, prefix = ''): Record<string, string> {
  const places: Record<string, string> = {
    [`${prefix}stdout`]: run.stdout
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n'),
    [`${prefix}stderr`]: run.stderr,
    [`${prefix}summary`]: run.summary
  }
  if (run.post) {
    places[`${prefix}post stdout`] = run.post.stdout
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n')
    places[`${prefix}post stderr`] = run.post.stderr
  }
  if (envFile && existsSync(envFile)) {
    places[`${prefix}env-file comments`] = readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('#'))
      .join('\n')
  }
  return places
}

/** Names of the places where any of `secrets` appears (an empty list is the pass). */
export function leaks(places: Record<string, string>, secrets: string[]): string[] {
  const found: string[] = []
  for (const [place, text] of Object.entries(places)) {
    for (const s of secrets) if (text.includes(s)) found.push(`${place} contains a secret form "${s.slice(0, 4)}…"`)
  }
  return found
}

/** Shared pieces of the integration tests. */
import { existsSync, readFileSync } from 'node:fs'
import type { Emulator } from '../emulator/index.js'
import type { RunResult } from '../emulator/runner.js'

/** Every form in which a secret could leak: exact, URL-encoded, base64. */
export function leakForms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')].filter((s) => s.length >= 6)
}

/** All secrets the emulator ever handed out: passwords and connection strings. */
export function emulatorSecrets(emu: Emulator): string[] {
  const out: string[] = []
  for (const r of emu.instant.databases.values()) {
    out.push(r.password)
    const pooled = `postgresql://${r.role}:${encodeURIComponent(r.password)}@`
    out.push(pooled)
  }
  return out.flatMap(leakForms)
}

/**
 * Where a secret must never appear: stdout (less the `::add-mask::` lines,
 * which the runner swallows), stderr, the summary, every comment, and the
 * comment lines of the env file.
 */
export function publicText(emu: Emulator, run: RunResult, envFile?: string): Record<string, string> {
  const comments = [...emu.github.issues.values()].flat().map((c) => c.body).join('\n')
  const envComments = envFile && existsSync(envFile)
    ? readFileSync(envFile, 'utf8').split('\n').filter((l) => l.startsWith('#')).join('\n')
    : ''
  return {
    stdout: run.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n'),
    stderr: run.stderr,
    summary: run.summary,
    comments,
    'env-file comments': envComments
  }
}

/** Names of the places where any of `secrets` appears (an empty list is the pass). */
export function leaks(places: Record<string, string>, secrets: string[]): string[] {
  const found: string[] = []
  for (const [place, text] of Object.entries(places)) {
    for (const s of secrets) if (text.includes(s)) found.push(`${place} contains a secret form "${s.slice(0, 4)}…"`)
  }
  return found
}

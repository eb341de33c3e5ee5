/** Shared pieces of the integration tests. */
import type { Emulator } from '../emulator/index.js'
import { leakForms, leaks, runPlaces } from './leaks.js'
import type { RunResult } from '../emulator/runner/runner.js'

export { leakForms, leaks }

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

/** Where a secret must never appear: the run's public text (runPlaces) and every comment. */
export function publicText(emu: Emulator, run: RunResult, envFile?: string): Record<string, string> {
  const comments = [...emu.github.issues.values()]
    .flat()
    .map((c) => c.body)
    .join('\n')
  return { ...runPlaces(run, envFile), comments }
}

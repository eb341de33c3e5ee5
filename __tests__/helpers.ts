/** Shared pieces of the integration tests. */
import { it } from '@jest/globals'
import type { Emulator } from '../emulator/index.js'
import { leakForms, leaks, runPlaces } from './leaks.js'
import { NODE_24, type RunResult } from '../emulator/runner/runner.js'

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

/**
 * Resolves once `cond()` holds, checking every 20 ms: a test waits for an event (a request the emulator
 * received, a state a run reached) this way, never for a fixed time.
 * @throws Error naming `what` when it still does not hold after `ms` milliseconds (a bound for a hang, not a budget)
 */
export async function until(cond: () => boolean, what = 'a condition', ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * `it` for a test of a file that runs its tests on each of RUNTIMES (`describe.each(RUNTIMES)`): declared on
 * Node 24, the runtime action.yml names, where every behaviour is proven; not declared on another runtime, where
 * the file runs only the tests it declares with plain `it` (the bundle loads and works there: a create, the
 * retries, a reuse, a failure). `each` works as `it.each`.
 */
export function on24Only(node: string): typeof it {
  if (node === NODE_24) return it
  const none = (() => undefined) as unknown as typeof it
  return Object.assign(none, { each: () => () => undefined }) as unknown as typeof it
}

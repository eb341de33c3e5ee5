/**
 * Many branch-mode runs of different PRs started at the same moment against
 * one project of the emulator (and, optionally, a `command: cleanup` sweep
 * beside them), with what the platform saw of them (load-figures.ts). Used by
 * bench/load.ts and the load test.
 */
import { APP_TOKEN, type Emulator } from '../emulator/index.js'
import type { Project } from '../emulator/neon/platform.js'
import type { RunResult } from '../emulator/runner/runner.js'
import { branchInputs, runAction } from '../__tests__/fixtures/preview.js'
import { type LoadFigures, loadFigures } from './load-figures.js'

export interface LoadOptions {
  project: Project
  /** PR numbers (of the fixtures' repository): one run each, all started together. */
  prs: number[]
  /** Working directory of the runs (holds the seed file `seed.sql`). */
  work: string
  /** Inputs every run gets besides the platform's (e.g. `poll-interval`). */
  inputs?: Record<string, string>
  /** Inputs left at their defaults (e.g. `poll-interval`, which the platform's inputs set for tests). */
  unset?: string[]
  /** Also start a `command: cleanup` sweep (a `schedule` event) with these inputs. */
  sweep?: Record<string, string>
}

export interface LoadResult {
  runs: RunResult[]
  sweep?: RunResult
  figures: LoadFigures
  /**
   * Sorted, one a run: milliseconds from the launch to the runs' first platform requests (the lookups of
   * their branches, `GET …/branches`), which the processes' start on this machine decides, not the action's waits.
   */
  firstRequestMs: number[]
}

/** Starts the runs together, waits for all, and measures. */
export async function runLoad(emu: Emulator, o: LoadOptions): Promise<LoadResult> {
  // The schema diff is off: the emulator computes compare_schema in this process, which twenty runs at once would starve.
  const inputs: Record<string, string> = {
    ...branchInputs(emu, o.project),
    'github-token': APP_TOKEN,
    seed: 'seed.sql',
    'compare-schema': 'false',
    ...o.inputs
  }
  for (const name of o.unset ?? []) delete inputs[name]
  const first = emu.platform.server.log.length
  const startedAt = Date.now()
  const [sweep, ...runs] = await Promise.all([
    o.sweep ? runAction(emu, o.work, { ...inputs, command: 'cleanup', ...o.sweep }, { eventName: 'schedule', event: {} }) : undefined,
    ...o.prs.map((number) => runAction(emu, o.work, inputs, { pr: { number, headRef: `feature-${number}` }, timeoutMs: 900_000 }))
  ])
  const endedAt = Math.max(...runs.map((r) => r.endedAt), sweep?.endedAt ?? 0)
  const log = emu.platform.server.log.slice(first)
  const operations = emu.platform.operations(o.project).filter((op) => op.startedAt >= startedAt)
  // A run's first request is its lookup (`GET …/branches`), which names no PR when one page of the list serves it:
  // the first as many lookups as runs, in order of arrival.
  const firstRequestMs = log
    .filter((q) => q.method === 'GET' && /\/branches\/?$/.test(q.path))
    .map((q) => q.at - startedAt)
    .sort((x, y) => x - y)
    .slice(0, o.prs.length)
  return { runs, sweep, figures: loadFigures(startedAt, endedAt, log, operations), firstRequestMs }
}

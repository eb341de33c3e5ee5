// Test order for jest's workers: the longest files first, so no worker is left
// with a long file at the end. jest's default order uses the durations it
// recorded in its cache (kept, and preferred, here), and without them the
// file size, which puts the fault matrix's small shard files last. A fresh
// clone has no cache, so files without a recorded duration get the seconds
// below (measured, docs/development.md "The test suite"), or a guess by folder.
import Sequencer from '@jest/test-sequencer'

/**
 * Seconds each file over 20 s took in a full run with 6 workers on the 2-core
 * machine (load average about 15 with other work; only the order matters).
 */
const MEASURED = {
  '__tests__/dist/branch.test.ts': 594,
  '__tests__/dist/lifecycle-guarantees.test.ts': 480,
  '__tests__/dist/instant.test.ts': 413,
  '__tests__/dist/every-push.test.ts': 353,
  '__tests__/dist/lifecycle.test.ts': 313,
  '__tests__/dist/matrix-1.test.ts': 262,
  '__tests__/dist/comment-lock.test.ts': 238,
  '__tests__/dist/matrix-2.test.ts': 210,
  '__tests__/dist/lock-holds.test.ts': 205,
  '__tests__/dist/matrix-3.test.ts': 195,
  '__tests__/dist/matrix-5.test.ts': 179,
  '__tests__/dist/load.test.ts': 159,
  '__tests__/dist/matrix-8.test.ts': 157,
  '__tests__/dist/matrix-6.test.ts': 155,
  '__tests__/dist/matrix-7.test.ts': 150,
  '__tests__/dist/matrix-4.test.ts': 144,
  '__tests__/dist/env-names.test.ts': 102,
  '__tests__/dist/schema.test.ts': 98,
  '__tests__/dist/neon-inputs.test.ts': 72,
  '__tests__/dist/anonymized-rules.test.ts': 71,
  '__tests__/dist/seed.test.ts': 70,
  '__tests__/dist/anonymized.test.ts': 68,
  '__tests__/dist/preview-name.test.ts': 65,
  '__tests__/dist/seed-meta.test.ts': 65,
  '__tests__/dist/deployment.test.ts': 63,
  '__tests__/unit/lock.test.ts': 58,
  '__tests__/dist/seed-psql.test.ts': 52,
  '__tests__/unit/scanner.test.ts': 46,
  '__tests__/contract/platform.test.ts': 43,
  '__tests__/dist/fork-pr.test.ts': 40,
  '__tests__/dist/seed-psql-rules.test.ts': 28,
  '__tests__/emulator/postgres-start.test.ts': 26,
  '__tests__/integration/schema-roundtrip.test.ts': 23,
  '__tests__/dist/migration-cost.test.ts': 22
}

/** Files under these folders start emulators and run the bundle: about 30 s each; the rest about 1 s. */
const SLOW_FOLDERS = /__tests__\/(dist|integration|contract|emulator)\//

const DefaultSequencer = Sequencer.default ?? Sequencer

export default class LongestFirst extends DefaultSequencer {
  sort(tests) {
    const estimate = (test) => {
      const relative = test.path.slice(test.path.lastIndexOf('__tests__/'))
      return (MEASURED[relative] ?? (SLOW_FOLDERS.test(relative) ? 30 : 1)) * 1000
    }
    for (const test of tests) test.duration = this.time(test) ?? estimate(test)
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a)
      const failedB = this.hasFailed(b)
      if (failedA !== failedB) return failedA ? -1 : 1
      return b.duration - a.duration
    })
  }
}

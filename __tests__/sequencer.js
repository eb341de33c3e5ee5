// Test order for jest's workers: the longest files first, so no worker is left
// with a long file at the end. jest's default order uses the durations it
// recorded in its cache (kept, and preferred, here), and without them the
// file size, which puts the fault matrix's small shard files last. A fresh
// clone has no cache, so files without a recorded duration get the seconds
// below (measured, docs/development.md "The test suite"), or a guess by folder.
import Sequencer from '@jest/test-sequencer'

/**
 * Seconds each file over 20 s took in `npm test` (4 workers) on the 2-core
 * machine, in `bash .ci/run` on a quiet machine; only the order matters.
 */
const MEASURED = {
  '__tests__/dist/sweep-scale.test.ts': 396,
  '__tests__/dist/lock-holds.test.ts': 143,
  '__tests__/dist/branch.test.ts': 130,
  '__tests__/dist/lifecycle-guarantees.test.ts': 127,
  '__tests__/dist/matrix-5.test.ts': 75,
  '__tests__/dist/matrix-8.test.ts': 73,
  '__tests__/dist/load.test.ts': 71,
  '__tests__/dist/matrix-7.test.ts': 70,
  '__tests__/dist/matrix-6.test.ts': 67,
  '__tests__/dist/matrix-1.test.ts': 64,
  '__tests__/dist/every-push.test.ts': 57,
  '__tests__/dist/matrix-3.test.ts': 56,
  '__tests__/dist/instant.test.ts': 54,
  '__tests__/dist/docs-migrations.test.ts': 52,
  '__tests__/dist/docs-workflows.test.ts': 52,
  '__tests__/unit/lock.test.ts': 51,
  '__tests__/dist/matrix-4.test.ts': 50,
  '__tests__/dist/matrix-2.test.ts': 45,
  '__tests__/dist/neon-limits.test.ts': 44,
  '__tests__/dist/comment-lock.test.ts': 41,
  '__tests__/dist/publish-trust.test.ts': 39,
  '__tests__/dist/lifecycle.test.ts': 37,
  '__tests__/dist/schema.test.ts': 32,
  '__tests__/dist/anonymized.test.ts': 29,
  '__tests__/dist/anonymized-rules.test.ts': 27,
  '__tests__/dist/seed.test.ts': 26,
  '__tests__/dist/env-names.test.ts': 23,
  '__tests__/dist/neon-inputs.test.ts': 21
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

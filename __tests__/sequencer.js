// Test order for jest's workers: the longest files first, so no worker is left
// with a long file at the end. jest's default order uses the durations it
// recorded in its cache (kept, and preferred, here), and without them the
// file size, which puts the fault matrix's small shard files last. A fresh
// clone has no cache, so files without a recorded duration get the seconds
// below (measured in `bash .ci/run`), or a guess by folder.
import Sequencer from '@jest/test-sequencer'

/**
 * Seconds each file over 5 s took in `npm test` (6 workers, no jest cache,
 * in `bash .ci/run`) on the 2-core machine; only the order matters.
 */
const MEASURED = {
  '__tests__/dist/sweep-scale.test.ts': 110,
  '__tests__/dist/lock-holds.test.ts': 153,
  '__tests__/dist/lifecycle-guarantees.test.ts': 129,
  '__tests__/dist/branch.test.ts': 127,
  '__tests__/dist/load.test.ts': 85,
  '__tests__/dist/matrix-2.test.ts': 80,
  '__tests__/dist/matrix-7.test.ts': 75,
  '__tests__/dist/matrix-5.test.ts': 74,
  '__tests__/dist/comment-lock.test.ts': 72,
  '__tests__/dist/publish-trust.test.ts': 71,
  '__tests__/dist/matrix-4.test.ts': 68,
  '__tests__/dist/matrix-8.test.ts': 68,
  '__tests__/dist/matrix-1.test.ts': 68,
  '__tests__/dist/matrix-6.test.ts': 64,
  '__tests__/dist/every-push.test.ts': 63,
  '__tests__/dist/docs-workflows.test.ts': 61,
  '__tests__/dist/lifecycle.test.ts': 58,
  '__tests__/dist/neon-limits.test.ts': 58,
  '__tests__/dist/matrix-3.test.ts': 56,
  '__tests__/dist/docs-migrations.test.ts': 53,
  '__tests__/unit/lock.test.ts': 53,
  '__tests__/dist/seed.test.ts': 49,
  '__tests__/dist/schema.test.ts': 49,
  '__tests__/dist/instant.test.ts': 46,
  '__tests__/dist/anonymized.test.ts': 40,
  '__tests__/dist/env-names.test.ts': 39,
  '__tests__/unit/scanner.test.ts': 38,
  '__tests__/dist/seed-meta.test.ts': 37,
  '__tests__/dist/anonymized-rules.test.ts': 35,
  '__tests__/dist/neon-inputs.test.ts': 34,
  '__tests__/contract/platform.test.ts': 32,
  '__tests__/dist/vercel.test.ts': 34,
  '__tests__/dist/vercel-branch.test.ts': 36,
  '__tests__/dist/poll-schedule.test.ts': 31,
  '__tests__/dist/preview-name.test.ts': 29,
  '__tests__/emulator/postgres-start.test.ts': 26,
  '__tests__/dist/deployment.test.ts': 25,
  '__tests__/dist/schema-then-data.test.ts': 24,
  '__tests__/dist/seed-psql.test.ts': 23,
  '__tests__/dist/anonymized-kept.test.ts': 19,
  '__tests__/integration/schema-roundtrip.test.ts': 18,
  '__tests__/dist/seed-psql-rules.test.ts': 18,
  '__tests__/dist/fork-pr.test.ts': 18,
  '__tests__/dist/migration-cost.test.ts': 16,
  '__tests__/dist/docs-previews.test.ts': 19,
  '__tests__/contract/vercel.test.ts': 16,
  '__tests__/dist/ci-job.test.ts': 15,
  '__tests__/dist/seed-workspace.test.ts': 14,
  '__tests__/dist/report-file-per-preview.test.ts': 11,
  '__tests__/dist/secret-bodies.test.ts': 11,
  '__tests__/dist/github-budget.test.ts': 11,
  '__tests__/emulator/initdb-template.test.ts': 9,
  '__tests__/integration/migration-cost.test.ts': 9,
  '__tests__/dist/connections.test.ts': 7,
  '__tests__/dist/command-environment.test.ts': 7,
  // measured beside 3 to 4 other files, not yet in a whole `npm test`
  '__tests__/dist/run-sources.test.ts': 96,
  '__tests__/dist/queue-and-push.test.ts': 94,
  '__tests__/dist/docs-run-sources.test.ts': 26,
  '__tests__/dist/proxy.test.ts': 20,
  // measured in a whole `npm test` beside other work (branch.test.ts took 413 s there), scaled by 0.3
  '__tests__/dist/shared-previews.test.ts': 53,
  '__tests__/dist/vercel-branch-real.test.ts': 38,
  '__tests__/dist/usage.test.ts': 35,
  '__tests__/dist/vercel-real.test.ts': 31,
  '__tests__/dist/docs-figures.test.ts': 20
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

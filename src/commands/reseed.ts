/**
 * `reseed`: whether a run rebuilds the PR's database because its seed
 * changed, by the seed's fingerprint (seed/fingerprint.ts) against the one the PR
 * comment's marker recorded for that database.
 */
import type { MaskingRuleInput, Settings } from '../settings.js'
import { type MaskingRule, fromPlatformRules } from '../platform/masking-rules.js'
import type { CommentRecord } from '../comment/comment.js'
import type { SeedPlan } from '../seed/loader.js'
import { seedFingerprint } from '../seed/fingerprint.js'

/**
 * The fingerprint of this run's seed, started once the seed's check is
 * (create and reset; '' for other commands): the files resolved from `seed`
 * and those the check pass found they read, `seed-command`, `schema-only`,
 * `masking-rules` (not `migrate-command`, which runs on every push; a rebuild
 * runs it again between the seed files and `seed-command`). Reading the files
 * needs no network, so it runs while the PR comment's lock is taken.
 * @returns a promise that rejects like the check, or when a seed file cannot be read
 */
export function seedFingerprintOf(
  settings: Pick<Settings, 'command' | 'seedCommand' | 'schemaOnly' | 'maskingRules'>,
  files: string[],
  checking: Promise<SeedPlan | null>
): Promise<string> {
  if (settings.command !== 'create' && settings.command !== 'reset') return Promise.resolve('')
  const hashing = checking.then((plan) =>
    seedFingerprint({
      files: [...files, ...(plan?.readFiles ?? [])],
      seedCommand: settings.seedCommand,
      schemaOnly: settings.schemaOnly,
      maskingRules: settings.maskingRules
    })
  )
  hashing.catch(() => undefined) // awaited later; not an unhandled rejection meanwhile
  return hashing
}

/**
 * Why the reused database must be rebuilt, or null: only with `reseed:
 * on-change`, and only when the record of that database holds a fingerprint
 * and it differs (a record of a version without fingerprints rebuilds nothing).
 * @param record what the comment records for the database being reused
 */
export function rebuildReason(settings: Pick<Settings, 'reseed'>, record: CommentRecord | undefined, fingerprint: string): string | null {
  if (settings.reseed === 'never' || !record?.fingerprint || record.fingerprint === fingerprint) return null
  return 'the seed changed since this database was seeded (a seed file, `seed-command`, `schema-only` or `masking-rules`; `reseed: on-change`)'
}

/**
 * The fingerprint to record for a database this run reused without rebuilding:
 * what it was seeded from (the recorded one, which `reseed: never` keeps), or
 * this run's when none was recorded.
 */
export function keptFingerprint(record: CommentRecord | undefined, fingerprint: string): string {
  return record?.fingerprint ?? fingerprint
}

/** This run's seed fingerprint under other masking rules (the same files, check and commands). */
export type FingerprintWith = (maskingRules: MaskingRuleInput[]) => Promise<string>

/**
 * The fingerprint of this run's seed under the masking rules a reused
 * anonymized branch was made with (`rules`, Neon's), for a run that gave
 * none: what the record is compared with, and what a rebuild under those
 * rules records. Neon gives each rule its database, which the input may have
 * left out, so both forms are hashed; the one the record holds wins, else
 * the form with the database.
 */
export async function fingerprintUnderRules(
  fingerprintWith: FingerprintWith,
  rules: MaskingRule[],
  record: CommentRecord | undefined
): Promise<string> {
  const prints = await Promise.all([true, false].map((withDatabase) => fingerprintWith(fromPlatformRules(rules, withDatabase))))
  return prints.find((p) => p === record?.fingerprint) ?? prints[0]
}

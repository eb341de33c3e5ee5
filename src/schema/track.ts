/**
 * The schema diff through one run's seeding (issue 15). main.ts calls
 * {@link SchemaTracker.atStart} before the SQL seed, {@link
 * SchemaTracker.afterSeedFiles} between the seed and `seed-command`, and
 * {@link SchemaTracker.finish} after `seed-command`:
 * - branch mode snapshots at the start (the new branch is its parent's copy)
 *   and shows the platform's compare_schema diff against the parent;
 * - instant mode snapshots after the SQL seed, so the diff is what
 *   `seed-command` (the PR's migrations) changed.
 * A snapshot that fails is a warning: the diff is information, the database
 * is fine. With `fail-on-destructive`, destructive changes throw
 * {@link DestructiveSchemaError}, which the caller treats like a failed seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as core from '@actions/core'
import type { Connection } from '../connection.js'
import type { Settings } from '../inputs.js'
import type { SchemaReport } from '../publish/report.js'
import type { SchemaDiff } from './diff.js'
import type { SchemaSnapshot } from './inspect.js'

/**
 * The inspector, differ and grammar are loaded on first use (a separate
 * chunk of the bundle), so runs that compare nothing, and everything a run
 * does before its seed, do not pay for loading them.
 */
const schemaTools = (): Promise<typeof import('./lazy.js')> => import('./lazy.js')

/** `fail-on-destructive` is true and the schema change is destructive. */
export class DestructiveSchemaError extends Error {}

/** Where the full diff is written (the `schema-diff` output). */
export function schemaDiffPath(): string {
  const dir = process.env.RUNNER_TEMP || os.tmpdir()
  mkdirSync(dir, { recursive: true })
  return path.join(dir, 'preview-postgres-schema.diff')
}

export class SchemaTracker {
  private before: SchemaSnapshot | undefined
  private failed = false

  /**
   * @param enabled the `compare-schema` input
   * @param failOnDestructive the `fail-on-destructive` input
   */
  constructor(
    private readonly mode: 'instant' | 'branch',
    private readonly connection: Connection,
    private readonly enabled: boolean,
    private readonly failOnDestructive: boolean
  ) {}

  private async snapshot(when: string): Promise<SchemaSnapshot | undefined> {
    try {
      const started = Date.now()
      const s = await (await schemaTools()).inspectSchema(this.connection)
      core.info(`Inspected the schema ${when} in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
      return s
    } catch (err) {
      this.failed = true
      core.warning(`Could not inspect the schema ${when}, so there is no schema diff: ${(err as Error).message}`)
      return undefined
    }
  }

  /** Before the SQL seed (branch mode: the parent's schema as copied). */
  async atStart(): Promise<void> {
    if (this.enabled && this.mode === 'branch') this.before = await this.snapshot('of the new branch before seeding')
  }

  /** Between the SQL seed and `seed-command` (instant mode). */
  async afterSeedFiles(): Promise<void> {
    if (this.enabled && this.mode === 'instant') this.before = await this.snapshot('after the SQL seed')
  }

  /**
   * After `seed-command`: compares, logs, writes the diff file.
   * @param platformDiff fetches the platform's compare_schema text (branch mode); a failure is a warning
   * @returns null when the diff is off or a snapshot failed
   * @throws DestructiveSchemaError when `fail-on-destructive` and the change is destructive
   */
  async finish(platformDiff?: () => Promise<string>): Promise<SchemaDiff | null> {
    if (!this.enabled || this.failed || !this.before) return null
    const after = await this.snapshot('after seeding')
    if (!after) return null
    let platform: string | undefined
    if (platformDiff) {
      try {
        platform = await platformDiff()
      } catch (err) {
        core.warning(`The platform's compare_schema failed, so the diff shown is the action's own: ${(err as Error).message}`)
      }
    }
    const { diffSchemas, tablesWithRows } = await schemaTools()
    const diff = await diffSchemas(this.before, after, (tables) => tablesWithRows(this.connection, tables), platform)
    writeFileSync(schemaDiffPath(), diff.diff ? `${diff.diff}\n` : '')
    core.info(`Schema change: ${diff.summary}.`)
    for (const d of diff.destructive) core.warning(`Destructive schema change: ${d}`)
    if (diff.destructive.length > 0 && this.failOnDestructive) {
      throw new DestructiveSchemaError(
        `The schema change is destructive (${diff.destructive.length}): ${diff.destructive.join('; ')}. ` +
          '`fail-on-destructive` is true, so the step fails; make the migration non-destructive or set `fail-on-destructive: false`.'
      )
    }
    return diff
  }
}

/**
 * The schema part of the report and the outputs, from this run's diff (null:
 * not compared). A reused database ran nothing: "no schema change in this
 * run", with an empty diff file.
 */
export function schemaResult(settings: Pick<Settings, 'compareSchema' | 'failOnDestructive'>, diff: SchemaDiff | null, created: boolean): { report?: SchemaReport; outputs?: { changed: boolean; file: string; destructive: boolean } } {
  if (!settings.compareSchema) return {}
  if (!created) {
    writeFileSync(schemaDiffPath(), '')
    return {
      report: { summary: 'no schema change in this run (the database was reused; nothing ran)', diff: '', source: 'none', destructive: [] },
      outputs: { changed: false, file: schemaDiffPath(), destructive: false }
    }
  }
  if (!diff) return {}
  return {
    report: { summary: diff.summary, diff: diff.diff, source: diff.source, destructive: diff.destructive, failOnDestructive: settings.failOnDestructive },
    outputs: { changed: diff.changed, file: schemaDiffPath(), destructive: diff.destructive.length > 0 }
  }
}

/**
 * The schema diff through one run's seeding. commands/seed-step.ts calls
 * {@link SchemaTracker.atStart} before the SQL seed, {@link
 * SchemaTracker.afterSeedFiles} between the seed and the user's commands
 * (`migrate-command`, then `seed-command`), {@link
 * SchemaTracker.commandStarted} once the first of them runs, and {@link
 * SchemaTracker.finish} after the last:
 * - branch mode snapshots at the start (the new branch is its parent's copy)
 *   and shows the platform's compare_schema diff against the parent;
 * - instant mode snapshots after the SQL seed, so the diff is what the
 *   commands (the PR's migrations, then its data seed) changed.
 * Instant mode without either command inspects nothing: nothing can have
 * changed the schema after the seed.
 * Never fatal: a snapshot, comparison or rendering that fails is a
 * warning and "schema diff unavailable"; the database is kept. With
 * `fail-on-destructive`, destructive changes, or a change that could not be
 * checked, throw {@link DestructiveSchemaError}, which the caller treats like
 * a failed seed (fails closed).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as core from '@actions/core'
import type { Connection } from '../connection.js'
import type { Settings } from '../settings.js'
import type { SchemaReport } from '../publish/report.js'
import type { SchemaDiff } from './diff.js'
import { type CatalogRows, CatalogSession } from './catalog.js'
import type { SchemaSnapshot } from './inspect.js'

/**
 * The inspector, differ and grammar are loaded on first use (a separate
 * chunk of the bundle), so runs that compare nothing, and everything a run
 * does before its seed, do not pay for loading them.
 */
let loading: Promise<typeof import('./inspect-and-diff.js')> | undefined
const schemaTools = (): Promise<typeof import('./inspect-and-diff.js')> => (loading ??= import('./inspect-and-diff.js'))

/**
 * Starts loading the schema tools (once; later calls return the same
 * promise) in branch mode with `compare-schema` on. Loading the chunk
 * compiles and runs it synchronously (about 80 ms of CPU, more on a loaded
 * runner), holding the event loop: the caller starts it before the comment
 * lock is taken (its HTTP requests overlap the load) and awaits it before
 * provisioning, so the load never delays a timer that matters (a 423 retry,
 * an operation poll, the lock's heartbeat). Instant mode loads nothing here:
 * its first snapshot is only read (catalog.ts, in the main bundle) before
 * the first user command, and the tracker loads the chunk once the command's process
 * runs, where the load is hidden behind the command. Never rejects: tools
 * that fail to load fail at first use.
 * @returns settles once the tools are loaded (at once where nothing is loaded)
 */
export function preloadSchemaTools(mode: 'instant' | 'branch', settings: Pick<Settings, 'compareSchema' | 'seedCommand'>): Promise<void> {
  if (!settings.compareSchema || mode === 'instant') return Promise.resolve()
  preloading ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
    schemaTools().then(
      () => undefined,
      () => undefined
    )
  )
  return preloading
}
let preloading: Promise<void> | undefined

/** `fail-on-destructive` is true and the schema change is destructive. */
export class DestructiveSchemaError extends Error {}

/** Where the full diff is written (the `schema-diff` output). */
export function schemaDiffPath(): string {
  const dir = process.env.RUNNER_TEMP || os.tmpdir()
  mkdirSync(dir, { recursive: true })
  return path.join(dir, 'preview-postgres-schema.diff')
}

/** The diff could not be made: why, for the warning, the comment and the job summary. */
export interface SchemaUnavailable {
  unavailable: string
}

export class SchemaTracker {
  private before: Promise<SchemaSnapshot | undefined> | undefined
  private failure: string | undefined
  private tools: Promise<typeof import('./inspect-and-diff.js')> | undefined
  private readonly session: CatalogSession
  /** Warming the differ up while the first user command runs (instant mode); settles, never rejects. */
  private warming: Promise<void> = Promise.resolve()
  /** {@link finish} has begun: nothing is warmed up any more (it would be on the critical path). */
  private finishing = false

  /**
   * @param enabled the `compare-schema` input
   * @param failOnDestructive the `fail-on-destructive` input
   * @param seedCommand whether a user command (`migrate-command`, `seed-command`) runs: without one, instant mode has nothing to compare (the answer is empty by construction)
   */
  constructor(
    private readonly mode: 'instant' | 'branch',
    connection: Connection,
    private readonly enabled: boolean,
    private readonly failOnDestructive: boolean,
    private readonly seedCommand = true
  ) {
    this.session = new CatalogSession(connection)
  }

  /** Whether this run inspects anything: off, or instant mode without a user command, does not. */
  get inspects(): boolean {
    return this.enabled && (this.mode === 'branch' || this.seedCommand)
  }

  /** Loads the inspector and differ chunk once, in the background from the first call. */
  private loadTools(): Promise<typeof import('./inspect-and-diff.js')> {
    this.tools ??= schemaTools()
    this.tools.catch(() => undefined) // awaited later
    return this.tools
  }

  /** Holds no connection of its own (the run's session is leased for each read; main.ts ends the sessions). Never throws. */
  async close(): Promise<void> {}

  /** The catalog's rows now; a connection lost since the last use (or during this one) is opened again, once. */
  private async readRows(): Promise<CatalogRows> {
    try {
      return await this.session.read()
    } catch (err) {
      if (!/terminat|Connection (?:terminated|ended)|ECONNRESET|EPIPE/i.test((err as Error).message)) throw err
      return this.session.read()
    }
  }

  /**
   * Reads the catalog now (awaited: the database must not change meanwhile)
   * and builds the snapshot from its rows in the background (CPU only), so
   * building "before" overlaps the seed or the first user command.
   * @param buildAfter building (and loading the schema tools, where they are
   *   not loaded yet) waits for it: both hold the event loop, so they must
   *   not start before the work they are meant to overlap has started (the
   *   seed's first query, the first user command's process)
   * @returns the snapshot being built; it resolves to undefined on failure (recorded in `failure`)
   */
  private async snapshot(
    when: string,
    buildAfter: Promise<void> = Promise.resolve()
  ): Promise<{ built: Promise<SchemaSnapshot | undefined>; rows?: CatalogRows }> {
    const started = Date.now()
    let rows: CatalogRows
    try {
      rows = await this.readRows()
    } catch (err) {
      this.failure ??= `could not inspect the schema ${when}: ${(err as Error).message}`
      return { built: Promise.resolve(undefined) }
    }
    const read = (Date.now() - started) / 1000
    const built = buildAfter
      .then(() => this.loadTools())
      .then(({ buildSnapshot }) => buildSnapshot(rows))
      .then(
        (s) => {
          core.info(
            `Inspected the schema ${when} in ${((Date.now() - started) / 1000).toFixed(2)} s (${read.toFixed(2)} s reading the catalog).`
          )
          return s
        },
        (err: unknown) => {
          this.failure ??= `could not inspect the schema ${when}: ${(err as Error).message}`
          return undefined
        }
      )
    return { built, rows }
  }

  /** Before the SQL seed (branch mode: the parent's schema as copied). */
  async atStart(): Promise<void> {
    if (!this.inspects) return
    // Building waits a turn of the event loop, so the seed sends its first statement first.
    if (this.mode === 'branch')
      this.before = (await this.snapshot('of the new branch before seeding', new Promise((r) => setImmediate(r)))).built
  }

  private startedSignal: (() => void) | undefined

  /**
   * Between the SQL seed and the user's commands (instant mode; `when` names the moment in the log): reads the catalog
   * now; once {@link commandStarted} says the first command's process runs
   * (its CPU time is otherwise idle), or at {@link finish}, loads the schema
   * tools, builds the snapshot and warms the differ up (see
   * diff.ts `warmUpDiffer`; not at {@link finish}, where it
   * would only add time).
   */
  async afterSeedFiles(when = 'after the SQL seed'): Promise<void> {
    if (!this.inspects || this.mode !== 'instant') return
    const started = new Promise<void>((resolve) => (this.startedSignal = resolve))
    const { built, rows } = await this.snapshot(when, started)
    this.before = built
    this.warming = built
      .then(async (before) => {
        if (!before || this.finishing) return
        const { warmUpDiffer } = await this.loadTools()
        await warmUpDiffer(before, rows!)
      })
      .catch(() => undefined)
  }

  /** The first user command's process has been spawned: the "before" snapshot is built while it runs. Later calls do nothing. */
  commandStarted(): void {
    this.startedSignal?.()
  }

  /**
   * After the last user command: compares, logs, writes the diff file. Never fatal:
   * a failure to inspect, compare or render is a warning and
   * "schema diff unavailable", except under `fail-on-destructive`, which
   * fails closed.
   * @param platformDiff fetches the platform's compare_schema text (branch mode); a failure is a warning
   * @returns null when the diff is off; {@link SchemaUnavailable} when it could not be made
   * @throws DestructiveSchemaError when `fail-on-destructive` and the change is destructive, or could not be checked
   */
  async finish(platformDiff?: () => Promise<string>): Promise<SchemaDiff | SchemaUnavailable | null> {
    if (!this.enabled) return null
    if (!this.inspects) {
      core.info('No migrate-command or seed-command ran after the SQL seed, so nothing changed the schema; nothing was inspected.')
      return { changed: false, objects: [], summary: 'no schema change', diff: '', source: 'migra', destructive: [] }
    }
    this.finishing = true
    this.commandStarted() // no command ran (or it did not say): build "before" now
    let diff: SchemaDiff | undefined
    const comparing = Date.now()
    // The platform's compare_schema runs while we take our own snapshot (both read the seeded database).
    const platformText = this.failure === undefined && platformDiff ? platformDiff() : undefined
    platformText?.catch(() => undefined) // awaited below
    const after = this.failure === undefined ? await (await this.snapshot('after seeding')).built : undefined
    const before = await this.before
    await this.warming
    if (before && after && this.failure === undefined) {
      let platform: string | undefined
      if (platformText) {
        try {
          platform = await platformText
        } catch (err) {
          core.warning(`Neon's compare_schema failed, so the diff shown is the action's own: ${(err as Error).message}`)
        }
      }
      try {
        const { diffSchemas } = await this.loadTools()
        diff = await diffSchemas(before, after, (tables) => this.session.tablesWithRows(tables), platform)
      } catch (err) {
        this.failure = `could not compare the schemas: ${(err as Error).message}`
      }
    }
    await this.close()
    if (!diff) {
      const reason = this.failure ?? 'no snapshot'
      writeFileSync(schemaDiffPath(), '')
      if (this.failOnDestructive) {
        throw new DestructiveSchemaError(
          `The schema change could not be checked for destructive changes (${reason}). \`fail-on-destructive\` is true, so the step fails closed; set \`fail-on-destructive: false\` to let such a run pass with a warning.`
        )
      }
      core.warning(`Schema diff unavailable: ${reason}. The database is seeded and kept; only the diff is missing.`)
      return { unavailable: reason }
    }
    if (diff.note) core.warning(`The schema diff shown is a listing of the changed objects: ${diff.note}.`)
    writeFileSync(schemaDiffPath(), diff.diff ? `${diff.diff}\n` : '')
    core.info(`Schema change: ${diff.summary} (compared in ${((Date.now() - comparing) / 1000).toFixed(2)} s after the commands).`)
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
export function schemaResult(
  settings: Pick<Settings, 'compareSchema' | 'failOnDestructive'>,
  diff: SchemaDiff | SchemaUnavailable | null,
  created: boolean
): { report?: SchemaReport; outputs?: { changed: boolean; file: string; destructive: boolean } } {
  if (!settings.compareSchema) return {}
  if (!created) {
    writeFileSync(schemaDiffPath(), '')
    return {
      report: { summary: 'no schema change in this run (the database was reused; nothing ran)', diff: '', source: 'none', destructive: [] },
      outputs: { changed: false, file: schemaDiffPath(), destructive: false }
    }
  }
  if (!diff) return {}
  if ('unavailable' in diff) {
    return {
      report: { summary: 'schema diff unavailable', unavailable: diff.unavailable, diff: '', source: 'none', destructive: [] },
      outputs: { changed: false, file: schemaDiffPath(), destructive: false }
    }
  }
  return {
    report: {
      summary: diff.summary,
      diff: diff.diff,
      source: diff.source,
      note: diff.note,
      destructive: diff.destructive,
      failOnDestructive: settings.failOnDestructive
    },
    outputs: { changed: diff.changed, file: schemaDiffPath(), destructive: diff.destructive.length > 0 }
  }
}

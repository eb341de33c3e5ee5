/**
 * The psql-compatible seed loader: plain SQL files and pg_dump plain output,
 * in one session and one transaction (like `psql -X -v ON_ERROR_STOP=1 -1`).
 *
 * Two passes over the files, both streamed:
 * 1. check ({@link checkSeed}, no database needed): every meta-command,
 *    statement that cannot work on a provisioned database, statement that
 *    cannot run in a transaction, and role named by `OWNER TO`/`GRANT … TO`/
 *    `REVOKE … FROM` is found before anything runs (COPY data is skipped
 *    unread). The action runs it before it creates a database;
 * 2. load ({@link loadSeed}): plain statements are batched between COPY blocks behind a
 *    savepoint (one round trip per batch); COPY data streams through
 *    `pg-copy-streams` exactly as written, in slices of the read buffer,
 *    without being split into rows (the server counts them).
 * Neither pass counts COPY data lines, so an error found after a COPY block
 * is located by an exact rescan ({@link exactStatement}).
 * Errors name the file, line and column; COPY data values are never logged.
 */
import path from 'node:path'
import { once } from 'node:events'
import * as core from '@actions/core'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { type Connection, directClientConfig } from '../connection.js'
import { type ScanEvent, type ScanOptions, type StatementEvent, exactStatement, scanFile, statementHead } from './scanner.js'

/** A seed that failed; the database is as it was before seeding (rolled back, or never started). */
export class SeedError extends Error {
  constructor(message: string, readonly file?: string, readonly line?: number, readonly column?: number) {
    super(message)
    this.name = 'SeedError'
  }
}

/** What {@link loadSeed} did. */
export interface SeedResult {
  files: number
  statements: number
  copyRows: number
  /** Statements skipped because they name a role the database does not have. */
  skippedForRoles: number
  durationMs: number
}

/** 1-based line and column of 1-based character `position` in `text`, which starts at `line`:`column` of its file. */
export function locate(text: string, position: number, line = 1, column = 1): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, position - 1)).split('\n')
  return before.length === 1 ? { line, column: column + before[0].length } : { line: line + before.length - 1, column: before.at(-1)!.length + 1 }
}

const FORBIDDEN: [RegExp, string][] = [
  [/^(CREATE|DROP|ALTER)\s+DATABASE\b/i, 'cannot work on a provisioned database (it already exists, and you are connected to it)'],
  [/^(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|ABORT)\b/i, 'is transaction control, but the whole seed already runs in one transaction; remove it']
]
const NOT_IN_TRANSACTION: RegExp[] = [
  /^CREATE\s+(UNIQUE\s+)?INDEX\s+CONCURRENTLY\b/i,
  /^DROP\s+INDEX\s+CONCURRENTLY\b/i,
  /^REINDEX\b[\s\S]*\bCONCURRENTLY\b/i,
  /^VACUUM\b/i,
  /^ALTER\s+SYSTEM\b/i,
  /^(CREATE|DROP)\s+TABLESPACE\b/i,
  /^(CREATE|ALTER|DROP)\s+SUBSCRIPTION\b/i,
  /^CLUSTER\s*;?\s*$/i,
  /^REINDEX\s+(SYSTEM|DATABASE)\b/i
]
/** Meta-commands psql honours that we honour too (pg_dump 17.6+, 16.10+, 15.14+, 14.19+, 13.22+ emit them). */
const ALLOWED_META = new Set(['restrict', 'unrestrict'])
/** Role names that always exist. */
const BUILTIN_ROLES = new Set(['public', 'current_user', 'session_user', 'current_role'])

/** Role names a statement needs: `OWNER TO r`, `GRANT … TO r, …`, `REVOKE … FROM r, …`. Lower-cased unless quoted. */
export function rolesNamed(head: string): string[] {
  const ident = /"((?:[^"]|"")+)"|([A-Za-z_][\w$]*)/g
  const list = (text: string): string[] =>
    [...text.matchAll(ident)].map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2].toLowerCase()))
  let m = /^ALTER\s[\s\S]*\bOWNER\s+TO\s+("(?:[^"]|"")+"|[\w$]+)\s*;?\s*$/i.exec(head)
  if (m) return list(m[1])
  m = /^GRANT\s[\s\S]*?\bTO\s+([\s\S]*?)(\s+WITH\s+(GRANT|ADMIN|INHERIT|SET)\s+OPTION|\s+WITH\s+\w+\s+(TRUE|FALSE)|\s+GRANTED\s+BY\s+[\s\S]*)?\s*;?\s*$/i.exec(head)
  if (m) return list(m[1]).filter((r) => !['group'].includes(r))
  m = /^REVOKE\s[\s\S]*?\bFROM\s+([\s\S]*?)(\s+GRANTED\s+BY\s+[\s\S]*?)?(\s+(CASCADE|RESTRICT))?\s*;?\s*$/i.exec(head)
  if (m) return list(m[1]).filter((r) => !['group'].includes(r))
  return []
}

/** Roles a statement creates (`CREATE ROLE`/`CREATE USER`/`CREATE GROUP`). */
function roleCreated(head: string): string | undefined {
  const m = /^CREATE\s+(ROLE|USER|GROUP)\s+("(?:[^"]|"")+"|[\w$]+)/i.exec(head)
  return m ? (m[2].startsWith('"') ? m[2].slice(1, -1).replace(/""/g, '"') : m[2].toLowerCase()) : undefined
}

const firstLine = (sql: string): string => {
  const head = statementHead(sql).split('\n')[0]
  return head.length > 120 ? `${head.slice(0, 117)}...` : head
}

/** A seed file: its path, and the name errors show (relative to the working directory). */
export interface SeedSource {
  file: string
  shown: string
}

/** A seed the check pass accepted: what {@link loadSeed} loads. */
export interface SeedPlan {
  sources: SeedSource[]
  /** Roles the seed names in `OWNER TO`, `GRANT … TO`, `REVOKE … FROM` (lower-cased unless quoted). */
  needed: Set<string>
  /** Roles the seed creates itself (`CREATE ROLE/USER/GROUP`). */
  created: Set<string>
  /** How long the check pass took, milliseconds. */
  checkMs: number
}

/**
 * Pass 1: reads every file (COPY data skipped unread) and refuses what cannot
 * run, before any database is touched: psql meta-commands other than
 * `\restrict`/`\unrestrict` (or an `\unrestrict` whose key does not match),
 * `CREATE/DROP/ALTER DATABASE`, transaction control, and statements that
 * cannot run inside a transaction block. Needs no connection, so the action
 * runs it before it creates a database: a refused seed creates nothing.
 * @param files paths in load order; `cwd` makes the names errors show
 * @throws SeedError "Seed refused at file:line[:column]: …" (exact line, found
 *   by a rescan that counts COPY data lines); Error if a file cannot be read
 *   or has a COPY block without its `\.` line
 */
export async function checkSeed(files: string[], cwd = process.cwd()): Promise<SeedPlan> {
  const started = Date.now()
  const sources = files.map((file) => ({ file, shown: path.relative(cwd, file) || file }))
  const { needed, created } = await check(sources)
  return { sources, needed, created, checkMs: Date.now() - started }
}

/** Streams every event of every file, with the file it came from. */
async function* scanAll(sources: SeedSource[], options: ScanOptions = {}): AsyncGenerator<[SeedSource, ScanEvent]> {
  for (const src of sources) for await (const ev of scanFile(src.file, options)) yield [src, ev]
}

/**
 * Pass 1, fast: COPY data is skipped unread. Line numbers after a COPY block
 * are then inexact, so a refusal is reported from an exact rescan.
 */
async function check(sources: SeedSource[]): Promise<{ needed: Set<string>; created: Set<string> }> {
  try {
    return await checkEvents(sources, { copyData: 'skip' })
  } catch (err) {
    if (err instanceof SeedError) return checkEvents(sources, {})
    throw err
  }
}

/** Pass 1: refuses what cannot run, before anything runs. @returns roles the seed needs and creates. */
async function checkEvents(sources: SeedSource[], options: ScanOptions): Promise<{ needed: Set<string>; created: Set<string> }> {
  const needed = new Set<string>()
  const created = new Set<string>()
  let restrictKey: string | null = null
  for await (const [src, ev] of scanAll(sources, options)) {
    const at = (line: number, column?: number): string => `${src.shown}:${line}${column ? `:${column}` : ''}`
    if (ev.kind === 'meta') {
      if (!ALLOWED_META.has(ev.command)) {
        throw new SeedError(
          `Seed refused at ${at(ev.line)}: psql meta-command \\${ev.command} is not supported (only \\restrict and \\unrestrict, which pg_dump emits, are). ` +
            'Nothing was run. Produce the dump with `pg_dump --no-owner --no-privileges --format=plain`, or move client-side steps to `seed-command`.',
          src.shown,
          ev.line
        )
      }
      if (ev.command === 'restrict') restrictKey = ev.args
      else if (ev.args !== restrictKey) {
        throw new SeedError(`Seed refused at ${at(ev.line)}: \\unrestrict key does not match the \\restrict key (as psql would refuse it). Nothing was run.`, src.shown, ev.line)
      } else restrictKey = null
      continue
    }
    if (ev.kind !== 'statement') continue
    const head = statementHead(ev.sql)
    const start = startOf(ev)
    for (const [pattern, why] of FORBIDDEN) {
      if (pattern.test(head)) {
        throw new SeedError(`Seed refused at ${at(start.line, start.column)}: "${firstLine(ev.sql)}" ${why}. Nothing was run.`, src.shown, start.line, start.column)
      }
    }
    if (NOT_IN_TRANSACTION.some((p) => p.test(head))) {
      throw new SeedError(
        `Seed refused at ${at(start.line, start.column)}: "${firstLine(ev.sql)}" cannot run inside a transaction block, and the whole seed runs in one. ` +
          'Nothing was run. Drop CONCURRENTLY, or run it from `seed-command`.',
        src.shown,
        start.line,
        start.column
      )
    }
    for (const r of rolesNamed(head)) needed.add(r)
    const c = roleCreated(head)
    if (c) created.add(c)
  }
  return { needed, created }
}

/** Keeps PostgreSQL's message but hides quoted values (COPY data must not reach the log). */
function redactValues(text: string | undefined): string | undefined {
  return text?.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/=\([^)]*\)/g, '=(…)')
}

/** Resolves when `stream` drains or fails, removing both listeners either way. */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done)
      stream.off('error', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('error', done)
  })
}

/** A batch of plain statements sent in one round trip. */
class Batch {
  items: { src: SeedSource; ev: StatementEvent; offset: number }[] = []
  text = ''
  add(src: SeedSource, ev: StatementEvent): void {
    this.items.push({ src, ev, offset: this.text.length })
    this.text += ev.sql
    if (!ev.sql.endsWith('\n')) this.text += '\n'
  }
}

const MAX_BATCH_CHARS = 1 << 20
const SAVEPOINT = 'SAVEPOINT preview_postgres_seed;\n'

function describe(err: pg.DatabaseError, redact: boolean): string {
  const message = redact ? redactValues(err.message) : err.message
  const detail = redact ? redactValues(err.detail) : err.detail
  return [message, detail && `detail: ${detail}`, err.hint && `hint: ${err.hint}`].filter(Boolean).join('; ')
}

/**
 * Pass 2: loads a seed that {@link checkSeed} accepted into the database of
 * `connection` (its direct URL) in one session and one transaction.
 * Statements naming a role the database lacks (`OWNER TO postgres` in a dump
 * made without `--no-owner`) are skipped and counted.
 * @returns counts, and `durationMs`: from this call to COMMIT (the check pass not included)
 * @throws SeedError naming file:line:column, the server's message, detail and
 *   hint, and the statement's first line; the database is left as it was.
 */
export async function loadSeed(connection: Connection, plan: SeedPlan): Promise<SeedResult> {
  const started = Date.now()
  const { sources } = plan
  const client = new pg.Client(directClientConfig(connection, 'preview-postgres seed'))
  client.on('error', () => undefined)
  let roles: string[]
  try {
    roles = await openTransaction(client)
  } catch (err) {
    await client.end().catch(() => undefined)
    throw err
  }
  const result: SeedResult = { files: sources.length, statements: 0, copyRows: 0, skippedForRoles: 0, durationMs: 0 }
  try {
    const existing = new Set([...roles, ...plan.created])
    const missing = new Set([...plan.needed].filter((r) => !existing.has(r) && !BUILTIN_ROLES.has(r)))
    let batch = new Batch()
    let first = true
    const flush = async (): Promise<void> => {
      if (!batch.items.length) return
      const prefix = first ? SAVEPOINT : `RELEASE SAVEPOINT preview_postgres_seed;\n${SAVEPOINT}`
      first = false
      const current = batch
      batch = new Batch()
      try {
        await client.query(prefix + current.text)
        result.statements += current.items.length
      } catch (err) {
        await failBatch(client, current, prefix.length, err as pg.DatabaseError)
      }
    }
    let copy: { stream: ReturnType<typeof copyFrom>; src: SeedSource; ev: StatementEvent; failed?: Error } | null = null
    for await (const [src, ev] of scanAll(sources, { copyData: 'bytes' })) {
      if (ev.kind === 'meta') continue
      if (ev.kind === 'statement') {
        const roles = rolesNamed(statementHead(ev.sql)).filter((r) => missing.has(r))
        if (roles.length) {
          result.skippedForRoles++
          continue
        }
        if (!ev.copyFromStdin) {
          batch.add(src, ev)
          if (batch.text.length >= MAX_BATCH_CHARS) await flush()
          continue
        }
        await flush()
        const stream = client.query(copyFrom(ev.sql.trim().replace(/;$/, '')))
        copy = { stream, src, ev }
        stream.on('error', (e: Error) => { if (copy) copy.failed = e })
        continue
      }
      if (!copy) continue
      if (ev.kind === 'copy-data') {
        if (copy.failed) continue
        if (!copy.stream.write(ev.data)) await drained(copy.stream)
        continue
      }
      // copy-end
      const c = copy
      copy = null
      if (!c.failed) {
        c.stream.end()
        await once(c.stream, 'finish').catch((e: Error) => { c.failed = e })
      }
      if (c.failed) await failCopy(c.src, c.ev, c.failed as pg.DatabaseError)
      result.copyRows += c.stream.rowCount
      result.statements++
    }
    await flush()
    await client.query('COMMIT')
    if (result.skippedForRoles) {
      core.info(
        `Skipped ${result.skippedForRoles} statement(s) that name roles this database does not have (${[...missing].join(', ')}): ` +
          'OWNER TO, GRANT and REVOKE from a dump made without --no-owner --no-privileges. Everything else ran as written.'
      )
    }
    result.durationMs = Date.now() - started
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined)
    if (err instanceof SeedError) throw err
    throw new SeedError(`Seeding failed: ${(err as Error).message}. Nothing was kept: the whole seed was rolled back.`)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/**
 * Connects, opens the seed's transaction and reads the database's roles, in
 * one round trip after the connection's own.
 * @returns role names (pg_roles.rolname)
 * @throws SeedError if the database cannot be reached
 */
async function openTransaction(client: pg.Client): Promise<string[]> {
  try {
    await client.connect()
    // A simple-protocol query with two statements answers with one result per statement.
    const results = (await client.query('BEGIN; SELECT rolname FROM pg_roles')) as unknown as pg.QueryResult<{ rolname: string }>[]
    return results[1].rows.map((r) => r.rolname)
  } catch (err) {
    throw new SeedError(`Seeding could not connect to the new database: ${(err as Error).message}`)
  }
}

/** Throws the SeedError of a failed COPY: the file line of the bad row (from the server's "COPY t, line N"), values hidden. */
async function failCopy(src: SeedSource, ev: StatementEvent, err: pg.DatabaseError): Promise<never> {
  const exact = await exactStatement(src.file, ev.index)
  const rowLine = /line (\d+)/.exec(err.where ?? '')?.[1]
  const line = rowLine && exact.copyDataLine ? exact.copyDataLine + Number(rowLine) - 1 : startOf(exact.statement).line
  throw new SeedError(
    `Seed failed at ${src.shown}:${line}: ${describe(err, true)} (in the data of "${firstLine(ev.sql)}"). Nothing was kept: the whole seed was rolled back.`,
    src.shown,
    line
  )
}

/** Finds which statement of a failed batch failed, and throws its SeedError. */
async function failBatch(client: pg.Client, batch: Batch, prefixLength: number, err: pg.DatabaseError): Promise<never> {
  let culprit: (typeof batch.items)[number] | undefined
  let error = err
  let position = err.position ? Number(err.position) - prefixLength : undefined
  if (position !== undefined && position > 0) {
    culprit = [...batch.items].reverse().find((it) => it.offset < position!)
    if (culprit) position -= culprit.offset
  } else {
    // No position (a runtime error): replay the batch one statement at a time to find it.
    await client.query('ROLLBACK TO SAVEPOINT preview_postgres_seed')
    for (const it of batch.items) {
      try {
        await client.query(it.ev.sql)
      } catch (e) {
        culprit = it
        error = e as pg.DatabaseError
        position = error.position ? Number(error.position) : undefined
        break
      }
    }
  }
  if (!culprit) throw new SeedError(`Seeding failed: ${describe(err, false)}. Nothing was kept: the whole seed was rolled back.`)
  const { statement } = await exactStatement(culprit.src.file, culprit.ev.index)
  const where = position ? locate(statement.sql, position, statement.line, statement.column) : startOf(statement)
  throw new SeedError(
    `Seed failed at ${culprit.src.shown}:${where.line}:${where.column}: ${describe(error, false)}. Statement: "${firstLine(culprit.ev.sql)}". ` +
      'Nothing was kept: the whole seed was rolled back.',
    culprit.src.shown,
    where.line,
    where.column
  )
}

/** File line and column of a statement's first keyword (its raw text may start with blank lines and comments). */
function startOf(ev: StatementEvent): { line: number; column: number } {
  return locate(ev.sql, ev.sql.length - statementHead(ev.sql).length + 1, ev.line, ev.column)
}

/**
 * The psql-compatible seed loader: plain SQL files and pg_dump plain output,
 * in one session and one transaction (like `psql -X -v ON_ERROR_STOP=1 -1`,
 * but all or nothing even where the files hold BEGIN/COMMIT).
 *
 * Two passes over the files, both streamed:
 * 1. check ({@link checkSeed}, check.ts, no database needed): refuses what
 *    cannot run before anything runs;
 * 2. load ({@link loadSeed}): statements are sent as the file's bytes (in the
 *    client encoding the file declares, as psql sends them), batched between
 *    COPY blocks behind a savepoint; a batch ends
 *    after a statement that changes how the server reads text
 *    (client_encoding, standard_conforming_strings), since the server parses
 *    a whole batch at once. COPY data goes out exactly as written, without
 *    being split into rows (the server counts them). Batches, COPY blocks
 *    and COMMIT are pipelined (pipeline.ts): the load waits for the server
 *    only at its end and where a meta-command needs an answer.
 * psql's meta-commands run as psql runs them, through one PsqlSession
 * (session.ts: variables, `\if` blocks, includes, which walkSeed follows),
 * meta-run.ts (`\copy … from` a file, `\gset`, `\gexec`) and the scanner
 * (`\copy … from stdin` data, statements `\g*` sends).
 * Neither pass counts COPY data lines, so an error found after a COPY block
 * is located by an exact rescan (exact.ts).
 * Errors name the file, line and column; COPY data values are never logged.
 */
import * as core from '@actions/core'
import pg from 'pg'
import type { Connection } from '../connection.js'
import { leaseSession } from '../pg-sessions.js'
import path from 'node:path'
import {
  type SeedPlan,
  type SeedSource,
  SeedError,
  firstLine,
  place,
  rescanOptions,
  startOf,
  statementRefusal,
  walkSeed,
  withVariables
} from './check.js'
import { classify } from './grammar.js'
import { copyFromFile, gexecCells, gset } from './meta-run.js'
import { type RowSet, rawQuery, rawRows } from './raw-query.js'
import { Pipeline, type PipelineFailure, UnexpectedCopyIn } from './pipeline.js'
import { exactMetaLine } from './exact.js'
import { describe, failBatch, failCopy } from './failure.js'
import { type MetaEvent, type StatementEvent, statementHead } from './scanner.js'
import { type Directive, MetaRefusal, PsqlSession } from './psql-session.js'

export { type SeedPlan, type SeedSource, SeedError, checkSeed, locate } from './check.js'

/** What {@link loadSeed} did. */
export interface SeedResult {
  files: number
  statements: number
  copyRows: number
  /** Statements skipped because they name a role the database does not have. */
  skippedForRoles: number
  /** BEGIN, START TRANSACTION, COMMIT and END statements dropped (the seed is one transaction). */
  skippedTransactionControl: number
  /** `COMMENT ON EXTENSION` for an extension another role owns (a managed database's built-ins, such as plpgsql). */
  skippedExtensionComments: number
  durationMs: number
}

/** The variables psql sets itself for a connection (psql docs, "Variables"), which `:DBNAME` and the like fill in. */
function psqlVariables(client: pg.Client, target: Target): Record<string, string> {
  const p = client as unknown as { database?: string; user?: string; host?: string; port?: number }
  return {
    DBNAME: p.database ?? '',
    USER: p.user ?? '',
    HOST: p.host ?? '',
    PORT: String(p.port ?? ''),
    ENCODING: 'UTF8',
    ON_ERROR_STOP: 'on',
    SERVER_VERSION_NUM: target.version[0],
    SERVER_VERSION_NAME: target.version[1]
  }
}

/** Role names that always exist. */
const BUILTIN_ROLES = new Set(['public', 'current_user', 'session_user', 'current_role'])

/** A batch of plain statements sent in one round trip, as the files' bytes. */
class Batch {
  items: { src: SeedSource; ev: StatementEvent; offset: number }[] = []
  parts: Buffer[] = []
  /** Characters so far (the server's error positions count characters), and bytes. */
  chars = 0
  bytes = 0
  add(src: SeedSource, ev: StatementEvent): void {
    this.items.push({ src, ev, offset: this.chars })
    this.parts.push(ev.raw)
    this.chars += ev.sql.length
    this.bytes += ev.raw.length
    if (ev.raw[ev.raw.length - 1] !== 0x0a) this.push(NEWLINE)
  }
  push(text: Buffer): void {
    this.parts.push(text)
    this.chars += text.length
    this.bytes += text.length
  }
}

const NEWLINE = Buffer.from('\n')
const MAX_BATCH_BYTES = 1 << 20
/**
 * Each batch moves the savepoint to its start, in the same round trip, so a
 * failed batch can be rolled back to its start and replayed one statement at
 * a time. A batch the server rejects whole (bytes invalid in the client
 * encoding: it converts the text before parsing) leaves the previous one.
 */
const NEXT_SAVEPOINT = Buffer.from('RELEASE SAVEPOINT preview_postgres_seed; SAVEPOINT preview_postgres_seed;\n')
/**
 * The seed's end, sent behind its last messages without waiting for them:
 * after a failure, RELEASE fails too (the transaction is aborted) and the
 * rest of the Query is skipped, so COMMIT never turns a failed seed into a
 * rollback the failure's replay could not use.
 */
const END = Buffer.from('RELEASE SAVEPOINT preview_postgres_seed; COMMIT')

/** What a pipelined message was: a batch, or a COPY block (`\\copy … from stdin` for a meta event). */
type Sent = { batch: Batch } | { src: SeedSource; ev: StatementEvent | MetaEvent } | { commit: true }

/** What the database has, read when the seed's transaction opens. */
interface Target {
  roles: string[]
  /** Extensions owned by a role the loading user is not a member of (a managed database's built-ins). */
  foreignExtensions: Set<string>
  /** server_version_num and server_version, for psql's SERVER_VERSION_NUM and SERVER_VERSION_NAME. */
  version: [string, string]
}

/**
 * Pass 2: loads a seed that {@link checkSeed} accepted into the database of
 * `connection` (its direct URL) in one session and one transaction.
 * Skipped, counted and logged: statements naming a role the database lacks
 * (OWNER TO, GRANT, REVOKE, ALTER DEFAULT PRIVILEGES FOR ROLE, from a dump
 * made without `--no-owner --no-privileges`); BEGIN, START TRANSACTION,
 * COMMIT and END (the seed is one transaction already); COMMENT ON EXTENSION
 * for an extension another role owns (plpgsql on a managed database: psql
 * stops there with "must be owner of extension").
 * @param signal a cancel (issue 20): ends the session, so the server rolls the transaction back and it is never committed
 * @returns counts, and `durationMs`: from this call to COMMIT (the check pass not included)
 * @throws SeedError naming file:line:column, the server's message, detail and
 *   hint, and the statement's first line; the database is left as it was.
 */
export async function loadSeed(connection: Connection, plan: SeedPlan, signal?: AbortSignal): Promise<SeedResult> {
  const started = Date.now()
  const { sources } = plan
  // the run's one session (session.ts), shared with the schema snapshots: a connection costs 5-6 round trips
  const lease = await leaseSession(connection).catch((err: Error) =>
    Promise.reject(new SeedError(`Seeding could not connect to the new database: ${err.message}`))
  )
  const { client } = lease
  const stop = (): void => void client.end().catch(() => undefined) // a cancel: COMMIT is never sent
  if (signal?.aborted) stop()
  else signal?.addEventListener('abort', stop, { once: true })
  let target: Target
  try {
    target = await openTransaction(client)
  } catch (err) {
    lease.release(true)
    throw err
  }
  const result: SeedResult = {
    files: sources.length,
    statements: 0,
    copyRows: 0,
    skippedForRoles: 0,
    skippedTransactionControl: 0,
    skippedExtensionComments: 0,
    durationMs: 0
  }
  const firstTransactionControl: string[] = []
  /** Batches and COPY blocks go out without waiting for the server (pipeline.ts); anything that reads an answer settles it first. */
  let pipe = null as Pipeline<Sent> | null
  try {
    const existing = new Set([...target.roles, ...plan.created])
    const missing = new Set<string>()
    let batch = new Batch()
    const pipeline = async (): Promise<Pipeline<Sent>> => (pipe ??= await Pipeline.open<Sent>(client))
    /** Waits for every answer; throws the SeedError of the first failure. */
    const settle = async (): Promise<void> => {
      if (!pipe) return
      const p = pipe
      pipe = null
      const failure = await p.settle()
      result.copyRows += p.copyRows
      if (failure) await locateFailure(failure)
    }
    /** Settles as soon as the server has failed a message (the messages after it take no effect). */
    const check = async (): Promise<void> => {
      if (pipe?.failure) await settle()
    }
    const flush = async (): Promise<void> => {
      if (!batch.items.length) return
      const current = batch
      batch = new Batch()
      const p = await pipeline()
      p.query(Buffer.concat([NEXT_SAVEPOINT, ...current.parts]), { batch: current })
      current.parts = [] // the items stay, for a replay
      result.statements += current.items.length
      await p.room()
      await check()
    }
    /** flush, then wait for the answers: before the client runs a query of its own. */
    const flushAll = async (): Promise<void> => {
      await flush()
      await settle()
    }
    let copy: { src: SeedSource; ev: StatementEvent | MetaEvent } | null = null
    const session = new PsqlSession(false)
    for (const [name, value] of Object.entries(psqlVariables(client, target))) session.variables.set(name, value)
    /** A statement sent by \gset or \gexec: its meta event comes next. */
    let query: { src: SeedSource; ev: StatementEvent } | null = null
    /** Each file's last statement, which \gset or \gexec on a line of its own sends again. */
    const previous = new Map<SeedSource, { src: SeedSource; ev: StatementEvent }>()
    /** The statement just before was sent by \g or \gx itself. */
    let sentByG = false
    /** Fails the seed at a meta-command's exact line, or `below` lines under it (a row of its inline data). */
    const failed = async (src: SeedSource, ev: MetaEvent, why: string, below = 0): Promise<never> => {
      const line = (await exactMetaLine(src.file, ev.index, ev.line, rescanOptions(src))) + below
      throw new SeedError(`Seed failed at ${place(src, line)}: ${why} Nothing was kept: the whole seed was rolled back.`, src.shown, line)
    }
    /** Throws the SeedError of a pipelined message the server failed: its statement, or its COPY row. */
    const locateFailure = async ({ tag, err }: PipelineFailure<Sent>): Promise<never> => {
      if (!tag || 'commit' in tag) throw err // COMMIT's own failure (a deferred constraint): the server rolled back
      if ('batch' in tag) {
        if (err instanceof UnexpectedCopyIn) {
          // the statement that became `COPY … FROM stdin` (by a psql variable): located as a server error at its first character
          const it = tag.batch.items.find((i) => /^COPY\b[\s\S]*\bFROM\s+P?STDIN\b/i.test(statementHead(i.ev.sql)))
          if (it)
            return failBatch(
              client,
              tag.batch,
              0,
              Object.assign(new Error(err.message), { position: String(it.offset + 1) }) as unknown as pg.DatabaseError
            )
        }
        // not the server's error (the session ended): there is nothing to replay on
        if ((err as pg.DatabaseError).severity === undefined) throw err
        return failBatch(client, tag.batch, NEXT_SAVEPOINT.length, err as pg.DatabaseError)
      }
      if (tag.ev.kind === 'meta') {
        const e = err as pg.DatabaseError
        const row = /line (\d+)/.exec(e.where ?? '')?.[1]
        // the data starts on the line after the \copy: the server's "line N" is N lines below it
        return failed(tag.src, tag.ev, `${describe(e, true)} (in the data of \\copy ${tag.ev.args}).`, row ? Number(row) : 0)
      }
      return failCopy(tag.src, tag.ev, err as pg.DatabaseError)
    }
    /**
     * Applies the seed's rules to a statement; false when it is skipped.
     * `generatedAt`: the `\gexec` line of a statement it generated (else the statement's own line).
     * Its line and text are worked out only for a message (once per statement would cost the --inserts load).
     * @throws SeedError for one that cannot run
     */
    const admit = (src: SeedSource, ev: StatementEvent, generatedAt?: number): boolean => {
      const c = ev.classified!
      const line = (): number => generatedAt ?? startOf(ev).line
      const text = (): string => `"${firstLine(ev.sql)}"${generatedAt === undefined ? '' : ' (generated by \\gexec)'}`
      const why = statementRefusal(c)
      if (why)
        throw new SeedError(
          `Seed failed at ${place(src, line())}: ${text()} ${why} Nothing was kept: the whole seed was rolled back.`,
          src.shown,
          line()
        )
      if (c.roles.some((r) => !existing.has(r) && !BUILTIN_ROLES.has(r))) {
        for (const r of c.roles) if (!existing.has(r) && !BUILTIN_ROLES.has(r)) missing.add(r)
        result.skippedForRoles++
        return false
      }
      if (c.kind === 'begin' || c.kind === 'commit') {
        if (result.skippedTransactionControl++ === 0) firstTransactionControl.push(place(src, line()), firstLine(ev.sql))
        return false
      }
      if (c.extensionComment !== undefined && target.foreignExtensions.has(c.extensionComment)) {
        result.skippedExtensionComments++
        core.info(
          `Skipped ${place(src, line())} ${text()}: extension ${c.extensionComment} belongs to the database's platform role, not to this seed's.`
        )
        return false
      }
      return true
    }
    const runQuery = async (
      src: SeedSource,
      ev: MetaEvent,
      q: { src: SeedSource; ev: StatementEvent },
      directive: Directive
    ): Promise<void> => {
      let rows: RowSet
      try {
        rows = await rawRows(client, q.ev.raw)
        result.statements++
      } catch (err) {
        const one = new Batch()
        one.add(q.src, q.ev)
        return failBatch(client, one, 0, err as pg.DatabaseError)
      }
      if (directive.kind === 'gset') return gset(session, rows, directive.prefix)
      let line: number | undefined
      for (const cell of gexecCells(rows)) {
        const generated: StatementEvent = {
          ...q.ev,
          sql: cell,
          raw: Buffer.from(cell),
          classified: classify(
            cell,
            statementHead(cell)
              .split(/[\s;(]/)[0]
              .toLowerCase()
          )
        }
        const shown = firstLine(cell)
        // the \gexec line, found once (a rescan of its file) for all the statements it generates
        line ??= await exactMetaLine(src.file, ev.index, ev.line, rescanOptions(src))
        if (!admit(src, generated, line)) continue
        try {
          await rawQuery(client, generated.raw)
          result.statements++
        } catch (err) {
          throw new SeedError(
            `Seed failed at ${place(src, line)}: ${describe(err as pg.DatabaseError, false)}. Statement generated by \\gexec: "${shown}". Nothing was kept: the whole seed was rolled back.`,
            src.shown,
            line
          )
        }
      }
    }
    for await (const [src, ev] of walkSeed(sources, { copyData: 'bytes' }, session)) {
      if (ev.kind === 'meta') {
        let directive: Directive
        try {
          directive = session.meta(src, ev)
          if (directive.kind === 'gset' || directive.kind === 'gexec') {
            // without a query of its own, psql sends the file's previous one again (mainloop.c: previous_buf)
            const q = query ?? previous.get(src)
            query = null
            if (!q) {
              core.info(
                `\\${ev.command} at ${place(src, ev.line)} has no query before it in its file: nothing sent (psql sends an empty query).`
              )
              continue
            }
            await flushAll()
            await runQuery(src, ev, q, directive)
            continue
          }
        } catch (err) {
          if (err instanceof MetaRefusal) await failed(src, ev, err.message)
          throw err
        }
        if ((ev.command === 'g' || ev.command === 'gx') && session.activity === 'yes') {
          // \g with a query of its own sent it as `;` does; alone, psql sends the file's previous query again
          const again = sentByG ? undefined : previous.get(src)
          sentByG = false
          if (again) {
            await flushAll()
            await rawQuery(client, again.ev.raw).catch(async (err: unknown) => {
              await failed(
                src,
                ev,
                `${describe(err as pg.DatabaseError, false)} (the query \\${ev.command} sent again: "${firstLine(again.ev.sql)}").`
              )
            })
            result.statements++
          }
          continue
        }
        if (directive.kind === 'print') core.info(directive.text)
        if (directive.kind !== 'copy') continue
        if (directive.file) {
          await flushAll()
          try {
            result.copyRows += await copyFromFile(client, directive.sql, directive.file)
            result.statements++
          } catch (err) {
            const e = err as pg.DatabaseError
            const row = /line (\d+)/.exec(e.where ?? '')?.[1]
            await failed(
              src,
              ev,
              `${describe(e, true)} (\\copy from ${path.relative(process.cwd(), directive.file)}${row ? `, line ${row}` : ''}).`
            )
          }
          continue
        }
        await flush()
        copy = { src, ev }
        ;(await pipeline()).copy(Buffer.from(directive.sql), copy)
        continue
      }
      if (ev.kind === 'statement') {
        if (session.activity !== 'yes') continue
        const st = withVariables(ev, session.lookup)
        previous.set(src, { src, ev: st })
        sentByG = st.endedBy === 'g' || st.endedBy === 'gx'
        if (st.endedBy === 'gset' || st.endedBy === 'gexec') {
          // the same rules as any statement; one that is skipped leaves nothing for \gset or \gexec to use
          const why = statementRefusal(st.classified!)
          if (why)
            throw new SeedError(
              `Seed failed at ${place(src, startOf(st).line)}: "${firstLine(st.sql)}" ${why} Nothing was kept: the whole seed was rolled back.`,
              src.shown
            )
          query = { src, ev: st }
          continue
        }
        if (!admit(src, st)) continue
        const c = st.classified!
        if (!st.copyFromStdin) {
          batch.add(src, st)
          // The server parses a whole batch before running it: end it where the way text is read changes, or where a file ends without `;`.
          if (batch.bytes >= MAX_BATCH_BYTES || c.changesLexing || !st.terminated || st.endedBy) await flush()
          continue
        }
        await flush()
        copy = { src, ev: st }
        ;(await pipeline()).copy(st.raw, copy)
        continue
      }
      if (!copy || !pipe) continue
      if (ev.kind === 'copy-data') await pipe.copyData(ev.data)
      else {
        // copy-end: its answer is read with the others
        pipe.copyDone()
        copy = null
        result.statements++
      }
      await check()
    }
    await flush()
    ;(await pipeline()).query(END, { commit: true })
    await settle()
    if (result.skippedForRoles) {
      core.info(
        `Skipped ${result.skippedForRoles} statement(s) that name roles this database does not have (${[...missing].join(', ')}): ` +
          'OWNER TO, GRANT, REVOKE and ALTER DEFAULT PRIVILEGES from a dump made without --no-owner --no-privileges. Everything else ran as written.'
      )
    }
    if (result.skippedExtensionComments) {
      core.info(
        `Skipped ${result.skippedExtensionComments} COMMENT ON EXTENSION statement(s) for extensions this managed database provides and its platform role owns.`
      )
    }
    if (result.skippedTransactionControl) {
      core.notice(
        `Ignored ${result.skippedTransactionControl} transaction-control statement(s) (BEGIN, START TRANSACTION, COMMIT, END; the first at ` +
          `${firstTransactionControl[0]}: "${firstTransactionControl[1]}"): the whole seed runs in one transaction and is kept all or nothing.`
      )
    }
    result.durationMs = Date.now() - started
    return result
  } catch (err) {
    await pipe?.settle() // the client must be ours again to roll back
    await client.query('ROLLBACK').catch(() => undefined)
    if (err instanceof SeedError) throw err
    throw new SeedError(`Seeding failed: ${(err as Error).message}. Nothing was kept: the whole seed was rolled back.`)
  } finally {
    lease.release(true)
  }
}

/**
 * Opens the seed's transaction and its savepoint, and reads the database's roles and
 * the extensions the loading user does not own (no membership in their
 * owner), in one round trip after the connection's own.
 * @throws SeedError if the database cannot be reached
 */
async function openTransaction(client: pg.Client): Promise<Target> {
  try {
    // A simple-protocol query with several statements answers with one result per statement.
    const results = (await client.query(
      "BEGIN; SAVEPOINT preview_postgres_seed; SELECT rolname FROM pg_roles; SELECT extname FROM pg_extension WHERE NOT pg_has_role(extowner, 'USAGE'); " +
        "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS name"
    )) as unknown as pg.QueryResult<Record<string, string>>[]
    const v = results[4].rows[0]
    return {
      roles: results[2].rows.map((r) => r.rolname),
      foreignExtensions: new Set(results[3].rows.map((r) => r.extname)),
      version: [v.num, v.name]
    }
  } catch (err) {
    throw new SeedError(`Seeding could not connect to the new database: ${(err as Error).message}`)
  }
}

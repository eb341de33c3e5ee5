/**
 * The load pass's walk over a seed: each event of each file, as one psql
 * session acts on it. Statements go through the seed's rules (rules.ts) to
 * the server (send.ts); meta-commands through psql's rules (psql/session.ts)
 * and, where they need the database (`\gset`, `\gexec`, `\g`, `\copy`),
 * through meta-run.ts.
 */
import * as core from '@actions/core'
import type pg from 'pg'
import type { MetaEvent } from '../psql/scanner.js'
import { textBytes } from '../psql/psqlslash.js'
import { RESULT_VARIABLES, referencedNames, rowCount } from '../psql/variables.js'
import { firstWordOf, scanText } from '../psql/scanner.js'
import { type Directive, MetaRefusal, PsqlSession } from '../psql/session.js'
import { Batch } from './batch.js'
import { type SeedSource, SeedError, firstLine, place, rescanOptions, walkSeed, asSent } from './check.js'
import { describe, failBatch, failMeta } from './failure.js'
import { type SeedEvent, type SeedStatement, classify } from './grammar.js'
import { gexecCells, gset } from './meta-run.js'
import type { RowSet } from './raw-query.js'
import { exactMetaLine } from './rescan.js'
import type { SeedRules } from './rules.js'
import type { Sender } from './send.js'

/** How deep values that hold values are re-scanned (psql stops a variable from holding itself; this stops any loop). */
const MAX_RESCAN_DEPTH = 10

/** A statement and the file it came from. */
interface Sourced {
  src: SeedSource
  ev: SeedStatement
}

/** One load of a seed's files, in order, on the client `send` uses. */
export class SeedLoad {
  private readonly session = new PsqlSession(false)
  /** A statement sent by `\gset` or `\gexec`: its meta event comes next. */
  private query: Sourced | null = null
  /** Each file's last statement, which `\gset` or `\gexec` on a line of its own sends again. */
  private readonly previous = new Map<SeedSource, Sourced>()
  /** The statement just before was sent by `\g` or `\gx` itself. */
  private sentByG = false

  /**
   * @param variables psql's variables for the connection (`DBNAME`, `SERVER_VERSION_NUM`, …)
   * @param client the client `send` uses, for a failed statement's replay
   */
  constructor(
    private readonly send: Sender,
    private readonly rules: SeedRules,
    variables: Record<string, string>,
    private readonly client: pg.Client
  ) {
    for (const [name, value] of Object.entries(variables)) this.session.variables.set(name, value)
  }

  /** Loads every event of `sources`, then sends COMMIT. @throws SeedError naming file:line of the first failure */
  async run(sources: SeedSource[]): Promise<void> {
    for await (const [src, ev] of walkSeed(sources, { copyData: 'bytes' }, this.session)) await this.event(src, ev)
    await this.send.commit()
  }

  private async event(src: SeedSource, ev: SeedEvent, depth = 0): Promise<void> {
    if (ev.kind === 'meta') await this.meta(src, ev)
    else if (ev.kind === 'statement') await this.statement(src, ev, depth)
    else if (ev.kind === 'copy-data') await this.send.copyData(ev.data)
    else await this.send.copyEnd()
  }

  private async statement(src: SeedSource, ev: SeedStatement, depth: number): Promise<void> {
    if (this.session.activity !== 'yes') return
    if (ev.psqlVariables) {
      await this.readResults(ev.psqlVariables.flatMap(referencedNames))
      if (depth < MAX_RESCAN_DEPTH && this.needsRescan(ev)) return this.rescan(src, ev, depth)
    }
    const st = asSent(ev, this.session)
    this.previous.set(src, { src, ev: st })
    this.sentByG = st.endedBy === 'g' || st.endedBy === 'gx'
    if (st.endedBy === 'gset' || st.endedBy === 'gexec') {
      this.rules.refuse(src, st)
      this.query = { src, ev: st }
      return
    }
    if (!this.rules.admit(src, st)) return
    if (st.copyFromStdin) return this.send.startCopy(src, st, st.raw)
    // The server parses a whole batch before running it: end it where the way text is read changes, or where a file ends without `;`.
    await this.send.statement(src, st, st.classified!.changesLexing || !st.terminated || st.endedBy !== undefined)
  }

  /** A statement with a `:name` whose value holds a backslash or a `;`: psql reads that value as input (meta-commands, statement ends). */
  private needsRescan(ev: SeedStatement): boolean {
    return ev.psqlVariables!.some((ref) => {
      if (!/^:[^'"{]/.test(ref)) return false
      const value = this.session.lookup(ref.slice(1))
      return typeof value === 'string' && /[\\;]/.test(value)
    })
  }

  /**
   * Runs a statement's text with its variables filled in as new input, as
   * psql re-scans an interpolated value (psqlscan.l: psqlscan_push_new_buffer):
   * a value may hold meta-commands or several statements. Lines count from
   * the statement's first line.
   */
  private async rescan(src: SeedSource, ev: SeedStatement, depth: number): Promise<void> {
    const text = asSent(ev, this.session).raw
    const lexing = { standardConformingStrings: ev.standardConformingStrings ?? true }
    const events = scanText(text, { classify, lexing })
    const last = events.findLastIndex((e) => e.kind === 'statement')
    for (const [k, e] of events.entries()) {
      // an error is placed at the statement the value was used in (its ordinal, for the rescan that finds its line)
      const line = ev.line + ('line' in e ? e.line - 1 : 0)
      if (e.kind === 'meta') await this.event(src, { ...e, line, index: -1 }, depth + 1)
      else if (e.kind !== 'statement') await this.event(src, e, depth + 1)
      else {
        // the last one ends as the statement did (with `;`, or sent by \g, \gset, \gexec)
        const end = k === last ? { terminated: ev.terminated, endedBy: ev.endedBy } : {}
        await this.event(src, { ...e, line, index: ev.index, ...end }, depth + 1)
      }
    }
  }

  /**
   * psql's ERROR, SQLSTATE and ROW_COUNT (set after each query) and ENCODING
   * (the client encoding), when `names` use one: read from the answers to
   * what was sent so far, which are waited for first.
   */
  private async readResults(names: string[]): Promise<void> {
    if (!names.some((n) => RESULT_VARIABLES.has(n))) return
    await this.send.flushAll()
    const v = this.session.variables
    if (this.send.lastTag !== undefined) {
      // a seed stops at its first error, so ERROR is false whenever the seed goes on
      v.set('ERROR', 'false')
      v.set('SQLSTATE', '00000')
      v.set('ROW_COUNT', rowCount(this.send.lastTag))
    }
    if (names.includes('ENCODING')) v.set('ENCODING', await this.send.clientEncoding())
  }

  private async meta(src: SeedSource, ev: MetaEvent): Promise<void> {
    if (this.session.activity === 'yes') await this.readResults(referencedNames(ev.args))
    let directive: Directive
    try {
      directive = this.session.meta(src, ev)
      if (directive.kind === 'gset' || directive.kind === 'gexec') {
        // without a query of its own, psql sends the file's previous one again (mainloop.c: previous_buf)
        const q = this.query ?? this.previous.get(src)
        this.query = null
        if (!q) {
          core.info(
            `\\${ev.command} at ${place(src, ev.line)} has no query before it in its file: nothing sent (psql sends an empty query).`
          )
          return
        }
        await this.send.flushAll()
        return await this.runQuery(src, ev, q, directive)
      }
    } catch (err) {
      if (err instanceof MetaRefusal) await failMeta(src, ev, err.message)
      throw err
    }
    if ((ev.command === 'g' || ev.command === 'gx') && this.session.activity === 'yes') return this.resend(src, ev)
    if (directive.kind === 'print') core.info(directive.text)
    if (directive.kind === 'warning') core.warning(`${place(src, ev.line)}: ${directive.text}`)
    if (directive.kind !== 'copy') return
    if (directive.file) return this.send.copyFile(src, ev, directive.sql, directive.file)
    await this.send.startCopy(src, ev, textBytes(directive.sql))
  }

  /** `\g` with a query of its own sent it as `;` does; alone, psql sends the file's previous query again. */
  private async resend(src: SeedSource, ev: MetaEvent): Promise<void> {
    const again = this.sentByG ? undefined : this.previous.get(src)
    this.sentByG = false
    if (!again) return
    await this.send.flushAll()
    await this.send.query(again.ev.raw).catch(async (err: unknown) => {
      await failMeta(
        src,
        ev,
        `${describe(err as pg.DatabaseError, false)} (the query \\${ev.command} sent again: "${firstLine(again.ev.sql)}").`
      )
    })
  }

  /** `\gset` or `\gexec`: runs `q` and uses its rows. */
  private async runQuery(src: SeedSource, ev: MetaEvent, q: Sourced, directive: Directive): Promise<void> {
    let rows: RowSet
    try {
      rows = await this.send.rows(q.ev.raw)
    } catch (err) {
      const one = new Batch()
      one.add(q.src, q.ev)
      return failBatch(this.client, one, 0, err as pg.DatabaseError)
    }
    if (directive.kind === 'gset') return gset(this.session, rows, directive.prefix)
    let line: number | undefined
    for (const cell of gexecCells(rows)) {
      const generated: SeedStatement = { ...q.ev, sql: cell, raw: Buffer.from(cell), classified: classify(cell, firstWordOf(cell)) }
      // the \gexec line, found once (a rescan of its file) for all the statements it generates
      line ??= await exactMetaLine(src.file, ev.index, ev.line, rescanOptions(src))
      if (!this.rules.admit(src, generated, line)) continue
      try {
        await this.send.query(generated.raw)
      } catch (err) {
        throw new SeedError(
          `Seed failed at ${place(src, line)}: ${describe(err as pg.DatabaseError, false)}. Statement generated by \\gexec: "${firstLine(cell)}". Nothing was kept: the whole seed was rolled back.`,
          src.shown,
          line
        )
      }
    }
  }
}

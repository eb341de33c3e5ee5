/**
 * The seed's check pass: reads every file (COPY data skipped unread) and
 * refuses what cannot run, before any database is touched. Needs no
 * connection, so the action runs it before it creates a database: a refused
 * seed creates nothing. Statement kinds come from PostgreSQL's grammar
 * (grammar.ts); splitting follows psql's lexer (psql/psqlscan.ts); included
 * files are read where `\i`/`\ir` stand (walkSeed), and meta-commands are
 * judged by the same PsqlSession the load keeps (psql/session.ts).
 */
import path from 'node:path'
import {
  type Classified,
  type SeedEvent,
  type SeedScanOptions,
  type SeedStatement,
  asciiSafeEncoding,
  classify,
  loadGrammar
} from './grammar.js'
import { interpolate } from '../psql/psqlslash.js'
import { firstWordOf, scanFile, statementHead } from '../psql/scanner.js'
import { MetaRefusal, PsqlSession, type SeedSource, place } from '../psql/session.js'

export { type SeedSource, place } from '../psql/session.js'

/** A seed that failed; the database is as it was before seeding (rolled back, or never started). */
export class SeedError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly column?: number
  ) {
    super(message)
    this.name = 'SeedError'
  }
}

/** A seed the check pass accepted: what loadSeed loads. */
export interface SeedPlan {
  sources: SeedSource[]
  /** Roles the seed names in OWNER TO, GRANT, REVOKE and ALTER DEFAULT PRIVILEGES (as the server spells them). */
  needed: Set<string>
  /** Roles the seed creates itself (`CREATE ROLE/USER/GROUP`). */
  created: Set<string>
  /** Files that `\\i`/`\\ir` pull in, counted where the check pass read them. */
  included: number
  /** How long the check pass took, milliseconds. */
  checkMs: number
}

/** 1-based line and column of 1-based character `position` in `text`, which starts at `line`:`column` of its file. */
export function locate(text: string, position: number, line = 1, column = 1): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, position - 1)).split('\n')
  return before.length === 1
    ? { line, column: column + before[0].length }
    : { line: line + before.length - 1, column: before.at(-1)!.length + 1 }
}

/** A statement's first line, for messages (at most 120 characters). */
export const firstLine = (sql: string): string => {
  const head = statementHead(sql).split('\n')[0].replace(/\r$/, '')
  return head.length > 120 ? `${head.slice(0, 117)}...` : head
}

/** File line and column of a statement's first keyword (its raw text may start with blank lines and comments). */
export function startOf(ev: SeedStatement): { line: number; column: number } {
  return locate(ev.sql, ev.sql.length - statementHead(ev.sql).length + 1, ev.line, ev.column)
}

/** Scan options for `src` alone, lexed as it was in the whole seed (for exact rescans). */
export const rescanOptions = (src: SeedSource): Omit<SeedScanOptions, 'copyData'> => ({
  classify,
  lexing: { standardConformingStrings: src.startStandardConformingStrings ?? true }
})

/**
 * Streams every event of every file, with the file it came from, as one psql
 * session reads them: standard_conforming_strings carries from file to file;
 * each file's statements and `\if` blocks are its own (a last statement
 * without `;` ends with its file); after a `\i`/`\ir` meta event that
 * `session` accepted (its {@link PsqlSession.include}), the included file's
 * events come next. Needs {@link loadGrammar}.
 * @throws UnclosedIf for an `\if` left open at the end of a file
 */
export async function* walkSeed(
  sources: SeedSource[],
  options: SeedScanOptions,
  session: PsqlSession
): AsyncGenerator<[SeedSource, SeedEvent]> {
  const lexing = { standardConformingStrings: true }
  // One generator over a stack of open files (not one generator per file: each level of
  // `yield*` would add a hop to every event of a dump of INSERTs).
  const open: { src: SeedSource; events: AsyncGenerator<SeedEvent> }[] = []
  const start = (src: SeedSource): void => {
    session.enterFile(src)
    src.startStandardConformingStrings = lexing.standardConformingStrings
    open.push({ src, events: scanFile(src.file, { ...options, classify, lexing }) })
  }
  try {
    for (const first of sources) {
      start(first)
      while (open.length) {
        const top = open[open.length - 1]
        const next = await top.events.next()
        if (next.done) {
          open.pop()
          const unclosed = session.leaveFile()
          if (unclosed !== undefined) throw new UnclosedIf(top.src, unclosed)
          continue
        }
        yield [top.src, next.value]
        if (session.quit) {
          // \q: the rest of this file is not read (psql ends that script)
          session.quit = false
          open.pop()
          await top.events.return(undefined)
          session.leaveFile()
          continue
        }
        const include = session.include
        if (include) {
          session.include = null
          start(include)
        }
      }
    }
  } finally {
    // a refusal or error ends the walk: close the files still open
    for (const f of open.reverse()) await f.events.return(undefined)
  }
}

/** An `\if` with no `\endif` before its file ended. */
export class UnclosedIf extends MetaRefusal {
  constructor(
    readonly src: SeedSource,
    readonly ifLine: number
  ) {
    super(
      `the \\if at line ${ifLine} has no \\endif before the end of ${src.shown} (psql: "reached EOF without finding closing \\endif(s)"). Balance every \\if with \\endif in the same file.`
    )
  }
}

/**
 * Why a statement of this kind cannot run in the seed, or undefined: the
 * same rules for a file's statements (check pass and load) and for those
 * `\gexec` generates (at load time).
 */
export function statementRefusal(c: Classified): string | undefined {
  if (c.kind === 'database') return 'cannot work on a provisioned database (it already exists, and you are connected to it).'
  if (c.kind === 'transaction') {
    return (
      'would change the outcome of the seed, which runs in one transaction, all or nothing (BEGIN, START TRANSACTION, COMMIT and END are ignored; ' +
      'ROLLBACK, SAVEPOINT, RELEASE and PREPARE TRANSACTION are not). Remove it.'
    )
  }
  if (c.kind === 'no-transaction')
    return 'cannot run inside a transaction block, and the whole seed runs in one. Drop CONCURRENTLY, or run it from `seed-command`.'
  if (c.clientEncoding !== undefined && !asciiSafeEncoding(c.clientEncoding)) {
    return (
      `sets client encoding ${c.clientEncoding}, in which a quote or backslash byte can be part of a character; the loader reads files byte by byte ` +
      'and supports UTF8 and the single-byte and EUC encodings. Convert the file to UTF-8 (iconv) and set client_encoding to UTF8.'
    )
  }
  return undefined
}

/**
 * A statement as psql sends it: without the text an inactive `\if` branch
 * added to it (PsqlSession.activeText), with psql variables filled in from
 * the session (as psql fills them in when it reads the statement), and
 * classified again if its text changed; the same event when neither applies.
 */
export function asSent(ev: SeedStatement, session: PsqlSession): SeedStatement {
  const active = session.activeText(ev)
  const raw = ev.psqlVariables ? interpolate(active, ev.standardConformingStrings ?? true, session.lookup) : active
  if (raw === ev.raw) return ev
  const sql = raw.toString('utf8')
  const firstWord = active === ev.raw ? ev.firstWord : firstWordOf(sql)
  return { ...ev, raw, sql, firstWord, classified: classify(sql, firstWord) }
}

/**
 * Pass 1: refuses, before any database is touched, what cannot run: psql
 * meta-commands the loader does not run (`\connect`, `\!`, `\o`, `\copy … to`,
 * …; psql/session.ts), an `\unrestrict` whose key does not match, unbalanced `\if`
 * blocks, include cycles, a missing `\i` or `\copy` file; `CREATE/DROP/ALTER
 * DATABASE`; transaction control that would change the outcome (ROLLBACK,
 * SAVEPOINT, PREPARE TRANSACTION, …; BEGIN/START TRANSACTION/COMMIT/END pass:
 * the load drops them); statements that cannot run inside a transaction
 * block; a client encoding psql would lex with multibyte tables (SJIS, BIG5,
 * …). Included files are read and checked where they are included. What
 * depends on a `\gset` value (an `\if` on it, `\gexec`'s statements) is
 * checked by the load, with the same rules.
 * @param files paths in load order; `cwd` makes the names errors show, and is where `\i` and `\copy` files are found
 * @throws SeedError "Seed refused at file:line[:column]: …" (exact line, found
 *   by a rescan that counts COPY data lines); Error if a file cannot be read
 *   or has a COPY block without its `\.` line
 */
export async function checkSeed(files: string[], cwd = process.cwd()): Promise<SeedPlan> {
  const started = Date.now()
  await loadGrammar()
  const sources = files.map((file) => ({ file, shown: path.relative(cwd, file) || file }))
  let found: { needed: Set<string>; created: Set<string>; included: number }
  try {
    found = await checkEvents(sources, { copyData: 'skip' }, cwd)
  } catch (err) {
    // COPY data was skipped unread, so lines after a COPY block lag: find the refusal's exact line
    if (!(err instanceof SeedError)) throw err
    found = await checkEvents(sources, {}, cwd)
  }
  return { sources, ...found, checkMs: Date.now() - started }
}

async function checkEvents(
  sources: SeedSource[],
  options: SeedScanOptions,
  cwd: string
): Promise<{ needed: Set<string>; created: Set<string>; included: number }> {
  let included = 0
  const needed = new Set<string>()
  const created = new Set<string>()
  const session = new PsqlSession(true, cwd)
  try {
    for await (const [from, ev] of walkSeed(sources, options, session)) {
      if (ev.kind === 'meta') {
        const refuse = (why: string): never => {
          throw new SeedError(`Seed refused at ${place(from, ev.line)}: ${why} Nothing was run.`, from.shown, ev.line)
        }
        try {
          session.meta(from, ev)
          if (session.include) included++
        } catch (err) {
          if (err instanceof MetaRefusal) refuse(err.message)
          throw err
        }
        continue
      }
      if (ev.kind !== 'statement' || session.activity !== 'yes') continue
      const stmt = asSent(ev, session)
      const c = stmt.classified!
      const why = statementRefusal(c)
      if (why) {
        const start = startOf(ev)
        throw new SeedError(
          `Seed refused at ${place(from, start.line, start.column)}: "${firstLine(stmt.sql)}" ${why} Nothing was run.`,
          from.shown,
          start.line,
          start.column
        )
      }
      for (const r of c.roles) needed.add(r)
      if (c.createdRole) created.add(c.createdRole)
    }
  } catch (err) {
    if (err instanceof UnclosedIf)
      throw new SeedError(`Seed refused at ${place(err.src, err.ifLine)}: ${err.message} Nothing was run.`, err.src.shown, err.ifLine)
    throw err
  }
  return { needed, created, included }
}

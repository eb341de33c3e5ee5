/**
 * The seed's check pass: reads every file (COPY data skipped unread) and
 * refuses what cannot run, before any database is touched. Needs no
 * connection, so the action runs it before it creates a database: a refused
 * seed creates nothing. Statement kinds come from PostgreSQL's grammar
 * (grammar.ts); splitting follows psql's lexer (psqlscan.ts).
 */
import path from 'node:path'
import { asciiSafeEncoding, classify, loadGrammar } from './grammar.js'
import { type ScanEvent, type ScanOptions, type StatementEvent, scanFile, statementHead } from './scanner.js'

/** A seed that failed; the database is as it was before seeding (rolled back, or never started). */
export class SeedError extends Error {
  constructor(message: string, readonly file?: string, readonly line?: number, readonly column?: number) {
    super(message)
    this.name = 'SeedError'
  }
}

/** A seed file: its path, and the name errors show (relative to the working directory). */
export interface SeedSource {
  file: string
  shown: string
  /** standard_conforming_strings when the file starts (an earlier file may have changed it), for exact rescans. */
  startStandardConformingStrings?: boolean
}

/** A seed the check pass accepted: what loadSeed loads. */
export interface SeedPlan {
  sources: SeedSource[]
  /** Roles the seed names in OWNER TO, GRANT, REVOKE and ALTER DEFAULT PRIVILEGES (as the server spells them). */
  needed: Set<string>
  /** Roles the seed creates itself (`CREATE ROLE/USER/GROUP`). */
  created: Set<string>
  /** How long the check pass took, milliseconds. */
  checkMs: number
}

/**
 * Variables psql sets itself (psql docs, "Variables"), which `:NAME` in a
 * statement fills in on the client; the loader sends SQL as written.
 */
const PSQL_VARIABLES = new Set([
  'AUTOCOMMIT', 'COMP_KEYWORD_CASE', 'DBNAME', 'ECHO', 'ECHO_HIDDEN', 'ENCODING', 'ERROR', 'FETCH_COUNT', 'HIDE_TABLEAM',
  'HIDE_TOAST_COMPRESSION', 'HISTCONTROL', 'HISTFILE', 'HISTSIZE', 'HOST', 'IGNOREEOF', 'LASTOID', 'LAST_ERROR_MESSAGE',
  'LAST_ERROR_SQLSTATE', 'ON_ERROR_ROLLBACK', 'ON_ERROR_STOP', 'PORT', 'PROMPT1', 'PROMPT2', 'PROMPT3', 'QUIET', 'ROW_COUNT',
  'SERVER_VERSION_NAME', 'SERVER_VERSION_NUM', 'SHELL_ERROR', 'SHELL_EXIT_CODE', 'SHOW_ALL_RESULTS', 'SHOW_CONTEXT', 'SINGLELINE',
  'SINGLESTEP', 'SQLSTATE', 'USER', 'VERBOSITY', 'VERSION', 'VERSION_NAME', 'VERSION_NUM'
])

/** Meta-commands psql honours that we honour too (pg_dump 17.6+, 16.10+, 15.14+, 14.19+, 13.22+ emit them). */
const ALLOWED_META = new Set(['restrict', 'unrestrict'])

/** 1-based line and column of 1-based character `position` in `text`, which starts at `line`:`column` of its file. */
export function locate(text: string, position: number, line = 1, column = 1): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, position - 1)).split('\n')
  return before.length === 1 ? { line, column: column + before[0].length } : { line: line + before.length - 1, column: before.at(-1)!.length + 1 }
}

/** A statement's first line, for messages (at most 120 characters). */
export const firstLine = (sql: string): string => {
  const head = statementHead(sql).split('\n')[0].replace(/\r$/, '')
  return head.length > 120 ? `${head.slice(0, 117)}...` : head
}

/** File line and column of a statement's first keyword (its raw text may start with blank lines and comments). */
export function startOf(ev: StatementEvent): { line: number; column: number } {
  return locate(ev.sql, ev.sql.length - statementHead(ev.sql).length + 1, ev.line, ev.column)
}

/** Scan options for `src` alone, lexed as it was in the whole seed (for exact rescans). */
export const rescanOptions = (src: SeedSource): Omit<ScanOptions, 'copyData'> => ({
  classify,
  lexing: { standardConformingStrings: src.startStandardConformingStrings ?? true }
})

/**
 * Streams every event of every file, with the file it came from, lexed as
 * one psql session reads them: standard_conforming_strings carries from file
 * to file; each file's statements are its own (a last statement without `;`
 * ends with its file). Needs {@link loadGrammar}.
 */
export async function* scanAll(sources: SeedSource[], options: ScanOptions = {}): AsyncGenerator<[SeedSource, ScanEvent]> {
  const lexing = { standardConformingStrings: true }
  for (const src of sources) {
    src.startStandardConformingStrings = lexing.standardConformingStrings
    for await (const ev of scanFile(src.file, { ...options, classify, lexing })) yield [src, ev]
  }
}

/**
 * Pass 1: refuses, before any database is touched: psql meta-commands other
 * than `\restrict`/`\unrestrict` (or an `\unrestrict` whose key does not
 * match), wherever they stand outside quotes; `CREATE/DROP/ALTER DATABASE`;
 * transaction control that would change the outcome (ROLLBACK, SAVEPOINT,
 * PREPARE TRANSACTION, …; BEGIN/START TRANSACTION/COMMIT/END pass: the load
 * drops them); statements that cannot run inside a transaction block; a
 * client encoding psql would lex with multibyte tables (SJIS, BIG5, …);
 * psql variables psql would fill in (`:'name'`, `:"name"`, and `:NAME` for
 * a variable psql sets itself, such as `:DBNAME`).
 * @param files paths in load order; `cwd` makes the names errors show
 * @throws SeedError "Seed refused at file:line[:column]: …" (exact line, found
 *   by a rescan that counts COPY data lines); Error if a file cannot be read
 *   or has a COPY block without its `\.` line
 */
export async function checkSeed(files: string[], cwd = process.cwd()): Promise<SeedPlan> {
  const started = Date.now()
  await loadGrammar()
  const sources = files.map((file) => ({ file, shown: path.relative(cwd, file) || file }))
  let found: { needed: Set<string>; created: Set<string> }
  try {
    found = await checkEvents(sources, { copyData: 'skip' })
  } catch (err) {
    // COPY data was skipped unread, so lines after a COPY block lag: find the refusal's exact line
    if (!(err instanceof SeedError)) throw err
    found = await checkEvents(sources, {})
  }
  return { sources, ...found, checkMs: Date.now() - started }
}

const META_ADVICE =
  'Nothing was run. Produce the dump with `pg_dump --no-owner --no-privileges --format=plain`, or move client-side steps to `seed-command`.'

async function checkEvents(sources: SeedSource[], options: ScanOptions): Promise<{ needed: Set<string>; created: Set<string> }> {
  const needed = new Set<string>()
  const created = new Set<string>()
  let restrictKey: string | null = null
  for await (const [src, ev] of scanAll(sources, options)) {
    const at = (line: number, column?: number): string => `${src.shown}:${line}${column ? `:${column}` : ''}`
    if (ev.kind === 'meta') {
      const refuse = (why: string): never => {
        throw new SeedError(`Seed refused at ${at(ev.line)}: ${why}`, src.shown, ev.line)
      }
      if (ev.command === 'gexec') {
        refuse(
          'psql meta-command \\gexec is not supported: it runs the rows a query returns as statements, which cannot be checked before the database exists. ' +
            'Write those statements out, use a DO block with EXECUTE, or run it from `seed-command`. Nothing was run.'
        )
      }
      if (!ALLOWED_META.has(ev.command)) {
        refuse(`psql meta-command \\${ev.command} is not supported (only \\restrict and \\unrestrict, which pg_dump emits, are). ${META_ADVICE}`)
      }
      if (ev.command === 'restrict') restrictKey = ev.args
      else if (ev.args !== restrictKey) refuse('\\unrestrict key does not match the \\restrict key (as psql would refuse it). Nothing was run.')
      else restrictKey = null
      continue
    }
    if (ev.kind !== 'statement') continue
    const c = ev.classified!
    const refuse = (why: string): never => {
      const start = startOf(ev)
      throw new SeedError(`Seed refused at ${at(start.line, start.column)}: "${firstLine(ev.sql)}" ${why}`, src.shown, start.line, start.column)
    }
    const variable = ev.psqlVariables?.find((v) => v[1] === "'" || v[1] === '"' || PSQL_VARIABLES.has(v.slice(1)))
    if (variable) {
      refuse(
        `uses the psql variable ${variable}, which psql fills in on the client; the loader sends SQL as written. ` +
          'Write the value out (or use current_database(), current_user), or run psql from `seed-command`. Nothing was run.'
      )
    }
    if (c.kind === 'database') refuse('cannot work on a provisioned database (it already exists, and you are connected to it). Nothing was run.')
    if (c.kind === 'transaction') {
      refuse(
        'would change the outcome of the seed, which runs in one transaction, all or nothing (BEGIN, START TRANSACTION, COMMIT and END are ignored; ' +
          'ROLLBACK, SAVEPOINT, RELEASE and PREPARE TRANSACTION are not). Remove it. Nothing was run.'
      )
    }
    if (c.kind === 'no-transaction') {
      refuse('cannot run inside a transaction block, and the whole seed runs in one. Nothing was run. Drop CONCURRENTLY, or run it from `seed-command`.')
    }
    if (c.clientEncoding !== undefined && !asciiSafeEncoding(c.clientEncoding)) {
      refuse(
        `sets client encoding ${c.clientEncoding}, in which a quote or backslash byte can be part of a character; the loader reads files byte by byte ` +
          'and supports UTF8 and the single-byte and EUC encodings. Convert the file to UTF-8 (iconv) and set client_encoding to UTF8. Nothing was run.'
      )
    }
    for (const r of c.roles) needed.add(r)
    if (c.createdRole) created.add(c.createdRole)
  }
  return { needed, created }
}

/**
 * What a seed statement is, by PostgreSQL's own grammar: libpg-query (the
 * server's parser, PostgreSQL 17, compiled to WebAssembly). The loader asks
 * it only where a statement's kind matters: database statements, transaction
 * control, statements that cannot run in a transaction block, the roles a
 * statement names, and settings that change how psql lexes what follows.
 */
import type { LexingChange, ScanEvent, ScanOptions, StatementEvent } from '../psql/scanner.js'
import { loadParser, parseSql } from '../sql-parser.js'

/** Loads the parser (about 20 ms, once per process; sql-parser.ts). Call before {@link classify}. */
export const loadGrammar = loadParser

/**
 * A statement's kind, as far as the loader cares:
 * - `database`: works on a database, not in one (CREATE/DROP/ALTER DATABASE);
 * - `begin`, `commit`: transaction control the loader drops (BEGIN, START TRANSACTION; COMMIT, END);
 * - `transaction`: transaction control that would change the seed's outcome
 *   (ROLLBACK, ABORT, SAVEPOINT, RELEASE, ROLLBACK TO, PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED);
 * - `no-transaction`: cannot run inside a transaction block;
 * - `other`: anything else, including what this grammar cannot parse (the server decides).
 */
export type StatementKind = 'database' | 'begin' | 'commit' | 'transaction' | 'no-transaction' | 'other'

/** What {@link classify} found. Role names are as the server sees them (unquoted ones lower-cased). */
export interface Classified extends LexingChange {
  kind: StatementKind
  /** `OWNER TO r`, `GRANT … TO r`, `REVOKE … FROM r`, `GRANT role TO r`, `ALTER DEFAULT PRIVILEGES FOR ROLE r … TO r2`. */
  roles: string[]
  /** The role a `CREATE ROLE/USER/GROUP` makes. */
  createdRole?: string
  /** `COMMENT ON EXTENSION name`: skipped when the extension belongs to another role (a managed database's built-ins). */
  extensionComment?: string
  /** Changes a setting that decides how the server reads the next statements' text (client_encoding, standard_conforming_strings). */
  changesLexing: boolean
  /** The encoding a `SET client_encoding`/`SET NAMES` names (DEFAULT and RESET: the connection's, UTF8). */
  clientEncoding?: string
}

/** A statement as the seed scans it: classified by {@link classify}. */
export type SeedStatement = StatementEvent<Classified>
/** The scanner's events for the seed (statements classified). */
export type SeedEvent = ScanEvent<Classified>
/** Scan options for the seed. */
export type SeedScanOptions = ScanOptions<Classified>

/** First words of statements whose kind can matter. Others (INSERT, COPY, SELECT, UPDATE, …) are not parsed: 30 µs each adds up over a dump of INSERTs. */
const WORTH_PARSING = new Set([
  'abort',
  'alter',
  'analyze',
  'begin',
  'cluster',
  'comment',
  'commit',
  'create',
  'drop',
  'end',
  'grant',
  'prepare',
  'reindex',
  'release',
  'reset',
  'revoke',
  'rollback',
  'savepoint',
  'set',
  'start',
  'vacuum'
])
/** Settings that change how the server reads statement text (and, for the second, how psql lexes it); `SET NAMES` is found by parsing. */
const LEXING = /client_encoding|standard_conforming_strings/i

type Node = Record<string, unknown>
interface RoleSpec {
  roletype: string
  rolename?: string
}

const roleNames = (specs: unknown[] | undefined): string[] =>
  (specs ?? [])
    .map((s) => ((s as Node).RoleSpec ?? s) as RoleSpec)
    .filter((r) => r.roletype === 'ROLESPEC_CSTRING' && r.rolename !== undefined)
    .map((r) => r.rolename!)

const TRANSACTION: Record<string, StatementKind> = {
  TRANS_STMT_BEGIN: 'begin',
  TRANS_STMT_START: 'begin',
  TRANS_STMT_COMMIT: 'commit'
}

/** `on`/`off` of a `SET standard_conforming_strings …` (RESET and DEFAULT: on, the server default since 9.1). */
function booleanSetting(set: Node): boolean | undefined {
  if (set.kind === 'VAR_RESET' || set.kind === 'VAR_SET_DEFAULT') return true
  const arg = ((set.args as Node[] | undefined)?.[0]?.A_Const ?? {}) as Node
  const value = String((arg.sval as Node)?.sval ?? (arg.ival as Node)?.ival ?? (arg.boolval as Node)?.boolval ?? '').toLowerCase()
  if (['on', 'true', 'yes', '1', 't'].includes(value)) return true
  if (['off', 'false', 'no', '0', 'f'].includes(value)) return false
  return undefined
}

/**
 * Classifies one statement (its text as split by the scanner; `firstWord`
 * is its first keyword, lower-cased, from the lexer). Needs {@link loadGrammar}.
 */
export function classify(sql: string, firstWord: string): Classified {
  const result: Classified = { kind: 'other', roles: [], changesLexing: LEXING.test(sql) }
  if (!WORTH_PARSING.has(firstWord)) return result
  let stmt: Node
  try {
    const tree = parseSql(sql) as { stmts?: { stmt: Node }[] }
    if (tree.stmts?.length !== 1) return result
    stmt = tree.stmts[0].stmt
  } catch {
    return result // not PostgreSQL 17 syntax (a newer server's, or an error): the server decides
  }
  const [type, node] = Object.entries(stmt)[0] as [string, Node]
  switch (type) {
    case 'CreatedbStmt':
    case 'DropdbStmt':
    case 'AlterDatabaseStmt':
    case 'AlterDatabaseSetStmt':
    case 'AlterDatabaseRefreshCollStmt':
      result.kind = 'database'
      break
    case 'TransactionStmt':
      result.kind = TRANSACTION[node.kind as string] ?? 'transaction'
      break
    case 'IndexStmt':
    case 'DropStmt':
      if (node.concurrent) result.kind = 'no-transaction'
      break
    case 'ReindexStmt':
      if (
        ['REINDEX_OBJECT_SYSTEM', 'REINDEX_OBJECT_DATABASE'].includes(node.kind as string) ||
        ((node.params as Node[] | undefined) ?? []).some((p) => (p.DefElem as Node)?.defname === 'concurrently')
      ) {
        result.kind = 'no-transaction'
      }
      break
    case 'VacuumStmt':
      if (node.is_vacuumcmd) result.kind = 'no-transaction' // ANALYZE alone runs in a transaction
      break
    case 'ClusterStmt':
      if (!node.relation) result.kind = 'no-transaction'
      break
    case 'AlterSystemStmt':
    case 'CreateTableSpaceStmt':
    case 'DropTableSpaceStmt':
    case 'CreateSubscriptionStmt':
    case 'DropSubscriptionStmt':
      result.kind = 'no-transaction'
      break
    case 'AlterOwnerStmt':
      if (node.objectType === 'OBJECT_DATABASE') result.kind = 'database'
      else result.roles = roleNames([node.newowner])
      break
    case 'RenameStmt':
      if (node.renameType === 'OBJECT_DATABASE') result.kind = 'database'
      break
    case 'AlterTableStmt':
      result.roles = ((node.cmds as Node[] | undefined) ?? [])
        .map((c) => c.AlterTableCmd as Node)
        .filter((c) => c?.subtype === 'AT_ChangeOwner')
        .flatMap((c) => roleNames([c.newowner]))
      break
    case 'GrantStmt':
      result.roles = roleNames(node.grantees as unknown[])
      break
    case 'GrantRoleStmt':
      result.roles = [
        ...((node.granted_roles as Node[] | undefined) ?? []).map((p) => (p.AccessPriv as Node)?.priv_name as string).filter(Boolean),
        ...roleNames(node.grantee_roles as unknown[])
      ]
      break
    case 'AlterDefaultPrivilegesStmt': {
      const forRoles = ((node.options as Node[] | undefined) ?? [])
        .map((o) => o.DefElem as Node)
        .filter((d) => d?.defname === 'roles')
        .flatMap((d) => roleNames(((d.arg as Node)?.List as Node)?.items as unknown[]))
      result.roles = [...forRoles, ...roleNames(((node.action as Node)?.grantees as unknown[]) ?? [])]
      break
    }
    case 'CreateRoleStmt':
      result.createdRole = node.role as string
      break
    case 'CommentStmt':
      if (node.objtype === 'OBJECT_EXTENSION') result.extensionComment = (node.object as Node & { String?: { sval: string } }).String?.sval
      break
    case 'VariableSetStmt':
      if (node.name === 'standard_conforming_strings') result.standardConformingStrings = booleanSetting(node)
      if (node.name === 'client_encoding') {
        result.changesLexing = true
        const arg = ((node.args as Node[] | undefined)?.[0]?.A_Const ?? {}) as Node
        result.clientEncoding = node.kind === 'VAR_SET_VALUE' ? String((arg.sval as Node)?.sval ?? '') : 'UTF8'
      }
      if (node.kind === 'VAR_RESET_ALL') {
        result.standardConformingStrings = true
        result.changesLexing = true
      }
      break
  }
  return result
}

/**
 * Client encodings in which a byte below 0x80 can be the second byte of a
 * character (SJIS, BIG5, GBK, UHC, GB18030, JOHAB and their aliases): psql
 * lexes those with encoding tables the loader does not have, so a quote or
 * backslash byte could be misread. Normalized: lower case, letters and digits only.
 * Source: PostgreSQL docs, "Character Set Support", client-only encodings.
 */
const NOT_ASCII_SAFE = new Set([
  'sjis',
  'shiftjis',
  'mskanji',
  'win932',
  'windows932',
  'shiftjis2004',
  'big5',
  'win950',
  'windows950',
  'gbk',
  'win936',
  'windows936',
  'cp936',
  'uhc',
  'win949',
  'windows949',
  'cp949',
  'gb18030',
  'johab'
])

/** True for a client encoding whose bytes below 0x80 are always ASCII (every server encoding, UTF8 and LATIN1 among them). */
export function asciiSafeEncoding(name: string): boolean {
  return !NOT_ASCII_SAFE.has(name.toLowerCase().replace(/[^a-z0-9]/g, ''))
}

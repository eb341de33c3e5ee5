/**
 * The variables psql sets itself, and the ones it treats specially. psql's
 * own rules: startup.c (EstablishVariableSpace: each special variable's
 * default, and its hooks), command.c (SyncVariables after a connection:
 * DBNAME, USER, HOST, PORT, ENCODING, SERVER_VERSION_*), common.c
 * (SetResultVariables after each query: ERROR, SQLSTATE, ROW_COUNT; ENCODING
 * follows the client encoding), variables.c (a boolean hook's substitutes).
 */

/** Variables whose hook reads them as a boolean: `\set NAME` with no value makes them `on` (bool_substitute_hook). */
export const BOOLEAN_VARIABLES = new Set([
  'AUTOCOMMIT',
  'ON_ERROR_STOP',
  'QUIET',
  'SINGLELINE',
  'SINGLESTEP',
  'HIDE_TOAST_COMPRESSION',
  'HIDE_TABLEAM',
  'SHOW_ALL_RESULTS'
])

/** Variables with a hook (psql's "specially treated variables"): `\gset` leaves them alone, with a warning. */
export const HOOKED_VARIABLES = new Set([
  ...BOOLEAN_VARIABLES,
  'FETCH_COUNT',
  'HISTCONTROL',
  'HISTSIZE',
  'IGNOREEOF',
  'ECHO',
  'ECHO_HIDDEN',
  'ON_ERROR_ROLLBACK',
  'COMP_KEYWORD_CASE',
  'PROMPT1',
  'PROMPT2',
  'PROMPT3',
  'VERBOSITY',
  'SHOW_CONTEXT'
])

/** psql's defaults for its special variables, as `psql -X -v ON_ERROR_STOP=1` starts (the seed's rules). */
const DEFAULTS: Record<string, string> = {
  AUTOCOMMIT: 'on',
  ON_ERROR_ROLLBACK: 'off',
  ON_ERROR_STOP: 'on',
  QUIET: 'off',
  SINGLELINE: 'off',
  SINGLESTEP: 'off',
  FETCH_COUNT: '0',
  HISTCONTROL: 'none',
  HISTSIZE: '500',
  IGNOREEOF: '0',
  ECHO: 'none',
  ECHO_HIDDEN: 'off',
  COMP_KEYWORD_CASE: 'preserve-upper',
  PROMPT1: '%/%R%x%# ',
  PROMPT2: '%/%R%x%# ',
  PROMPT3: '>> ',
  VERBOSITY: 'default',
  SHOW_CONTEXT: 'errors',
  SHOW_ALL_RESULTS: 'on',
  HIDE_TOAST_COMPRESSION: 'off',
  HIDE_TABLEAM: 'off',
  LAST_ERROR_MESSAGE: '',
  LAST_ERROR_SQLSTATE: '00000'
}

/** What psql learns from its connection. Strings as psql keeps them. */
export interface ConnectionFacts {
  dbname: string
  user: string
  host: string
  port: string
  /** server_version_num, e.g. `170002`. */
  versionNum: string
  /** server_version, e.g. `17.2`. */
  versionName: string
  /** `SELECT version()`: psql's VERSION is the same text for its own build. */
  version: string
}

/**
 * The variables a psql session has before its first query: the special
 * variables' defaults, the connection's, and psql's own version. The loader
 * plays a psql of the server's version (VERSION, VERSION_NAME and
 * VERSION_NUM are the server's).
 */
export function startupVariables(c: ConnectionFacts): Record<string, string> {
  return {
    ...DEFAULTS,
    VERSION: c.version,
    VERSION_NAME: c.versionName,
    VERSION_NUM: c.versionNum,
    DBNAME: c.dbname,
    USER: c.user,
    HOST: c.host,
    PORT: c.port,
    ENCODING: 'UTF8',
    SERVER_VERSION_NAME: c.versionName,
    SERVER_VERSION_NUM: c.versionNum
  }
}

/** Variables only a connection knows (the check pass has none: a value there is not known yet). */
export const CONNECTION_VARIABLES = [
  'VERSION',
  'VERSION_NAME',
  'VERSION_NUM',
  'DBNAME',
  'USER',
  'HOST',
  'PORT',
  'SERVER_VERSION_NAME',
  'SERVER_VERSION_NUM'
]

/** The check pass's variables: the defaults; the connection's are not known yet. */
export const checkVariables = (): Record<string, string> => ({ ...DEFAULTS, ENCODING: 'UTF8' })

/** Variables each query changes (SetResultVariables), and ENCODING, which `SET client_encoding` changes: read when used. */
export const RESULT_VARIABLES = new Set(['ERROR', 'SQLSTATE', 'ROW_COUNT', 'ENCODING'])

/**
 * ROW_COUNT from a command tag, as PQcmdTuples reads it: the count of
 * INSERT, SELECT, UPDATE, DELETE, MERGE, MOVE, FETCH and COPY; 0 for others.
 */
export function rowCount(tag: string | undefined): string {
  return /^(?:INSERT \d+ |SELECT |UPDATE |DELETE |MERGE |MOVE |FETCH |COPY )(\d+)$/.exec(tag ?? '')?.[1] ?? '0'
}

/** psql variable names a meta-command's text or a statement's references use (`:name`, `:'name'`, `:"name"`, `:{?name}`). */
export function referencedNames(text: string): string[] {
  return [...text.matchAll(/:(?:\{\?|['"])?([A-Za-z0-9_\u0080-\uffff]+)/g)].map((m) => m[1])
}

/**
 * What the psql-compatible scanner (scanner.ts) hands on: statements split
 * where psql splits them, COPY data, and meta-commands; and the options that
 * say how it reads a file.
 */

/** What a statement classifier tells the scanner: a change to standard_conforming_strings, which changes how psql lexes what follows. */
export interface LexingChange {
  /** A change to `standard_conforming_strings` that psql's lexer follows: true (on), false (off). */
  standardConformingStrings?: boolean
}

/** A statement with the 1-based line and column of its first character (which may be whitespace or a comment). */
export interface StatementEvent<C extends LexingChange = LexingChange> {
  kind: 'statement'
  /** Text from the end of the previous statement through its `;`, decoded as UTF-8 (for messages and classifying only). */
  sql: string
  /** The same as the file's bytes: what is sent to the server, unchanged (in the client_encoding the file declares). */
  raw: Buffer
  /** False for a file's last statement when it has no `;` (it ends at the end of the file). */
  terminated: boolean
  /** Its first keyword, lower-cased, from the lexer. */
  firstWord: string
  /** What {@link ScanOptions.classify} found. */
  classified?: C
  /** psql variable references outside quotes (`:name`, `:'name'`, `:"name"`), as written; absent when none. */
  psqlVariables?: string[]
  line: number
  column: number
  /** A `COPY … FROM stdin` statement: `copy-data` events follow until `copy-end`. */
  copyFromStdin: boolean
  /** 0-based ordinal among the file's statements, the same in every {@link CopyDataMode}: see exactStatement (seed/rescan.ts). */
  index: number
  /** The backslash command that sent it instead of a `;` (`g`, `gx`, `gset`, `gexec`); its meta event follows. */
  endedBy?: string
  /**
   * Where meta-commands stood inside its text: byte offsets into `raw`, each
   * with the meta-command's ordinal (psql drops the text an inactive `\if`
   * branch added: see PsqlSession.activeText); absent when none did.
   */
  cuts?: { offset: number; meta: number }[]
  /** standard_conforming_strings as the statement was lexed; set when it has {@link psqlVariables}. */
  standardConformingStrings?: boolean
}

/**
 * COPY data, the file's bytes as they are. In `lines` mode whole lines, each
 * with its newline; in `bytes` mode any cut of the block (the server's COPY
 * reads a byte stream, so a row may span two events).
 */
export interface CopyDataEvent {
  kind: 'copy-data'
  data: Buffer
  /** File line of the first line in `data`; 0 unless the mode is `lines`. */
  firstLine: number
  /** Lines in `data`; 0 unless the mode is `lines`. */
  lines: number
}

export interface CopyEndEvent {
  kind: 'copy-end'
  line: number
}

/** A psql meta-command such as `\restrict KEY`. */
export interface MetaEvent {
  kind: 'meta'
  /** Its name, without the backslash. */
  command: string
  /** Its argument text as written (read with psqlslash.ts's slashOptions or parseSlashCopy). */
  args: string
  /** Its line (lags after a COPY block in `bytes` and `skip` modes: see exactMetaLine, seed/rescan.ts). */
  line: number
  /** 0-based ordinal among the file's meta-commands. */
  index: number
  /** It stands inside a statement's text (after some of it, before its end): the statement's {@link StatementEvent.cuts} name it. */
  inStatement?: boolean
}

export type ScanEvent<C extends LexingChange = LexingChange> = StatementEvent<C> | CopyDataEvent | CopyEndEvent | MetaEvent

/**
 * How scanFile treats COPY data:
 * - `lines`: whole lines, counted, so every event carries its exact file line;
 * - `bytes`: the block's bytes in slices of the read buffer, found by looking
 *   only for the `\.` line (nothing per row: the load pass, where the row count
 *   comes from the server);
 * - `skip`: not handed on at all (the check pass).
 *
 * In `bytes` and `skip` modes, lines after a file's first COPY block lag (its
 * data lines are not counted); exactStatement (seed/rescan.ts) finds the exact ones.
 */
export type CopyDataMode = 'lines' | 'bytes' | 'skip'

/** Options of scanFile. */
export interface ScanOptions<C extends LexingChange = LexingChange> {
  /**
   * The server's standard_conforming_strings when the file starts (default
   * true); kept up to date from {@link classify} while the file is read, so
   * one object can carry it from file to file, as one psql session does.
   */
  lexing?: { standardConformingStrings: boolean }
  /** Classifies each statement as it is split; a change to standard_conforming_strings it reports changes how the rest is lexed. */
  classify?: (sql: string, firstWord: string) => C
  /** Read size in bytes (tests make it tiny to cross every boundary). */
  readChunkBytes?: number
  /** Default `lines`. */
  copyData?: CopyDataMode
}

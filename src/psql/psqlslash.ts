/**
 * psql's backslash commands as text: where one ends, how its arguments are
 * read, how variables are filled in, and psql's boolean values. The rules
 * are psql 17's (src/bin/psql: psqlscanslash.l for the arguments,
 * psqlscan.l for variables in SQL, variables.c for booleans, copy.c for
 * `\copy`), written here from their documented behaviour.
 */
import { PsqlLexer, Stop } from './psqlscan.js'

/**
 * psql reads a meta-command's text and keeps its variables as bytes, in the
 * client encoding, whatever that is (psqlscanslash.l is 8-bit clean; a value
 * interpolated into SQL goes out as the same bytes). Here such text is a
 * string of one character per byte (`latin1`), so every encoding's bytes come
 * back out as they went in; {@link readable} shows it as UTF-8.
 */
export const byteText = (b: Buffer, start?: number, end?: number): string => b.toString('latin1', start, end)
/** The bytes of a {@link byteText} string. */
export const textBytes = (text: string): Buffer => Buffer.from(text, 'latin1')
/** A {@link byteText} string as UTF-8 (for messages, paths, and output). */
export const readable = (text: string): string => Buffer.from(text, 'latin1').toString('utf8')
/** A JavaScript string (a server's answer, a name) as {@link byteText}: its UTF-8 bytes. */
export const asByteText = (value: string): string => Buffer.from(value, 'utf8').toString('latin1')

/** psql's whitespace in a backslash command (psqlscanslash.l: space). */
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'

/** `text` without psql's whitespace at either end (String#trim would also take bytes such as 0xA0, part of a UTF-8 letter here). */
const trimSpace = (text: string): string => text.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '')

/** A variable's value is not known before the database exists (set by `\gset`). */
export const UNKNOWN = Symbol('unknown')
/** Looks a psql variable up: its value, undefined when unset, or {@link UNKNOWN}. */
export type Lookup = (name: string) => string | undefined | typeof UNKNOWN

/** Commands whose argument is the rest of the line, unparsed (psql's OT_WHOLE_LINE). */
const WHOLE_LINE = new Set(['copy', '!', 'h', 'help', 'sf', 'sf+', 'sv', 'sv+', 'ef', 'ev'])
const isVarChar = (c: string): boolean => /[A-Za-z0-9_\u0080-\uffff]/.test(c)

/** One backslash command as written on its line. */
export interface SlashCommand {
  /** Its name, without the backslash (`echo`, `i`, `copy`, …). */
  command: string
  /** Its argument text, as written. */
  args: string
  /**
   * Where SQL (or the next backslash command) goes on in the line, as an
   * index into the text given; -1 when the command takes the rest of the line.
   */
  resume: number
}

/** The end of `:'name'` or `:"name"` at `i` (psql variable syntax, not a quote), or -1. */
function quotedVariableEnd(text: string, i: number): number {
  const q = text[i + 1]
  if (text[i] !== ':' || (q !== "'" && q !== '"')) return -1
  let j = i + 2
  while (j < text.length && isVarChar(text[j])) j++
  return j > i + 2 && text[j] === q ? j + 1 : -1
}

/**
 * Reads the backslash command at the start of `text` (one line, without its
 * newline): the name ends at whitespace or a backslash; the arguments end at
 * an unquoted backslash (`\\` is eaten, any other starts the next command),
 * or at the end of the line (psqlscanslash.l: xslashcmd, xslasharg, xslashend).
 */
export function slashCommand(text: string): SlashCommand {
  let i = 1
  while (i < text.length && !isSpace(text[i]) && text[i] !== '\\') i++
  // psql matches `copy` in any letter case (command.c: pg_strcasecmp), every other name exactly
  const name = text.slice(1, i)
  const command = name.toLowerCase() === 'copy' ? 'copy' : name
  if (WHOLE_LINE.has(command)) return { command, args: trimSpace(text.slice(i)), resume: -1 }
  const start = i
  while (i < text.length) {
    const c = text[i]
    if (c === '\\') {
      const resume = text[i + 1] === '\\' ? i + 2 : i
      return { command, args: trimSpace(text.slice(start, i)), resume }
    }
    const v = quotedVariableEnd(text, i)
    if (v > 0) {
      i = v
      continue
    }
    if (c === "'" || c === '"' || c === '`') {
      i++
      while (i < text.length && text[i] !== c) i += c === "'" && text[i] === '\\' ? 2 : 1
    }
    i++
  }
  return { command, args: trimSpace(text.slice(start)), resume: -1 }
}

/** Arguments of a backslash command, as psql reads them (OT_NORMAL). */
export interface SlashOptions {
  options: string[]
  /** Per option: its last characters that were not quoted (for stripping trailing semicolons, as psql does for file names). */
  unquotedTail: number[]
  /** A backtick (a shell command) was used. */
  backtick: boolean
  /** A variable's value is not known yet ({@link UNKNOWN}). */
  unknown: boolean
}

/** PQescapeLiteral's form: `'…'` with quotes doubled; with backslashes, ` E'…'` and backslashes doubled. */
export function quoteLiteral(value: string): string {
  const body = value.replace(/'/g, "''")
  return value.includes('\\') ? ` E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`
}

/** PQescapeIdentifier's form: `"…"` with double quotes doubled. */
export const quoteIdentifier = (value: string): string => `"${value.replace(/"/g, '""')}"`

/**
 * Splits a command's argument text into options as psql does (psqlscanslash.l,
 * xslasharg): unquoted whitespace separates; `'…'` loses its quotes, `''` is a
 * quote and `\n \t \b \r \f`, octal `\ooo`, hex `\xHH` and `\c` are escapes;
 * `"…"` keeps its quotes; `:name` is the variable's value (as written when
 * unset), `:'name'` and `:"name"` its quoted forms, `:{?name}` TRUE or FALSE.
 */
export function slashOptions(args: string, lookup: Lookup): SlashOptions {
  const out: SlashOptions = { options: [], unquotedTail: [], backtick: false, unknown: false }
  let i = 0
  const n = args.length
  while (i < n) {
    while (i < n && isSpace(args[i])) i++
    if (i >= n) break
    let opt = ''
    let tail = 0
    let quoted = false
    while (i < n && !isSpace(args[i])) {
      const c = args[i]
      if (c === ':') {
        const m =
          /^:(?:([A-Za-z0-9_\u0080-\uffff]+)|'([A-Za-z0-9_\u0080-\uffff]+)'|"([A-Za-z0-9_\u0080-\uffff]+)"|\{\?([A-Za-z0-9_\u0080-\uffff]+)\})/.exec(
            args.slice(i)
          )
        if (m) {
          const name = m[1] ?? m[2] ?? m[3] ?? m[4]
          const value = lookup(name)
          if (value === UNKNOWN) out.unknown = true
          if (m[4] !== undefined) opt += value !== undefined ? 'TRUE' : 'FALSE'
          else if (value === undefined || value === UNKNOWN) opt += m[0]
          else opt += m[1] !== undefined ? value : m[2] !== undefined ? quoteLiteral(value) : quoteIdentifier(value)
          quoted = true
          tail = 0
          i += m[0].length
          continue
        }
      }
      if (c === "'") {
        quoted = true
        tail = 0
        i++
        while (i < n && args[i] !== "'") {
          if (args[i] === '\\' && i + 1 < n) {
            const e = args[i + 1]
            const simple: Record<string, string> = { n: '\n', t: '\t', b: '\b', r: '\r', f: '\f' }
            const oct = /^[0-7]{1,3}/.exec(args.slice(i + 1))
            const hex = /^x([0-9A-Fa-f]{1,2})/.exec(args.slice(i + 1))
            if (simple[e]) {
              opt += simple[e]
              i += 2
            } else if (oct) {
              opt += String.fromCharCode(parseInt(oct[0], 8) & 0xff)
              i += 1 + oct[0].length
            } else if (hex) {
              opt += String.fromCharCode(parseInt(hex[1], 16))
              i += 1 + hex[0].length
            } else {
              opt += e
              i += 2
            }
            continue
          }
          opt += args[i++]
        }
        i++
        if (args[i] === "'") opt += "'" // '' inside: the closing quote and a reopening one
        continue
      }
      if (c === '"' || c === '`') {
        const close = args.indexOf(c, i + 1)
        const end = close < 0 ? n : close + 1
        if (c === '`') out.backtick = true
        opt += args.slice(i, end)
        quoted = true
        tail = 0
        i = end
        continue
      }
      opt += c
      tail++
      i++
    }
    if (opt.length || quoted) {
      out.options.push(opt)
      out.unquotedTail.push(tail)
    }
  }
  return out
}

/** Removes unquoted trailing semicolons from option `k` (psql does it for file names: `\i a.sql;`). */
export function withoutSemicolons(o: SlashOptions, k: number): string {
  let s = o.options[k]
  let tail = o.unquotedTail[k]
  while (tail-- > 0 && s.endsWith(';')) s = s.slice(0, -1)
  return s
}

/**
 * psql's ParseVariableBool (variables.c): case-insensitive prefixes of
 * `true`, `false`, `yes`, `no`; `on` and `off` (at least two letters); `1`, `0`.
 * @returns undefined when the value is none of them
 */
export function parseBool(value: string): boolean | undefined {
  const v = value.toLowerCase()
  const prefixOf = (word: string, min = 1): boolean => v.length >= min && word.startsWith(v)
  if (prefixOf('true')) return true
  if (prefixOf('false')) return false
  if (prefixOf('yes')) return true
  if (prefixOf('no')) return false
  if (prefixOf('on', 2)) return true
  if (prefixOf('off', 2)) return false
  if (v === '1') return true
  if (v === '0') return false
  return undefined
}

/** A valid psql variable name (variables.c, valid_variable_name): letters, digits, underscores, non-ASCII. */
export const validVariableName = (name: string): boolean => /^[A-Za-z0-9_\u0080-\uffff]+$/.test(name)

/**
 * Fills psql variables into one statement's bytes, as psql's SQL lexer does
 * (psqlscan.l): `:name` becomes the value, `:'name'` and `:"name"` its quoted
 * forms, `:{?name}` TRUE or FALSE (whether it is set); an unset variable (or one not known yet) stays as written. Quotes,
 * comments and dollar quotes are left alone.
 * @param standardConformingStrings the setting when the statement started
 * @returns the same buffer when nothing was filled in
 */
export function interpolate(raw: Buffer, standardConformingStrings: boolean, lookup: Lookup): Buffer {
  const lexer = new PsqlLexer()
  lexer.standardConformingStrings = standardConformingStrings
  lexer.variableSpans = []
  let pos = 0
  while (pos < raw.length) {
    const stop = lexer.scan(raw, pos, raw.length)
    if (stop === undefined) break
    pos = lexer.at + (stop === Stop.Backslash ? 2 : 1)
  }
  const parts: Buffer[] = []
  let last = 0
  const spans = lexer.variableSpans
  for (let k = 0; k < spans.length; k += 2) {
    const text = byteText(raw, spans[k], spans[k + 1])
    if (text.startsWith(':{?')) {
      // psqlscan.l: TRUE or FALSE, whether the variable is set
      const set = lookup(text.slice(3, -1))
      if (set === UNKNOWN) continue
      parts.push(raw.subarray(last, spans[k]), Buffer.from(set === undefined ? 'FALSE' : 'TRUE'))
      last = spans[k + 1]
      continue
    }
    const quote = text[1] === "'" || text[1] === '"' ? text[1] : ''
    const value = lookup(quote ? text.slice(2, -1) : text.slice(1))
    if (value === undefined || value === UNKNOWN) continue
    parts.push(raw.subarray(last, spans[k]), textBytes(quote === "'" ? quoteLiteral(value) : quote ? quoteIdentifier(value) : value))
    last = spans[k + 1]
  }
  if (!parts.length) return raw
  parts.push(raw.subarray(last))
  return Buffer.concat(parts)
}

/** A `\copy` command, read as psql's copy.c reads it. */
export interface SlashCopy {
  direction: 'from' | 'to'
  /** `stdin`, `pstdin`, `stdout`, `pstdout`, `program`, or `file`. */
  target: string
  /** The file name, for a `file` target (quotes removed). */
  file?: string
  /** What is sent to the server: `COPY <table or query> FROM STDIN <options>`. */
  sql: string
}

/**
 * Reads `\copy`'s argument text: the table (with columns) or query, `from` or
 * `to`, the file (`'…'` or a bare word) or `stdin`/`pstdin`/`stdout`/`pstdout`/
 * `program`, then the options, passed on as written.
 * @returns undefined when there is no `from` or `to`
 */
export function parseSlashCopy(args: string): SlashCopy | undefined {
  let depth = 0
  let i = 0
  let keyword = -1
  while (i < args.length) {
    const c = args[i]
    if (c === '"' || c === "'") {
      const close = args.indexOf(c, i + 1)
      i = close < 0 ? args.length : close + 1
      continue
    }
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (depth === 0 && i > 0 && isSpace(args[i - 1])) {
      const m = /^(from|to)(?=[ \t\n\r\f]|$)/i.exec(args.slice(i))
      if (m) {
        keyword = i
        break
      }
    }
    i++
  }
  if (keyword < 0) return undefined
  const before = trimSpace(args.slice(0, keyword))
  const direction = args
    .slice(keyword, keyword + 4)
    .toLowerCase()
    .startsWith('from')
    ? 'from'
    : 'to'
  let rest = args.slice(keyword + direction.length).replace(/^[ \t\n\r\f]+/, '')
  let token: string
  let quoted = false
  if (rest.startsWith("'")) {
    let j = 1
    token = ''
    while (j < rest.length) {
      if (rest[j] === "'" && rest[j + 1] === "'") {
        token += "'"
        j += 2
        continue
      }
      if (rest[j] === "'") break
      token += rest[j++]
    }
    rest = rest.slice(j + 1)
    quoted = true
  } else {
    const m = /^[^ \t\n\r\f;]*/.exec(rest)!
    token = m[0]
    rest = rest.slice(token.length)
  }
  const word = token.toLowerCase()
  const target = !quoted && ['stdin', 'pstdin', 'stdout', 'pstdout', 'program'].includes(word) ? word : 'file'
  const sql = `COPY ${before} ${direction === 'from' ? 'FROM STDIN' : 'TO STDOUT'} ${trimSpace(rest)}`.replace(/[ \t\n\r\f]+$/, '')
  return { direction, target, file: target === 'file' ? token : undefined, sql }
}

/**
 * psql's lexer, over bytes: where a statement ends and where a meta-command
 * starts, by the rules of psql's psqlscan.l (PostgreSQL 17), so the loader
 * splits a file exactly where psql does:
 * - `;` ends a statement only outside quotes, comments and parentheses, and
 *   outside the `BEGIN … END` of a `CREATE [OR REPLACE] FUNCTION|PROCEDURE`
 *   (an SQL-standard body, `BEGIN ATOMIC`; `CASE … END` nests in it);
 * - quotes: `'…'` (backslash escapes only when standard_conforming_strings is
 *   off), `E'…'`, `B'…'`, `X'…'`, `N'…'`, `U&'…'`, `"…"`, `U&"…"`, `$tag$…$tag$`;
 *   comments `-- …` and nested `/* … *\/`;
 * - a backslash outside quotes and comments starts a meta-command, anywhere in
 *   a line (`\;` and `\:` put the character into the statement instead);
 * - `:name`, `:'name'` and `:"name"` are psql variables, not quotes (noted,
 *   so the check pass can refuse what psql would fill in).
 *
 * Every byte below 0x80 is ASCII in the encodings the loader accepts (UTF-8
 * and the server encodings), so bytes can be lexed without decoding them.
 */

const enum State {
  Normal,
  /** `'…'` with standard_conforming_strings on, and `B'`, `X'`, `U&'` strings. */
  Quote,
  /** `E'…'`, or `'…'` with standard_conforming_strings off: a backslash escapes the next byte. */
  Escape,
  /** `"…"` */
  Ident,
  /** `$tag$…$tag$` */
  Dollar,
  /** `/* … *\/`, nested. */
  Comment,
  /** `-- …` to the end of the line. */
  LineComment
}

const SEMICOLON = 0x3b
const BACKSLASH = 0x5c
const QUOTE = 0x27
const DQUOTE = 0x22
const DOLLAR = 0x24
const DASH = 0x2d
const SLASH = 0x2f
const STAR = 0x2a
const COLON = 0x3a
const LPAREN = 0x28
const RPAREN = 0x29
const AMP = 0x26
const LBRACE = 0x7b
const RBRACE = 0x7d
const QUESTION = 0x3f

const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d)
/** psql's ident_start: letters, `_`, and any byte >= 0x80. */
const isIdentStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0x80
const isIdentCont = (c: number): boolean => isIdentStart(c) || (c >= 0x30 && c <= 0x39) || c === DOLLAR
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 32 : c)

/** What {@link PsqlLexer.scan} stopped at. */
export const enum Stop {
  /** A `;` that ends the statement. */
  Semicolon,
  /** A backslash that starts a meta-command. */
  Backslash
}

/** psql's lexer state, carried from line to line. */
export class PsqlLexer {
  /** standard_conforming_strings as the server has it (psql follows the server's ParameterStatus). */
  standardConformingStrings = true
  private state = State.Normal
  private commentDepth = 0
  private dollarTag: Buffer | null = null
  private parenDepth = 0
  private beginDepth = 0
  /** First letters of the statement's first identifiers among create/or/replace/function/procedure (psql's `identifiers`). */
  private idents = ''
  private identCount = 0
  /** The statement's first keyword, lower-cased (at most 24 bytes). */
  firstWord = ''
  /** The statement has a token that is not whitespace or a comment. */
  hasContent = false
  /** psql variable references in the statement, as written (`:name`, `:'name'`, `:"name"`). */
  variables: string[] = []
  /** Indexes of backslashes that psql leaves out of the statement (those of `\;` and `\:`), until the scanner takes them. */
  dropped: number[] = []
  /** Where scan() stopped: the index of the `;` or backslash. */
  at = -1
  /** When set, each variable reference's [start, end) byte indexes are appended (for filling variables in). */
  variableSpans: number[] | null = null

  /** Back to the start of a statement (psql_scan_reset), keeping standard_conforming_strings. */
  reset(): void {
    this.state = State.Normal
    this.commentDepth = 0
    this.dollarTag = null
    this.parenDepth = 0
    this.beginDepth = 0
    this.idents = ''
    this.identCount = 0
    this.firstWord = ''
    this.hasContent = false
    this.variables = []
  }

  /**
   * Lexes bytes [start, end) of `b` (one line, with its newline if it has one).
   * @returns a {@link Stop} with its index in {@link at}, or undefined when the bytes are all statement text.
   */
  scan(b: Buffer, start: number, end: number): Stop | undefined {
    let i = start
    while (i < end) {
      const c = b[i]
      switch (this.state) {
        case State.LineComment:
          if (c === 0x0a || c === 0x0d) this.state = State.Normal
          i++
          continue
        case State.Comment:
          if (c === SLASH && b[i + 1] === STAR && i + 1 < end) {
            this.commentDepth++
            i += 2
          } else if (c === STAR && b[i + 1] === SLASH && i + 1 < end) {
            if (--this.commentDepth === 0) this.state = State.Normal
            i += 2
          } else i++
          continue
        case State.Quote:
        case State.Ident: {
          const q = this.state === State.Quote ? QUOTE : DQUOTE
          const k = b.subarray(i, end).indexOf(q)
          if (k < 0) return undefined
          // a doubled quote stays inside
          if (i + k + 1 < end && b[i + k + 1] === q) i += k + 2
          else {
            this.state = State.Normal
            i += k + 1
          }
          continue
        }
        case State.Escape:
          if (c === BACKSLASH) i += 2
          else if (c === QUOTE) {
            if (b[i + 1] === QUOTE && i + 1 < end) i += 2
            else {
              this.state = State.Normal
              i++
            }
          } else i++
          continue
        case State.Dollar: {
          const tag = this.dollarTag!
          const k = b.subarray(i, end).indexOf(tag)
          if (k < 0) return undefined
          this.state = State.Normal
          this.dollarTag = null
          i += k + tag.length
          continue
        }
        case State.Normal:
          break
      }
      // State.Normal
      if (isSpace(c)) {
        i++
        continue
      }
      if (c === DASH && b[i + 1] === DASH && i + 1 < end) {
        this.state = State.LineComment
        i += 2
        continue
      }
      if (c === SLASH && b[i + 1] === STAR && i + 1 < end) {
        this.state = State.Comment
        this.commentDepth = 1
        i += 2
        continue
      }
      if (c === BACKSLASH) {
        const n = b[i + 1]
        if ((n === SEMICOLON || n === COLON) && i + 1 < end) {
          // psql: "\;" and "\:" put the character, without its backslash, into the query buffer
          this.dropped.push(i)
          this.hasContent = true
          if (n === SEMICOLON) this.identCount = 0
          i += 2
          continue
        }
        this.at = i
        return Stop.Backslash
      }
      if (c === SEMICOLON && this.parenDepth === 0 && this.beginDepth === 0) {
        this.at = i
        return Stop.Semicolon
      }
      this.hasContent = true
      if (c === SEMICOLON) {
        i++
        continue
      }
      if (c === LPAREN) {
        this.parenDepth++
        i++
        continue
      }
      if (c === RPAREN) {
        if (this.parenDepth > 0) this.parenDepth--
        i++
        continue
      }
      if (c === QUOTE) {
        this.state = this.standardConformingStrings ? State.Quote : State.Escape
        i++
        continue
      }
      if (c === DQUOTE) {
        this.state = State.Ident
        i++
        continue
      }
      if (c === DOLLAR) {
        const tagEnd = this.dollarTagEnd(b, i, end)
        if (tagEnd > 0) {
          this.dollarTag = Buffer.from(b.subarray(i, tagEnd))
          this.state = State.Dollar
          i = tagEnd
        } else i++
        continue
      }
      if (c === COLON) {
        i = this.colon(b, i, end)
        continue
      }
      if (isDigit(c)) {
        // a number, with any identifier bytes glued to it (psql's integer_junk and the like)
        i++
        while (i < end && (isIdentCont(b[i]) || b[i] === 0x2e) && b[i] !== DOLLAR) i++
        continue
      }
      if (isIdentStart(c)) {
        i = this.identifier(b, i, end)
        continue
      }
      i++
    }
    return undefined
  }

  /** An identifier or keyword at `i`, or the prefix of a quoted form (`E'`, `B'`, `X'`, `N'`, `U&'`, `U&"`). @returns the index after it. */
  private identifier(b: Buffer, i: number, end: number): number {
    let j = i + 1
    while (j < end && isIdentCont(b[j])) j++
    const len = j - i
    if (len === 1) {
      const c = lower(b[i])
      if (b[j] === QUOTE && j < end) {
        if (c === 0x65) {
          this.state = State.Escape // E'…'
          return j + 1
        }
        if (c === 0x62 || c === 0x78) {
          this.state = State.Quote // B'…', X'…': no escapes
          return j + 1
        }
        if (c === 0x6e) {
          this.state = this.standardConformingStrings ? State.Quote : State.Escape // N'…' is a plain string
          return j + 1
        }
      }
      if (c === 0x75 && b[j] === AMP && (b[j + 1] === QUOTE || b[j + 1] === DQUOTE) && j + 1 < end) {
        this.state = b[j + 1] === QUOTE ? State.Quote : State.Ident // U&'…', U&"…"
        return j + 2
      }
    }
    this.word(b, i, j)
    return j
  }

  /** psql's BEGIN … END tracking inside CREATE [OR REPLACE] FUNCTION|PROCEDURE, on one identifier [i, j). */
  private word(b: Buffer, i: number, j: number): void {
    const len = j - i
    const is = (w: string): boolean => {
      if (len !== w.length) return false
      for (let k = 0; k < len; k++) if (lower(b[i + k]) !== w.charCodeAt(k)) return false
      return true
    }
    if (this.identCount === 0) {
      this.idents = ''
      this.firstWord = b.toString('latin1', i, Math.min(j, i + 24)).toLowerCase()
    }
    if (this.identCount < 4 && (is('create') || is('function') || is('procedure') || is('or') || is('replace'))) {
      this.idents = this.idents.padEnd(this.identCount, ' ') + String.fromCharCode(lower(b[i]))
    }
    this.identCount++
    const id = this.idents
    if (
      id[0] === 'c' &&
      (id[1] === 'f' || id[1] === 'p' || (id[1] === 'o' && id[2] === 'r' && (id[3] === 'f' || id[3] === 'p'))) &&
      this.parenDepth === 0
    ) {
      if (is('begin')) this.beginDepth++
      else if (is('case')) {
        if (this.beginDepth >= 1) this.beginDepth++
      } else if (is('end')) {
        if (this.beginDepth > 0) this.beginDepth--
      }
    }
  }

  /** The end of a dollar-quote delimiter `$tag$` starting at `i`, or -1 (a lone `$`, or `$1`). */
  private dollarTagEnd(b: Buffer, i: number, end: number): number {
    let j = i + 1
    if (j < end && b[j] === DOLLAR) return j + 1
    if (j >= end || !isIdentStart(b[j])) return -1
    j++
    while (j < end && isIdentCont(b[j]) && b[j] !== DOLLAR) j++
    return j < end && b[j] === DOLLAR ? j + 1 : -1
  }

  /** `::`, or a psql variable `:name`, `:'name'`, `:"name"`, `:{?name}` (whose quotes are not string quotes; noted in {@link variables}), or a lone `:`. */
  private colon(b: Buffer, i: number, end: number): number {
    const n = b[i + 1]
    if (n === COLON) return i + 2
    if (n === LBRACE && b[i + 2] === QUESTION) {
      // `:{?name}`: whether the variable is set (psqlscan.l, psqlscan_test_variable)
      let j = i + 3
      while (j < end && isIdentCont(b[j]) && b[j] !== DOLLAR) j++
      if (j > i + 3 && b[j] === RBRACE) {
        this.variables.push(b.toString('latin1', i, j + 1))
        this.variableSpans?.push(i, j + 1)
        return j + 1
      }
      return i + 1
    }
    const quoted = n === QUOTE || n === DQUOTE
    let j = quoted ? i + 2 : i + 1
    while (j < end && isIdentCont(b[j]) && b[j] !== DOLLAR) j++
    if (quoted ? j > i + 2 && b[j] === n : j > i + 1) {
      const stop = quoted ? j + 1 : j
      this.variables.push(b.toString('latin1', i, stop))
      this.variableSpans?.push(i, stop)
      return stop
    }
    return i + 1
  }
}

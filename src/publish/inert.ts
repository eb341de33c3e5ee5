/**
 * Text from outside (a fork's `report-file`, a service's answer) made inert
 * for the one place it goes: one function per destination. Markdown for the
 * PR comment and the job summary ({@link markdownText}, {@link markdownCode})
 * and one line of the job log ({@link logLine}).
 */

/** Longest text any of these functions keeps by default, in characters (before escaping). */
export const MAX_FIELD = 1_000

/** One line: every control character (C0, DEL, C1) and Unicode line or paragraph separator becomes a space. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
}

/** `text` cut to `max` characters (UTF-16 units, never inside a surrogate pair), with `…` when cut. */
function capped(text: string, max: number): string {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end--
  return `${text.slice(0, end)}…`
}

/** U+200B ZERO WIDTH SPACE: invisible, and neither a domain character nor a name character of a mention. */
const ZWSP = '\u200b'

/**
 * `text` as Markdown that renders exactly as the characters it holds, on one
 * line, cut to `max` characters first. The rule, from the GitHub Flavored
 * Markdown spec (0.29-gfm) and what GitHub adds to it:
 * - every control character and line separator becomes a space and the ends
 *   are trimmed, so the text cannot end its line: no block (heading, block
 *   quote, alert `> [!NOTE]`, table row, fence) can start after it (spec 4, 5);
 * - these are backslash-escaped (spec 2.4, "Backslash escapes": an escaped
 *   character is literal): `` \ ` * _ [ ] < > & # | ~ $ ``, so no emphasis,
 *   strikethrough, link or image (both need `[`), footnote, code span, raw
 *   HTML, HTML comment, autolink in `<…>`, entity reference (spec 2.5), table
 *   cell separator (spec 4.10) or math can form; so are a leading `-`, `+`
 *   or `=` and the `.` or `)` after leading digits, which could start a list
 *   where the text opens a container (a list item's first line);
 * - a U+200B ZERO WIDTH SPACE goes after every `:`, `@` and `#` that a
 *   non-space follows, and between `www` and `.`: the extended autolinks (spec 6.9) need a literal `www.`,
 *   `://` after their scheme, or an `@` followed by a domain; GitHub's
 *   @mentions, team mentions, `#123` references and `:emoji:` shortcodes
 *   (applied to the rendered text, where backslash escapes are already
 *   gone) need the name right after the sign.
 * `(`, `)`, `!`, `,`, `.`, `'`, `"`, `/`, `;`, `?` and the rest stay as
 * they are: without the characters above they form nothing. Every character may become up to three (`#` → `\#` and
 * the space), so the result is at most `3 * max` characters long.
 */
export function markdownText(text: string, max = MAX_FIELD): string {
  return capped(oneLine(text).trim(), max)
    .replace(/[\\`*_[\]<>&#|~$]/g, (c) => `\\${c}`)
    .replace(/^[-+=]/, '\\$&')
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/[:@#](?=\S)/g, (c) => `${c}${ZWSP}`)
    .replace(/(www)\./gi, `$1${ZWSP}.`)
}

/**
 * A URL for Markdown: as it is (GitHub links it) when it is an http(s) URL
 * in its canonical form (the WHATWG URL Standard's serialization: nothing
 * a parser would read otherwise), else as {@link markdownText}.
 */
export function markdownUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null
  return parsed && parsed.href === url && /^https?:$/.test(parsed.protocol) ? url : markdownText(url)
}

/**
 * `text` as a Markdown code span (`` `text` ``), on one line, cut to `max`
 * characters first. A code span ends at the first backtick run as long as
 * its opening one (GitHub Flavored Markdown spec 6.1, "Code spans"), and
 * backslash escapes do not work inside it, so every backtick becomes `'`;
 * GitHub makes no link, mention or reference inside code. A `|` is left for
 * the table row that holds the span to escape (spec 4.10).
 */
export function markdownCode(text: string, max = MAX_FIELD): string {
  return `\`${capped(oneLine(text), max).replace(/`/g, "'")}\``
}

/**
 * `text` as part of one line of the job log, cut to `max` characters: every
 * control character and line separator becomes a space, so the text cannot
 * start a line of its own, and with it a workflow command (`::error::`,
 * `::add-mask::`: the runner reads a command only at the start of a line;
 * GitHub docs, "Workflow commands for GitHub Actions").
 */
export function logLine(text: string, max = 200): string {
  return capped(oneLine(text), max)
}

/**
 * The schema section of a run's report (publish/report.ts): the summary, the
 * destructive changes, the diff (cut to a budget for the PR comment) and, for
 * a reused branch, the PR's total change against its parent.
 */
import { markdownCode, markdownText } from './inert.js'

/** The schema part of a report. */
export interface SchemaReport {
  summary: string
  /** Body of the ```diff block ('' when nothing changed). */
  diff: string
  /** Where the diff comes from: the platform's compare_schema against `parentBranch`, or the action's own comparison. */
  source: 'migra' | 'platform' | 'listing' | 'none'
  /** The action's own comparison: what ran between its snapshots, when not the whole seed (`migrate-command` on a reused database). */
  madeBy?: string
  /** Branch mode, a reused branch: the PR's total change against the parent (the platform's compare_schema text; '' when none). */
  total?: string
  /** Why the diff is a listing of the snapshots' objects instead of migra's script. */
  note?: string
  /** The diff could not be made: why. The run succeeded; only the diff is missing. */
  unavailable?: string
  destructive: string[]
  failOnDestructive?: boolean
}

/** What the schema section reads of a report. */
export interface SchemaContext {
  mode: 'instant' | 'branch'
  parentBranch?: string
  schema?: SchemaReport
}

/** Destructive changes listed in the report at most, and the characters kept of each (the `schema-destructive` output has them all). */
const MAX_DESTRUCTIVE_SHOWN = 30
const MAX_DESTRUCTIVE_TEXT = 300

/** A code fence longer than any run of backticks in `text`. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  return '`'.repeat(longest + 1)
}

/**
 * The schema section. `diffBudget` (characters) cuts the diff at a line end
 * with a pointer to the job summary and the `schema-diff` file.
 */
export function renderSchema(r: SchemaContext, diffBudget = Infinity): string[] {
  const s = r.schema
  if (!s) return []
  const against =
    s.source === 'platform'
      ? ` (compared with the parent branch${r.parentBranch ? ` ${markdownCode(r.parentBranch)}` : ''} by Neon)`
      : s.source === 'migra' || s.source === 'listing'
        ? s.madeBy
          ? ` (made by ${s.madeBy})`
          : r.mode === 'instant'
            ? ' (made by `seed-command`)'
            : ' (made by the seed and `seed-command`)'
        : ''
  if (s.unavailable)
    return [
      '#### Schema',
      '',
      `**schema diff unavailable**: ${markdownText(s.unavailable)}. The database is seeded; only the diff is missing.`,
      ''
    ]
  const lines = ['#### Schema', '', `**${markdownText(s.summary)}**${against}`, '']
  if (s.note) lines.push(`_The diff below lists the changed objects: ${markdownText(s.note)}._`, '')
  if (s.destructive.length > 0) {
    lines.push(
      '> [!WARNING]',
      `> ${s.destructive.length} destructive change${s.destructive.length === 1 ? '' : 's'}${s.failOnDestructive ? ' (the step failed: `fail-on-destructive` is true)' : ''}:`
    )
    for (const d of s.destructive.slice(0, MAX_DESTRUCTIVE_SHOWN)) lines.push(`> - ${markdownText(d, MAX_DESTRUCTIVE_TEXT)}`)
    const more = s.destructive.length - MAX_DESTRUCTIVE_SHOWN
    if (more > 0) lines.push(`> - and ${more} more: the \`schema-destructive\` output lists them all`)
    lines.push('')
  }
  if (s.diff) {
    let diff = s.diff.replace(/\r\n?/g, '\n')
    let cut = ''
    if (diff.length > diffBudget) {
      diff = diff.slice(0, Math.max(0, diff.lastIndexOf('\n', diffBudget)))
      cut = `\n_The diff is cut here (${s.diff.split('\n').length} lines in all): the job summary and the file in the \`schema-diff\` output have all of it._\n`
    }
    const f = fence(diff)
    lines.push(
      `<details><summary>Schema diff (${s.diff.split('\n').length} lines)</summary>`,
      '',
      `${f}diff`,
      diff,
      f,
      cut,
      '</details>',
      ''
    )
  }
  if (s.total !== undefined) {
    const parent = r.parentBranch ? ` ${markdownCode(r.parentBranch)}` : ''
    if (!s.total.trim()) lines.push(`**This pull request's total change against the parent branch${parent}**: none.`, '')
    else {
      const total = s.total.length > diffBudget ? s.total.slice(0, Math.max(0, s.total.lastIndexOf('\n', diffBudget))) : s.total
      const f = fence(total)
      lines.push(
        `<details><summary>This pull request's total change against the parent branch${parent} (the platform's compare_schema)</summary>`,
        '',
        `${f}diff`,
        total,
        f,
        '',
        '</details>',
        ''
      )
    }
  }
  return lines
}

/**
 * The Vercel preview in the PR comment and the job summary: one row beside
 * the database's, with the deployment's link and state, or what the wiring
 * did instead. Holds no secret (a URL of Vercel's and Vercel's state).
 */
import { markdownText, markdownUrl } from '../publish/inert.js'

/** What the wiring did, for the report. */
export interface VercelReport {
  /** The preview deployment that reads this database (`https://…`), when there is one. */
  url?: string
  /** Its state as Vercel gives it (`QUEUED`, `BUILDING`, `READY`, …). */
  state?: string
  /** What the wiring did, in a few words (our own words). */
  note: string
}

/** The report's row: `Vercel preview | <link> (<state>): <note>`. Vercel's URL and state are rendered inert. */
export function vercelRow(v: VercelReport): [string, string] {
  // canonical (`https://host/`), so that markdownUrl links it rather than rendering it as text
  const href = v.url && URL.canParse(v.url) ? new URL(v.url).href : v.url
  const link = href ? `${markdownUrl(href)}${v.state ? ` (${markdownText(v.state.toLowerCase(), 20)})` : ''}: ` : ''
  return ['Vercel preview', `${link}${v.note}`]
}

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

/** A deployment's address as Vercel gives it: a host name (`shop-abc123-acme.vercel.app`), with or without `https://`. */
const DEPLOYMENT_URL = /^(?:https:\/\/)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})\/?$/i

/** `https://<host>` for a deployment address of Vercel's shape, else '' (an answer of another shape is not used). */
export function deploymentUrlOf(url: string): string {
  const host = DEPLOYMENT_URL.exec(url)?.[1]
  return host ? `https://${host.toLowerCase()}` : ''
}

/** The report's row: `Vercel preview | <link> (<state>): <note>`. Vercel's URL and state are rendered inert. */
export function vercelRow(v: VercelReport): [string, string] {
  // `https://host/`: canonical, so that markdownUrl links it; an address of another shape is shown as escaped text
  const url = v.url ? deploymentUrlOf(v.url) : ''
  const shown = url ? markdownUrl(`${url}/`) : v.url ? markdownText(v.url, 100) : ''
  const link = shown ? `${shown}${v.state ? ` (${markdownText(v.state.toLowerCase(), 20)})` : ''}: ` : ''
  return ['Vercel preview', `${link}${v.note}`]
}

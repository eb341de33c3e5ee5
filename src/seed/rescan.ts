/**
 * Exact places after a fast pass: the load and the check pass do not count
 * COPY data lines (scanFile's `bytes` and `skip` modes), so lines after a
 * COPY block lag; these rescans of one file in `lines` mode find a
 * statement's or meta-command's exact line by its ordinal, when an error
 * needs it.
 */
import { scanFile } from '../psql/scanner.js'
import type { SeedScanOptions, SeedStatement } from './grammar.js'

/** A statement at its exact place, and where its COPY data starts. */
export interface ExactStatement {
  statement: SeedStatement
  /** For a `COPY … FROM stdin`: file line of its first data line (what the server calls "line 1"). */
  copyDataLine?: number
}

/**
 * Rescans `file` in `lines` mode for the statement with ordinal `index` (as
 * yielded in any mode), to report its exact line and column after a pass that
 * did not count COPY data lines. Reads the file up to that statement.
 * @throws Error if the file has fewer statements (it changed since).
 */
export async function exactStatement(
  file: string,
  index: number,
  options: Omit<SeedScanOptions, 'copyData'> = {}
): Promise<ExactStatement> {
  let found: SeedStatement | undefined
  for await (const ev of scanFile(file, { ...options, copyData: 'lines' })) {
    if (found) {
      // the event after a COPY statement: its first data line, or the `\.` line that follows it directly
      return { statement: found, copyDataLine: ev.kind === 'copy-data' ? ev.firstLine : ev.kind === 'copy-end' ? ev.line : undefined }
    }
    if (ev.kind !== 'statement' || ev.index !== index) continue
    if (!ev.copyFromStdin) return { statement: ev }
    found = ev
  }
  if (found) return { statement: found }
  throw new Error(`${file}: statement ${index + 1} not found on rescan (did the file change while seeding?)`)
}

/**
 * Rescans `file` in `lines` mode for the meta-command with ordinal `index`,
 * for its exact line after a pass that did not count COPY data lines.
 * @returns its line, or `fallback` if the file has fewer (it changed since)
 */
export async function exactMetaLine(
  file: string,
  index: number,
  fallback: number,
  options: Omit<SeedScanOptions, 'copyData'> = {}
): Promise<number> {
  for await (const ev of scanFile(file, { ...options, copyData: 'lines' })) if (ev.kind === 'meta' && ev.index === index) return ev.line
  return fallback
}

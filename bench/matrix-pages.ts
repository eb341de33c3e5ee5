/**
 * Where `npm run matrix -- --write` puts the fault matrix: docs/reliability.md
 * and the pages it links, each page the groups of cases its marker names.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { type CaseResult, renderMatrix } from '../__tests__/matrix/matrix.js'

/**
 * Writes the fault matrix into the pages of `docs` (docs/) that hold matrix markers: each
 * page's `<!-- matrix:begin: …; groups: a, b -->` names the groups whose
 * cases it lists (in the matrix's order), so that no page grows past what a
 * reader can read; every group must have a page. Refuses a partial run
 * (MATRIX_ONLY).
 * @throws Error when MATRIX_ONLY is set, a group has no page, or a page's markers are broken.
 */
export function writeMatrixPages(results: CaseResult[], docs: string): void {
  if (process.env.MATRIX_ONLY) throw new Error('--write needs every case: unset MATRIX_ONLY')
  const placed = new Set<string>()
  for (const page of readdirSync(docs).filter((f) => f.endsWith('.md'))) {
    const file = path.join(docs, page)
    const doc = readFileSync(file, 'utf8')
    const begin = doc.indexOf('<!-- matrix:begin')
    if (begin < 0) continue
    const open = doc.indexOf('\n', begin) + 1
    const end = doc.indexOf('<!-- matrix:end -->')
    const groups = /; groups: ([^>]*?) -->/.exec(doc.slice(begin, open))?.[1].split(', ')
    if (end < open || !groups) throw new Error(`${file}: a <!-- matrix:begin …; groups: … --> line and a <!-- matrix:end --> after it`)
    groups.forEach((g) => placed.add(g))
    writeFileSync(file, doc.slice(0, open) + renderMatrix(results.filter((r) => groups.includes(r.group))) + '\n' + doc.slice(end))
    process.stderr.write(`wrote ${groups.join(', ')} into ${file}\n`)
  }
  const homeless = [...new Set(results.map((r) => r.group))].filter((g) => !placed.has(g))
  if (homeless.length)
    throw new Error(`no page of docs/ lists the matrix groups ${homeless.join(', ')}: name them in a page's matrix:begin line`)
}

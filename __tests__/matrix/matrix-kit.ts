/**
 * What the fault matrix's case files share (matrix.ts and the matrix-*.ts
 * case files): the case and context types, and the checks every
 * case uses on a run.
 */
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'

import { REPO } from '../fixtures/preview.js'

export { REPO }
/** The suffix an unseeded branch's name carries until its seed commits (docs/branch-mode.md). */
export const UNSEEDED_SUFFIX = '~seeding'
export const SEED_TABLES = { matrix_seed: 3, matrix_more: 2 } as const

/** What one case reports. */
export interface CaseResult {
  group: string
  name: string
  expected: string
  observed: string
  /** Mismatches between expected and observed (empty: passed). */
  problems: string[]
  secretsFound: string[]
  orphansFound: string[]
  passed: boolean
}

export interface Ctx {
  emu: Emulator
  work: string
  pr: number
  project: Project
  /** Runs the bundle for this case's PR; `mode` picks the base inputs. */
  run(mode: 'instant' | 'branch', inputs?: Record<string, string>, extra?: Partial<RunOptions>): Promise<RunResult>
  runs: RunResult[]
  /** The env-file path of each run, in order. */
  envFiles: string[]
  /** Branches the case planted itself (other PRs' bystanders, a look-alike, a child): the orphan scan leaves them out. */
  fixtures: Set<string>
}

export interface Case {
  group: string
  name: string
  expected: string
  /** Returns the observed outcome (a short line) and the mismatches. */
  body(ctx: Ctx): Promise<{ observed: string; problems: string[] }>
}

/** A short, secret-free line for the table: exit code and first error or warning. */
export function outcome(r: RunResult): string {
  const first = (r.errors[0] ?? r.warnings[0] ?? '').replace(/\s+/g, ' ')
  return `exit ${r.code}${first ? `: ${first.length > 90 ? first.slice(0, 90) + '…' : first}` : ''}`
}

/** Collects mismatches: `expect(cond, what)` adds `what` when cond is false. */
export function checker(): { problems: string[]; expect: (cond: boolean, what: string) => void } {
  const problems: string[] = []
  return { problems, expect: (cond, what) => void (cond || problems.push(what)) }
}

export const count = (emu: Emulator, server: 'instant' | 'platform' | 'github', method: string, p: RegExp): number =>
  emu[server].server.requests(method, p).length
export const INSTANT_CREATE = /^\/api\/v1\/database\/?$/
export const BRANCHES = /\/branches\/?$/
export const OPERATIONS = /\/operations/

/** A success: exit 0, database-url set. */
export function succeeded(r: RunResult, c: ReturnType<typeof checker>): void {
  c.expect(r.code === 0, `exit ${r.code} (${r.errors[0] ?? ''})`)
  c.expect(!!r.outputs['database-url'], 'no database-url output')
}

/** A failure with an `::error::` matching `message`, and no connection output. */
export function failed(r: RunResult, message: RegExp, c: ReturnType<typeof checker>): void {
  c.expect(r.code === 1, `exit ${r.code}, expected 1`)
  c.expect(message.test(r.errors.join('\n')), `error ${JSON.stringify(r.errors[0] ?? '')} does not match ${message}`)
  c.expect(!r.outputs['database-url'], 'database-url was set on a failed run')
}

/**
 * Outputs a failed or cancelled run may set: the records of what it wrote to
 * GitHub (its deployment, marked failed, and its comment), never a database.
 */
const RECORDS_OF_GITHUB_WRITES = new Set(['deployment-id', 'comment-url'])

/** The outputs of `r` that hand something out (every output but the records of its GitHub writes). */
export const handedOut = (r: RunResult): string[] => Object.keys(r.outputs).filter((k) => !RECORDS_OF_GITHUB_WRITES.has(k))

/** Comments on the PR and their markers. */
export function prComments(emu: Emulator, pr: number): { body: string; login: string; record: Record<string, unknown> | null }[] {
  return emu.github.comments(REPO, pr).map((c) => {
    const m = /<!-- preview-postgres:v1 (\{.*?\}) -->/.exec(c.body)
    return { body: c.body, login: c.user.login, record: m ? (JSON.parse(m[1]) as Record<string, unknown>) : null }
  })
}

/** Preview branches (not default, not protected) of the case's project. */
export const previewBranches = (project: Project) => [...project.branches.values()].filter((b) => !b.default && !b.protected)

type Check = { problems: string[]; expect: (cond: boolean, what: string) => void }

/** The shared helpers of matrix.ts, passed to the case files that take them. */
export interface MatrixHelpers {
  checker(): Check
  succeeded(r: RunResult, c: Check): void
  failed(r: RunResult, message: RegExp, c: Check): void
  outcome(r: RunResult): string
  badInputCase(label: string, mode: 'instant' | 'branch', inputs: Record<string, string>, message: RegExp): Case
}

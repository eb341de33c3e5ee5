/**
 * `env-key` and `env-prefix`: the env file's variable names, as the
 * instant service's CLI sets them with `--key` and `--prefix` (its API document),
 * through the bundled action in both modes; names that are not environment
 * variable names are refused before any request. Every test on Node 24
 * (action.yml's runtime), the first on the machine's Node too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { RUNTIMES, type RunResult } from '../../emulator/runner/runner.js'
import { REPO, branchInputs, instantInputs, pullRequests, startTestEmulator } from '../fixtures/preview.js'
import { on24Only } from '../helpers.js'

let emu: Emulator
let work: string
let project: Project

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('env-names-test-'))
  project = await emu.platform.createProject()
})

afterAll(async () => {
  await emu?.stop()
  rmSync(work, { recursive: true, force: true })
})

/** How the action writes a value: double-quoted, with `"`, `\`, `$` and backquote escaped. */
const quoted = (value: string): string => `"${value.replace(/(["\\$`])/g, '\\$1')}"`

/** Every variable name the file sets. */
const namesIn = (env: string): string[] => [...env.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1])

/** Requests every emulated service has received so far. */
const requestCount = (): number => emu.instant.server.requests().length + emu.platform.server.requests().length + emu.github.server.requests().length

const MODES = {
  instant: () => instantInputs(emu),
  branch: () => branchInputs(emu, project)
}

const newPr = pullRequests(() => emu, 2100)

describe.each(RUNTIMES)('env-key and env-prefix on $name', ({ node }) => {
  const it24 = on24Only(node)
  const run = (mode: keyof typeof MODES, inputs: Record<string, string>, pr = newPr()): Promise<RunResult> => {
    return emu.run({ inputs: { 'github-token': APP_TOKEN, ...MODES[mode](), ...inputs }, repository: REPO, pr: { number: pr }, cwd: work, node })
  }

  it('instant mode: <key>, <key>_DIRECT and <prefix>POSTGRES_CLAIM_URL, other lines kept', async () => {
    const envFile = path.join(work, `instant-${node.length}-${Date.now()}.env`)
    writeFileSync(envFile, 'API_TOKEN=keep-me\nVITE_OLD=1\n')
    const r = await run('instant', { 'env-file': envFile, 'env-key': 'APP_DB', 'env-prefix': 'VITE_' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const env = readFileSync(envFile, 'utf8')
    expect(namesIn(env)).toEqual(['API_TOKEN', 'VITE_OLD', 'APP_DB', 'APP_DB_DIRECT', 'VITE_POSTGRES_CLAIM_URL'])
    expect(env).toContain(`APP_DB=${quoted(r.outputs['database-url'])}\n`)
    expect(env).toContain(`APP_DB_DIRECT=${quoted(r.outputs['database-url-direct'])}\n`)
    expect(env).toContain(`VITE_POSTGRES_CLAIM_URL=${quoted(r.outputs['claim-url'])}\n`)
    expect(env).toContain('# Claim it to keep it: open the link in VITE_POSTGRES_CLAIM_URL\n')
    expect(r.stdout).toContain(`Wrote APP_DB, APP_DB_DIRECT and VITE_POSTGRES_CLAIM_URL to ${envFile}.`)
  })

  it24('instant mode: the defaults are the CLI\'s (DATABASE_URL, DATABASE_URL_DIRECT, PUBLIC_POSTGRES_CLAIM_URL)', async () => {
    const envFile = path.join(work, `defaults-${node.length}-${Date.now()}.env`)
    const r = await run('instant', { 'env-file': envFile })
    expect(r.code).toBe(0)
    expect(namesIn(readFileSync(envFile, 'utf8'))).toEqual(['DATABASE_URL', 'DATABASE_URL_DIRECT', 'PUBLIC_POSTGRES_CLAIM_URL'])
  })

  it24('branch mode: <key> and <key>_DIRECT, no claim URL (a branch has none)', async () => {
    const envFile = path.join(work, `branch-${node.length}-${Date.now()}.env`)
    const r = await run('branch', { 'env-file': envFile, 'env-key': 'db_url', 'env-prefix': 'NEXT_PUBLIC_' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const env = readFileSync(envFile, 'utf8')
    expect(namesIn(env)).toEqual(['db_url', 'db_url_DIRECT'])
    expect(env).toContain(`db_url=${quoted(r.outputs['database-url'])}\n`)
    expect(env).toContain(`db_url_DIRECT=${quoted(r.outputs['database-url-direct'])}\n`)
    expect(env).not.toContain('CLAIM')
    expect(r.stdout).toContain(`Wrote db_url and db_url_DIRECT to ${envFile}.`)
  })

  it24('branch mode, command: reset: writes <key> and <key>_DIRECT too', async () => {
    const pr = newPr()
    const created = await run('branch', {}, pr)
    expect(created.code).toBe(0)
    const envFile = path.join(work, `reset-${node.length}-${pr}.env`)
    const r = await run('branch', { command: 'reset', 'env-file': envFile, 'env-key': 'PREVIEW_DB' }, pr)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const env = readFileSync(envFile, 'utf8')
    expect(namesIn(env)).toEqual(['PREVIEW_DB', 'PREVIEW_DB_DIRECT'])
    expect(env).toContain(`PREVIEW_DB=${quoted(created.outputs['database-url'])}\n`)
    expect(env).toContain(`PREVIEW_DB_DIRECT=${quoted(created.outputs['database-url-direct'])}\n`)
  })

  const refused: [keyof typeof MODES, Record<string, string>, RegExp][] = [
    ['instant', { 'env-key': '1DATABASE_URL' }, /^Input `env-key` must be an environment variable name .*got "1DATABASE_URL"\.$/],
    ['instant', { 'env-key': 'DATABASE-URL' }, /^Input `env-key` must be an environment variable name .*got "DATABASE-URL"\.$/],
    ['instant', { 'env-key': 'DATABASE URL' }, /^Input `env-key` must be an environment variable name .*got "DATABASE URL"\.$/],
    ['instant', { 'env-prefix': 'VITE-' }, /^Input `env-prefix` must be the start of an environment variable name .*got "VITE-"\.$/],
    ['instant', { 'env-key': 'PUBLIC_POSTGRES_CLAIM_URL' }, /^Inputs `env-key` and `env-prefix` name the same variable, PUBLIC_POSTGRES_CLAIM_URL,/],
    ['branch', { 'env-key': 'DATABASE_ÜRL' }, /^Input `env-key` must be an environment variable name .*got "DATABASE_ÜRL"\.$/],
    ['branch', { 'env-prefix': '9_' }, /^Input `env-prefix` must be the start of an environment variable name .*got "9_"\.$/]
  ]
  it24.each(refused)('%s mode refuses %j before any request', async (mode, inputs, message) => {
    const envFile = path.join(work, `refused-${node.length}-${Date.now()}.env`)
    const before = requestCount()
    const databases = emu.instant.databases.size
    const branches = project.branches.size
    const r = await run(mode, { 'env-file': envFile, ...inputs })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(message)
    expect(requestCount()).toBe(before)
    expect(emu.instant.databases.size).toBe(databases)
    expect(project.branches.size).toBe(branches)
    expect(existsSync(envFile)).toBe(false)
  })
})

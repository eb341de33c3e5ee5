/**
 * `seed-command` and `migrate-command` through the bundled action: they see
 * what a `run:` step of the same job would (actions/runner's
 * NodeScriptActionHandler.cs against ScriptHandler.cs), plus the connection:
 * no input (the API key, the GitHub token), no Actions runtime token or
 * service URL, no post-step state, not the action's own output and state files.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { branchSuite } from '../fixtures/branch-suite.js'

const suite = branchSuite({ prefix: 'command-env-test-', firstPr: 4200, projectPerTest: true })

/** The runner's values for the variables it gives JavaScript actions only, faked. */
const RUNTIME = {
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-4f1c0a',
  ACTIONS_RUNTIME_URL: 'https://pipelines.actions.example/runtime/',
  ACTIONS_CACHE_URL: 'https://artifactcache.actions.example/',
  ACTIONS_RESULTS_URL: 'https://results-receiver.actions.example/',
  ACTIONS_CACHE_SERVICE_V2: 'True',
  ACTIONS_CACHE_MODE: 'read-write',
  STATE_lock: 'forged-state',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/oidc',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token-9d2e'
}
const dump = (file: string): string => `node -e 'require("fs").writeFileSync("${file}", JSON.stringify(process.env))'`
const read = (file: string): Record<string, string> => JSON.parse(readFileSync(path.join(suite.work, file), 'utf8')) as Record<string, string>

describe("the user's commands get a run: step's environment and the connection", () => {
  it('seed-command and migrate-command see no input, no Actions runtime variable, no action state or output file', async () => {
    const pr = suite.newPr()
    const r = await suite.run(
      { 'seed-command': dump('seed-env.json'), 'migrate-command': dump('migrate-env.json') },
      { pr: { number: pr }, env: RUNTIME }
    )
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    for (const file of ['seed-env.json', 'migrate-env.json']) {
      const env = read(file)
      const names = Object.keys(env)
      expect(names.filter((n) => n.toUpperCase().startsWith('INPUT_'))).toEqual([])
      expect(names.filter((n) => n.toUpperCase().startsWith('STATE_'))).toEqual([])
      for (const name of ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RUNTIME_URL', 'ACTIONS_CACHE_URL', 'ACTIONS_RESULTS_URL', 'ACTIONS_CACHE_SERVICE_V2', 'ACTIONS_CACHE_MODE', 'GITHUB_OUTPUT', 'GITHUB_STATE'])
        expect(env).not.toHaveProperty(name)
      const text = JSON.stringify(env)
      for (const secret of [suite.project.apiKey, RUNTIME.ACTIONS_RUNTIME_TOKEN]) expect(text).not.toContain(secret)
      // what a run: step has: the runner's ordinary variables, the OIDC request (run: steps get it too)
      expect(env.GITHUB_WORKSPACE).toBe(suite.work)
      expect(env.RUNNER_TEMP).toBeTruthy()
      expect(env.PATH).toBe(process.env.PATH)
      expect(env.GITHUB_REPOSITORY).toBe('acme/shop')
      expect(env.GITHUB_STEP_SUMMARY).toBeTruthy()
      expect(env.ACTIONS_ID_TOKEN_REQUEST_TOKEN).toBe(RUNTIME.ACTIONS_ID_TOKEN_REQUEST_TOKEN)
      // the connection
      expect(env.DATABASE_URL).toBe(env.DIRECT_URL)
      expect(env.DATABASE_URL).toContain(suite.project.password)
      expect(env.DATABASE_URL_POOLED).toContain('-pooler.')
      expect(env.PGPASSWORD).toBe(suite.project.password)
      for (const name of ['PGHOST', 'PGPORT', 'PGUSER', 'PGDATABASE', 'PGSSLMODE']) expect(env[name]).toBeTruthy()
    }
    suite.expectNoLeak(r)
  })
})

/**
 * docs/preview-deployments.md's workflows run as written, job by job,
 * through the bundled action against the emulator (fixtures/docs-workflows.ts):
 * the Git-integration workflow against the emulated Vercel API (its
 * variables, one new deployment of the head commit that reads them, the
 * delete job removing them), the Vercel CLI's (pull, build with the outputs
 * in the build's environment, deploy --prebuilt) and Netlify's (deploy
 * --build --alias).
 *
 * Stand-ins: `npx vercel` runs __tests__/apps/tools/vercel.sh and `npx
 * netlify` runs tools/netlify.sh (the CLIs need their services' network);
 * their builds query the PR's database as an app's build would.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { VERCEL_TOKEN, type Emulator } from '../../emulator/index.js'
import { DOC_WORKFLOWS, DocsRun, checkoutApp, firstFailure, outcomes, projectOf, pullRequestEvent } from '../fixtures/docs-workflows.js'
import { pullRequests, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
const newPr = pullRequests(() => emu, 5300)
const HERE = 'docs-previews.test.ts'
const SHA = 'a1b2c3d4e5f6'

beforeAll(async () => {
  ;({ emu } = await startTestEmulator('docs-previews-'))
})
afterAll(async () => {
  await emu?.stop()
})

/** The workflow `key`, which this file must be the one to run. */
function runsHere(key: string): string {
  expect(DOC_WORKFLOWS[key]).toBe(HERE)
  return key
}

describe('preview-deployments.md', () => {
  it("Vercel's Git integration: the branch's variables, one new deployment that reads them, and the delete job removes them", async () => {
    const team = emu.vercel.addTeam('acme-docs')
    const vercel = emu.vercel.addProject('shop-docs', { team })
    const project = await projectOf(emu, 'instant')
    const run = new DocsRun(emu, runsHere('docs/preview-deployments.md: Preview database (Vercel)'), checkoutApp('instant'), {
      project,
      secrets: { VERCEL_TOKEN },
      vars: { VERCEL_PROJECT_ID: vercel.id, VERCEL_TEAM_ID: team.id },
      // the emulator stands in for api.vercel.com
      inputs: { 'vercel-api-url': emu.vercel.url }
    })
    const pr = newPr()
    const stale = emu.vercel.gitPush(vercel, 'feature/login', SHA, 'BUILDING') // the Git integration built the push first
    const opened = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(opened)).toBe('no step failed')
    const step = opened.steps.find((s) => s.action)!.action!
    const vars = Object.fromEntries(vercel.envs.filter((e) => e.gitBranch === 'feature/login').map((e) => [e.key, e.value]))
    expect(vars).toEqual({ DATABASE_URL: step.outputs['database-url'], DATABASE_URL_UNPOOLED: step.outputs['database-url-direct'] })
    const made = emu.vercel.deployments.filter((d) => d.projectId === vercel.id && d.source === 'api')
    expect(made.map((d) => [d.sha, d.env.DATABASE_URL])).toEqual([[SHA, step.outputs['database-url']]])
    expect(stale.state).toBe('CANCELED')
    expect(step.outputs['vercel-deployment-url']).toBe(`https://${made[0].url}`)

    const closed = await run.job('delete', 'pull_request', pullRequestEvent(pr, 'closed'))
    expect(firstFailure(closed)).toBe('no step failed')
    expect(vercel.envs).toEqual([])
  })

  it('the Vercel CLI: pull, build with the outputs as its environment (it reads the seeded database), deploy --prebuilt', async () => {
    const project = await projectOf(emu, 'instant')
    const dir = checkoutApp('instant')
    const run = new DocsRun(emu, runsHere('docs/preview-deployments.md: Preview deployment (Vercel CLI)'), dir, {
      project,
      secrets: { VERCEL_TOKEN },
      vars: { VERCEL_ORG_ID: 'team_docs', VERCEL_PROJECT_ID: 'prj_docs' },
      commands: { 'npx vercel': 'bash tools/vercel.sh' }
    })
    const job = await run.job('preview', 'pull_request', pullRequestEvent(newPr(), 'opened'))
    expect(firstFailure(job)).toBe('no step failed')
    expect(outcomes(job).filter(([, o]) => o === 'failure')).toEqual([])
    expect(readFileSync(path.join(dir, '.vercel', 'output', 'build.txt'), 'utf8')).toBe('customers=2\n')
    expect(job.steps.at(-1)!.log).toContain('Preview at https://shop-web-git-preview-acme.vercel.app')
  })

  it('Netlify: deploy --build --alias pr-<N>, the build reading the seeded database', async () => {
    const project = await projectOf(emu, 'instant')
    const dir = checkoutApp('instant')
    const run = new DocsRun(emu, runsHere('docs/preview-deployments.md: Preview deployment (Netlify)'), dir, {
      project,
      secrets: { NETLIFY_AUTH_TOKEN: 'nfp_docs_token' },
      vars: { NETLIFY_SITE_ID: 'shop-docs' },
      commands: { 'npx netlify': 'bash tools/netlify.sh' }
    })
    const pr = newPr()
    const job = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(job)).toBe('no step failed')
    expect(readFileSync(path.join(dir, '.netlify', 'build.txt'), 'utf8')).toBe('customers=2\n')
    expect(job.steps.at(-1)!.log).toContain(`Website draft URL: https://pr-${pr}--shop-docs.netlify.app`)
  })
})

/**
 * docs/lifecycle.md's workflows for runs no pull request starts, run as
 * written job by job through the bundled action against the emulator
 * (fixtures/docs-workflows.ts): the merge queue's checks (three queue entries,
 * each with a seeded database of its own, none left after the job, a PR's
 * preview untouched) and the branch previews (two pushes, one preview; the
 * git branch's delete event removes it). Stand-ins as in docs-workflows.test.ts:
 * `npx prisma migrate deploy` runs tools/migrate.sh, `npx prisma db seed`
 * tools/seed.sh, `npm run test:e2e` tools/app-test.sh (psql).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/index.js'
import { parse } from 'yaml'
import { DOC_WORKFLOWS, DocsRun, checkoutApp, commandsRun, docWorkflow, firstFailure, projectOf } from '../fixtures/docs-workflows.js'
import { REPO, previewBranches, pullRequests, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
const newPr = pullRequests(() => emu, 5800)
const repository = { name: 'shop', full_name: REPO, owner: { login: 'acme' } }

beforeAll(async () => {
  ;({ emu } = await startTestEmulator('docs-run-sources-'))
})
afterAll(async () => {
  await emu?.stop()
})

/** The workflow `key`, which this file must be the one to run. */
function runsHere(key: string): string {
  expect(DOC_WORKFLOWS[key]).toBe('docs-run-sources.test.ts')
  return key
}

const COMMANDS = {
  'npx prisma migrate deploy': 'MIGRATIONS=prisma/migrations bash tools/migrate.sh',
  'npx prisma db seed': 'bash tools/seed.sh prisma/seed.sql',
  'npm run test:e2e': "bash tools/app-test.sh 'SELECT count(*) FROM posts WHERE published'"
}

describe('lifecycle.md: the merge queue', () => {
  it('three queue entries each test on a migrated and seeded database of their own; none is left, and the PR\'s preview is untouched', async () => {
    const project = await projectOf(emu, 'prisma')
    const pr = newPr()
    const made = await emu.run({
      inputs: { 'api-url': emu.platform.url, 'api-key': project.apiKey, 'project-id': project.id, 'poll-interval': '0.2' },
      repository: REPO,
      cwd: checkoutApp('prisma'),
      pr: { number: pr }
    })
    expect(made.errors).toEqual([])
    const previewId = made.outputs['branch-id']
    for (const sha of ['c783e9e', 'd894fa0', 'e9a50b1'].map((s) => s.padEnd(40, '1'))) {
      const dir = checkoutApp('prisma')
      const run = new DocsRun(emu, runsHere('docs/lifecycle.md: Merge queue checks'), dir, { project, commands: COMMANDS })
      const headRef = `refs/heads/gh-readonly-queue/main/pr-${pr}-${'b'.repeat(40)}`
      const job = await run.job(
        'test',
        'merge_group',
        { action: 'checks_requested', merge_group: { head_sha: sha, head_ref: headRef, base_sha: 'b'.repeat(40), base_ref: 'refs/heads/main' }, repository },
        { env: { GITHUB_SHA: sha, GITHUB_REF: headRef } }
      )
      expect(firstFailure(job)).toBe('no step failed')
      expect(job.unusedCommands).toEqual([])
      expect(commandsRun(dir)).toEqual(['migrate', 'seed'])
      const action = job.steps.find((s) => s.action)!.action!
      expect(action.outputs.created).toBe('true')
      expect(action.outputs['branch-name']).toMatch(new RegExp(`^preview/queue-${sha.slice(0, 7)}-test-[0-9a-f]{6}$`))
      expect(action.post?.stdout).toContain(`Deleted branch "${action.outputs['branch-name']}"`)
      // the tests ran on the database before the post step deleted it: the migration's column and the seed's row
      expect(job.steps.at(-1)!.log).toMatch(/tests: SELECT count\(\*\) FROM posts WHERE published -> [1-9]/)
      expect(previewBranches(project).map((b) => b.id)).toEqual([previewId])
    }
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
  })
})

describe('lifecycle.md: branch previews', () => {
  it("ignores a merge queue's pushes and runs one push of a git branch at a time", () => {
    const workflow = parse(docWorkflow(runsHere('docs/lifecycle.md: Branch previews'))) as {
      on: { push: { 'branches-ignore': string[] } }
      jobs: { preview: { concurrency?: unknown } }
    }
    expect(workflow.on.push['branches-ignore']).toEqual(expect.arrayContaining(['main', 'gh-readonly-queue/**']))
    expect(workflow.jobs.preview.concurrency).toBe('branch-preview-${{ github.ref }}')
  })

  it('two pushes to a git branch share one preview; the branch\'s delete event removes it; the preview job skips the delete event', async () => {
    const project = await projectOf(emu, 'prisma')
    const dir = checkoutApp('prisma')
    const run = new DocsRun(emu, runsHere('docs/lifecycle.md: Branch previews'), dir, { project, commands: COMMANDS })
    const push = (sha: string) =>
      run.job('preview', 'push', { ref: 'refs/heads/feature/reports', after: sha, deleted: false, repository }, { env: { GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/feature/reports' } })
    const first = await push('5f120d1'.padEnd(40, '2'))
    expect(firstFailure(first)).toBe('no step failed')
    const made = first.steps.find((s) => s.action)!.action!.outputs
    expect(made.created).toBe('true')
    expect(made['branch-name']).toMatch(/^preview\/feature-reports-[0-9a-f]{8}$/)
    const second = await push('c783e9e'.padEnd(40, '3'))
    expect(firstFailure(second)).toBe('no step failed')
    expect(second.steps.find((s) => s.action)!.action!.outputs).toMatchObject({ created: 'false', 'branch-id': made['branch-id'] })
    expect(commandsRun(dir)).toEqual(['migrate', 'seed', 'migrate'])
    expect(previewBranches(project).map((b) => b.name)).toEqual([made['branch-name']])
    // the delete job is skipped on a push, the preview job on the delete event
    expect((await run.job('delete', 'push', { ref: 'refs/heads/feature/reports', repository })).skipped).toBe(true)
    const deleteEvent = { ref: 'feature/reports', ref_type: 'branch', pusher_type: 'user', repository }
    expect((await run.job('preview', 'delete', deleteEvent)).skipped).toBe(true)
    expect((await run.job('delete', 'delete', { ...deleteEvent, ref_type: 'tag' })).skipped).toBe(true)
    const deleted = await run.job('delete', 'delete', deleteEvent)
    expect(firstFailure(deleted)).toBe('no step failed')
    expect(previewBranches(project)).toEqual([])
  })
})

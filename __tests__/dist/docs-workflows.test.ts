/**
 * The README's and docs/' workflows run as written, job by job, through the
 * bundled action against the emulator (emulator/runner/workflow-job.ts; the
 * harness and the list of every documented workflow are in
 * fixtures/docs-workflows.ts): instant mode with its close job; branch mode
 * for a Prisma-style app (migrations on every push, its data seed on a new
 * branch, the delete job, fork PRs skipped) and the nightly sweep; the
 * fork-PR pair (a fork PR whose tests fail keeps one database over three
 * pushes; the `workflow_run` job publishes for forks only); the branch-mode
 * guard, the reset by label, anonymized previews, and the neon-actions
 * "after" workflow. docs-migrations.test.ts runs migrations.md's and the
 * monorepo's.
 *
 * Stand-ins, per scenario below: `npm test`/`npm run test:e2e` run
 * __tests__/apps/tools/app-test.sh (psql, one query the app's tests would
 * need), `npx prisma migrate deploy` runs tools/migrate.sh on
 * prisma/migrations, `npx prisma db seed` runs tools/seed.sh on
 * prisma/seed.sql, and `gh pr edit` (not installed here) echoes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import {
  DOC_WORKFLOWS,
  DocsRun,
  checkoutApp,
  commandsRun,
  projectOf,
  documentedWorkflows,
  firstFailure,
  outcomes,
  pullRequestEvent,
  workflowRunEvent
} from '../fixtures/docs-workflows.js'
import { REPO, previewBranches, pullRequests, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
const newPr = pullRequests(() => emu, 5100)
const FORK = 'forker/shop'
const HERE = 'docs-workflows.test.ts'

beforeAll(async () => {
  ;({ emu } = await startTestEmulator('docs-workflows-'))
})
afterAll(async () => {
  await emu?.stop()
})

/** The workflow `key`, which this file must be the one to run. */
function runsHere(key: string): string {
  expect(DOC_WORKFLOWS[key]).toBe(HERE)
  return key
}

const comments = (pr: number): string[] => emu.github.comments(REPO, pr).map((c) => c.body)

describe('every complete workflow in README.md and docs/', () => {
  it('is listed, with the test file that runs it or why none can', () => {
    expect(documentedWorkflows().map((w) => w.key)).toEqual(Object.keys(DOC_WORKFLOWS))
  })
})

describe('README.md, instant mode', () => {
  it('creates on open (npm test passes on the seeded database), reuses on push, and the close job runs on close', async () => {
    const dir = checkoutApp('instant')
    const run = new DocsRun(emu, runsHere('README.md: Preview database'), dir, {
      commands: { 'npm test': "bash tools/app-test.sh 'SELECT count(*) FROM customers'" }
    })
    const pr = newPr()
    const first = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(first)).toBe('no step failed')
    expect(outcomes(first)).toEqual([
      ['actions/checkout@v5', 'skipped'],
      ['actions/setup-node@v4', 'skipped'],
      ['npm ci', 'skipped'],
      ['preview-postgres/preview-postgres@v1', 'success'],
      ['npm test', 'success']
    ])
    expect(first.unusedCommands).toEqual([])
    const db = first.steps[3].action!.outputs
    expect(db.created).toBe('true')
    expect((await run.job('close', 'pull_request', pullRequestEvent(pr, 'opened'))).skipped).toBe(true)

    const second = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'synchronize'))
    expect(firstFailure(second)).toBe('no step failed')
    expect(second.steps[3].action!.outputs).toMatchObject({ created: 'false', 'database-id': db['database-id'] })

    emu.pulls.close(REPO, pr)
    expect((await run.job('preview', 'pull_request', pullRequestEvent(pr, 'closed'))).skipped).toBe(true)
    const close = await run.job('close', 'pull_request', pullRequestEvent(pr, 'closed'))
    expect(firstFailure(close)).toBe('no step failed')
    expect(comments(pr)).toHaveLength(1)
  })
})

/** A Prisma-style app's workflow (README's branch mode, branch-mode.md's, neon-actions.md's "after"), over one PR's life. */
async function prismaLife(key: string, opts: { seeds: boolean }): Promise<{ project: Project; run: DocsRun; dir: string }> {
  const project = await projectOf(emu, 'prisma')
  const dir = checkoutApp('prisma')
  const test = "bash tools/app-test.sh 'SELECT count(*) FROM posts WHERE published'"
  const run = new DocsRun(emu, runsHere(key), dir, {
    project,
    commands: {
      'npx prisma migrate deploy': 'MIGRATIONS=prisma/migrations bash tools/migrate.sh',
      ...(opts.seeds ? { 'npx prisma db seed': 'bash tools/seed.sh prisma/seed.sql' } : {}),
      'npm run test:e2e': opts.seeds ? test : "bash tools/app-test.sh 'SELECT count(*) FROM posts WHERE NOT published'"
    }
  })
  const pr = newPr()
  const first = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
  expect(firstFailure(first)).toBe('no step failed')
  expect(first.unusedCommands).toEqual([])
  const action = first.steps.find((s) => s.action)!.action!
  expect(action.outputs.created).toBe('true')
  // schema before data: the PR's migration, then its data seed, which uses the migration's column
  expect(commandsRun(dir)).toEqual(opts.seeds ? ['migrate', 'seed'] : ['migrate'])
  expect(readFileSync(path.join(dir, 'applied.log'), 'utf8').trim()).toBe('20261101000000_published/migration.sql')

  // the next push brings a new migration: migrate-command only, on the same branch
  writeFileSync(path.join(dir, 'prisma', 'migrations', '20261102000000_slug.sql'), 'ALTER TABLE posts ADD COLUMN slug text;\n')
  const second = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'synchronize'))
  expect(firstFailure(second)).toBe('no step failed')
  expect(second.steps.find((s) => s.action)!.action!.outputs).toMatchObject({ created: 'false', 'branch-id': action.outputs['branch-id'] })
  expect(commandsRun(dir)).toEqual(opts.seeds ? ['migrate', 'seed', 'migrate'] : ['migrate', 'migrate'])
  const columns = await emu.pg.query(
    project.branches.get(action.outputs['branch-id'])!.database,
    "SELECT column_name FROM information_schema.columns WHERE table_name = 'posts' ORDER BY ordinal_position"
  )
  expect(columns.map((c) => c.column_name)).toEqual(['id', 'author', 'title', 'published', 'slug'])

  // a fork's PR: no secrets, so both jobs are skipped rather than failing
  const forked = newPr()
  for (const [job, action] of [
    ['preview', 'opened'],
    ['delete', 'closed']
  ])
    expect((await run.job(job, 'pull_request', pullRequestEvent(forked, action, FORK), { fork: true })).skipped).toBe(true)

  // the PR closes: the delete job deletes its branch
  emu.pulls.close(REPO, pr)
  expect((await run.job('preview', 'pull_request', pullRequestEvent(pr, 'closed'))).skipped).toBe(true)
  const deleted = await run.job('delete', 'pull_request', pullRequestEvent(pr, 'closed'))
  expect(firstFailure(deleted)).toBe('no step failed')
  expect(project.branches.has(action.outputs['branch-id'])).toBe(false)
  return { project, run, dir }
}

describe('branch mode, a Prisma-style app', () => {
  it('README.md: migrations on every push, the data seed on a new branch after them, the delete job; then the nightly sweep', async () => {
    const { project } = await prismaLife('README.md: Preview branch', { seeds: true })

    // A PR closed while its delete job never ran: the documented sweep deletes its branch.
    const dir = checkoutApp('prisma')
    const run = new DocsRun(emu, 'README.md: Preview branch', dir, {
      project,
      commands: {
        'npx prisma migrate deploy': 'MIGRATIONS=prisma/migrations bash tools/migrate.sh',
        'npx prisma db seed': 'bash tools/seed.sh prisma/seed.sql',
        'npm run test:e2e': "bash tools/app-test.sh 'SELECT count(*) FROM posts'"
      }
    })
    const pr = newPr()
    const opened = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened', undefined, 'feature/missed-close'))
    expect(firstFailure(opened)).toBe('no step failed')
    const branchId = opened.steps.find((s) => s.action)!.action!.outputs['branch-id']
    emu.pulls.close(REPO, pr)
    const sweep = new DocsRun(emu, runsHere('docs/lifecycle.md: Sweep preview branches'), mkdtempSync(path.join(os.tmpdir(), 'sweep-')), {
      project
    })
    const swept = await sweep.job('cleanup', 'schedule', { schedule: '17 3 * * *' })
    expect(firstFailure(swept)).toBe('no step failed')
    expect(project.branches.has(branchId)).toBe(false)
    expect(previewBranches(project)).toEqual([])
  })

  it('branch-mode.md: the same app from parent-branch main', async () => {
    await prismaLife('docs/branch-mode.md: Preview branch', { seeds: true })
  })

  it('neon-actions.md, "after": migrate-command on every push', async () => {
    await prismaLife('docs/neon-actions.md: Preview branch #2', { seeds: false })
  })
})

describe('branch-mode.md, the guard for forks and Dependabot', () => {
  it('skips both jobs for a fork and for Dependabot, and runs for a PR of this repository', async () => {
    const project = await projectOf(emu, 'instant')
    const dir = checkoutApp('instant')
    writeFileSync(path.join(dir, 'db', 'seed.sql'), "CREATE TABLE IF NOT EXISTS notes (id int);\nINSERT INTO notes VALUES (1);\n")
    const run = new DocsRun(emu, runsHere('docs/branch-mode.md: Preview branch #2'), dir, { project })
    const pr = newPr()
    for (const [job, action] of [
      ['preview', 'opened'],
      ['delete', 'closed']
    ])
      expect((await run.job(job, 'pull_request', pullRequestEvent(pr, action, FORK), { fork: true })).skipped).toBe(true)
    expect((await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'), { actor: 'dependabot[bot]' })).skipped).toBe(true)
    const opened = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(opened)).toBe('no step failed')
    expect(opened.steps.find((s) => s.action)!.action!.outputs.created).toBe('true')
    emu.pulls.close(REPO, pr)
    expect(firstFailure(await run.job('delete', 'pull_request', pullRequestEvent(pr, 'closed')))).toBe('no step failed')
    expect(previewBranches(project)).toEqual([])
  })
})

describe('fork-pull-requests.md: the PR workflow and the workflow_run workflow', () => {
  it('a fork PR whose tests fail keeps one database over three pushes; each push is published', async () => {
    const dir = checkoutApp('instant')
    const pr = newPr()
    emu.pulls.setHead(REPO, pr, { ref: 'feature/login', sha: 'a1b2c3d4e5f6', repository: FORK }) // publish finds the PR by its head
    const databases = new Set<string>()
    for (const push of ['opened', 'synchronize', 'synchronize']) {
      const artifacts = mkdtempSync(path.join(os.tmpdir(), 'fork-artifacts-'))
      // the fork's tests fail, every push
      const preview = new DocsRun(emu, runsHere('docs/fork-pull-requests.md: Preview database'), dir, {
        commands: { 'npm test': 'echo "1 test failed" && false' },
        artifacts
      })
      const ran = await preview.job('preview', 'pull_request', pullRequestEvent(pr, push, FORK), { fork: true })
      expect(outcomes(ran).slice(3)).toEqual([
        ['preview-postgres/preview-postgres@v1', 'success'],
        ['npm test', 'failure'],
        ['actions/upload-artifact@v4', 'success']
      ])
      const action = ran.steps[3].action!
      databases.add(action.outputs['database-id'])
      expect(path.basename(action.outputs['report-file'])).toBe('preview-postgres-report.json')

      const publish = new DocsRun(emu, runsHere('docs/fork-pull-requests.md: Preview comment'), mkdtempSync(path.join(os.tmpdir(), 'publish-')), {
        artifacts
      })
      const published = await publish.job('publish', 'workflow_run', workflowRunEvent('failure', FORK))
      expect(firstFailure(published)).toBe('no step failed')
      expect(outcomes(published)).toEqual([
        ['actions/download-artifact@v5', 'success'],
        ['preview-postgres/preview-postgres@v1', 'success']
      ])
      expect(comments(pr)).toHaveLength(1)
      expect(comments(pr)[0]).toContain(action.outputs['database-id'])
    }
    expect(databases.size).toBe(1)
  })

  it('publishes nothing for a same-repository PR, and skips publish quietly when the run left no report', async () => {
    const artifacts = mkdtempSync(path.join(os.tmpdir(), 'fork-artifacts-'))
    const publish = new DocsRun(emu, 'docs/fork-pull-requests.md: Preview comment', mkdtempSync(path.join(os.tmpdir(), 'publish-')), {
      artifacts
    })
    const pr = newPr()
    expect((await publish.job('publish', 'workflow_run', workflowRunEvent('success', REPO, [pr]))).skipped).toBe(true)
    const none = await publish.job('publish', 'workflow_run', workflowRunEvent('failure', FORK))
    expect(outcomes(none)).toEqual([
      ['actions/download-artifact@v5', 'failure'],
      ['preview-postgres/preview-postgres@v1', 'skipped']
    ])
    expect(comments(pr)).toEqual([])
  })
})

describe('lifecycle.md: reset by label', () => {
  it('resets the PR branch to its parent and seeds it again when the label is added; other labels do nothing', async () => {
    const project = await projectOf(emu, 'instant')
    const dir = checkoutApp('instant')
    writeFileSync(path.join(dir, 'db', 'seed.sql'), "CREATE TABLE notes (id int);\nINSERT INTO notes VALUES (1);\n")
    const pr = newPr()
    const created = await emu.run({
      inputs: { 'api-url': emu.platform.url, 'api-key': project.apiKey, 'project-id': project.id, 'poll-interval': '0.2', seed: 'db/seed.sql' },
      repository: REPO,
      cwd: dir,
      pr: { number: pr }
    })
    expect(created.errors).toEqual([])
    const database = project.branches.get(created.outputs['branch-id'])!.database
    await emu.pg.query(database, 'INSERT INTO notes VALUES (2), (3)') // the preview drifted
    const run = new DocsRun(emu, runsHere('docs/lifecycle.md: Reset preview database'), dir, {
      project,
      commands: { 'gh pr edit "$PR" --remove-label reset-db': 'echo "gh stand-in: remove the label reset-db from #$PR"' }
    })
    const labeled = (name: string): Record<string, unknown> => ({ ...pullRequestEvent(pr, 'labeled'), label: { name } })
    expect((await run.job('reset', 'pull_request', labeled('bug'))).skipped).toBe(true)
    const reset = await run.job('reset', 'pull_request', labeled('reset-db'))
    expect(firstFailure(reset)).toBe('no step failed')
    expect(reset.unusedCommands).toEqual([])
    expect(reset.steps.at(-1)!.log).toContain(`remove the label reset-db from #${pr}`)
    expect(await emu.pg.query(project.branches.get(created.outputs['branch-id'])!.database, 'SELECT id FROM notes')).toEqual([{ id: 1 }])
  })
})

describe('anonymized.md', () => {
  it('hands out the masked copy of production, with the fixtures loaded after masking; the close job deletes it', async () => {
    const project = await projectOf(emu, 'anonymized', { protectedBranch: 'production' })
    const dir = checkoutApp('anonymized')
    const run = new DocsRun(emu, runsHere('docs/anonymized.md: Anonymized preview'), dir, {
      project,
      commands: { 'npm test': "bash tools/app-test.sh \"SELECT count(*) FROM users WHERE email <> 'ada.lovelace@real.example'\"" }
    })
    const pr = newPr()
    const opened = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(opened)).toBe('no step failed')
    const outputs = opened.steps.find((s) => s.action)!.action!.outputs
    expect(outputs.anonymized).toBe('true')
    const rows = await emu.pg.query(project.branches.get(outputs['branch-id'])!.database, 'SELECT id, email, first_name FROM users ORDER BY id')
    expect(rows).toHaveLength(2)
    expect(rows[0].email).not.toBe('ada.lovelace@real.example')
    // production's names are not among the emulator's fake ones (emulator/neon/platform-anonymized.ts), so a masked value never equals them by chance
    expect(rows[0].first_name).not.toBe('Augusta')
    expect(rows[1]).toEqual({ id: 2, email: 'reviewer@example.com', first_name: 'Preview' })
    emu.pulls.close(REPO, pr)
    expect(firstFailure(await run.job('close', 'pull_request', pullRequestEvent(pr, 'closed')))).toBe('no step failed')
    expect(project.branches.has(outputs['branch-id'])).toBe(false)
  })
})

/**
 * docs/migrations.md's workflow per tool and docs/concurrency.md's monorepo
 * (two named previews, Rails and Django), run as written, job by job,
 * through the bundled action against the emulator (fixtures/docs-workflows.ts).
 * Each runs a PR's life: opened (the production schema as of main, then the
 * PR's migration, then its data seed, which needs that migration), a push
 * with one more migration (`migrate-command` only, on the same branch), and
 * closed (the delete job).
 *
 * Stand-ins (the tools are not installed here), named per tool below: the
 * migration tools run __tests__/apps/tools/migrate.sh (psql, one transaction
 * per migration, recorded in `_migrations`), the data seeds tools/seed.sh
 * (psql), the test suites tools/app-test.sh (psql, one query that needs the
 * PR's schema and data); `pip install` does nothing. migrations.md's plain
 * SQL workflow runs as written: its commands are psql's own.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../emulator/index.js'
import { DOC_WORKFLOWS, DocsRun, checkoutApp, commandsRun, firstFailure, outcomes, projectOf, pullRequestEvent } from '../fixtures/docs-workflows.js'
import { REPO, previewBranches, pullRequests, startTestEmulator } from '../fixtures/preview.js'

let emu: Emulator
const newPr = pullRequests(() => emu, 5300)

beforeAll(async () => {
  ;({ emu } = await startTestEmulator('docs-migrations-'))
})
afterAll(async () => {
  await emu?.stop()
})

/** The workflow `key`, which this file must be the one to run. */
function runsHere(key: string): string {
  expect(DOC_WORKFLOWS[key]).toBe('docs-migrations.test.ts')
  return key
}


interface Tool {
  key: string
  app: string
  commands?: Record<string, string>
  /** The second push's migration: a path in the app and its SQL. */
  next: [string, string]
  /** A query whose first value is what the second push's migration made true (1). */
  migrated: string
}

const TOOLS: Tool[] = [
  {
    key: 'docs/migrations.md: Preview database (Prisma)',
    app: 'prisma',
    commands: {
      'npx prisma migrate deploy': 'MIGRATIONS=prisma/migrations bash tools/migrate.sh',
      'npx prisma db seed': 'bash tools/seed.sh prisma/seed.sql',
      'npm test': "bash tools/app-test.sh 'SELECT count(*) FROM posts WHERE published'"
    },
    next: ['prisma/migrations/20261102000000_slug/migration.sql', 'ALTER TABLE posts ADD COLUMN slug text;\n'],
    migrated: "SELECT count(*)::int FROM information_schema.columns WHERE table_name = 'posts' AND column_name = 'slug'"
  },
  {
    key: 'docs/migrations.md: Preview database (Drizzle)',
    app: 'drizzle',
    commands: {
      'npx drizzle-kit migrate': 'MIGRATIONS=drizzle bash tools/migrate.sh',
      'npx tsx src/db/seed.ts': 'bash tools/seed.sh src/db/seed.sql',
      'npm test': "bash tools/app-test.sh 'SELECT count(*) FROM todos WHERE done'"
    },
    next: ['drizzle/0002_due.sql', 'ALTER TABLE todos ADD COLUMN due date;\n'],
    migrated: "SELECT count(*)::int FROM information_schema.columns WHERE table_name = 'todos' AND column_name = 'due'"
  },
  {
    key: 'docs/migrations.md: Preview database (Rails)',
    app: 'rails',
    commands: {
      'bin/rails db:prepare': 'MIGRATIONS=db/migrate bash tools/migrate.sh',
      'bin/rails db:seed': 'bash tools/seed.sh db/seeds.sql',
      'bin/rails test': `test "$RAILS_ENV" = test && bash tools/app-test.sh "SELECT count(*) FROM articles WHERE slug = 'welcome'"`
    },
    next: ['db/migrate/20261102000000_add_body_to_articles.sql', 'ALTER TABLE articles ADD COLUMN body text;\n'],
    migrated: "SELECT count(*)::int FROM information_schema.columns WHERE table_name = 'articles' AND column_name = 'body'"
  },
  {
    key: 'docs/migrations.md: Preview database (Django)',
    app: 'django',
    commands: {
      'pip install -r requirements.txt': 'true',
      'python manage.py migrate --no-input': 'MIGRATIONS=shop/migrations bash tools/migrate.sh',
      'python manage.py loaddata preview': 'bash tools/seed.sh fixtures/preview.sql',
      'python manage.py test': "bash tools/app-test.sh 'SELECT count(*) FROM shop_product WHERE price IS NOT NULL'"
    },
    next: ['shop/migrations/0003_product_sku.sql', 'ALTER TABLE shop_product ADD COLUMN sku text;\n'],
    migrated: "SELECT count(*)::int FROM information_schema.columns WHERE table_name = 'shop_product' AND column_name = 'sku'"
  },
  {
    // no stand-in: the workflow's commands are psql's own
    key: 'docs/migrations.md: Preview database (SQL)',
    app: 'sql',
    next: ['db/migrations/002_orders_currency_index.sql', 'CREATE INDEX orders_currency ON orders (currency);\n'],
    migrated: "SELECT count(*)::int FROM pg_indexes WHERE indexname = 'orders_currency'"
  }
]

describe('migrations.md: one workflow per tool, over a PR life', () => {
  it.each(TOOLS.map((t) => [t.key.split(': ')[1], t] as const))('%s', async (_, tool) => {
    const project = await projectOf(emu, tool.app)
    const dir = checkoutApp(tool.app)
    const run = new DocsRun(emu, runsHere(tool.key), dir, { project, commands: tool.commands })
    const pr = newPr()
    const first = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(first)).toBe('no step failed')
    expect(first.unusedCommands).toEqual([])
    const outputs = first.steps.find((s) => s.action)!.action!.outputs
    expect(outputs.created).toBe('true')
    const database = project.branches.get(outputs['branch-id'])!.database
    if (tool.commands) expect(commandsRun(dir)).toEqual(['migrate', 'seed'])
    else expect(await emu.pg.query(database, 'SELECT id, currency FROM orders ORDER BY id')).toEqual([
      { id: 1, currency: 'EUR' },
      { id: 2, currency: 'EUR' },
      { id: 3, currency: 'USD' }
    ])

    mkdirSync(path.dirname(path.join(dir, tool.next[0])), { recursive: true })
    writeFileSync(path.join(dir, tool.next[0]), tool.next[1])
    const second = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'synchronize'))
    expect(firstFailure(second)).toBe('no step failed')
    expect(second.steps.find((s) => s.action)!.action!.outputs).toMatchObject({ created: 'false', 'branch-id': outputs['branch-id'] })
    if (tool.commands) expect(commandsRun(dir)).toEqual(['migrate', 'seed', 'migrate'])
    expect(Object.values((await emu.pg.query(database, tool.migrated))[0])).toEqual([1])

    emu.pulls.close(REPO, pr)
    expect((await run.job('preview', 'pull_request', pullRequestEvent(pr, 'closed'))).skipped).toBe(true)
    expect(firstFailure(await run.job('delete', 'pull_request', pullRequestEvent(pr, 'closed')))).toBe('no step failed')
    expect(previewBranches(project)).toEqual([])
  })
})

describe('concurrency.md: two named previews in a monorepo, Rails (api) and Django (web)', () => {
  it('each preview migrates and seeds in its own folder, the tests of both pass, and the close job deletes both', async () => {
    const project = await projectOf(emu, 'monorepo')
    const dir = checkoutApp('monorepo')
    const run = new DocsRun(emu, runsHere('docs/concurrency.md: Previews'), dir, {
      project,
      commands: {
        'pip install -r web/requirements.txt': 'true',
        'bin/rails db:prepare': 'MIGRATIONS=db/migrate bash ../tools/migrate.sh',
        'bin/rails db:seed': 'bash ../tools/seed.sh db/seeds.sql',
        'python manage.py migrate --no-input': 'MIGRATIONS=pages/migrations bash ../tools/migrate.sh',
        'python manage.py loaddata preview': 'bash ../tools/seed.sh fixtures/preview.sql',
        'bin/rails test': `bash ../tools/app-test.sh "SELECT count(*) FROM api_accounts WHERE plan = 'pro'"`,
        'python manage.py test': `bash ../tools/app-test.sh "SELECT count(*) FROM web_page WHERE title = 'Preview'"`
      },
      // The emulator's branches have one database each, named per branch: `database: api` and `database: web`
      // cannot name it, so the test leaves `database` empty (the branch's only database).
      inputs: { database: '' }
    })
    const pr = newPr()
    const opened = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'opened'))
    expect(firstFailure(opened)).toBe('no step failed')
    expect(opened.unusedCommands).toEqual([])
    expect(outcomes(opened).map(([, o]) => o)).toEqual(['skipped', 'skipped', 'skipped', 'success', 'success', 'success', 'success', 'success'])
    const [api, web] = opened.steps.filter((s) => s.action).map((s) => s.action!.outputs)
    expect(api['branch-name']).toBe(`preview/pr-${pr}-feature-login-api`)
    expect(web['branch-name']).toBe(`preview/pr-${pr}-feature-login-web`)
    expect(commandsRun(path.join(dir, 'api'))).toEqual(['migrate', 'seed'])
    expect(commandsRun(path.join(dir, 'web'))).toEqual(['migrate', 'seed'])
    expect(emu.github.comments(REPO, pr)).toHaveLength(2)
    for (const name of ['api', 'web']) expect(emu.deployments.of(REPO, `preview-postgres/pr-${pr}-${name}`)).toHaveLength(1)

    writeFileSync(path.join(dir, 'web', 'pages', 'migrations', '0003_page_body.sql'), 'ALTER TABLE web_page ADD COLUMN body text;\n')
    const pushed = await run.job('preview', 'pull_request', pullRequestEvent(pr, 'synchronize'))
    expect(firstFailure(pushed)).toBe('no step failed')
    expect(pushed.steps.filter((s) => s.action).map((s) => s.action!.outputs.created)).toEqual(['false', 'false'])
    expect(commandsRun(path.join(dir, 'web'))).toEqual(['migrate', 'seed', 'migrate'])

    emu.pulls.close(REPO, pr)
    const closed = await run.job('close', 'pull_request', pullRequestEvent(pr, 'closed'))
    expect(firstFailure(closed)).toBe('no step failed')
    expect(outcomes(closed)).toEqual([
      ['preview-postgres/preview-postgres@v1 (api)', 'success'],
      ['preview-postgres/preview-postgres@v1 (web)', 'success']
    ])
    expect(previewBranches(project)).toEqual([])
  })
})

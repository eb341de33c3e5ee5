/**
 * The fault matrix's cases for the schema diff: it never costs a
 * preview. A domain (migra's unterminated `create domain`), Neon's
 * compare_schema failing, and the schema unreadable after `seed-command`
 * (with and without `fail-on-destructive`). Each runs the bundle (Node 24)
 * against the emulator; matrix.ts runs the orphan, spec and secret
 * scans after each.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { type Case, type Ctx, checker, failed, outcome, prComments, succeeded } from './matrix-kit.js'
import { ROOT } from '../../emulator/runner/runner.js'

const DOMAIN =
  "CREATE DOMAIN public.email_address AS text CHECK (VALUE ~ '^[^@\\s]+@[^@\\s]+$');\nCREATE TABLE public.subscriber (id int PRIMARY KEY, email public.email_address NOT NULL);\n"
/** Ends the action's catalog connection and makes every statement on the database time out after 1 ms. */
const BREAK =
  "DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET statement_timeout = 1', current_database()); END$$;\nSELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'preview-postgres schema diff';\n"

/** Writes the case's files: the domain seed, the breaking migration, and a migration runner on DATABASE_URL_DIRECT. */
function files(ctx: Ctx): { seedCommand: (file: string) => string } {
  writeFileSync(path.join(ctx.work, 'matrix-domain.sql'), DOMAIN)
  writeFileSync(path.join(ctx.work, 'matrix-break-inspector.sql'), BREAK)
  writeFileSync(
    path.join(ctx.work, 'matrix-migrate.mjs'),
    `import { readFileSync } from 'node:fs'\nimport pg from ${JSON.stringify(path.join(ROOT, 'node_modules', 'pg', 'lib', 'index.js'))}\n` +
      `const c = new pg.Client({ connectionString: process.env.DATABASE_URL_DIRECT })\nawait c.connect()\nawait c.query(readFileSync(process.argv[2], 'utf8'))\nawait c.end()\n`
  )
  return { seedCommand: (file) => `node matrix-migrate.mjs ${file}` }
}

/** Undoes BREAK on `database` (as the emulator's superuser, from another database), so the matrix's scans can read it. */
async function unbreak(ctx: Ctx, database: string | undefined): Promise<void> {
  if (database) await ctx.emu.pg.admin.query(`ALTER DATABASE "${database.replace(/"/g, '""')}" RESET statement_timeout`)
}

const lastComment = (ctx: Ctx): string => prComments(ctx.emu, ctx.pr).at(-1)?.body ?? ''

export function schemaDiffCases(): Case[] {
  const cases: Case[] = []
  const add = (name: string, expected: string, body: Case['body']): void => void cases.push({ group: 'schema diff', name, expected, body })

  for (const mode of ['instant', 'branch'] as const) {
    // Instant mode compares around seed-command; branch mode compares the seed with the (empty) parent.
    const summary = mode === 'instant' ? '1 table added, 1 type added' : '3 tables added, 1 type added'
    add(
      `${mode}: a domain (migra writes create domain without ';', after the table)`,
      `succeeds; the diff is shown; "${summary}"`,
      async (ctx) => {
        const { seedCommand } = files(ctx)
        const r = await ctx.run(
          mode,
          mode === 'instant'
            ? { 'seed-command': seedCommand('matrix-domain.sql') }
            : { seed: 'matrix-seed.sql\nmatrix-more.sql\nmatrix-domain.sql' }
        )
        const c = checker()
        succeeded(r, c)
        c.expect(r.warnings.length === 0, `warnings: ${r.warnings.join('; ')}`)
        c.expect(lastComment(ctx).includes(`**${summary}**`), `the comment does not say "${summary}"`)
        c.expect(r.outputs['schema-changed'] === 'true', `schema-changed=${r.outputs['schema-changed']}`)
        return {
          observed: `${outcome(r)}; ${/\*\*([^*]+)\*\*/.exec(lastComment(ctx).split('#### Schema')[1] ?? '')?.[1] ?? 'no summary'}`,
          problems: c.problems
        }
      }
    )
  }

  add("branch: Neon's compare_schema answers HTTP 500", "warns; the action's own diff is shown; the run succeeds", async (ctx) => {
    ctx.emu.platform.server.inject({ method: 'GET', path: /\/compare_schema\/?$/, kind: 'status', status: 500, times: 10 })
    const r = await ctx.run('branch')
    const c = checker()
    succeeded(r, c)
    c.expect(
      r.warnings.some((w) => /compare_schema failed, so the diff shown is the action's own/.test(w)),
      'no warning about compare_schema'
    )
    c.expect(/^\+ create table "public"\."matrix_seed"/m.test(lastComment(ctx)), "the action's own diff is not in the comment")
    return { observed: outcome(r), problems: c.problems }
  })

  add(
    'branch: the schema cannot be read after seed-command',
    'warns "schema diff unavailable"; the run succeeds and the branch is kept',
    async (ctx) => {
      const { seedCommand } = files(ctx)
      const r = await ctx.run('branch', { 'seed-command': seedCommand('matrix-break-inspector.sql') })
      await unbreak(ctx, ctx.project.branches.get(r.outputs['branch-id'] ?? '')?.database)
      const c = checker()
      succeeded(r, c)
      c.expect(
        r.warnings.some((w) => /^Schema diff unavailable: could not inspect the schema after seeding/.test(w)),
        'no "schema diff unavailable" warning'
      )
      c.expect(lastComment(ctx).includes('**schema diff unavailable**'), 'the comment does not say "schema diff unavailable"')
      c.expect(ctx.project.branches.has(r.outputs['branch-id'] ?? ''), 'the branch is gone')
      return { observed: outcome(r), problems: c.problems }
    }
  )

  add(
    'instant: the schema cannot be read after seed-command, fail-on-destructive: true',
    'fails closed, saying why; nothing recorded for reuse',
    async (ctx) => {
      const { seedCommand } = files(ctx)
      const before = new Set(ctx.emu.instant.databases.keys())
      const r = await ctx.run('instant', { 'seed-command': seedCommand('matrix-break-inspector.sql'), 'fail-on-destructive': 'true' })
      for (const [id, record] of ctx.emu.instant.databases) if (!before.has(id)) await unbreak(ctx, record.database)
      const c = checker()
      failed(r, /could not be checked for destructive changes .*fails closed/, c)
      c.expect(/seeding failed/.test(lastComment(ctx)), 'the comment does not say seeding failed')
      return { observed: outcome(r), problems: c.problems }
    }
  )
  return cases
}

/**
 * The fault matrix's cases for every push (`migrate-command`, `reseed`): a
 * migration that fails on a reused and on a new database, one that hangs
 * until the run is cancelled, a `reseed` value the action refuses, and a
 * rebuild (the seed changed) whose seed fails, is cancelled, or loses the
 * restore's answer. Each runs the bundle (Node 24) against the emulator;
 * matrix.ts runs the orphan, spec and secret scans after each.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  type Case,
  type Ctx,
  INSTANT_CREATE,
  UNSEEDED_SUFFIX,
  checker,
  count,
  failed,
  outcome,
  prComments,
  previewBranches,
  succeeded,
  handedOut
} from './matrix-kit.js'
import { ROOT } from '../../emulator/runner/runner.js'

/** A migration tool in miniature: applies each `<dir>/*.sql` not yet in `_migrations`, one transaction each, on DATABASE_URL. */
const TOOL =
  `import { readdirSync, readFileSync } from 'node:fs'\n` +
  `import pg from ${JSON.stringify(path.join(ROOT, 'node_modules', 'pg', 'lib', 'index.js'))}\n` +
  `const dir = process.argv[2]\n` +
  `const c = new pg.Client({ connectionString: process.env.DATABASE_URL })\n` +
  `await c.connect()\n` +
  `await c.query('CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY)')\n` +
  `const done = new Set((await c.query('SELECT name FROM _migrations')).rows.map((r) => r.name))\n` +
  `for (const f of readdirSync(dir).sort()) {\n` +
  `  if (done.has(f)) continue\n` +
  `  await c.query('BEGIN')\n` +
  `  await c.query(readFileSync(path.join(dir, f), 'utf8'))\n` +
  `  await c.query('INSERT INTO _migrations VALUES ($1)', [f])\n` +
  `  await c.query('COMMIT')\n` +
  `}\n` +
  `await c.end()\n`

/** The case's migrations folder (with a first migration) and its `migrate-command`. */
function migrations(ctx: Ctx): { dir: string; command: string; add(name: string, sql: string): void } {
  writeFileSync(path.join(ctx.work, 'matrix-push-migrate.mjs'), `import path from 'node:path'\n${TOOL}`)
  const dir = path.join(ctx.work, `matrix-migrations-${ctx.pr}`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, '001.sql'), 'CREATE TABLE matrix_tags (id int);\n')
  return {
    dir,
    command: `node matrix-push-migrate.mjs ${path.basename(dir)}`,
    add: (name, sql) => writeFileSync(path.join(dir, name), sql)
  }
}

/** The database a run handed out (instant database or branch), by the run's outputs. */
function databaseOf(ctx: Ctx, mode: 'instant' | 'branch', outputs: Record<string, string>): string | undefined {
  return mode === 'instant'
    ? ctx.emu.instant.databases.get(outputs['database-id'] ?? '')?.database
    : ctx.project.branches.get(outputs['branch-id'] ?? '')?.database
}

const applied = async (ctx: Ctx, database: string | undefined): Promise<string[]> =>
  database ? (await ctx.emu.pg.query<{ name: string }>(database, 'SELECT name FROM _migrations ORDER BY 1')).map((r) => r.name) : []

/** Whether process `pid` still runs (signal 0 checks without sending). */
/**
 * Whether process `pid` still runs `graceMs` after the run ended (the action's
 * SIGTERM then SIGKILL take up to 2 s). A zombie, dead but not yet reaped by
 * whoever adopted it (this container's init may not reap), counts as gone.
 */
async function stillRunsAfter(pid: number, graceMs: number): Promise<boolean> {
  const running = (): boolean => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
    } catch {
      return false
    }
  }
  for (const until = Date.now() + graceMs; Date.now() < until && running();) await new Promise((r) => setTimeout(r, 100))
  return running()
}

const lastComment = (ctx: Ctx): string => prComments(ctx.emu, ctx.pr).at(-1)?.body ?? ''

/** A seed with a third file whose bytes the case changes between runs (the fingerprint changes with them). */
function changingSeed(ctx: Ctx): { seed: string; change(sql: string): void } {
  const name = `matrix-extra-${ctx.pr}.sql`
  const change = (sql: string): void => writeFileSync(path.join(ctx.work, name), sql)
  change('SELECT 1;\n')
  return { seed: `matrix-seed.sql\nmatrix-more.sql\n${name}`, change }
}

export function everyPushCases(): Case[] {
  const cases: Case[] = []
  const add = (name: string, expected: string, body: Case['body']): void => void cases.push({ group: 'every push', name, expected, body })

  for (const mode of ['instant', 'branch'] as const) {
    add(
      `${mode}: migrate-command fails on a reused database`,
      'fails; no database output; the comment says the migrations failed at this commit with the exit code; the database is kept; the next run applies the fixed migration',
      async (ctx) => {
        const m = migrations(ctx)
        const first = await ctx.run(mode, { 'migrate-command': m.command })
        const db = databaseOf(ctx, mode, first.outputs)
        m.add('002.sql', 'ALTER TABLE matrix_nope ADD COLUMN x int;\n')
        const broken = await ctx.run(mode, { 'migrate-command': m.command })
        const said = lastComment(ctx)
        m.add('002.sql', 'ALTER TABLE matrix_tags ADD COLUMN x int;\n')
        const fixed = await ctx.run(mode, { 'migrate-command': m.command })
        const c = checker()
        succeeded(first, c)
        failed(broken, /^migrate-command exited with code 1\b/, c)
        c.expect(
          /migrations failed at commit `[0-9a-f]{7}`.*exit code 1/s.test(said),
          'the comment does not say the migrations failed with code 1'
        )
        c.expect(handedOut(broken).length === 0, `outputs set on the failed run: ${handedOut(broken).join(', ')}`)
        succeeded(fixed, c)
        c.expect(
          fixed.outputs.created === 'false' && databaseOf(ctx, mode, fixed.outputs) === db,
          'the next run did not reuse the database'
        )
        const names = await applied(ctx, db)
        c.expect(names.join(',') === '001.sql,002.sql', `applied: ${names.join(',')}`)
        return { observed: `${outcome(broken)} / then ${outcome(fixed)}; applied ${names.join(', ')}`, problems: c.problems }
      }
    )

    add(
      `${mode}: migrate-command fails on a new database`,
      'fails like a failed seed: nothing handed out or recorded for reuse (branch deleted); the next run creates a fresh one',
      async (ctx) => {
        const m = migrations(ctx)
        m.add('002.sql', 'SELECT 1/0;\n')
        const r = await ctx.run(mode, { 'migrate-command': m.command })
        const record = prComments(ctx.emu, ctx.pr).at(-1)?.record
        const c = checker()
        failed(r, /^migrate-command exited with code 1\b/, c)
        c.expect(/seeding failed/.test(lastComment(ctx)), 'the comment does not say seeding failed')
        c.expect(!record?.databaseId && !record?.branchId, `the comment records ${JSON.stringify(record)}`)
        c.expect(
          previewBranches(ctx.project).length === 0,
          `branches left: ${previewBranches(ctx.project)
            .map((b) => b.name)
            .join(', ')}`
        )
        return { observed: outcome(r), problems: c.problems }
      }
    )

    add(
      `${mode}: migrate-command hangs on a reused database and the run is cancelled`,
      "its process group is stopped; the PR's lock is released; the next run runs migrate-command again on the same database",
      async (ctx) => {
        const m = migrations(ctx)
        const first = await ctx.run(mode, { 'migrate-command': m.command })
        const pidFile = path.join(ctx.work, `matrix-hang-${ctx.pr}.pid`)
        const hung = await ctx.run(
          mode,
          { 'migrate-command': `sleep 300 & echo $! > ${pidFile}; wait` },
          { cancelWhen: () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), timeoutMs: 30_000 }
        )
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0
        const alive = pid > 0 && (await stillRunsAfter(pid, 3000))
        if (alive) process.kill(pid, 'SIGKILL')
        m.add('002.sql', 'ALTER TABLE matrix_tags ADD COLUMN y int;\n')
        const next = await ctx.run(mode, { 'migrate-command': m.command })
        const c = checker()
        succeeded(first, c)
        c.expect(
          hung.code !== 0 && !hung.outputs['database-url'],
          `the cancelled run: ${outcome(hung)}, database-url ${hung.outputs['database-url'] ? 'set' : 'unset'}`
        )
        c.expect(pid > 0, 'the command never started')
        c.expect(!alive, `the command's child (pid ${pid}) outlived the cancel`)
        succeeded(next, c)
        c.expect(next.outputs.created === 'false', 'the next run did not reuse the database')
        const names = await applied(ctx, databaseOf(ctx, mode, next.outputs))
        c.expect(names.includes('002.sql'), `applied after the cancel: ${names.join(',')}`)
        return { observed: `${outcome(hung)} / then ${outcome(next)}; child stopped: ${!alive}`, problems: c.problems }
      }
    )

    add(
      `${mode}: a rebuild (the seed changed) whose seed fails`,
      'fails; nothing unseeded is handed out or left under the PR name; the next run builds it again',
      async (ctx) => {
        const s = changingSeed(ctx)
        const first = await ctx.run(mode, { seed: s.seed })
        s.change('INSERT INTO matrix_nope VALUES (1);\n')
        const broken = await ctx.run(mode, { seed: s.seed })
        s.change('SELECT 2;\n')
        const next = await ctx.run(mode, { seed: s.seed })
        const c = checker()
        succeeded(first, c)
        failed(broken, /Seed failed at .*relation "matrix_nope" does not exist/, c)
        succeeded(next, c)
        c.expect(next.outputs.created === 'true', `the next run reused (created=${next.outputs.created})`)
        return { observed: `${outcome(broken)} / then ${outcome(next)}`, problems: c.problems }
      }
    )
  }

  add('instant: reseed: always', 'refused before any request, naming the values', async (ctx) => {
    const r = await ctx.run('instant', { reseed: 'always' })
    const c = checker()
    failed(r, /^Input `reseed` must be one of on-change, never; got "always"\.$/, c)
    c.expect(count(ctx.emu, 'instant', 'POST', INSTANT_CREATE) === 0, 'a database was requested')
    c.expect(ctx.emu.github.server.log.length === 0, 'GitHub was called')
    return { observed: outcome(r), problems: c.problems }
  })

  add(
    'branch: a rebuild (the seed changed) is cancelled during its seed',
    'the branch is never handed out unseeded (it carries the ~seeding name and the undo deletes it); the next run builds it again',
    async (ctx) => {
      const s = changingSeed(ctx)
      const first = await ctx.run('branch', { seed: s.seed })
      s.change('SELECT pg_sleep(3);\n')
      const cancelled = await ctx.run('branch', { seed: s.seed }, { cancelOn: /Seed the database/ })
      const left = previewBranches(ctx.project).map((b) => b.name)
      const next = await ctx.run('branch', { seed: s.seed })
      const c = checker()
      succeeded(first, c)
      c.expect(cancelled.code !== 0 && !cancelled.outputs['database-url'], `the cancelled run: ${outcome(cancelled)}`)
      c.expect(!left.includes(first.outputs['branch-name']), `left under the PR's name after the cancel: ${left.join(', ')}`)
      succeeded(next, c)
      return {
        observed: `${outcome(cancelled)} / then ${outcome(next)}; left after the cancel: ${left.join(', ') || 'nothing'}`,
        problems: c.problems
      }
    }
  )

  add(
    'branch: a rebuild (the seed changed) whose restore answer is lost',
    'fails; the branch left carries the ~seeding name, so no run reuses it; the next run deletes it and builds the branch again',
    async (ctx) => {
      const s = changingSeed(ctx)
      const first = await ctx.run('branch', { seed: s.seed })
      s.change('SELECT 3;\n')
      ctx.emu.platform.server.inject({ method: 'POST', path: /\/restore$/, kind: 'lost-reset' })
      const lost = await ctx.run('branch', { seed: s.seed })
      const left = previewBranches(ctx.project).map((b) => b.name)
      ctx.emu.platform.server.clearFaults()
      const next = await ctx.run('branch', { seed: s.seed })
      const c = checker()
      succeeded(first, c)
      c.expect(lost.code !== 0 && !lost.outputs['database-url'], `the run that lost the answer: ${outcome(lost)}`)
      c.expect(
        left.every((n) => n.endsWith(UNSEEDED_SUFFIX)),
        `left under a reusable name: ${left.join(', ')}`
      )
      succeeded(next, c)
      c.expect(next.outputs.created === 'true', `the next run reused (created=${next.outputs.created})`)
      return { observed: `${outcome(lost)} / then ${outcome(next)}; left: ${left.join(', ') || 'nothing'}`, problems: c.problems }
    }
  )
  return cases
}

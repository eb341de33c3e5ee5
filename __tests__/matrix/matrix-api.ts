/** The fault matrix's service-API cases (apiContract below); matrix.ts runs the scans after each. */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { type Emulator } from '../../emulator/index.js'
import type { Project } from '../../emulator/neon/platform.js'
import { type Case, outcome, checker, count, BRANCHES, UNSEEDED_SUFFIX, succeeded, failed } from './matrix-kit.js'

/**
 * The services as their published definitions have them (the
 * platform's OpenAPI spec, the live instant service's field names), and the
 * lost-create-answer class: no path leaves a reusable unseeded branch.
 */
export function apiContract(): Case[] {
  const cases: Case[] = []
  const add = (name: string, expected: string, body: Case['body']): void => void cases.push({ group: 'service API', name, expected, body })
  const BRANCH_ITEM = /\/branches\/[^/]+$/
  const previews = (project: Project) => [...project.branches.values()].filter((b) => !b.default && !b.protected)

  for (const names of ['live', 'seed'] as const) {
    const field = names === 'live' ? 'neon_project_id' : 'svc_project_id'
    add(
      `instant: the service names the project id \`${field}\` (${names === 'live' ? 'the live service' : 'the API document'})`,
      'succeeds; project-id is that field',
      async ({ emu, run }) => {
        emu.instant.fieldNames = names
        const r = await run('instant')
        const c = checker()
        succeeded(r, c)
        const db = emu.instant.databases.get(r.outputs['database-id'] ?? '')
        c.expect(!!db && r.outputs['project-id'] === db.project_id, `project-id "${r.outputs['project-id']}"`)
        return { observed: `${outcome(r)}; project-id ${r.outputs['project-id'] ? 'set' : 'empty'}`, problems: c.problems }
      }
    )
  }
  for (const [what, lapse, why] of [
    ['was claimed (connection_string and expires_at null)', (emu: Emulator, id: string) => emu.instant.claim(id), /was claimed/],
    ['is gone (400 Database not found)', (emu: Emulator, id: string) => emu.instant.forget(id), /no longer exists/]
  ] as const) {
    add(`instant: the earlier database ${what}`, 'creates a new database and says why; no parser error', async ({ emu, run }) => {
      const first = await run('instant')
      lapse(emu, first.outputs['database-id'])
      const r = await run('instant')
      const c = checker()
      succeeded(r, c)
      c.expect(r.outputs.created === 'true' && r.outputs['database-id'] !== first.outputs['database-id'], `created=${r.outputs.created}`)
      c.expect(why.test(r.stdout), `the log does not say why (${why})`)
      return { observed: `${outcome(r)}; created=${r.outputs.created}`, problems: c.problems }
    })
  }
  add(
    'branch: create branch answers HTTP 503 once',
    'retried (spec: 503 is always safe to retry); succeeds; two POSTs',
    async ({ emu, run }) => {
      emu.platform.server.inject({ method: 'POST', path: BRANCHES, kind: 'status', status: 503 })
      const r = await run('branch')
      const c = checker()
      succeeded(r, c)
      const posts = count(emu, 'platform', 'POST', BRANCHES)
      c.expect(posts === 2, `${posts} POSTs`)
      return { observed: `${outcome(r)}; POSTs ${posts}`, problems: c.problems }
    }
  )
  add('branch: create branch answers HTTP 500', "fails quoting Neon's request_id; no branch", async ({ emu, run }) => {
    emu.platform.server.inject({
      method: 'POST',
      path: BRANCHES,
      kind: 'status',
      status: 500,
      body: { code: 'INTERNAL', message: 'internal error' }
    })
    const r = await run('branch')
    const c = checker()
    failed(r, /HTTP 500: "internal error"/, c)
    const id = emu.platform.server.requests('POST', BRANCHES)[0]?.requestId ?? '?'
    c.expect(
      r.errors.some((e) => e.includes(`request_id ${id}`)),
      'the error does not show the request_id'
    )
    return { observed: outcome(r), problems: c.problems }
  })
  add(
    'branch: an operation ends in status `error`',
    "fails at once with the operation's error text; the branch is deleted",
    async ({ emu, run }) => {
      emu.platform.script('start_compute', [
        { at: 0, status: 'scheduling' },
        { at: 300, status: 'error', error: 'compute quota exceeded' }
      ])
      const r = await run('branch', { 'wait-timeout': '120' })
      const c = checker()
      failed(r, /"Start compute" \(\S+\) ended in error: "compute quota exceeded"/, c)
      c.expect(r.durationMs < 20_000, `took ${r.durationMs} ms (wait-timeout 120 s)`)
      return { observed: `${outcome(r)}; ${(r.durationMs / 1000).toFixed(1)} s`, problems: c.problems }
    }
  )
  add(
    "branch: the PR's branch is beyond the first page of List branches",
    'found with search= and the cursor; the re-run reuses it, no 409',
    async ({ emu, run, project, fixtures, pr }) => {
      for (const suffix of ['a', 'b', 'c', 'd', 'e'])
        fixtures.add((await emu.platform.addBranch(project, `preview/pr-${pr}-feature-login-${suffix}`)).id)
      const first = await run('branch')
      const again = await run('branch')
      const c = checker()
      succeeded(first, c)
      succeeded(again, c)
      c.expect(
        again.outputs.created === 'false' && again.outputs['branch-id'] === first.outputs['branch-id'],
        `re-run created=${again.outputs.created}`
      )
      const conflicts = emu.platform.server.requests('POST', BRANCHES).filter((q) => q.status === 409).length
      const cursors = emu.platform.server.log.filter((q) => q.method === 'GET' && BRANCHES.test(q.path) && /cursor=/.test(q.query)).length
      c.expect(conflicts === 0, `${conflicts} create(s) met 409`)
      c.expect(cursors > 0, 'no lookup followed a cursor')
      return {
        observed: `${outcome(again)}; created=${again.outputs.created}, pages followed ${cursors}, 409s ${conflicts}`,
        problems: c.problems
      }
    }
  )
  add(
    'branch: two closing runs at once (command: delete)',
    'both succeed; the later DELETE meets 204 (already deleted); no branch left',
    async ({ emu, run, project }) => {
      await run('branch')
      const [a, b] = await Promise.all([run('branch', { command: 'delete' }), run('branch', { command: 'delete' })])
      const c = checker()
      c.expect(a.code === 0 && b.code === 0, `exits ${a.code}/${b.code} (${[...a.errors, ...b.errors][0] ?? ''})`)
      c.expect(previews(project).length === 0, `${previews(project).length} branch(es) left`)
      const statuses = emu.platform.server.requests('DELETE', BRANCH_ITEM).map((q) => q.status)
      return { observed: `${outcome(a)} / ${outcome(b)}; DELETE statuses ${statuses.join(', ')}`, problems: c.problems }
    }
  )
  add(
    "branch: the DELETE's answer is lost after Neon deleted the branch",
    'the retried DELETE meets 204 (already deleted): success',
    async ({ emu, run, project }) => {
      await run('branch')
      emu.platform.server.inject({ method: 'DELETE', path: BRANCH_ITEM, kind: 'lost-reset' })
      const r = await run('branch', { command: 'delete' })
      const c = checker()
      c.expect(r.code === 0, `exit ${r.code} (${r.errors[0] ?? ''})`)
      const statuses = emu.platform.server.requests('DELETE', BRANCH_ITEM).map((q) => q.status)
      c.expect(statuses.includes(204), `DELETE statuses ${statuses.join(', ')}`)
      c.expect(previews(project).length === 0, 'a branch is left')
      return { observed: `${outcome(r)}; DELETE statuses ${statuses.join(', ')}`, problems: c.problems }
    }
  )
  for (const [kind, label, extra] of [
    ['lost-reset', 'the connection resets after Neon made the branch', {}],
    ['lost-hang', 'no answer comes after Neon made the branch (request-timeout 2 s)', { 'request-timeout': '2' }]
  ] as const) {
    add(
      `branch: create branch's answer is lost: ${label}; then the PR runs again`,
      'finds the branch by name and finishes the job (wait, seed, rename); the re-run reuses it seeded',
      async ({ emu, run }) => {
        emu.platform.server.inject({ method: 'POST', path: BRANCHES, kind })
        const first = await run('branch', extra)
        const again = await run('branch')
        const c = checker()
        succeeded(first, c)
        succeeded(again, c)
        c.expect(first.outputs.created === 'true', `first created=${first.outputs.created}`)
        c.expect(
          again.outputs.created === 'false' && again.outputs['branch-id'] === first.outputs['branch-id'],
          `re-run created=${again.outputs.created}`
        )
        const posts = count(emu, 'platform', 'POST', BRANCHES)
        c.expect(posts === 1, `${posts} POSTs`)
        return { observed: `${outcome(first)} / ${outcome(again)}; POSTs ${posts}`, problems: c.problems }
      }
    )
  }
  add(
    'branch: a branch whose seed did not complete is left under its unseeded name',
    'never reused: deleted and made again, then seeded',
    async ({ emu, run, project, pr }) => {
      const left = await emu.platform.addBranch(project, `preview/pr-${pr}-feature-login${UNSEEDED_SUFFIX}`)
      const r = await run('branch')
      const c = checker()
      succeeded(r, c)
      c.expect(r.outputs.created === 'true' && r.outputs['branch-id'] !== left.id, `created=${r.outputs.created}`)
      c.expect(!project.branches.has(left.id), 'the unseeded branch is still there')
      return { observed: `${outcome(r)}; created=${r.outputs.created}`, problems: c.problems }
    }
  )
  add(
    'branch: a run is cancelled while seeding and its undo cannot delete the branch; then the PR runs again',
    'the re-run does not reuse the unseeded branch: deletes it, creates and seeds a new one',
    async ({ emu, run, project, work }) => {
      emu.platform.server.inject({ method: 'DELETE', path: BRANCH_ITEM, kind: 'status', status: 500, times: 50 })
      // A seed that outlasts the cancel's 5 s grace, so the run ends before its seed completes.
      writeFileSync(path.join(work, 'matrix-slower.sql'), 'SELECT pg_sleep(8);\n')
      const cancelled = await run(
        'branch',
        { seed: 'matrix-seed.sql\nmatrix-slower.sql\nmatrix-more.sql' },
        { cancelOn: /Seed the database/ }
      )
      const leftover = previews(project).map((b) => b.name)
      emu.platform.server.clearFaults()
      const again = await run('branch')
      const c = checker()
      c.expect(cancelled.code === 1, `cancelled run: ${outcome(cancelled)}`)
      c.expect(leftover.length === 1 && leftover[0].endsWith(UNSEEDED_SUFFIX), `left after the cancel: ${leftover.join(', ') || 'nothing'}`)
      succeeded(again, c)
      c.expect(again.outputs.created === 'true', `the re-run reused (created=${again.outputs.created})`)
      return { observed: `${outcome(cancelled)} / ${outcome(again)}; left after the cancel: ${leftover.join(', ')}`, problems: c.problems }
    }
  )
  return cases
}

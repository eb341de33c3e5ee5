/**
 * The fault matrix's cases for the preview lifecycle: expiry, reset, the
 * promise that nothing unseeded is handed out, the post step and bad input
 * (the sweep's are in matrix-sweeps.ts). Each runs the bundle (Node 24) against the
 * emulator; matrix.ts runs the orphan and secret scans after each.
 */
import { type Case, type Ctx, type MatrixHelpers, REPO } from './matrix-kit.js'
import { otherPr, plantBranch, sweep, sweepCases } from './matrix-sweeps.js'

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
export const previewBranches = (ctx: Ctx) =>
  [...ctx.project.branches.values()].filter((b) => !b.default && !b.protected && !ctx.fixtures.has(b.id))

function expiry(h: MatrixHelpers): Case[] {
  const group = 'lifecycle'
  return [
    {
      group,
      name: 'branch: expiry extended on reuse (expires-in: 1h)',
      expected: 'the re-run reuses the branch and moves expires_at forward (update branch); expires-at output set on both runs',
      body: async (ctx) => {
        const first = await ctx.run('branch', { 'expires-in': '1h' })
        const b = ctx.project.branches.get(first.outputs['branch-id'])
        const was = b?.expires_at
        await sleep(1100)
        const again = await ctx.run('branch', { 'expires-in': '1h' })
        const c = h.checker()
        h.succeeded(first, c)
        h.succeeded(again, c)
        c.expect(again.outputs.created === 'false', `created=${again.outputs.created}`)
        c.expect(!!was && !!b?.expires_at && Date.parse(b.expires_at) > Date.parse(was), `expires_at ${was} -> ${b?.expires_at}`)
        c.expect(
          first.outputs['expires-at'] === was && again.outputs['expires-at'] === b?.expires_at,
          'expires-at outputs do not match the branch'
        )
        return { observed: `${h.outcome(again)}; expires_at ${was} -> ${b?.expires_at}`, problems: c.problems }
      }
    },
    {
      group,
      name: 'branch: an expired branch is recreated and seeded on the next run',
      expected: "Neon's background job deletes the branch at expires_at; the next run creates a new one and seeds it",
      body: async (ctx) => {
        // Long enough that the first run renames its branch before it expires, on a loaded machine too (a run
        // that outlives its branch's expiry fails its rename with 404, as on Neon).
        const first = await ctx.run('branch', { 'expires-in': '12' })
        const id = first.outputs['branch-id']
        const deadline = Date.now() + 25_000
        while (ctx.project.branches.has(id) && Date.now() < deadline) await sleep(200)
        const gone = !ctx.project.branches.has(id)
        const again = await ctx.run('branch', { 'expires-in': '1h' })
        const c = h.checker()
        h.succeeded(first, c)
        h.succeeded(again, c)
        c.expect(gone, 'the expired branch was not deleted')
        c.expect(again.outputs.created === 'true' && again.outputs['branch-id'] !== id, `created=${again.outputs.created}`)
        c.expect(/Seeded 2 file/.test(again.stdout), 'the new branch was not seeded')
        return {
          observed: `${h.outcome(again)}; expired branch ${gone ? 'gone' : 'left'}, created=${again.outputs.created}`,
          problems: c.problems
        }
      }
    }
  ]
}

function badInput(h: MatrixHelpers): Case[] {
  const bad: [string, 'instant' | 'branch', Record<string, string>, RegExp][] = [
    [
      'expires-in: soon',
      'branch',
      { 'expires-in': 'soon' },
      /`expires-in` must be a duration such as 90m, 36h, 7d or a number of seconds \(at least 1\); got "soon"/
    ],
    ['expires-in: 0', 'branch', { 'expires-in': '0' }, /`expires-in` must be a duration/],
    ['max-age: 2w', 'branch', { command: 'cleanup', 'max-age': '2w' }, /`max-age` must be a duration/],
    ['dry-run: perhaps', 'branch', { command: 'cleanup', 'dry-run': 'perhaps' }, /`dry-run` must be true or false; got "perhaps"/],
    [
      'suspend-timeout: 30',
      'branch',
      { 'suspend-timeout': '30' },
      /`suspend-timeout` must be a whole number of seconds from 60 to 604800, or 0 .* or -1/
    ],
    ['min-cu: 0.1', 'branch', { 'min-cu': '0.1' }, /`min-cu` must be a number of compute units, at least 0.25/],
    ['min-cu above max-cu', 'branch', { 'min-cu': '2', 'max-cu': '1' }, /`min-cu` \(2\) must not be larger than `max-cu` \(1\)/],
    ['schema-only: yes', 'branch', { 'schema-only': 'yes' }, /`schema-only` must be true or false; got "yes"/],
    [
      "expires-in: 45d (over Neon's 30 days)",
      'branch',
      { 'expires-in': '45d' },
      /`expires-in` must be at most 30d \(2592000 seconds\), Neon's longest branch expiry/
    ],
    ['expires-in in instant mode', 'instant', { 'expires-in': '7d' }, /`expires-in` applies to branch mode only/],
    ['command: reset in instant mode', 'instant', { command: 'reset' }, /`command: reset` needs branch mode/]
  ]
  return bad.map(([label, mode, inputs, message]) => h.badInputCase(label, mode, inputs, message))
}

function postStep(h: MatrixHelpers): Case[] {
  return [
    {
      group: 'lifecycle',
      name: 'branch: the main step is killed (SIGKILL) mid-seed; the post step deletes the branch, then the PR runs again',
      expected:
        'the post step waits, deletes the unseeded branch (423 retried) and releases the comment; the next run creates and seeds a new branch',
      body: async (ctx) => {
        const killed = await ctx.run(
          'branch',
          { seed: 'matrix-seed.sql\nmatrix-slow.sql\nmatrix-more.sql' },
          { killOn: /Seed the database/ }
        )
        const id = /Created branch "[^"]+" \((br-[^)]+)\)/.exec(killed.stdout)?.[1]
        const goneAfterPost = !!id && !ctx.project.branches.has(id)
        const again = await ctx.run('branch')
        const c = h.checker()
        c.expect(killed.code === null, `the killed run exited ${killed.code}`)
        c.expect(!!id, 'the killed run created no branch')
        c.expect(
          killed.post?.code === 0 && /Deleted branch "[^"]+" \(br-/.test(killed.post.stdout),
          `post step: exit ${killed.post?.code}, ${killed.post?.warnings[1] ?? 'no delete logged'}`
        )
        c.expect(goneAfterPost, 'the branch was still there after the post step')
        c.expect(
          /Released the PR comment lock \(comment \d+\)/.test(killed.post?.stdout ?? ''),
          'the post step did not release the comment lock'
        )
        h.succeeded(again, c)
        c.expect(again.outputs.created === 'true', `the next run reused (created=${again.outputs.created})`)
        c.expect(!again.post?.stdout.includes('undoing'), 'the post step of a successful run did something')
        return {
          observed: `killed (exit ${killed.code}), post exit ${killed.post?.code}, branch ${goneAfterPost ? 'deleted' : 'left'} / ${h.outcome(again)}`,
          problems: c.problems
        }
      }
    }
  ]
}

function resets(h: MatrixHelpers): Case[] {
  return [
    {
      group: 'lifecycle',
      name: 'branch: a reset during a system operation',
      expected:
        'the restore meets 423, waits for the operation the project lists running, is sent again, its operations are waited on; same branch and connection strings, drift gone, seeded again',
      body: async (ctx) => {
        const first = await ctx.run('branch')
        const b = ctx.project.branches.get(first.outputs['branch-id'])
        if (b) await ctx.emu.pg.query(b.database, "INSERT INTO matrix_seed VALUES (4, 'drift')")
        // The availability check runs until the restore has met 423 and the run has listed the project, whenever that is.
        ctx.emu.platform.startSystemOperation(ctx.project, { durationMs: 60_000 })
        const listedBefore = ctx.emu.platform.server.requests('GET', /\/operations$/).length
        const running = ctx.run('branch', { command: 'reset' })
        const locked = () => ctx.emu.platform.server.requests('POST', /\/restore$/).filter((q) => q.status === 423).length
        const listed = () => ctx.emu.platform.server.requests('GET', /\/operations$/).length > listedBefore
        const deadline = Date.now() + 30_000
        while ((locked() < 1 || !listed()) && Date.now() < deadline) await sleep(20)
        ctx.emu.platform.lifecycle.finishSystemOperations(ctx.project)
        const r = await running
        const c = h.checker()
        h.succeeded(first, c)
        h.succeeded(r, c)
        for (const k of ['branch-id', 'database-url', 'database-url-direct'])
          c.expect(r.outputs[k] === first.outputs[k], `output ${k} changed`)
        const restores = ctx.emu.platform.server.requests('POST', /\/restore$/).map((q) => q.status)
        c.expect(
          restores.length >= 2 && restores.at(-1) === 200 && restores.slice(0, -1).every((s) => s === 423),
          `restore statuses ${restores.join(',')}`
        )
        const rows = b ? Number((await ctx.emu.pg.query<{ n: string }>(b.database, 'SELECT count(*) AS n FROM matrix_seed'))[0].n) : -1
        c.expect(rows === 3, `matrix_seed has ${rows} rows after the reset`)
        const body = ctx.emu.github.comments(REPO, ctx.pr)[0]?.body ?? ''
        c.expect(/reset to its parent and seeded again/.test(body), 'the comment does not say reset')
        return { observed: `${h.outcome(r)}; restore statuses ${restores.join(', ')}; matrix_seed rows ${rows}`, problems: c.problems }
      }
    }
  ]
}

const untilTrue = async (cond: () => boolean, ms = 20_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!cond() && Date.now() < deadline) await sleep(20)
}
const previewName = (pr: number): string => `preview/pr-${pr}-feature-login`

/** No run hands out an unseeded branch, and the sweep never deletes one in use. */
function promise(h: MatrixHelpers): Case[] {
  const group = 'lifecycle'
  return [
    {
      group,
      name: 'branch: a reset whose restore answer is lost (connection reset after the restore took effect)',
      expected:
        'the reset fails; the branch is under <name>~seeding, which no run reuses; the post step deletes it; the next run creates and seeds a new branch',
      body: async (ctx) => {
        const first = await ctx.run('branch')
        ctx.emu.platform.server.inject({ method: 'POST', path: /\/restore$/, kind: 'lost-reset' })
        const r = await ctx.run('branch', { command: 'reset' })
        const goneAfterPost = !ctx.project.branches.has(first.outputs['branch-id'])
        const again = await ctx.run('branch')
        const c = h.checker()
        c.expect(r.code === 1, `reset exit ${r.code}`)
        c.expect(/Deleted branch "[^"]+~seeding"/.test(r.post?.stdout ?? ''), 'the post step did not delete the unseeded branch')
        c.expect(goneAfterPost, 'the restored, unseeded branch is left')
        h.succeeded(again, c)
        c.expect(again.outputs.created === 'true', `the next run reused (created=${again.outputs.created})`)
        return {
          observed: `${h.outcome(r)}; post ${goneAfterPost ? 'deleted' : 'left'} it / ${h.outcome(again)}, created=${again.outputs.created}`,
          problems: c.problems
        }
      }
    },
    {
      group,
      name: 'branch: a reset cancelled (SIGINT) mid-seed while a create run of the PR waits for the lock',
      expected:
        "the cancel deletes the unseeded branch before it frees the lock; the waiting run creates and seeds a new branch, which the cancelled run's post step leaves alone",
      body: async (ctx) => {
        const first = await ctx.run('branch')
        const resetting = ctx.run(
          'branch',
          { command: 'reset', seed: 'matrix-seed.sql\nmatrix-slow.sql\nmatrix-more.sql' },
          { cancelOn: /Seed the database/ }
        )
        await untilTrue(() => ctx.emu.platform.server.requests('POST', /\/restore$/).length > 0)
        const waiting = ctx.run('branch')
        const [reset, next] = await Promise.all([resetting, waiting])
        const c = h.checker()
        c.expect(reset.code === 1, `reset exit ${reset.code}`)
        h.succeeded(next, c)
        c.expect(
          next.outputs.created === 'true' && next.outputs['branch-id'] !== first.outputs['branch-id'],
          `the waiting run reused (created=${next.outputs.created})`
        )
        c.expect(
          ctx.project.branches.get(next.outputs['branch-id'])?.name === previewName(ctx.pr),
          "the waiting run's branch is gone or misnamed"
        )
        c.expect(/Seeded 2 file/.test(next.stdout), 'the waiting run did not seed')
        return { observed: `${h.outcome(reset)} / ${h.outcome(next)}, created=${next.outputs.created}`, problems: c.problems }
      }
    },
    {
      group,
      name: 'branch: cleanup max-age while a run of the PR holds its lock and reuses the branch',
      expected:
        "the sweep waits for the PR's lock, reads the branch again (the reuse recorded its use) and keeps it; the run's outputs point at a live branch",
      body: async (ctx) => {
        const first = await ctx.run('branch')
        const b = ctx.project.branches.get(first.outputs['branch-id'])
        if (b) b.created_at = b.updated_at = new Date(Date.now() - 3 * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
        ctx.emu.platform.server.inject({ method: 'GET', path: /\/connection_uri$/, kind: 'delay', delayMs: 6000 })
        const reusing = ctx.run('branch')
        await untilTrue(() => ctx.emu.platform.server.requests('GET', /\/connection_uri$/).some((q) => q.at > first.endedAt))
        const r = await sweep(ctx, { 'max-age': '2d' })
        const u = await reusing
        const c = h.checker()
        h.succeeded(u, c)
        c.expect(r.code === 0, `cleanup exit ${r.code}`)
        c.expect(!!b && ctx.project.branches.has(b.id), 'the branch in use was deleted')
        c.expect(
          /read again before the delete, under the PR's lock/.test(r.summary),
          'the summary does not say it was read again under the lock'
        )
        return {
          observed: `${h.outcome(r)}; branch ${b && ctx.project.branches.has(b.id) ? 'kept' : 'deleted'} / ${h.outcome(u)}`,
          problems: c.problems
        }
      }
    },
    {
      group,
      name: "branch: cleanup meets a closed PR's branch whose delete answers 500, and a closed PR's branch with a child not made by the action",
      expected:
        "the failed branch is reported and counted (exit 1 after the sweep), the merged PR's branch is still deleted, the parent of a stranger's child is kept with the reason; the summary is written",
      body: async (ctx) => {
        const broken = await otherPr(ctx, 'closed')
        const merged = await otherPr(ctx, 'merged')
        const parent = await otherPr(ctx, 'closed')
        await plantBranch(ctx, 'someones-child', parent.run.outputs['branch-id'])
        // The branch list answers every branch with its annotations: the failure comes at the delete.
        ctx.emu.platform.server.inject({
          method: 'DELETE',
          path: new RegExp(`/branches/${broken.run.outputs['branch-id']}$`),
          kind: 'status',
          status: 500,
          times: 50
        })
        const r = await sweep(ctx)
        const has = (id: string): boolean => ctx.project.branches.has(id)
        const c = h.checker()
        c.expect(r.code === 1 && /could not handle 1 branch/.test(r.errors[0] ?? ''), `cleanup exit ${r.code} (${r.errors[0] ?? ''})`)
        c.expect(!has(merged.run.outputs['branch-id']), "the merged PR's branch is left")
        c.expect(has(broken.run.outputs['branch-id']) && has(parent.run.outputs['branch-id']), 'a kept branch was deleted')
        c.expect(/\| failed \| pull request #\d+ is closed; kept: .*HTTP 500/.test(r.summary), 'no row for the failed branch')
        c.expect(
          /has child branch "someones-child", and Neon does not delete a branch with children/.test(r.summary),
          'no reason for the parent kept'
        )
        return {
          observed: `${h.outcome(r)}; merged ${has(merged.run.outputs['branch-id']) ? 'left' : 'deleted'}, failed and parent kept`,
          problems: c.problems
        }
      }
    },
    {
      group,
      name: 'branch: the run after a cancel finds <name>~seeding with its compute start still running',
      expected: "waits for the leftover's operations, deletes it (no 423), creates and seeds a new branch",
      body: async (ctx) => {
        const timing = { ...ctx.emu.platform.timing }
        ctx.emu.platform.timing = { ...timing, startComputeMs: 6000 }
        const res = await fetch(`${ctx.emu.platform.url}/projects/${ctx.project.id}/branches`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ctx.project.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ branch: { name: `${previewName(ctx.pr)}~seeding` }, endpoints: [{ type: 'read_write' }] })
        })
        ctx.emu.platform.timing = timing
        const leftover = ((await res.json()) as { branch: { id: string } }).branch.id
        const r = await ctx.run('branch')
        const c = h.checker()
        h.succeeded(r, c)
        const deletes = ctx.emu.platform.server.requests('DELETE', new RegExp(`/branches/${leftover}$`)).map((q) => q.status)
        c.expect(deletes.join(',') === '200', `DELETE statuses ${deletes.join(',')}`)
        c.expect(!ctx.project.branches.has(leftover), 'the leftover is still there')
        c.expect(r.outputs.created === 'true', `created=${r.outputs.created}`)
        return { observed: `${h.outcome(r)}; DELETE statuses ${deletes.join(', ')}`, problems: c.problems }
      }
    }
  ]
}

/** Every lifecycle case, in table order. */
export function lifecycleCases(h: MatrixHelpers): Case[] {
  return [...expiry(h), ...sweepCases(h), ...resets(h), ...promise(h), ...postStep(h), ...badInput(h)]
}

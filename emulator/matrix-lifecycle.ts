/**
 * The fault matrix's cases for issue 14's preview lifecycle: expiry, the
 * sweep, reset and the post step. Each runs the bundle (Node 24) against the
 * emulator; emulator/matrix.ts runs the orphan and secret scans after each.
 */
import type { Case, Ctx } from './matrix.js'
import type { RunResult } from './runner.js'

type Check = { problems: string[]; expect: (cond: boolean, what: string) => void }

/** The shared helpers of emulator/matrix.ts, passed in (no import cycle). */
export interface MatrixHelpers {
  checker(): Check
  succeeded(r: RunResult, c: Check): void
  failed(r: RunResult, message: RegExp, c: Check): void
  outcome(r: RunResult): string
  badInputCase(label: string, mode: 'instant' | 'branch', inputs: Record<string, string>, message: RegExp): Case
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
export const previewBranches = (ctx: Ctx) => [...ctx.project.branches.values()].filter((b) => !b.default && !b.protected && !ctx.fixtures.has(b.id))

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
        c.expect(first.outputs['expires-at'] === was && again.outputs['expires-at'] === b?.expires_at, 'expires-at outputs do not match the branch')
        return { observed: `${h.outcome(again)}; expires_at ${was} -> ${b?.expires_at}`, problems: c.problems }
      }
    },
    {
      group,
      name: 'branch: an expired branch is recreated and seeded on the next run',
      expected: "the platform's background job deletes the branch at expires_at; the next run creates a new one and seeds it",
      body: async (ctx) => {
        const first = await ctx.run('branch', { 'expires-in': '3' })
        const id = first.outputs['branch-id']
        const deadline = Date.now() + 10_000
        while (ctx.project.branches.has(id) && Date.now() < deadline) await sleep(200)
        const gone = !ctx.project.branches.has(id)
        const again = await ctx.run('branch', { 'expires-in': '1h' })
        const c = h.checker()
        h.succeeded(first, c)
        h.succeeded(again, c)
        c.expect(gone, 'the expired branch was not deleted')
        c.expect(again.outputs.created === 'true' && again.outputs['branch-id'] !== id, `created=${again.outputs.created}`)
        c.expect(/Seeded 2 file/.test(again.stdout), 'the new branch was not seeded')
        return { observed: `${h.outcome(again)}; expired branch ${gone ? 'gone' : 'left'}, created=${again.outputs.created}`, problems: c.problems }
      }
    }
  ]
}

function badInput(h: MatrixHelpers): Case[] {
  const bad: [string, 'instant' | 'branch', Record<string, string>, RegExp][] = [
    ['expires-in: soon', 'branch', { 'expires-in': 'soon' }, /`expires-in` must be a duration such as 90m, 36h, 7d or a number of seconds \(at least 1\); got "soon"/],
    ['expires-in: 0', 'branch', { 'expires-in': '0' }, /`expires-in` must be a duration/],
    ['max-age: 2w', 'branch', { command: 'cleanup', 'max-age': '2w' }, /`max-age` must be a duration/],
    ['dry-run: perhaps', 'branch', { command: 'cleanup', 'dry-run': 'perhaps' }, /`dry-run` must be true or false; got "perhaps"/],
    ['suspend-timeout: 30', 'branch', { 'suspend-timeout': '30' }, /`suspend-timeout` must be a whole number of seconds from 60 to 604800, or 0 .* or -1/],
    ['min-cu: 0.1', 'branch', { 'min-cu': '0.1' }, /`min-cu` must be a number of compute units, at least 0.25/],
    ['min-cu above max-cu', 'branch', { 'min-cu': '2', 'max-cu': '1' }, /`min-cu` \(2\) must not be larger than `max-cu` \(1\)/],
    ['schema-only: yes', 'branch', { 'schema-only': 'yes' }, /`schema-only` must be true or false; got "yes"/],
    ['expires-in in instant mode', 'instant', { 'expires-in': '7d' }, /`expires-in` applies to branch mode only/],
    ['command: reset in instant mode', 'instant', { command: 'reset' }, /`command: reset` needs branch mode/]
  ]
  return bad.map(([label, mode, inputs, message]) => h.badInputCase(label, mode, inputs, message))
}

/** Every lifecycle case, in table order. */
export function lifecycleCases(h: MatrixHelpers): Case[] {
  return [...expiry(h), ...badInput(h)]
}

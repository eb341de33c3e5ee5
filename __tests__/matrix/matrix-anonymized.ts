/**
 * The fault matrix's cases for anonymized previews: masking that
 * ends in `error` or `initialization_error`, an unknown masking function, and
 * a timeout while `anonymizing`. Each runs the bundle (Node 24) against the
 * emulator (emulator/neon/platform-anonymized.ts); matrix.ts runs the
 * orphan, spec and secret scans after each. Every case also checks that the
 * rule's literal value appears nowhere the run wrote.
 */
import { leakForms, leaks, runPlaces } from '../leaks.js'
import { type Case, type Ctx, checker, failed, outcome, succeeded } from './matrix-kit.js'
import type { AnonymizedFault } from '../../emulator/neon/platform-anonymized.js'

const VALUE = 'MATRIX-MASK-4417'

/** Rules over the parent's `people` table; `email` masked with `fn`. */
const rules = (fn = 'anon.fake_email()'): string =>
  `- {schema: public, table: people, column: email, function: "${fn}"}\n- {schema: public, table: people, column: phone, value: "${VALUE}"}`

/** Gives the case's parent branch a `people` table with personal data, owned by the project's role. */
async function parentWithPeople(ctx: Ctx): Promise<void> {
  const main = [...ctx.project.branches.values()].find((b) => b.default)!
  await ctx.emu.pg.query(
    main.database,
    `CREATE TABLE people (id int PRIMARY KEY, email text, phone text); ALTER TABLE people OWNER TO "${ctx.project.role}"`
  )
  await ctx.emu.pg.query(main.database, "INSERT INTO people VALUES (1, 'real@person.test', '555-0100')")
  ctx.emu.platform.anonymized.faults.length = 0
  ctx.emu.platform.anonymized.timing = { initializeMs: 200, anonymizeMs: 300 }
}

const previews = (ctx: Ctx) => [...ctx.project.branches.values()].filter((b) => !b.default && !b.protected && !ctx.fixtures.has(b.id))

/** A run that must fail with `message`, leave no branch and no rule value anywhere. */
function failing(
  name: string,
  expected: string,
  message: RegExp,
  setup: (ctx: Ctx) => { inputs?: Record<string, string>; fault?: AnonymizedFault; fn?: string }
): Case {
  return {
    group: 'anonymized',
    name,
    expected,
    body: async (ctx) => {
      await parentWithPeople(ctx)
      const { inputs = {}, fault, fn } = setup(ctx)
      if (fault) ctx.emu.platform.anonymized.faults.push(fault)
      const r = await ctx.run('branch', { 'masking-rules': rules(fn), ...inputs })
      const c = checker()
      failed(r, message, c)
      c.expect(previews(ctx).length === 0, `${previews(ctx).length} preview branch(es) left`)
      c.expect(r.outputs.anonymized !== 'true', 'anonymized=true on a failed run')
      c.expect(leaks(runPlaces(r), leakForms(VALUE)).length === 0, 'a rule value appears in the run')
      return { observed: `${outcome(r)}; branches left ${previews(ctx).length}`, problems: c.problems }
    }
  }
}

/** Every anonymized case, in table order. */
export function anonymizedCases(): Case[] {
  return [
    {
      group: 'anonymized',
      name: 'branch: masking-rules, masked then reused under the same rules',
      expected:
        'the first run waits for `anonymized` and seeds; the re-run reuses it; anonymized=true on both; the masked column holds no parent value',
      body: async (ctx) => {
        await parentWithPeople(ctx)
        const first = await ctx.run('branch', { 'masking-rules': rules() })
        const again = await ctx.run('branch', { 'masking-rules': rules() })
        const c = checker()
        succeeded(first, c)
        succeeded(again, c)
        c.expect(
          first.outputs.anonymized === 'true' && again.outputs.anonymized === 'true',
          `anonymized=${first.outputs.anonymized},${again.outputs.anonymized}`
        )
        c.expect(again.outputs.created === 'false', `created=${again.outputs.created} on the re-run`)
        const b = ctx.project.branches.get(first.outputs['branch-id'])
        const rows = b ? await ctx.emu.pg.query<{ email: string; phone: string }>(b.database, 'SELECT email, phone FROM people') : []
        c.expect(rows.length === 1 && rows[0].email !== 'real@person.test' && rows[0].phone === VALUE, 'the branch is not masked')
        for (const r of [first, again]) c.expect(leaks(runPlaces(r), leakForms(VALUE)).length === 0, 'a rule value appears in a run')
        return { observed: `${outcome(again)}; created ${first.outputs.created}, ${again.outputs.created}`, problems: c.problems }
      }
    },
    failing(
      'branch: masking ends in `error`',
      "fails with Neon's status_message; the branch is deleted; nothing handed out",
      /state `error`: "Anonymizing table neondb.public.people failed"/,
      () => ({ fault: { phase: 'anonymize', message: 'Anonymizing table neondb.public.people failed' } })
    ),
    failing(
      'branch: masking ends in `initialization_error`',
      "fails with Neon's status_message; the branch is deleted; nothing handed out",
      /state `initialization_error`: "anon could not be initialized"/,
      () => ({ fault: { phase: 'initialize', message: 'anon could not be initialized' } })
    ),
    failing(
      'branch: an unknown masking function',
      'Neon answers `error` with its message; the run fails and deletes the branch',
      /function anon\.fake_nothing\(\) does not exist/,
      () => ({ fn: 'anon.fake_nothing()' })
    ),
    failing(
      'branch: timeout while `anonymizing` (wait-timeout 4)',
      'wait-timeout covers the operations and the masking: fails within it; the branch is deleted; nothing handed out',
      /still `anonymizing` when `wait-timeout` \(4 s/,
      () => ({ inputs: { 'wait-timeout': '4' }, fault: { phase: 'anonymize', hang: true } })
    )
  ]
}

/**
 * The schema diff on real-world SQL:
 *
 *   npm run corpus -- DIR --schema
 *
 * Each set of DIR runs twice through the bundled action (dist/index.js on
 * Node 24; run `npm run package` first) in branch mode, each time in a new
 * project of the emulator, so the parent branch `main` is empty, with the
 * set's files as `seed`: once with the defaults (`compare-schema: true`),
 * once with `compare-schema: false`. Checked per set:
 * - both runs end alike (both load, or both stop), and, where both load, the
 *   two branches' databases are equal (bench/snapshot.ts);
 * - the diff's summary says nothing is changed or dropped, its "N tables
 *   added" is the number of tables the set made (pg_class, ordinary and
 *   partitioned tables outside the system schemas and extensions), and the
 *   diff file names every one of them;
 * - no warning (a warning means the diff fell back to a listing, or was unavailable).
 * Prints a table with each run's time (the main step, ms) and the schema
 * inspection's own time from the action's log. Not part of `npm test`.
 */
import { readFileSync } from 'node:fs'
import { startEmulator, type Emulator } from '../emulator/index.js'
import { NODE_24, type RunResult } from '../emulator/runner/runner.js'
import { branchInputs } from '../__tests__/fixtures/preview.js'
import { compareSnapshots, snapshot } from './snapshot.js'

interface Row {
  set: string
  on: string
  off: string
  summary: string
  inspectS: string
  result: 'ok' | 'FAIL'
  problems: string[]
}

/** The tables the set made, as `schema.name` (quotes off). */
async function tablesOf(emu: Emulator, database: string): Promise<string[]> {
  const rows = await emu.pg.query<{ t: string }>(
    database,
    `SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%'
       AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')`
  )
  return rows.map((r) => r.t).sort()
}

async function runBranch(emu: Emulator, dir: string, files: string[], compare: boolean): Promise<{ r: RunResult; database?: string }> {
  const project = await emu.platform.createProject()
  const r = await emu.run({
    inputs: {
      ...branchInputs(emu, project),
      seed: files.join('\n'),
      ...(compare ? {} : { 'compare-schema': 'false' })
    },
    cwd: dir,
    node: NODE_24
  })
  const branch = [...project.branches.values()].find((b) => b.id === r.outputs['branch-id'])
  return { r, database: branch?.database }
}

const outcome = (r: RunResult): string =>
  r.code === 0 ? `loaded ${(r.durationMs / 1000).toFixed(1)} s` : `failed: ${(r.errors[0] ?? `exit ${r.code}`).slice(0, 60)}`

/**
 * Runs schema mode over `sets` (absolute folders) with their files (`filesOf`).
 * @returns the exit code: 1 when any set fails a check
 */
export async function schemaMode(sets: string[], filesOf: (dir: string) => string[]): Promise<number> {
  const emu = await startEmulator()
  const rows: Row[] = []
  try {
    for (const dir of sets) {
      const set = dir.split('/').at(-1)!
      const files = filesOf(dir)
      const on = await runBranch(emu, dir, files, true)
      const off = await runBranch(emu, dir, files, false)
      const problems: string[] = []
      const summary = /#### Schema\s+\*\*([^*]+)\*\*/.exec(on.r.summary)?.[1] ?? ''
      const inspected = [...on.r.stdout.matchAll(/Inspected the schema .* in ([\d.]+) s/g)].map((m) => m[1]).join(' + ')
      if ((on.r.code === 0) !== (off.r.code === 0))
        problems.push(`ends differ: default ${outcome(on.r)}; compare-schema false ${outcome(off.r)}`)
      if (on.r.code === 0 && off.r.code === 0 && on.database && off.database) {
        const diff = compareSnapshots(await snapshot(emu.pg, on.database), await snapshot(emu.pg, off.database))
        if (diff.length) problems.push(`the two branches differ: ${diff.join('; ')}`)
        const tables = await tablesOf(emu, on.database)
        if (/changed|dropped/.test(summary)) problems.push(`summary says changed or dropped: ${summary}`)
        const added = Number(/(\d+) tables? added/.exec(summary)?.[1] ?? 0)
        if (added !== tables.length) problems.push(`summary counts ${added} tables added; the set made ${tables.length}`)
        const text = on.r.outputs['schema-diff'] ? readFileSync(on.r.outputs['schema-diff'], 'utf8') : ''
        const unnamed = tables.filter((t) => {
          const [schema, name] = t.split('.')
          return !text.includes(`"${schema}"."${name}"`) && !text.includes(`${schema}.${name}`)
        })
        if (unnamed.length) problems.push(`the diff does not name ${unnamed.length} table(s): ${unnamed.slice(0, 5).join(', ')}`)
      }
      for (const w of on.r.warnings) problems.push(`warning: ${w.slice(0, 200)}`)
      rows.push({
        set,
        on: outcome(on.r),
        off: outcome(off.r),
        summary: summary || '-',
        inspectS: inspected || '-',
        result: problems.length ? 'FAIL' : 'ok',
        problems
      })
      console.error(`${set}: ${problems.length ? 'FAIL' : 'ok'}`)
    }
  } finally {
    await emu.stop()
  }
  const header = ['set', 'default', 'compare-schema: false', 'inspections (s)', 'result', 'summary']
  const table = [header, ...rows.map((r) => [r.set, r.on, r.off, r.inspectS, r.result, r.summary])]
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c]!.length)))
  for (const r of table) console.log(r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join(' | '))
  for (const r of rows.filter((x) => x.problems.length)) {
    console.log(`\n${r.set}:`)
    for (const p of r.problems) console.log(`  ${p}`)
  }
  const failed = rows.filter((r) => r.result === 'FAIL').length
  console.log(`\n${rows.length - failed} ok, ${failed} fail`)
  return failed ? 1 : 0
}

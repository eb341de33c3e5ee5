/**
 * The seed loader against psql on real-world SQL:
 *
 *   npm run corpus -- DIR            (npm run corpus -- DIR --schema: bench/corpus-schema.ts)
 *
 * Every folder of DIR with a SOURCE file is a set: its files load in the
 * order its LOAD file lists (one name a line), else its *.sql files sorted.
 * Each set is loaded twice, each time into a fresh database of PostgreSQL 17
 * owned by a non-superuser, as on a managed database:
 * - by the action: dist/index.js (run `npm run package` first) on Node 24,
 *   through the emulator's instant service, with the set's folder as the
 *   working directory;
 * - by `psql -X -v ON_ERROR_STOP=1 -1 -f …`, run in the set's folder, in a
 *   second server. Where psql stops at what the action skips on purpose (a
 *   statement naming a missing role, a managed database's extension), psql
 *   loads once more as the superuser, with the missing roles made, and the
 *   rest is compared with that.
 * Then both databases are compared (bench/snapshot.ts): per table the row
 * count and the md5 of its rows in order; columns with types and defaults;
 * function bodies, views, indexes, constraints and triggers; sequences' last
 * values; comments and extensions.
 *
 * Prints a table, then `N agree, N differ`. Both loading the same database,
 * or both stopping, agree. A difference docs/seeding.md documents as deliberate
 * (a refusal, or a managed-database skip) is marked "documented"; any other
 * difference makes the exit code 1. Reads only DIR; not part of `npm test`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { exitOnStartError } from '../emulator/child.js'
import { APP_TOKEN, startEmulator } from '../emulator/index.js'
import { PostgresServer } from '../emulator/postgres/postgres.js'
import { NODE_24 } from '../emulator/runner/runner.js'
import { compareSnapshots, psqlLoad, snapshot } from './snapshot.js'

/** Refusals and skips docs/seeding.md documents: our message (or psql's, for a skip) → the name it uses. */
const DOCUMENTED: { ours?: RegExp; psql?: RegExp; name: string }[] = [
  { ours: /psql meta-command \\(\S+) is not supported/, name: 'refused: psql meta-command' },
  { ours: /cannot work on a provisioned database/, name: 'refused: database statement' },
  { ours: /cannot run inside a transaction block/, name: 'refused: not in a transaction block' },
  { ours: /would change the outcome of the seed/, name: 'refused: transaction control' },
  { ours: /sets client encoding/, name: 'refused: client encoding' },
  { psql: /must be owner of extension/, name: "skipped: managed database's extension" },
  { psql: /role "[^"]+" does not exist/, name: 'skipped: statement naming a missing role' }
]

interface Row {
  set: string
  files: number
  psql: string
  ours: string
  result: 'agree' | 'differ' | 'differ (documented)'
  detail: string[]
}

const shorten = (s: string, n = 70): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s)
/** psql's first ERROR line, without the file prefix. */
const psqlError = (stderr: string): string =>
  /ERROR: {2}(.*)|FATAL: {2}(.*)|psql: error: (.*)/.exec(stderr)?.slice(1).find(Boolean) ?? stderr.trim().split('\n')[0] ?? ''

function setFiles(dir: string): string[] {
  const load = path.join(dir, 'LOAD')
  if (existsSync(load))
    return readFileSync(load, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
}

async function main(): Promise<number> {
  const root = process.argv[2]
  if (!root || !statSync(root).isDirectory()) {
    console.error('usage: npm run corpus -- DIR   (DIR holds one folder per set, each with SOURCE and an optional LOAD)')
    return 2
  }
  const sets = readdirSync(root)
    .filter((d) => existsSync(path.join(root, d, 'SOURCE')))
    .sort()
  // `-- DIR --schema` checks the schema diff instead (bench/corpus-schema.ts)
  if (process.argv[3] === '--schema')
    return (await import('./corpus-schema.js')).schemaMode(
      sets.map((s) => path.resolve(root, s)),
      (d) => setFiles(d)
    )
  const emu = await startEmulator().catch(exitOnStartError)
  const psqlServer = await PostgresServer.start({ hostPattern: '*.psql.localhost' }).catch(exitOnStartError)
  const rows: Row[] = []
  try {
    for (const [i, set] of sets.entries()) {
      const dir = path.resolve(root, set)
      const files = setFiles(dir)
      const before = new Set(emu.instant.databases.keys())
      const ours = await emu.run({
        inputs: { 'instant-url': emu.instant.url, 'github-token': APP_TOKEN, seed: files.join('\n') },
        cwd: dir,
        node: NODE_24
      })
      const record = [...emu.instant.databases.entries()].find(([id]) => !before.has(id))?.[1]
      const psqlDb = `corpus_${i}`
      // psql as a managed database's owner would run it; where it stops at what the action skips on
      // purpose, once more as the superuser with the missing roles made, to compare the rest
      const psql = await psqlLoad(psqlServer, psqlDb, files, dir)
      const skipped = !psql.ok && ours.code === 0 ? DOCUMENTED.find((d) => d.psql?.test(psql.stderr)) : undefined
      const reference = skipped ? await psqlLoad(psqlServer, psqlDb, files, dir, { superuser: true, createRoles: true }) : psql
      const oursText =
        ours.code === 0 ? 'loaded' : shorten(ours.errors[0]?.replace(/^Seed (refused|failed) at /, '$1 at ') ?? `exit ${ours.code}`)
      const psqlText = psql.ok ? 'loaded' : shorten(`failed: ${psqlError(psql.stderr)}`)
      const row: Row = { set, files: files.length, psql: psqlText, ours: oursText, result: 'agree', detail: [] }
      if (reference.ok && ours.code === 0 && record) {
        row.detail = compareSnapshots(await snapshot(psqlServer, psqlDb), await snapshot(emu.pg, record.database))
        if (row.detail.length) row.result = 'differ'
        else if (skipped) {
          row.result = 'differ (documented)'
          row.detail = [
            skipped.name,
            `psql: ${psqlError(psql.stderr)}`,
            `the rest equals psql's load as the superuser${reference.rolesCreated.length ? ` with roles ${reference.rolesCreated.join(', ')}` : ''}`
          ]
        }
      } else if (psql.ok !== (ours.code === 0)) {
        const documented = DOCUMENTED.find((d) => (psql.ok ? d.ours?.test(ours.errors[0] ?? '') : d.psql?.test(psql.stderr)))
        row.result = documented ? 'differ (documented)' : 'differ'
        row.detail = [
          documented ? documented.name : 'undocumented',
          psql.ok ? `ours: ${ours.errors[0]}` : `psql: ${psqlError(psql.stderr)}`
        ]
      }
      rows.push(row)
      // roles are the cluster's: drop the ones made for this set, so the next set meets a cluster without them
      await psqlServer.dropDatabase(psqlDb)
      for (const r of reference.rolesCreated) await psqlServer.admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(r)}`)
      console.error(`${set}: ${row.result}`)
    }
  } finally {
    await emu.stop()
    await psqlServer.stop()
  }
  const header = ['set', 'files', 'psql', 'ours (the action)', 'result']
  const table = [header, ...rows.map((r) => [r.set, String(r.files), r.psql, r.ours, r.result])]
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c].length)))
  for (const r of table)
    console.log(
      r
        .map((cell, c) => cell.padEnd(widths[c]))
        .join(' | ')
        .trimEnd()
    )
  for (const r of rows.filter((x) => x.detail.length && x.result !== 'agree')) {
    console.log(`\n${r.set} (${r.result}):`)
    for (const d of r.detail) console.log(`  ${d}`)
  }
  const agree = rows.filter((r) => r.result === 'agree').length
  const documented = rows.filter((r) => r.result === 'differ (documented)').length
  const undocumented = rows.length - agree - documented
  console.log(`\n${documented} of the differences are documented refusals or skips; ${undocumented} are not.`)
  console.log(`${agree} agree, ${rows.length - agree} differ`)
  return undocumented ? 1 : 0
}

// exit explicitly: a stopped server's child processes must not decide the code
process.exit(await main())

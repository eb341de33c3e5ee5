/**
 * The platform's compare_schema endpoint (platform spec,
 * getProjectBranchSchemaComparison: `GET …/branches/{branch_id}/compare_schema
 * ?base_branch_id&db_name` → `{diff}`), computed from the two databases' real
 * schemas: each is inspected by @pgkit/schemainspect over its own client
 * (@pgkit/client), running the library's catalog queries one by one, apart
 * from the action's batched reader (src/schema/), so this check does not
 * share the code it checks; each schema is then written out as the DDL
 * that creates it from an empty database (@pgkit/migra), and the two scripts
 * are compared as a unified diff (jsdiff), base first. Equal schemas give
 * `diff: ""`.
 */
import { createTwoFilesPatch } from 'diff'
import { Migration } from '@pgkit/migra/dist/migra.js' // its own module: the package's index also loads migra's command line
import { createClient } from '@pgkit/client'
import { PostgreSQL } from '@pgkit/schemainspect'
import { ADMIN_USER, type PostgresServer } from '../postgres/postgres.js'
import { nameQueriesWithoutParsing } from './pgkit-names.js'

const EMPTY = 'emulator_empty_schema'

// @pgkit/client would parse each query to name it (pgkit-names.ts).
nameQueriesWithoutParsing()

async function inspect(pg: PostgresServer, database: string): Promise<PostgreSQL> {
  // One client a call, ended after it: pg-promise's warning about a second client of the same database does not apply.
  const client = createClient(`postgresql://${ADMIN_USER}:${encodeURIComponent(pg.adminPassword)}@127.0.0.1:${pg.port}/${database}`, {
    pgpOptions: { initialize: { noWarnings: true } }
  })
  try {
    return await PostgreSQL.create(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** The empty database's schema, read once a server (it never changes). */
const empties = new WeakMap<PostgresServer, Promise<PostgreSQL>>()
function emptySchema(pg: PostgresServer): Promise<PostgreSQL> {
  let empty = empties.get(pg)
  if (!empty) {
    empty = (async () => {
      if (!(await pg.databases()).includes(EMPTY)) await pg.createDatabase(EMPTY, ADMIN_USER).catch(() => undefined)
      return inspect(pg, EMPTY)
    })()
    empty.catch(() => empties.delete(pg))
    empties.set(pg, empty)
  }
  return empty
}

/** The DDL that creates `schema` from an empty database. */
async function script(empty: PostgreSQL, schema: PostgreSQL): Promise<string> {
  const m = await Migration.create(empty, schema, {})
  m.set_safety(false)
  m.add_all_changes()
  return m.sql.replace(/\n{3,}/g, '\n\n').trim() + '\n'
}

/** Diffs the schemas of two databases of `pg` as the platform's compare_schema does. */
export async function compareSchemas(
  pg: PostgresServer,
  base: { name: string; database: string },
  branch: { name: string; database: string }
): Promise<string> {
  const [empty, a, b] = await Promise.all([emptySchema(pg), inspect(pg, base.database), inspect(pg, branch.database)])
  const [before, after] = await Promise.all([script(empty, a), script(empty, b)])
  if (before === after) return ''
  return createTwoFilesPatch(`a/${base.name}`, `b/${branch.name}`, before, after, undefined, undefined, { context: 3 })
}

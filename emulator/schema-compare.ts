/**
 * The platform's compare_schema endpoint (platform spec,
 * getProjectBranchSchemaComparison: `GET …/branches/{branch_id}/compare_schema
 * ?base_branch_id&db_name` → `{diff}`), computed from the two databases' real
 * schemas: each is inspected (@pgkit/schemainspect), written out as the DDL
 * that creates it from an empty database (@pgkit/migra), and the two scripts
 * are compared as a unified diff (jsdiff), base first. Equal schemas give
 * `diff: ""`.
 */
import { createTwoFilesPatch } from 'diff'
import { Migration } from '@pgkit/migra'
import { PostgreSQL } from '@pgkit/schemainspect'
import { queryable } from '../src/schema/inspect.js'
import type { PostgresServer } from './postgres.js'

const EMPTY = 'emulator_empty_schema'

async function inspect(pg: PostgresServer, database: string): Promise<PostgreSQL> {
  const client = await pg.connect(database)
  try {
    return await PostgreSQL.create(queryable(client))
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** The DDL that creates `schema` from an empty database. */
async function script(empty: PostgreSQL, schema: PostgreSQL): Promise<string> {
  const m = await Migration.create(empty, schema, {})
  m.set_safety(false)
  m.add_all_changes()
  return m.sql.replace(/\n{3,}/g, '\n\n').trim() + '\n'
}

/** Diffs the schemas of two databases of `pg` as the platform's compare_schema does. */
export async function compareSchemas(pg: PostgresServer, base: { name: string; database: string }, branch: { name: string; database: string }): Promise<string> {
  if (!(await pg.databases()).includes(EMPTY)) await pg.createDatabase(EMPTY, 'emulator_admin').catch(() => undefined)
  const [empty, a, b] = await Promise.all([inspect(pg, EMPTY), inspect(pg, base.database), inspect(pg, branch.database)])
  const [before, after] = await Promise.all([script(empty, a), script(empty, b)])
  if (before === after) return ''
  return createTwoFilesPatch(`a/${base.name}`, `b/${branch.name}`, before, after, undefined, undefined, { context: 3 })
}

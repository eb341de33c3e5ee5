/**
 * Comparing two loads of the same SQL: what a database holds, as lines per
 * section, read from the catalogue as a superuser, and psql's load of files
 * into a fresh database of a throwaway role. Used by bench/corpus.ts and the
 * seed tests that compare the loader with psql.
 */
import pg from 'pg'
import { runSync } from '../emulator/child.js'
import { ADMIN_USER, type PostgresServer } from '../emulator/postgres/postgres.js'

/** Section name → sorted lines. */
export type Snapshot = Map<string, string[]>

const USER_OBJECTS = "n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%'"

/** Catalogue queries, one per section; each answers one text column `line`. */
const SECTIONS: [string, string][] = [
  ['extensions', "SELECT extname || ' ' || extversion AS line FROM pg_extension"],
  [
    'columns',
    `SELECT format('%I.%I.%I %s%s%s%s', n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
       CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END,
       CASE WHEN a.attgenerated = 's' THEN ' GENERATED ' ELSE '' END || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), ''),
       CASE WHEN a.attidentity <> '' THEN ' IDENTITY ' || a.attidentity::text ELSE '' END) AS line
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${USER_OBJECTS}`
  ],
  [
    'functions',
    `SELECT format('%I.%I(%s) %s', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid),
       CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) ELSE p.prokind::text END) AS line
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE ${USER_OBJECTS} AND NOT EXISTS (SELECT FROM pg_depend x WHERE x.objid = p.oid AND x.deptype = 'e')`
  ],
  [
    'views',
    `SELECT format('%I.%I %s', n.nspname, c.relname, pg_get_viewdef(c.oid)) AS line
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('v', 'm') AND ${USER_OBJECTS}`
  ],
  [
    'indexes',
    `SELECT pg_get_indexdef(i.indexrelid) AS line FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_OBJECTS}`
  ],
  [
    'constraints',
    `SELECT format('%s %I %s', co.conrelid::regclass, co.conname, pg_get_constraintdef(co.oid)) AS line
     FROM pg_constraint co JOIN pg_namespace n ON n.oid = co.connamespace WHERE ${USER_OBJECTS}`
  ],
  ['triggers', 'SELECT pg_get_triggerdef(t.oid) AS line FROM pg_trigger t WHERE NOT t.tgisinternal'],
  [
    'sequences',
    "SELECT format('%I.%I %s', schemaname, sequencename, coalesce(last_value::text, 'not called')) AS line FROM pg_sequences " +
      "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
  ],
  [
    'comments',
    `SELECT format('%s %s: %s', o.type, o.identity, d.description) AS line
     FROM pg_description d, LATERAL pg_identify_object(d.classoid, d.objoid, d.objsubid) o
     WHERE d.objoid >= 16384 AND coalesce(o.schema, '') NOT IN ('pg_catalog', 'information_schema')`
  ]
]

/** Tables (and partitions) whose rows are compared. */
const TABLES = `SELECT format('%I.%I', n.nspname, c.relname) AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r' AND ${USER_OBJECTS}`

/**
 * What database `database` of `server` holds: the sections above, and per
 * table its row count and the md5 of its rows' text in C order.
 */
export async function snapshot(server: PostgresServer, database: string): Promise<Snapshot> {
  const client = await server.connect(database)
  try {
    await client.query("SET TimeZone = 'UTC'; SET extra_float_digits = 1; SET DateStyle = 'ISO, MDY'")
    const out: Snapshot = new Map()
    for (const [name, sql] of SECTIONS) {
      const { rows } = await client.query<{ line: string }>(sql)
      out.set(name, rows.map((r) => r.line).sort())
    }
    const tables: string[] = []
    for (const { t } of (await client.query<{ t: string }>(TABLES)).rows) {
      const { rows } = await client.query<{ n: string; md5: string }>(
        `SELECT count(*) AS n, md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text COLLATE "C"), '')) AS md5 FROM ONLY ${t} r`
      )
      tables.push(`${t} rows=${rows[0].n} md5=${rows[0].md5}`)
    }
    out.set('tables', tables.sort())
    return out
  } finally {
    await client.end()
  }
}

/** Lines that differ, per section: `- line` only in `a`, `+ line` only in `b` (at most `limit` per section). */
export function compareSnapshots(a: Snapshot, b: Snapshot, limit = 5): string[] {
  const out: string[] = []
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const left = new Set(a.get(name) ?? [])
    const right = new Set(b.get(name) ?? [])
    const diff = [
      ...[...left].filter((l) => !right.has(l)).map((l) => `- ${l}`),
      ...[...right].filter((l) => !left.has(l)).map((l) => `+ ${l}`)
    ]
    if (diff.length)
      out.push(
        `${name}: ${diff.length} line(s) differ`,
        ...diff.slice(0, limit).map((l) => `    ${l.length > 200 ? `${l.slice(0, 197)}...` : l}`)
      )
  }
  return out
}

/** Number of objects and rows a snapshot holds (0: an empty database). */
export const snapshotSize = (s: Snapshot): number => [...s.values()].reduce((n, lines) => n + lines.length, 0)

/** What psql did. */
export interface PsqlLoad {
  ok: boolean
  /** psql's stderr (errors, warnings, notices). */
  stderr: string
  /** Roles created so psql could load (missing ones it named). */
  rolesCreated: string[]
}

/** How psql loads. */
export interface PsqlOptions {
  /** Load as the server's superuser instead of a fresh non-superuser owner (a managed database's user). */
  superuser?: boolean
  /**
   * When psql stops at a role that does not exist, make it (NOLOGIN; granted
   * to a non-superuser loader) and start over, at most 30 times: the action
   * skips OWNER TO, GRANT and the like for such roles, and this gives psql
   * the roles instead, so the rest can be compared.
   */
  createRoles?: boolean
}

let loaders = 0

/**
 * Loads `files` with `psql -X -v ON_ERROR_STOP=1 -1 -f …` (run in `cwd`, so
 * `\i` resolves as it does for a user there) into a fresh database
 * `database` of `server`, owned by a fresh non-superuser login role, as a
 * managed database is (or as the superuser: {@link PsqlOptions}).
 */
export async function psqlLoad(
  server: PostgresServer,
  database: string,
  files: string[],
  cwd: string,
  options: PsqlOptions = {}
): Promise<PsqlLoad> {
  const role = `psql_loader_${process.pid}_${++loaders}`
  const password = `pw_${Math.random().toString(36).slice(2)}`
  await server.createRole(role, password)
  const rolesCreated: string[] = []
  const url = options.superuser
    ? `postgresql://${ADMIN_USER}:${encodeURIComponent(server.adminPassword)}@127.0.0.1:${server.port}/${database}?sslmode=require`
    : `postgresql://${role}:${password}@127.0.0.1:${server.port}/${database}?sslmode=require`
  for (;;) {
    await server.dropDatabase(database)
    await server.createDatabase(database, role)
    const r = runSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-1', ...files.flatMap((f) => ['-f', f]), url], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, PGCONNECT_TIMEOUT: '10' },
      maxBuffer: 64 << 20
    })
    if (r.errorCode) throw new Error(`cannot run psql (${r.errorCode}): install the PostgreSQL client (apt-get install postgresql-client)`)
    const missing = /role "([^"]+)" does not exist/.exec(r.stderr)?.[1]
    if (r.status === 0 || !options.createRoles || !missing || rolesCreated.length >= 30 || rolesCreated.includes(missing)) {
      return { ok: r.status === 0, stderr: r.stderr, rolesCreated }
    }
    const id = pg.escapeIdentifier
    await server.admin.query(`CREATE ROLE ${id(missing)} NOLOGIN`)
    await server.admin.query(`GRANT ${id(missing)} TO ${id(role)}`)
    rolesCreated.push(missing)
  }
}

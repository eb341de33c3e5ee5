import { describe, expect, it } from '@jest/globals'
import { compareSnapshots, isSafeWidening } from '../../src/schema/changes.js'
import { summarise } from '../../src/schema/diff.js'
import { type SchemaSnapshot, buildSnapshot, nameQueriesLazily } from '../../src/schema/inspect.js'
import { CATALOG_QUERIES, catalogTexts } from '../../src/schema/catalog.js'
import { PostgreSQL } from '@pgkit/schemainspect'
import { sql } from '@pgkit/client'
import { dropRepeatedNotNull, keepNotValid, renderListing, renderStatements, terminate } from '../../src/schema/render.js'
import { COMMENT_LIMIT, renderReport } from '../../src/publish/report.js'

/** A snapshot in the shape schemainspect gives (only the maps compareSnapshots reads). */
function snap(parts: Partial<Record<string, Record<string, unknown>>>): SchemaSnapshot {
  const empty = [
    'tables',
    'relations',
    'views',
    'materialized_views',
    'indexes',
    'constraints',
    'functions',
    'triggers',
    'enums',
    'domains',
    'composite_types',
    'sequences',
    'rlspolicies',
    'extensions'
  ]
  const s: Record<string, unknown> = Object.fromEntries(empty.map((k) => [k, {}]))
  Object.assign(s, parts)
  s.relations = { ...(s.tables as object), ...(s.views as object), ...(s.materialized_views as object) }
  return s as unknown as SchemaSnapshot
}
const col = (dbtypestr: string, extra: Record<string, unknown> = {}) => ({ dbtypestr, not_null: false, default: null, ...extra })
const table = (schema: string, name: string, columns: Record<string, unknown>) => ({ schema, name, columns })

describe('compareSnapshots: objects from the catalog, not statements', () => {
  it('from an empty schema, every object is new; a new table carries its columns, indexes, constraints and owned sequence', () => {
    const after = snap({
      tables: {
        '"public"."items"': table('public', 'items', {
          id: col('integer', { not_null: true, default: "nextval('items_id_seq'::regclass)" }),
          name: col('text')
        })
      },
      views: { '"public"."v"': { schema: 'public', name: 'v', definition: 'SELECT 1' } },
      indexes: { '"public"."items_pkey"': { schema: 'public', name: 'items_pkey', table_name: 'items' } },
      constraints: { '"public"."items"."items_pkey"': { schema: 'public', name: 'items_pkey', table_name: 'items', index: 'items_pkey' } },
      sequences: {
        '"public"."items_id_seq"': { schema: 'public', name: 'items_id_seq', table_name: 'items', column_name: 'id' },
        '"public"."free"': { schema: 'public', name: 'free' }
      },
      triggers: { '"public"."items"."tr"': { schema: 'public', name: 'tr', table_name: 'items' } },
      domains: { '"public"."email"': { schema: 'public', name: 'email', create_statement: 'create domain email as text' } }
    })
    const objects = compareSnapshots(snap({}), after)
    expect(summarise(objects)).toBe('1 table added, 1 view added, 1 trigger added, 1 type added, 1 sequence added')
    expect(objects.filter((o) => o.destructive)).toEqual([])
  })

  it('counts column, index and constraint changes on an existing table, and flags the destructive ones', () => {
    const before = snap({
      tables: {
        '"public"."items"': table('public', 'items', {
          id: col('integer'),
          name: col('text'),
          code: col('character varying(10)'),
          n: col('numeric(10,2)')
        }),
        '"public"."gone"': table('public', 'gone', { id: col('integer') })
      },
      constraints: {
        '"public"."items"."items_check"': { schema: 'public', name: 'items_check', table_name: 'items', definition: 'CHECK (id > 0)' },
        '"public"."items"."items_fk"': {
          schema: 'public',
          name: 'items_fk',
          table_name: 'items',
          definition: 'FOREIGN KEY (id) REFERENCES t(id)'
        },
        '"public"."gone"."gone_check"': { schema: 'public', name: 'gone_check', table_name: 'gone', definition: 'CHECK (id > 0)' }
      }
    })
    const after = snap({
      tables: {
        '"public"."items"': table('public', 'items', {
          id: col('integer', { not_null: true }),
          code: col('character varying(4)'),
          n: col('numeric(12,2)'),
          extra: col('text')
        }),
        '"public"."t"': table('public', 't', { id: col('integer') })
      },
      indexes: {
        '"public"."items_id"': {
          schema: 'public',
          name: 'items_id',
          table_name: 'items',
          definition: 'CREATE INDEX items_id ON public.items (id)'
        }
      },
      constraints: {
        '"public"."items"."items_fk"': {
          schema: 'public',
          name: 'items_fk',
          table_name: 'items',
          definition: 'FOREIGN KEY (id) REFERENCES t(id) NOT VALID'
        }
      }
    })
    const objects = compareSnapshots(before, after)
    expect(summarise(objects)).toBe(
      '1 table added, 1 table dropped, 1 column added, 3 columns changed, 1 column dropped, 1 index added, 1 constraint changed, 1 constraint dropped'
    )
    expect(objects.filter((o) => o.destructive).map((o) => [o.name, o.destructive])).toEqual([
      ['"public"."gone"', 'drops a table and its rows'],
      ['name', 'drops a column and its values'],
      ['code', 'changes the type from character varying(10) to character varying(4), which may rewrite the table or narrow values'],
      ['"public"."items"."items_check"', 'drops a constraint that data may rely on']
    ])
    expect(objects.filter((o) => o.notNull).map((o) => o.name)).toEqual(['id'])
    expect(renderListing(objects.filter((o) => o.kind === 'column' && o.change === 'changed'))).toBe(
      '~ column "public"."items".id (NOT NULL)\n~ column "public"."items".code (type character varying(10) → character varying(4))\n~ column "public"."items".n (type numeric(10,2) → numeric(12,2))'
    )
  })

  it('ignores grants and equal objects: no change is "no schema change"', () => {
    const s = { tables: { '"public"."t"': table('public', 't', { id: col('integer') }) }, privileges: { a: 1 } }
    expect(summarise(compareSnapshots(snap(s), snap({ ...s, privileges: { b: 2 } })))).toBe('no schema change')
  })

  it('treats only widenings that keep every value and skip the rewrite as safe', () => {
    expect(isSafeWidening('character varying(10)', 'character varying(40)')).toBe(true)
    expect(isSafeWidening('character varying(10)', 'text')).toBe(true)
    expect(isSafeWidening('character varying(10)', 'character varying')).toBe(true)
    expect(isSafeWidening('numeric(10,2)', 'numeric(12,2)')).toBe(true)
    expect(isSafeWidening('character varying(10)', 'character varying(4)')).toBe(false)
    expect(isSafeWidening('numeric(10,2)', 'numeric(12,3)')).toBe(false)
    expect(isSafeWidening('integer', 'bigint')).toBe(false)
    expect(isSafeWidening('text', 'character varying(10)')).toBe(false)
  })
})

describe("migra's script, repaired and rendered", () => {
  it("terminates migra's create domain, which has no ';' (schemainspect's InspectedDomain)", () => {
    const migra = 'create domain "public"."email"\nas text\nnull\nCHECK (VALUE ~ \'@\'::text)\n'
    expect(terminate(migra)).toBe('create domain "public"."email"\nas text\nnull\nCHECK (VALUE ~ \'@\'::text);')
    expect(terminate('create table "public"."t" ();')).toBe('create table "public"."t" ();')
    expect(terminate('CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END\n;')).toBe(
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END\n;'
    )
    expect(terminate('\n\n')).toBe('')
  })

  it("drops the NOT NULL that PostgreSQL 17's catalog repeats in a domain's check clause", () => {
    expect(
      dropRepeatedNotNull('create domain "public"."amount"\nas numeric\ndefault 0\nnot null\nNOT NULL CHECK (VALUE >= 0::numeric);')
    ).toBe('create domain "public"."amount"\nas numeric\ndefault 0\nnot null\nCHECK (VALUE >= 0::numeric);')
    expect(dropRepeatedNotNull('create domain "public"."id"\nas integer\nnot null\nNOT NULL;')).toBe(
      'create domain "public"."id"\nas integer\nnot null\n;'
    )
    expect(dropRepeatedNotNull('create domain "public"."e"\nas text\nnull\nCHECK (VALUE <> \'\');')).toBe(
      'create domain "public"."e"\nas text\nnull\nCHECK (VALUE <> \'\');'
    )
    expect(dropRepeatedNotNull('alter table t add column "a" int not null\nNOT NULL;')).toBe(
      'alter table t add column "a" int not null\nNOT NULL;'
    )
  })

  it('keeps a constraint NOT VALID when it is NOT VALID in "after": no repeated clause, no validate', () => {
    const statements = [
      'alter table "public"."child" add constraint "c" CHECK ((id > 0)) NOT VALID not valid;',
      'alter table "public"."child" validate constraint "c";',
      'alter table "public"."child" add constraint "d" CHECK ((id < 9)) not valid;',
      'alter table "public"."child" validate constraint "d";'
    ]
    expect(keepNotValid(statements, [{ table: '"public"."child"', name: 'c' }])).toEqual([
      'alter table "public"."child" add constraint "c" CHECK ((id > 0)) NOT VALID;',
      'alter table "public"."child" add constraint "d" CHECK ((id < 9)) not valid;',
      'alter table "public"."child" validate constraint "d";'
    ])
  })

  it('renders statements as diff lines: + creates and adds, - drops, ~ changes', () => {
    expect(
      renderStatements([
        'alter table "public"."t" add column "a" int;',
        'drop index if exists "public"."i";',
        'alter table "public"."t" alter column "b" drop not null;'
      ])
    ).toBe(
      '+ alter table "public"."t" add column "a" int;\n- drop index if exists "public"."i";\n~ alter table "public"."t" alter column "b" drop not null;'
    )
  })
})

describe('renderReport with a schema diff', () => {
  const base = { mode: 'instant' as const, state: 'created' as const, databaseId: 'db-1' }

  it('fences the diff with more backticks than it holds', () => {
    const md = renderReport({ ...base, schema: { summary: '1 function added', diff: '+ $$ ``` $$', source: 'migra', destructive: [] } })
    expect(md).toContain('````diff\n+ $$ ``` $$\n````')
  })

  it('says "schema diff unavailable" with the reason, and that the database is seeded', () => {
    const md = renderReport({
      ...base,
      schema: {
        summary: 'schema diff unavailable',
        unavailable: 'could not inspect the schema after seeding: timeout',
        diff: '',
        source: 'none',
        destructive: []
      }
    })
    expect(md).toContain(
      '**schema diff unavailable**: could not inspect the schema after seeding: timeout. The database is seeded; only the diff is missing.'
    )
  })

  it('notes a listing shown in place of the script', () => {
    const md = renderReport({
      ...base,
      schema: {
        summary: '1 table added',
        diff: '+ table "public"."t"',
        source: 'listing',
        note: 'the generated migration script is not valid SQL (syntax error)',
        destructive: []
      }
    })
    expect(md).toContain('_The diff below lists the changed objects: the generated migration script is not valid SQL (syntax error)._')
  })

  it('cuts the diff at a line end to fit the limit, and says where the rest is', () => {
    const diff = Array.from({ length: 5000 }, (_, i) => `+ create table "public"."t${i}" ("id" integer)`).join('\n')
    const md = renderReport(
      { ...base, schema: { summary: '5000 tables added', diff, source: 'migra', destructive: [] } },
      Date.now(),
      COMMENT_LIMIT
    )
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md).toContain('The diff is cut here (5000 lines in all)')
    expect(md).toMatch(/\+ create table "public"\."t\d+" \("id" integer\)\n```\n/)
    expect(renderReport({ ...base, schema: { summary: '', diff, source: 'migra', destructive: [] } })).toContain(diff)
  })
})

describe("nameQueriesLazily: schemainspect's sql.raw names its query only when asked (half of a snapshot's CPU)", () => {
  it('keeps the query and its values, and gives the same name as before, computed on first read', () => {
    const query = 'select n.nspname as schema from pg_catalog.pg_namespace n'
    const eager = sql.raw(query, [1])
    nameQueriesLazily()
    nameQueriesLazily() // idempotent: wraps once
    const lazy = sql.raw(query, [1])
    expect(Object.getOwnPropertyDescriptor(lazy, 'name')?.get).toBeInstanceOf(Function)
    expect(Object.getOwnPropertyDescriptor(eager, 'name')?.get).toBeUndefined()
    expect({ sql: lazy.sql, values: lazy.values, token: lazy.token, segments: lazy.segments(), templateArgs: lazy.templateArgs() }).toEqual(
      {
        sql: eager.sql,
        values: eager.values,
        token: eager.token,
        segments: eager.segments(),
        templateArgs: eager.templateArgs()
      }
    )
    expect(lazy.name).toBe(eager.name)
    expect(lazy.name).toMatch(/^select.*_[0-9a-f]{7}$/)
  })
})

describe("buildSnapshot: schemainspect's inspector from the batch's rows, without PostgreSQL.create", () => {
  it('builds the snapshot without create (whose version query the sql tag names by parsing it) and reads the version from the rows', async () => {
    const create = PostgreSQL.create
    PostgreSQL.create = () => Promise.reject(new Error('PostgreSQL.create was called'))
    try {
      const rows = new Map(CATALOG_QUERIES.map((name) => [name, [] as Record<string, unknown>[]]))
      const snapshot = (await buildSnapshot({ serverVersion: '17.2', rows })) as unknown as Record<string, unknown>
      expect(snapshot).toBeInstanceOf(PostgreSQL)
      expect(snapshot.pg_version).toBe(17)
      expect(snapshot.tables).toEqual({})
    } finally {
      PostgreSQL.create = create
    }
  })
})

describe("catalogTexts: schemainspect's catalog queries, read without loading the inspector", () => {
  it.each(['9.6', '10.23', '11.22', '12.20', '16.4', '17.2'])(
    'gives the texts schemainspect makes for server_version %s, query for query',
    (version) => {
      const Inspector = PostgreSQL as unknown as new (c: unknown, version: string) => Record<string, string | null>
      const theirs = new Inspector({}, version)
      const ours = catalogTexts(version)
      for (const name of CATALOG_QUERIES) expect([name, ours[name] ?? null]).toEqual([name, theirs[name]])
    }
  )
})

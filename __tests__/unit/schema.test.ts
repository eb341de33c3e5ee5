import { describe, expect, it } from '@jest/globals'
import { classifyScript, isSafeWidening } from '../../src/schema/classify.js'
import { renderStatements, summarise } from '../../src/schema/diff.js'
import { COMMENT_LIMIT, renderReport } from '../../src/publish/report.js'

const facts = {
  columnTypes: () => ({ code: 'character varying(10)', n: 'numeric(10,2)' }),
  newColumnTypes: () => ({ code: 'character varying(4)', n: 'numeric(12,2)' }),
  functionExisted: (name: string) => name === '"public"."old_fn"'
}

describe('classifyScript (PostgreSQL grammar)', () => {
  it('splits where the grammar ends statements, not at semicolons in function bodies', async () => {
    const script = `create or replace function "public"."f"() returns int language plpgsql as $$
begin
  perform 1;

  return 2;
end $$;

drop function if exists "public"."old_fn"();`
    const s = await classifyScript(script, facts)
    expect(s.map((x) => [x.kind, x.change, x.name])).toEqual([
      ['function', 'added', '"public"."f"'],
      ['function', 'dropped', '"public"."old_fn"']
    ])
    expect(s[0].sql).toContain('return 2;')
  })

  it('classifies table, column, index and constraint changes and flags the destructive ones', async () => {
    const s = await classifyScript(
      [
        'create table "public"."t" ("id" integer not null)',
        'create unique index t_pkey on public.t using btree (id)',
        'alter table "public"."t" add constraint "t_pkey" primary key using index "t_pkey"',
        'drop table "public"."gone"',
        'alter table "public"."items" drop column "name"',
        'alter table "public"."items" alter column "code" set data type character varying(4) using "code"::character varying(4)',
        'alter table "public"."items" alter column "n" set data type numeric(12,2)',
        'alter table "public"."items" drop constraint "items_check"',
        'alter table "public"."items" drop constraint "items_fk"',
        'alter table "public"."items" add constraint "items_fk" foreign key (id) references t(id) not valid',
        'alter table "public"."items" validate constraint "items_fk"'
      ].join(';\n'),
      facts
    )
    expect(summarise(s)).toBe('1 table added, 1 table dropped, 2 columns changed, 1 column dropped, 1 constraint changed, 1 constraint dropped')
    expect(s.filter((x) => x.destructive).map((x) => x.destructive)).toEqual([
      'drops a table and its rows',
      'drops a column and its values',
      'changes the type from character varying(10) to character varying(4), which may rewrite the table or narrow values',
      'drops a constraint that data may rely on'
    ])
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

  it('renders statements as diff lines: + adds, - drops, ~ changes', async () => {
    const s = await classifyScript('alter table "public"."t" add column "a" int;\ndrop index if exists "public"."i";\nalter table "public"."t" alter column "b" drop not null', facts)
    expect(renderStatements(s)).toBe('+ alter table "public"."t" add column "a" int\n- drop index if exists "public"."i"\n~ alter table "public"."t" alter column "b" drop not null')
  })
})

describe('renderReport with a schema diff', () => {
  const base = { mode: 'instant' as const, state: 'created' as const, databaseId: 'db-1' }

  it('fences the diff with more backticks than it holds', () => {
    const md = renderReport({ ...base, schema: { summary: '1 function added', diff: '+ $$ ``` $$', source: 'migra', destructive: [] } })
    expect(md).toContain('````diff\n+ $$ ``` $$\n````')
  })

  it('cuts the diff at a line end to fit the limit, and says where the rest is', () => {
    const diff = Array.from({ length: 5000 }, (_, i) => `+ create table "public"."t${i}" ("id" integer)`).join('\n')
    const md = renderReport({ ...base, schema: { summary: '5000 tables added', diff, source: 'migra', destructive: [] } }, Date.now(), COMMENT_LIMIT)
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md).toContain('The diff is cut here (5000 lines in all)')
    expect(md).toMatch(/\+ create table "public"\."t\d+" \("id" integer\)\n```\n/)
    expect(renderReport({ ...base, schema: { summary: '', diff, source: 'migra', destructive: [] } })).toContain(diff)
  })
})

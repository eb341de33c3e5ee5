/**
 * Statement kinds as PostgreSQL's grammar (libpg-query) gives them, for the
 * statements whose kind decides what the loader does.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { asciiSafeEncoding, classify, loadGrammar } from '../../src/seed/grammar.js'

beforeAll(() => loadGrammar())

/** classify() as the scanner calls it: the first keyword, lower-cased. */
const kindOf = (sql: string) => classify(sql, /[A-Za-z]+/.exec(sql)![0].toLowerCase())

describe('classify', () => {
  it.each([
    ['CREATE DATABASE d', 'database'],
    ['drop database if exists d', 'database'],
    ['ALTER DATABASE d SET search_path = x', 'database'],
    ['ALTER DATABASE d OWNER TO x', 'database'],
    ['ALTER DATABASE d RENAME TO e', 'database'],
    ['BEGIN', 'begin'],
    ['begin isolation level serializable', 'begin'],
    ['START TRANSACTION READ ONLY', 'begin'],
    ['COMMIT', 'commit'],
    ['END', 'commit'],
    ['COMMIT AND CHAIN', 'commit'],
    ['ROLLBACK', 'transaction'],
    ['ABORT', 'transaction'],
    ['SAVEPOINT s', 'transaction'],
    ['RELEASE SAVEPOINT s', 'transaction'],
    ['ROLLBACK TO SAVEPOINT s', 'transaction'],
    ["PREPARE TRANSACTION 'x'", 'transaction'],
    ["COMMIT PREPARED 'x'", 'transaction'],
    ['CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS i ON t (a)', 'no-transaction'],
    ['DROP INDEX CONCURRENTLY i', 'no-transaction'],
    ['REINDEX TABLE CONCURRENTLY t', 'no-transaction'],
    ['REINDEX DATABASE d', 'no-transaction'],
    ['VACUUM (ANALYZE) t', 'no-transaction'],
    ['ALTER SYSTEM SET work_mem = 1', 'no-transaction'],
    ['CLUSTER', 'no-transaction'],
    ["CREATE TABLESPACE s LOCATION '/x'", 'no-transaction'],
    ['ANALYZE t', 'other'],
    ['CLUSTER t USING i', 'other'],
    ['CREATE INDEX i ON t (a)', 'other'],
    ['REINDEX TABLE t', 'other'],
    ['CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END', 'other'],
    ['INSERT INTO t VALUES (1)', 'other'],
    ['CREATE TABLE t (a int) PARTITION BY RANGE (a) WITH (fillfactor = 1) USING heap2 EXTRA SYNTAX', 'other']
  ])('%s is %s', (sql, kind) => {
    expect(kindOf(sql).kind).toBe(kind)
  })

  it('names the roles of OWNER TO, GRANT, REVOKE, GRANT role and ALTER DEFAULT PRIVILEGES, as the server spells them', () => {
    expect(kindOf('ALTER TABLE ONLY public.t OWNER TO Postgres').roles).toEqual(['postgres'])
    expect(kindOf('ALTER FUNCTION f(int) OWNER TO "Mixed Case"').roles).toEqual(['Mixed Case'])
    expect(kindOf('ALTER SCHEMA s OWNER TO CURRENT_USER').roles).toEqual([])
    expect(kindOf('GRANT SELECT, UPDATE (a) ON t TO a, PUBLIC, "B" WITH GRANT OPTION').roles).toEqual(['a', 'B'])
    expect(kindOf('REVOKE ALL ON SCHEMA public FROM PUBLIC').roles).toEqual([])
    expect(kindOf('REVOKE ALL ON t FROM b CASCADE').roles).toEqual(['b'])
    expect(kindOf('GRANT admin TO app').roles).toEqual(['admin', 'app'])
    expect(kindOf('ALTER DEFAULT PRIVILEGES FOR ROLE app IN SCHEMA s GRANT SELECT ON TABLES TO rep').roles).toEqual(['app', 'rep'])
    expect(kindOf('ALTER DEFAULT PRIVILEGES IN SCHEMA s REVOKE ALL ON TABLES FROM PUBLIC').roles).toEqual([])
    expect(kindOf('CREATE POLICY p ON t TO api USING (true)').roles).toEqual([])
    expect(kindOf('CREATE ROLE "Reader" NOLOGIN').createdRole).toBe('Reader')
  })

  it('finds COMMENT ON EXTENSION, and settings that change how text is read', () => {
    expect(kindOf("COMMENT ON EXTENSION plpgsql IS 'PL/pgSQL'").extensionComment).toBe('plpgsql')
    expect(kindOf("COMMENT ON TABLE plpgsql IS 'x'").extensionComment).toBeUndefined()
    expect(kindOf('SET standard_conforming_strings = off')).toMatchObject({ standardConformingStrings: false, changesLexing: true })
    expect(kindOf("SET standard_conforming_strings TO 'on'")).toMatchObject({ standardConformingStrings: true })
    expect(kindOf('RESET standard_conforming_strings')).toMatchObject({ standardConformingStrings: true })
    expect(kindOf('RESET ALL')).toMatchObject({ standardConformingStrings: true, changesLexing: true })
    expect(kindOf("SET NAMES 'LATIN1'")).toMatchObject({ clientEncoding: 'LATIN1', changesLexing: true })
    expect(kindOf("SET client_encoding = 'SJIS'")).toMatchObject({ clientEncoding: 'SJIS' })
    expect(kindOf("SELECT set_config('client_encoding', 'LATIN1', false)")).toMatchObject({ changesLexing: true })
    expect(kindOf('CREATE TABLE names (id int)').changesLexing).toBe(false)
  })
})

describe('asciiSafeEncoding', () => {
  it('refuses only client encodings whose bytes below 0x80 can be part of a character', () => {
    for (const e of ['UTF8', 'utf-8', 'LATIN1', 'WIN1252', 'EUC_JP', 'SQL_ASCII', 'KOI8R'])
      expect([e, asciiSafeEncoding(e)]).toEqual([e, true])
    for (const e of ['SJIS', 'Shift_JIS', 'BIG5', 'GBK', 'UHC', 'GB18030', 'JOHAB', 'WIN932'])
      expect([e, asciiSafeEncoding(e)]).toEqual([e, false])
  })
})

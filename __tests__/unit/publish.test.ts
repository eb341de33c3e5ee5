import { describe, expect, it } from '@jest/globals'
import { chmodSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { writeEnvFile } from '../../src/publish/env-file.js'
import { commentBody, markerOf, recordOf, withMarker } from '../../src/comment/comment.js'
import { relativeExpiry, renderReport, utc } from '../../src/publish/report.js'
import { locate } from '../../src/seed/loader.js'

describe('relativeExpiry and utc', () => {
  const now = Date.parse('2026-11-22T10:00:00Z')
  it('counts whole hours, then minutes, then says expired', () => {
    expect(relativeExpiry('2026-11-25T10:00:00Z', now)).toBe('in 72 hours')
    expect(relativeExpiry('2026-11-22T11:30:00Z', now)).toBe('in 1 hour')
    expect(relativeExpiry('2026-11-22T10:20:00Z', now)).toBe('in 20 minutes')
    expect(relativeExpiry('2026-11-22T09:00:00Z', now)).toBe('expired')
  })
  it('formats an absolute UTC time', () => {
    expect(utc('2026-11-25T10:17:42.123Z')).toBe('2026-11-25 10:17 UTC')
  })
})

describe('comment marker', () => {
  const record = { mode: 'instant' as const, databaseId: '0190-abc', expiresAt: '2026-11-25T10:00:00.000Z' }
  const heading = '### 🐘 Preview Postgres: Instant Postgres database created for this pull request'

  it('round-trips a record in the action’s whole shape and ignores foreign text', () => {
    expect(recordOf(commentBody(heading, record))).toEqual(record)
    expect(recordOf(commentBody(renderReport({ mode: 'instant', state: 'created' }), record))).toEqual(record)
    expect(recordOf(`${commentBody(heading, record)}\n`)).toEqual(record)
    expect(recordOf(commentBody(heading, record).replace(/\n/g, '\r\n'))).toEqual(record) // as GitHub stores a web edit
    expect(recordOf(`${heading}\n\n<!-- preview-postgres:v1 {not json} -->`)).toBeNull()
    expect(recordOf('no marker')).toBeNull()
  })

  it('reads the marker only as the last line of a body that starts with the heading', () => {
    const marker = markerOf(record)
    expect(recordOf(`hello\n\n${marker}`)).toBeNull() // not our heading
    expect(recordOf(`> ${heading}\n>\n> ${marker}`)).toBeNull() // a quote
    expect(recordOf(`${heading}\n\n${marker}\nmore`)).toBeNull() // not the last line
    expect(recordOf(`${heading}\n${marker}`)).toBeNull() // no blank line before it
    expect(recordOf(`${heading}\n\nsee ${marker}`)).toBeNull() // not the whole line
    expect(recordOf(`${heading}\n\n${marker} ${marker}`)).toBeNull()
    // A marker in the text (a report's field) never shadows the last line's.
    const fake = markerOf({ mode: 'instant', databaseId: 'fake' })
    expect(recordOf(`${heading}\n\n**${fake}**\n\n${marker}`)).toEqual(record)
  })

  it('reads only the known fields, of their types', () => {
    const m = (json: string): string => `${heading}\n\n<!-- preview-postgres:v1 ${json} -->`
    expect(recordOf(m('{"mode":"instant","databaseId":"a","extra":{"x":1}}'))).toEqual({ mode: 'instant', databaseId: 'a' })
    expect(recordOf(m('{"mode":"instant","databaseId":5}'))).toBeNull()
    expect(recordOf(m('{"mode":"instant","reaction":"7"}'))).toBeNull()
    expect(recordOf(m('{"mode":"other"}'))).toBeNull()
    expect(recordOf(m('["mode","instant"]'))).toBeNull()
    expect(recordOf(m('{"databaseId":"a"}'))).toBeNull()
  })

  it('writes no value that can end the HTML comment, and round-trips it', () => {
    const evil = { mode: 'branch' as const, branchName: 'a --> <img src=x> <!-- b' }
    const marker = markerOf(evil)
    expect(marker.slice(4, -3)).not.toMatch(/[<>]/)
    expect(recordOf(commentBody(heading, evil))).toEqual(evil)
  })

  it('withMarker replaces the last line only', () => {
    const body = commentBody(heading, { ...record, run: 'r1', reaction: 3 })
    expect(withMarker(body, record)).toBe(commentBody(heading, record))
  })
})

describe('renderReport', () => {
  it('shows the claim URL, expiry, id, region and version, and says it was reused', () => {
    const md = renderReport(
      {
        mode: 'instant',
        state: 'reused',
        databaseId: 'db-1',
        claimUrl: 'https://neon.new/claim/db-1',
        expiresAt: '2026-11-25T10:00:00.000Z',
        region: 'us-east-2',
        pgVersion: 17
      },
      Date.parse('2026-11-22T10:00:00Z')
    )
    expect(md).toContain('https://neon.new/claim/db-1')
    expect(md).toContain('2026-11-25 10:00 UTC (in 72 hours)')
    expect(md).toContain('| Region | us-east-2 |')
    expect(md).toContain('| Postgres | 17 |')
    expect(md).toContain('reused')
  })
})

describe('writeEnvFile', () => {
  it('replaces earlier values instead of appending, and keeps other lines', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'envfile-'))
    const file = path.join(dir, '.env')
    writeFileSync(file, 'APP_NAME=shop\nDATABASE_URL=postgresql://old\n')
    const values = {
      databaseUrl: 'postgresql://u:p@a-pooler/db',
      databaseUrlDirect: 'postgresql://u:p@a/db',
      claimUrl: 'https://x/claim/1',
      expiresAt: '2026-11-25T10:00:00.000Z'
    }
    await writeEnvFile(file, values)
    await writeEnvFile(file, { ...values, databaseUrl: 'postgresql://u:p@b-pooler/db' })
    const text = readFileSync(file, 'utf8')
    expect(text.match(/^DATABASE_URL=/gm)).toHaveLength(1)
    expect(text.match(/^DATABASE_URL_DIRECT=/gm)).toHaveLength(1)
    expect(text.match(/^PUBLIC_POSTGRES_CLAIM_URL=/gm)).toHaveLength(1)
    expect(text.match(/expires at/g)).toHaveLength(1)
    expect(text).toContain('APP_NAME=shop')
    expect(text).toContain('DATABASE_URL="postgresql://u:p@b-pooler/db"')
    expect(text).toContain('# Claimable Postgres database expires at: Wed, 25 Nov 2026 10:00:00 GMT')
  })
})

describe('writeEnvFile permissions', () => {
  it('leaves an existing 0644 file as a new 0600 file (a new inode: no secret ever went into the readable one), and no temporary file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'envfile-'))
    const file = path.join(dir, '.env')
    writeFileSync(file, 'APP_NAME=shop\nDATABASE_URL=postgresql://old\n')
    chmodSync(file, 0o644)
    const before = statSync(file).ino
    await writeEnvFile(file, { databaseUrl: 'postgresql://u:p@a-pooler/db', databaseUrlDirect: 'postgresql://u:p@a/db' })
    const after = statSync(file)
    expect(after.mode & 0o777).toBe(0o600)
    expect(after.ino).not.toBe(before)
    expect(readFileSync(file, 'utf8')).toMatch(/^APP_NAME=shop$/m)
    expect(readFileSync(file, 'utf8')).not.toContain('postgresql://old')
    expect(readdirSync(dir)).toEqual(['.env'])
  })

  it('creates a new file 0600 whatever the umask allows', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'envfile-'))
    const old = process.umask(0o000)
    try {
      await writeEnvFile(path.join(dir, 'sub', '.env'), { databaseUrl: 'postgresql://x', databaseUrlDirect: 'postgresql://y' })
    } finally {
      process.umask(old)
    }
    expect(statSync(path.join(dir, 'sub', '.env')).mode & 0o777).toBe(0o600)
  })
})

describe('locate', () => {
  it('maps a 1-based character position to line and column, from where the text starts in its file', () => {
    const sql = 'SELECT 1;\nSELECT\n  nope;'
    expect(locate(sql, 1)).toEqual({ line: 1, column: 1 })
    expect(locate(sql, sql.indexOf('nope') + 1)).toEqual({ line: 3, column: 3 })
    expect(locate(' SELECT x;', 2, 7, 10)).toEqual({ line: 7, column: 11 })
    expect(locate('\n  SELECT x;', 4, 7, 10)).toEqual({ line: 8, column: 3 })
  })
})

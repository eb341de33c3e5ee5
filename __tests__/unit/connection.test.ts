import { describe, expect, it } from '@jest/globals'
import { describeConnection, directClientConfig, directUrlOf, secretsOf } from '../../src/connection.js'

const pooled =
  'postgresql://neondb_owner:npg_a%40b%2Fc%25d@ep-cool-river-a1b2-pooler.us-east-2.aws.neon.tech/neondb?channel_binding=require&sslmode=require'

describe('directUrlOf', () => {
  it('removes -pooler from the first host label and keeps every other byte', () => {
    expect(directUrlOf(pooled)).toBe(
      'postgresql://neondb_owner:npg_a%40b%2Fc%25d@ep-cool-river-a1b2.us-east-2.aws.neon.tech/neondb?channel_binding=require&sslmode=require'
    )
  })

  it('keeps a port and leaves -pooler elsewhere in the host alone', () => {
    expect(directUrlOf('postgres://u:p@ep-x-pooler.pooler-zone-pooler.localhost:5433/db')).toBe(
      'postgres://u:p@ep-x.pooler-zone-pooler.localhost:5433/db'
    )
  })

  it('does not touch a password that contains -pooler or an encoded @', () => {
    expect(directUrlOf('postgresql://u:x-pooler%40y@ep-a-pooler.h/db')).toBe('postgresql://u:x-pooler%40y@ep-a.h/db')
  })

  it('returns a URL without a pooler host unchanged', () => {
    expect(directUrlOf('postgresql://u:p@ep-a.h/db?sslmode=require')).toBe('postgresql://u:p@ep-a.h/db?sslmode=require')
  })
})

describe('describeConnection', () => {
  it('splits a pooled URL into decoded parts', () => {
    const c = describeConnection(pooled)
    expect(c).toMatchObject({
      pooledHost: 'ep-cool-river-a1b2-pooler.us-east-2.aws.neon.tech',
      directHost: 'ep-cool-river-a1b2.us-east-2.aws.neon.tech',
      database: 'neondb',
      user: 'neondb_owner',
      password: 'npg_a@b/c%d',
      sslmode: 'require',
      channelBinding: true,
      port: ''
    })
  })

  it('lists every printable form of the secrets, without empty strings', () => {
    const secrets = secretsOf(describeConnection(pooled))
    expect(secrets).toEqual(expect.arrayContaining([pooled, directUrlOf(pooled), 'npg_a@b/c%d', 'npg_a%40b%2Fc%25d']))
    expect(secrets).not.toContain('')
  })

  it('refuses a URL without a database, without quoting it', () => {
    expect(() => describeConnection('postgresql://u:secret@h/')).toThrow(/lacks a host, a user or a database/)
    expect(() => describeConnection('postgresql://u:secret@h/')).not.toThrow(/secret/)
  })

  it('builds a verify-full pg config for the direct host', () => {
    const config = directClientConfig(describeConnection(pooled), 'test')
    expect(config).toMatchObject({
      host: 'ep-cool-river-a1b2.us-east-2.aws.neon.tech',
      port: 5432,
      password: 'npg_a@b/c%d',
      ssl: { servername: 'ep-cool-river-a1b2.us-east-2.aws.neon.tech' },
      enableChannelBinding: true
    })
  })
})

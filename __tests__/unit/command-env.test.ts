import { describe, expect, it } from '@jest/globals'
import { commandEnvironment, runStepEnvironment } from '../../src/seed/command-env.js'
import { describeConnection } from '../../src/connection.js'

const pooled = 'postgresql://owner:p%40ss@ep-x-1-pooler.us-east-2.aws.neon.tech/neondb?channel_binding=require&sslmode=require'
const direct = 'postgresql://owner:p%40ss@ep-x-1.us-east-2.aws.neon.tech/neondb?channel_binding=require&sslmode=require'

describe('commandEnvironment', () => {
  it('gives migration tools the direct URL as DATABASE_URL and DIRECT_URL, and the pooled one by name', () => {
    expect(commandEnvironment(describeConnection(pooled))).toEqual({
      DATABASE_URL: direct,
      DIRECT_URL: direct,
      DATABASE_URL_DIRECT: direct,
      DATABASE_URL_POOLED: pooled,
      PGHOST: 'ep-x-1.us-east-2.aws.neon.tech',
      PGPORT: '5432',
      PGUSER: 'owner',
      PGPASSWORD: 'p@ss',
      PGDATABASE: 'neondb',
      PGSSLMODE: 'require',
      PGCHANNELBINDING: 'require'
    })
  })

  it('keeps a port and leaves out PGCHANNELBINDING when the URL does not ask for it', () => {
    const env = commandEnvironment(describeConnection('postgres://u:p@ep-y-pooler.localhost:6543/db?sslmode=verify-full'))
    expect(env).toMatchObject({
      PGHOST: 'ep-y.localhost',
      PGPORT: '6543',
      PGSSLMODE: 'verify-full',
      DATABASE_URL: 'postgres://u:p@ep-y.localhost:6543/db?sslmode=verify-full'
    })
    expect(env).not.toHaveProperty('PGCHANNELBINDING')
  })
})

describe('runStepEnvironment', () => {
  it("drops the action's inputs, state, output and state files and the Actions runtime's variables, in any case", () => {
    const env = runStepEnvironment({
      PATH: '/usr/bin',
      'INPUT_API-KEY': 'k',
      input_seed: 's',
      STATE_lock: 'x',
      GITHUB_OUTPUT: '/o',
      GITHUB_STATE: '/s',
      GITHUB_ENV: '/e',
      ACTIONS_RUNTIME_TOKEN: 't',
      actions_cache_url: 'u',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'oidc',
      UNSET: undefined
    })
    expect(env).toEqual({ PATH: '/usr/bin', GITHUB_ENV: '/e', ACTIONS_ID_TOKEN_REQUEST_URL: 'oidc' })
  })
})

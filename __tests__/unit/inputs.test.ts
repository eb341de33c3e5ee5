import { afterEach, describe, expect, it } from '@jest/globals'
import { readSettings } from '../../src/inputs.js'
import { InputError } from '../../src/settings.js'

const set = (inputs: Record<string, string>): void => {
  for (const [k, v] of Object.entries(inputs)) process.env[`INPUT_${k.toUpperCase()}`] = v
}

afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith('INPUT_')) delete process.env[k]
})

describe('readSettings', () => {
  it('applies the documented defaults', () => {
    const s = readSettings()
    expect(s).toMatchObject({
      mode: 'instant',
      command: 'create',
      referrer: 'preview-postgres-action',
      logicalReplication: false,
      instantUrl: 'https://neon.new',
      apiUrl: 'https://console.neon.tech/api/v2',
      reuse: true,
      comment: true,
      pollIntervalSeconds: 5,
      waitTimeoutSeconds: 600,
      seed: []
    })
  })

  it('resolves mode auto to branch when project-id is set', () => {
    set({ 'project-id': 'proj-1', 'api-key': 'k' })
    expect(readSettings().mode).toBe('branch')
  })

  it('splits seed lines, dropping blanks and comments', () => {
    set({ seed: 'db/schema.sql\n\n# later\ndb/data/*.sql\n' })
    expect(readSettings().seed).toEqual(['db/schema.sql', 'db/data/*.sql'])
  })

  it.each([
    [{ mode: 'preview' }, /`mode` must be one of auto, instant, branch; got "preview"/],
    [{ command: 'destroy' }, /`command` must be one of create, delete, cleanup, reset/],
    [{ reuse: 'yes' }, /`reuse` must be true or false; got "yes"/],
    [{ comment: '1' }, /`comment` must be true or false/],
    [{ 'logical-replication': 'on' }, /`logical-replication` must be true or false/],
    [{ 'poll-interval': 'fast' }, /`poll-interval` must be a number of seconds/],
    [{ 'wait-timeout': '-5' }, /`wait-timeout` must be a number of seconds, at least 1; got "-5"/],
    [{ 'instant-url': 'neon.new' }, /`instant-url` must be an http\(s\) URL; got "neon.new"/],
    [{ 'api-url': 'ftp://example.com' }, /`api-url` must be an http\(s\) URL/],
    [{ 'project-id': 'p', 'api-key': 'k', 'branch-name': 'bad\tname' }, /`branch-name` must be 1 to 256 printable characters/],
    [{ 'project-id': 'p', 'api-key': 'k', 'branch-name': 'x'.repeat(257) }, /`branch-name` must be 1 to 256/],
    [{ 'branch-name': 'preview/x' }, /Inputs `api-key` and `project-id` are required in branch mode .* from forks, or for Dependabot/],
    [{ 'project-id': 'p', 'api-key': 'k', 'branch-id': 'br-1' }, /`branch-id` applies to `command: delete` and `command: reset`/],
    [{ 'project-id': 'p', 'api-key': 'k', 'preview-name': 'a/b' }, /`preview-name` must be 1 to 40 letters/],
    [{ mode: 'branch' }, /`project-id` is required when `mode` is branch/],
    [{ 'project-id': 'p' }, /`api-key` is required in branch mode/]
  ])('rejects %j', (inputs, message) => {
    set(inputs)
    expect(() => readSettings()).toThrow(InputError)
    expect(() => readSettings()).toThrow(message)
  })
})

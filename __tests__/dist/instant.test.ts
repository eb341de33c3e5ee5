/**
 * Instant mode through the bundled action (dist/index.js run as the runner
 * runs it) against the emulator and a real PostgreSQL 17: every test on
 * Node 24 (action.yml's runtime), and the create, reuse, failed seed, hung
 * request and network error on the machine's Node too (helpers.ts, on24Only).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN, APP_TOKEN, READ_ONLY_TOKEN, type Emulator } from '../../emulator/index.js'
import { RUNTIMES, type RunOptions, type RunResult } from '../../emulator/runner/runner.js'
import { freePort } from '../../emulator/postgres/postgres.js'
import { recordOf } from '../../src/comment/comment.js'
import { REPO, instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { emulatorSecrets, leaks, on24Only, publicText } from '../helpers.js'

let emu: Emulator
let work: string

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator(
    'instant-test-',
    {
      '01_schema.sql': 'CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL);\n',
      '02_data.sql': "INSERT INTO items VALUES (1, 'one'), (2, 'two; not a split');\n",
      '03_bad.sql': "INSERT INTO items VALUES (3, 'three');\n\nSELECT *\n  FROM no_such_table;\n"
    },
    { passwords: 'special' }
  ))
})

afterAll(async () => {
  await emu?.stop()
})

const newPr = pullRequests(() => emu, 100)

describe.each(RUNTIMES)('instant mode on $name', ({ node }) => {
  const it24 = on24Only(node)
  const run = (inputs: Record<string, string>, extra: Partial<RunOptions> = {}): Promise<RunResult> =>
    runAction(emu, work, { ...instantInputs(emu), 'github-token': APP_TOKEN, ...inputs }, { node, ...extra })

  const databaseOf = (r: RunResult) => emu.instant.databases.get(r.outputs['database-id'])!
  const itemCount = async (r: RunResult): Promise<number> =>
    Number((await emu.pg.query(databaseOf(r).database, 'SELECT count(*) AS n FROM items'))[0].n)
  const expectNoLeak = (r: RunResult, envFile?: string): void =>
    expect(leaks(publicText(emu, r, envFile), emulatorSecrets(emu))).toEqual([])

  it('creates, seeds, masks, outputs, comments, summarises and writes the env file', async () => {
    const pr = newPr()
    const envFile = path.join(work, `pr${pr}.env`)
    const r = await run({ seed: '01_schema.sql\n02_*.sql', 'env-file': envFile }, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const db = databaseOf(r)
    expect(db.ref).toBe('preview-postgres-action')
    expect(db.enable_logical_replication).toBe(false)
    // outputs: taken from the service, not computed
    const pooled = db.connection_string!
    expect(r.outputs).toMatchObject({
      'database-url': pooled,
      'database-url-direct': pooled.replace('-pooler.', '.'),
      'database-name': db.database,
      'database-user': db.role,
      'database-password': db.password,
      'claim-url': db.claim_url,
      'expires-at': db.expires_at,
      'project-id': db.project_id,
      created: 'true',
      mode: 'instant',
      'branch-id': '',
      'branch-name': ''
    })
    expect(r.outputs['database-host']).toMatch(/^ep-.*-pooler\.us-east-2\.localhost$/)
    expect(r.outputs['database-host-direct']).toBe(r.outputs['database-host'].replace('-pooler', ''))
    // masks: both URLs, the password, its URL-encoded form
    expect(r.masks).toEqual(expect.arrayContaining([pooled, r.outputs['database-url-direct'], db.password, encodeURIComponent(db.password)]))
    const firstMask = r.stdout.indexOf('::add-mask::')
    expect(r.stdout.indexOf('::group::Seed')).toBeGreaterThan(firstMask)
    // seeded, in order, over the direct connection
    expect(await itemCount(r)).toBe(2)
    // comment and summary
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].user.login).toBe('github-actions[bot]')
    for (const text of [comments[0].body, r.summary]) {
      expect(text).toContain(db.claim_url)
      expect(text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 7[12] hours\)/)
      expect(text).toContain(db.id)
      expect(text).toContain('us-east-2')
      expect(text).toContain('| Postgres | 17 |')
      expect(text).toContain('created')
    }
    // env file as the service's CLI writes it
    const env = readFileSync(envFile, 'utf8')
    expect(env).toContain(`DATABASE_URL="${pooled.replace(/([$`"\\])/g, '\\$1')}"`)
    expect(env).toContain('PUBLIC_POSTGRES_CLAIM_URL="')
    expect(env).toMatch(/^# Claimable Postgres database expires at: \w{3}, \d\d \w{3} \d{4}/m)
    expectNoLeak(r, envFile)
  })

  it('reuses the database on a re-run: created=false, not seeded again, the one comment updated', async () => {
    const pr = newPr()
    const first = await run({ seed: '01_schema.sql\n02_data.sql' }, { pr: { number: pr } })
    expect(first.code).toBe(0)
    const databasesBefore = emu.instant.databases.size
    const second = await run({ seed: '01_schema.sql\n02_data.sql' }, { pr: { number: pr } })
    expect(second.errors).toEqual([])
    expect(second.code).toBe(0)
    expect(second.outputs['database-id']).toBe(first.outputs['database-id'])
    expect(second.outputs['database-url']).toBe(first.outputs['database-url'])
    expect(second.outputs.created).toBe('false')
    expect(emu.instant.databases.size).toBe(databasesBefore)
    expect(await itemCount(second)).toBe(2)
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toContain('reused')
    expect(emu.github.server.requests('PATCH').length).toBeGreaterThan(0)
    expect(second.masks).toContain(databaseOf(second).password)
    expectNoLeak(second)
  })

  it24.each([
    ['neon_project_id (the live service)', 'live'],
    ['svc_project_id (the API document)', 'seed']
  ] as const)('takes the project id as %s', async (_what, names) => {
    emu.instant.fieldNames = names
    try {
      const r = await run({}, { pr: { number: newPr() } })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs['project-id']).toBe(databaseOf(r).project_id)
      expect(emu.instant.server.log.at(-1)?.responseText ?? '').toContain(names === 'live' ? '"neon_project_id"' : '"svc_project_id"')
    } finally {
      emu.instant.fieldNames = 'live'
    }
  })

  it24.each([
    ['claimed', (id: string) => emu.instant.claim(id), /was claimed into an account/],
    ['being claimed', (id: string) => emu.instant.startClaim(id), /was claimed into an account \(status CLAIMING\)/],
    ['expired', (id: string) => emu.instant.expire(id), /expired/],
    ['gone', (id: string) => emu.instant.forget(id), /no longer exists/]
  ])('replaces a database that was %s, and says why', async (_what, change, why) => {
    const pr = newPr()
    const first = await run({ seed: '01_schema.sql' }, { pr: { number: pr } })
    change(first.outputs['database-id'])
    const second = await run({ seed: '01_schema.sql' }, { pr: { number: pr } })
    expect(second.code).toBe(0)
    expect(second.outputs.created).toBe('true')
    expect(second.outputs['database-id']).not.toBe(first.outputs['database-id'])
    expect(second.stdout).toMatch(why)
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toMatch(why)
    expect(comments[0].body).toContain(second.outputs['database-id'])
    expectNoLeak(second)
  })

  it24('ignores marker comments by other users and finds ours past the first page', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    const ours = emu.github.comments(REPO, pr)[0]
    // a reviewer quotes our comment, marker and all, and 150 more comments follow
    emu.github.addComment(REPO, pr, 'mallory', ours.body.replace(first.outputs['database-id'], '01900000-0000-7000-8000-000000000000'))
    for (let i = 0; i < 150; i++) emu.github.addComment(REPO, pr, 'reviewer', `comment ${i}`)
    const second = await run({}, { pr: { number: pr } })
    expect(second.code).toBe(0)
    expect(second.outputs['database-id']).toBe(first.outputs['database-id'])
    expect(second.outputs.created).toBe('false')
    expect(emu.github.comments(REPO, pr).filter((c) => c.user.login === 'github-actions[bot]')).toHaveLength(1)
  })

  it24('with a GitHub App installation token (GET /user refused), finds its own comment and takes the lock on every run', async () => {
    const pr = newPr()
    const comments = /\/issues\/\d+\/comments\/?$/
    const postsBefore = emu.github.server.requests('POST', comments).length
    const first = await run({ 'github-token': APP_INSTALLATION_TOKEN }, { pr: { number: pr } })
    const second = await run({ 'github-token': APP_INSTALLATION_TOKEN }, { pr: { number: pr } })
    expect([first.code, second.code]).toEqual([0, 0])
    expect(second.outputs['database-id']).toBe(first.outputs['database-id'])
    expect(second.outputs.created).toBe('false')
    const left = emu.github.comments(REPO, pr)
    expect(left.map((c) => c.user.login)).toEqual([APP_BOT_LOGIN])
    expect(recordOf(left[0].body)).toEqual({
      mode: 'instant',
      databaseId: first.outputs['database-id'],
      expiresAt: expect.any(String),
      fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/)
    })
    // only the first run created a comment; the second took the lock with a reaction, and left none behind
    expect(emu.github.server.requests('POST', comments).length - postsBefore).toBe(1)
    expect(emu.github.commentReactions(left[0].id)).toEqual([])
    expect(second.stdout).toMatch(/This run holds the PR's comment lock \(comment \d+\)\. The comment records what an earlier run left\./)
  })

  it('rolls a failed seed back, names file:line:column, and never records the database for reuse', async () => {
    const pr = newPr()
    const failed = await run({ seed: '01_schema.sql\n02_data.sql\n03_bad.sql' }, { pr: { number: pr } })
    expect(failed.code).toBe(1)
    expect(failed.errors.join('\n')).toMatch(/Seed failed at 03_bad\.sql:4:8: relation "no_such_table" does not exist/)
    expect(failed.errors.join('\n')).toContain('rolled back')
    expect(failed.outputs['database-url']).toBeUndefined()
    const created = [...emu.instant.databases.values()].at(-1)!
    const tables = await emu.pg.query(created.database, "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'")
    expect(Number(tables[0].n)).toBe(0)
    const comment = emu.github.comments(REPO, pr)[0]
    expect(comment.body).toContain('seeding failed')
    expect(recordOf(comment.body)).toEqual({ mode: 'instant' })
    expectNoLeak(failed)
    // the next run starts clean: a new database, seeded
    const next = await run({ seed: '01_schema.sql\n02_data.sql' }, { pr: { number: pr } })
    expect(next.code).toBe(0)
    expect(next.outputs.created).toBe('true')
    expect(next.outputs['database-id']).not.toBe(created.id)
    expect(await itemCount(next)).toBe(2)
  })

  it24('fails on a missing seed file before creating anything', async () => {
    const before = emu.instant.server.requests('POST').length
    const r = await run({ seed: '01_schema.sql\nmissing/*.sql' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Input `seed`: "missing\/\*\.sql" matches no file/)
    expect(emu.instant.server.requests('POST').length).toBe(before)
  })

  it24('warns and carries on when the token cannot write the comment (403)', async () => {
    const pr = newPr()
    const r = await run({ 'github-token': READ_ONLY_TOKEN }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    expect(r.warnings.join('\n')).toMatch(/HTTP 403.*pull-requests: write/)
    expect(r.outputs['database-url']).toMatch(/^postgresql:\/\//)
    expect(emu.github.comments(REPO, pr)).toHaveLength(0)
    expectNoLeak(r)
  })

  it24('skips the comment with a notice outside a pull request', async () => {
    const before = emu.github.server.log.length
    const r = await run({}, { eventName: 'push' })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/::notice::No pull request in this event/)
    expect(r.outputs.created).toBe('true')
    expect(emu.github.server.log.length).toBe(before)
    expect(r.summary).toContain(r.outputs['database-id'])
  })

  it24('command: delete updates the comment to say the PR closed and when the database lapses', async () => {
    const pr = newPr()
    const created = await run({}, { pr: { number: pr } })
    const r = await run({ command: 'delete' }, { pr: { number: pr } })
    expect(r.code).toBe(0)
    const comments = emu.github.comments(REPO, pr)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toContain('kept after the pull request closed')
    expect(comments[0].body).toContain(created.outputs['database-id'])
    expect(comments[0].body).toMatch(/unless claimed/)
  })

  it24('quotes the service on 400 Missing referrer with its hint', async () => {
    emu.instant.server.inject({ method: 'POST', kind: 'status', status: 400, body: { error: 'Missing referrer', hint: 'Pass a ref.' } })
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Create database \(instant service\) failed with HTTP 400: "Missing referrer" \(hint: Pass a ref\.\)/)
  })

  it24('quotes the service on 500 and does not retry the create', async () => {
    const before = emu.instant.server.requests('POST').length
    emu.instant.server.inject({ method: 'POST', kind: 'status', status: 500, body: { error: 'Failed to create the database.' } })
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/HTTP 500: "Failed to create the database\."/)
    expect(emu.instant.server.requests('POST').length).toBe(before + 1)
  })

  it24('reports Database not found from the service when the reuse lookup is refused', async () => {
    const pr = newPr()
    const first = await run({}, { pr: { number: pr } })
    emu.instant.server.inject({ method: 'GET', path: /^\/api\/v1\/database\//, kind: 'status', status: 400, body: { error: 'Database not found' } })
    const second = await run({}, { pr: { number: pr } })
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(`the earlier database ${first.outputs['database-id']} no longer exists`)
  })

  it('times out a hung create with a message naming the request', async () => {
    const before = emu.instant.server.requests('POST').length
    emu.instant.server.inject({ method: 'POST', kind: 'hang' })
    const r = await run({ 'request-timeout': '1' }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Create database \(instant service\) timed out after 1 s \(POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/database\)/)
    expect(r.durationMs).toBeLessThan(30_000)
    expect(emu.instant.server.requests('POST').length).toBe(before + 1)
  })

  it24.each([
    ['malformed JSON', { kind: 'malformed' as const }, /body that is not JSON/],
    ['a missing field', { kind: 'status' as const, status: 201, body: { id: '0190' } }, /no valid `status`/],
    ['a bad connection string', {
      kind: 'status' as const, status: 201,
      body: { id: 'x', status: 'UNCLAIMED', svc_project_id: 'p', connection_string: 42, claim_url: 'c', expires_at: '2026-01-01T00:00:00Z', created_at: 'a', updated_at: 'b' }
    }, /`connection_string` is neither null nor a postgresql:\/\/ URL/]
  ])('rejects a create response with %s', async (_what, fault, message) => {
    emu.instant.server.inject({ method: 'POST', ...fault })
    const r = await run({}, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(message)
  })

  it('names the service on a network error', async () => {
    const r = await run({ 'instant-url': `http://127.0.0.1:${await freePort()}` }, { pr: { number: newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Create database \(instant service\) failed: could not reach the service .*ECONNREFUSED/)
  })

  it24('sends logical-replication and the referrer as given', async () => {
    const r = await run({ 'logical-replication': 'true', referrer: 'acme-ci' }, { pr: { number: newPr() } })
    expect(r.code).toBe(0)
    expect(databaseOf(r)).toMatchObject({ enable_logical_replication: true, ref: 'acme-ci' })
  })
})

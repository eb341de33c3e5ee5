/**
 * The Neon user's inputs through the bundled action (Node 24, as action.yml)
 * against the Neon emulator, GitHub's and a real PostgreSQL 17: a fork PR's
 * empty secrets refused before any request, `branch-id` for delete and
 * reset, a point-in-time parent (`parent-lsn`, `parent-timestamp`), and
 * output `comment-url`.
 */
import { describe, expect, it } from '@jest/globals'
import { branchSuite } from '../fixtures/branch-suite.js'
import { instantInputs, mainBranch, runAction } from '../fixtures/preview.js'
import { APP_TOKEN } from '../../emulator/index.js'

const s = branchSuite({ prefix: 'neon-inputs-test-', firstPr: 3300, files: { 'seed.sql': 'INSERT INTO items VALUES (100);\n' }, projectPerTest: true })

/** Gives the project's default branch a table `items` with rows `ids`, owned by the project's role. */
async function itemsOnMain(ids: number[]): Promise<void> {
  const main = mainBranch(s.project)
  await s.emu.pg.query(main.database, 'CREATE TABLE IF NOT EXISTS items (id int PRIMARY KEY)')
  await s.emu.pg.query(main.database, `ALTER TABLE items OWNER TO "${s.project.role}"`)
  for (const id of ids) await s.emu.pg.query(main.database, 'INSERT INTO items VALUES ($1)', [id])
}
const itemsOf = async (branchId: string): Promise<number[]> =>
  (await s.emu.pg.query<{ id: number }>(s.project.branches.get(branchId)!.database, 'SELECT id FROM items ORDER BY id')).map((r) => r.id)
/** Every request any emulated service saw. */
const allRequests = (): number => s.emu.platform.server.log.length + s.emu.instant.server.log.length + s.emu.github.server.log.length
const clearLogs = (): void => {
  s.emu.platform.server.log.length = 0
  s.emu.instant.server.log.length = 0
  s.emu.github.server.log.length = 0
}

describe('a fork PR or Dependabot run with empty secrets fails safe, before any request', () => {
  it.each([
    ['api-key set, project-id empty', { 'project-id': '' }, /Input `project-id` is required in branch mode .* but is empty, while `api-key` is set/],
    ['project-id set, api-key empty', { 'api-key': '' }, /Input `api-key` is required in branch mode .* but is empty, while `project-id` is set/],
    ['both empty, branch-name set', { 'api-key': '', 'project-id': '', 'branch-name': 'preview/x' }, /Inputs `api-key` and `project-id` are required .* but are empty, while `branch-name` is set/],
    ['both empty, masking-rules set', { 'api-key': '', 'project-id': '', 'masking-rules': '- {schema: public, table: t, column: c, value: 1}' }, /are empty, while `masking-rules` is set/],
    ['both empty, schema-only: true', { 'api-key': '', 'project-id': '', 'schema-only': 'true' }, /are empty, while `schema-only` is set/],
    ['both empty, parent-timestamp set', { 'api-key': '', 'project-id': '', 'parent-timestamp': '2026-01-01T00:00:00Z' }, /are empty, while `parent-timestamp` is set/]
  ])('%s', async (_what, inputs, message) => {
    clearLogs()
    const r = await s.run({ 'instant-url': s.emu.instant.url, ...inputs }, { pr: { number: s.newPr() } })
    expect(r.code).toBe(1)
    const error = r.errors.join('\n')
    expect(error).toMatch(message)
    expect(error).toMatch(/pull requests? from forks.*Dependabot/)
    expect(error).toMatch(/instant/)
    expect(allRequests()).toBe(0)
    expect(r.outputs.mode ?? '').toBe('')
  })

  it('with no branch input at all, mode auto still means instant mode', async () => {
    const r = await runAction(s.emu, s.work, { ...instantInputs(s.emu), 'github-token': APP_TOKEN, 'schema-only': 'false' }, { pr: { number: s.newPr() } })
    expect(r.errors).toEqual([])
    expect(r.outputs.mode).toBe('instant')
  })
})

describe('branch-id: delete or reset a branch by its id', () => {
  it('command: delete with branch-id deletes that branch, whatever its name', async () => {
    const made = await s.run({ 'branch-name': 'feature/by-id' }, { pr: { number: s.newPr() } })
    expect(made.errors).toEqual([])
    const id = made.outputs['branch-id']
    const r = await s.run({ command: 'delete', 'branch-id': id }, { pr: { number: s.newPr() } })
    expect(r.errors).toEqual([])
    expect(s.project.branches.has(id)).toBe(false)
    expect(s.emu.platform.server.requests('DELETE', new RegExp(`/branches/${id}$`))).toHaveLength(1)
  })

  it('command: reset with branch-id restores that branch from its parent and seeds it again', async () => {
    await itemsOnMain([1, 2])
    const pr = s.newPr()
    const made = await s.run({ seed: 'seed.sql' }, { pr: { number: pr } })
    expect(made.errors).toEqual([])
    const id = made.outputs['branch-id']
    await s.emu.pg.query(s.project.branches.get(id)!.database, 'INSERT INTO items VALUES (7)')
    // another PR's run: only the id can find the branch
    const r = await s.run({ command: 'reset', 'branch-id': id, seed: 'seed.sql' }, { pr: { number: s.newPr() } })
    expect(r.errors).toEqual([])
    expect(r.outputs['branch-id']).toBe(id)
    expect(await itemsOf(id)).toEqual([1, 2, 100])
  })

  it.each(['delete', 'reset'])('command: %s refuses the default branch by id, and changes nothing', async (command) => {
    const main = mainBranch(s.project)
    clearLogs()
    const r = await s.run({ command, 'branch-id': main.id }, { pr: { number: s.newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(new RegExp(`Refusing to (delete|reset) branch "main" \\(${main.id}\\): it is the project's default branch`))
    expect(s.emu.platform.server.log.filter((q) => q.method !== 'GET')).toEqual([])
    expect(s.project.branches.has(main.id)).toBe(true)
  })

  it('is refused with command: create, before any request', async () => {
    clearLogs()
    const r = await s.run({ 'branch-id': 'br-some-id-123456' }, { pr: { number: s.newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/`branch-id` applies to `command: delete` and `command: reset`/)
    expect(allRequests()).toBe(0)
  })
})

describe('a point-in-time parent: parent-lsn and parent-timestamp', () => {
  it.each([
    ['parent-lsn', (m: { lsn: string; timestamp: string }) => ({ 'parent-lsn': m.lsn }), 'parent_lsn', 'at LSN'],
    ['parent-timestamp', (m: { lsn: string; timestamp: string }) => ({ 'parent-timestamp': m.timestamp }), 'parent_timestamp', 'as of']
  ])('%s: the branch has the parent as it was at that point; the comment and summary name it', async (_input, inputsOf, field, words) => {
    await itemsOnMain([1, 2])
    const mark = await s.emu.platform.history.mark(mainBranch(s.project), s.project.role)
    await itemsOnMain([3])
    const pr = s.newPr()
    const inputs = inputsOf(mark)
    const r = await s.run(inputs, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    const body = JSON.parse(s.emu.platform.server.requests('POST', /\/branches$/)[0].requestText)
    expect(body.branch[field]).toBe(Object.values(inputs)[0])
    expect(await itemsOf(r.outputs['branch-id'])).toEqual([1, 2])
    const point = `${words} ${Object.values(inputs)[0]}`
    expect(r.summary).toContain(point)
    expect(s.emu.github.comments('acme/shop', pr)[0].body).toContain(point)
  })

  it.each([
    ['both set', { 'parent-lsn': '0/1DE2850', 'parent-timestamp': '2026-01-01T00:00:00Z' }, /`parent-lsn` and `parent-timestamp` cannot be combined/],
    ['a malformed LSN', { 'parent-lsn': '1DE2850' }, /`parent-lsn` must be a PostgreSQL LSN/],
    ['a timestamp without a zone', { 'parent-timestamp': '2026-01-01T00:00:00' }, /`parent-timestamp` must be an RFC 3339 time/],
    ['a date that does not exist', { 'parent-timestamp': '2026-02-30T00:00:00Z' }, /`parent-timestamp` must be an RFC 3339 time/],
    ['in instant mode', { mode: 'instant', 'parent-lsn': '0/1DE2850' }, /`parent-lsn` appl(y|ies) to branch mode only/]
  ])('refused before any request: %s', async (_what, inputs, message) => {
    clearLogs()
    const r = await s.run({ 'instant-url': s.emu.instant.url, ...inputs }, { pr: { number: s.newPr() } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(message)
    expect(allRequests()).toBe(0)
  })
})

describe('output comment-url', () => {
  it("is the preview comment's html_url", async () => {
    const pr = s.newPr()
    const r = await s.run({}, { pr: { number: pr } })
    expect(r.errors).toEqual([])
    const [comment] = s.emu.github.comments('acme/shop', pr)
    expect(comment.html_url).toMatch(new RegExp(`/acme/shop/pull/${pr}#issuecomment-${comment.id}$`))
    expect(r.outputs['comment-url']).toBe(comment.html_url)
  })
})

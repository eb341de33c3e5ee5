/**
 * The trust boundary of `command: publish` and of the PR comment, through the
 * bundled action: a fork's `report-file` is data from an attacker (its claim
 * URL must be the instant service's for its database, its text renders
 * inert in the comment and the summary, it cannot write a workflow command
 * into the log, its times must be times, whatever it holds fits in one
 * comment), and the comment's marker is the action's alone (read only from
 * the last line of a comment of the token's identity in the action's whole
 * shape; a fork's read-only run trusts only the `comment-author`). The
 * seed's fingerprint survives publish, so `reseed: on-change` works for
 * fork PRs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { APP_BOT_LOGIN, APP_INSTALLATION_TOKEN, APP_TOKEN, READ_ONLY_TOKEN, type Emulator } from '../../emulator/index.js'
import type { RunOptions, RunResult } from '../../emulator/runner/runner.js'
import { recordOf } from '../../src/comment/comment.js'
import {
  REPO,
  branchInputs,
  freshProject,
  instantInputs,
  previewBranches,
  pullRequests,
  runAction,
  startTestEmulator
} from '../fixtures/preview.js'

let emu: Emulator, work: string

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('publish-trust-test-', { 'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n' }))
})
afterAll(() => emu?.stop())

const newPr = pullRequests(() => emu, 900)
const FORK = 'forker/shop'

/** The fork PR's own run: `pull_request` event with the fork's read-only token. */
const forkRun = (pr: number, inputs: Record<string, string> = {}): Promise<RunResult> =>
  runAction(
    emu,
    work,
    { ...instantInputs(emu), 'github-token': READ_ONLY_TOKEN, seed: 'schema.sql', ...inputs },
    { pr: { number: pr, fork: FORK }, githubToken: READ_ONLY_TOKEN }
  )

/** The `workflow_run` job: `command: publish` with a write token, for a triggering run of `prs`. */
const publishRun = (reportFile: string, prs: number[], extra: Partial<RunOptions> = {}, token = APP_TOKEN): Promise<RunResult> =>
  runAction(
    emu,
    work,
    { ...instantInputs(emu), 'github-token': token, command: 'publish', 'report-file': reportFile },
    { workflowRun: { prs, headRepository: FORK }, ...extra }
  )

/** A same-repository PR's run with the workflow's token (comments as `github-actions[bot]`). */
const ownRun = (pr: number): Promise<RunResult> =>
  runAction(emu, work, { ...instantInputs(emu), 'github-token': APP_TOKEN, seed: 'schema.sql' }, { pr: { number: pr } })

type Json = Record<string, unknown>

/** A copy of a report file with `change` applied, in the work folder. */
function altered(file: string, change: (file: Json & { report: Json & { schema: Json }; record: Json }) => void): string {
  const report = JSON.parse(readFileSync(file, 'utf8')) as Json & { report: Json & { schema: Json }; record: Json }
  change(report)
  const out = path.join(work, `altered-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(out, JSON.stringify(report))
  return out
}

const environment = (pr: number): string => `preview-postgres/pr-${pr}`

/** A fork run of a new PR and its report file. */
async function forkReport(): Promise<{ pr: number; run: RunResult; file: string }> {
  const pr = newPr()
  const run = await forkRun(pr)
  expect(run.code).toBe(0)
  return { pr, run, file: run.outputs['report-file'] }
}

/** Expects `run` refused with `message`, before any write: no comment, no deployment. */
function expectRefused(run: RunResult, pr: number, message: RegExp): void {
  expect(run.code).toBe(1)
  expect(run.errors.join('\n')).toMatch(message)
  expect(emu.github.comments(REPO, pr)).toHaveLength(0)
  expect(emu.deployments.of(REPO, environment(pr))).toHaveLength(0)
}

/** Text a fork could put in any field: every kind of live Markdown, a quoted marker, a workflow command on a line of its own. */
const HOSTILE =
  '[click](https://evil.example/a) ![img](https://evil.example/i.png) <img src=x onerror=alert(1)> @acme/admins @octocat ' +
  'https://evil.example/b www.evil.example mallory@evil.example #1 :rocket: `x` **bold** ' +
  '<!-- preview-postgres:v1 {"mode":"instant","databaseId":"fake"} -->\n> [!WARNING]\n# Heading\n::error::pwned'

describe('a fork’s report is data from an attacker', () => {
  it('keeps the claim URL only when it is exactly the instant service’s for the report’s database', async () => {
    const { pr, file, run } = await forkReport()
    const origin = new URL(emu.instant.url).origin
    const id = run.outputs['database-id']
    const { host, protocol } = new URL(origin)
    const tricks = [
      `${origin}/elsewhere`,
      `${origin}/claim/01900000-0000-7000-8000-000000000000`,
      `${origin}/claim/${id}?next=https://evil.example`,
      `${origin}/claim/${id}#https://evil.example`,
      `${origin}/claim/${id}/../../evil`,
      `${protocol}//user:pass@${host}/claim/${id}`,
      `${origin.toUpperCase()}/claim/${id}`,
      // origin tricks
      'https://evil.example/claim/' + id,
      `https://${host}.evil.example/claim/${id}`,
      `https://evil.example@${host}.evil.example/claim/${id}`,
      `${protocol === 'https:' ? 'http:' : 'https:'}//${host}/claim/${id}`,
      `javascript:alert(1)//${host}/claim/${id}`,
      `//evil.example/claim/${id}`,
      `${origin}:1/claim/${id}`
    ]
    for (const claimUrl of tricks) {
      const refused = await publishRun(
        altered(file, (r) => (r.report.claimUrl = claimUrl)),
        [pr]
      )
      expectRefused(refused, pr, /claim URL is not one of the instant service/)
    }
    // The claim URL as the service wrote it is kept.
    const ok = await publishRun(file, [pr])
    expect(ok.code).toBe(0)
    expect(emu.github.comments(REPO, pr)[0].body).toContain(`| Claim URL | ${run.outputs['claim-url']} (anyone`)
  })

  it('renders every text field inert in the comment and the summary: no link, image, mention, HTML, heading, alert or code span', async () => {
    const { pr, file } = await forkReport()
    const pub = await publishRun(
      altered(file, (r) => {
        r.report.region = HOSTILE.slice(0, 100)
        r.report.replacedBecause = HOSTILE
        r.report.schema = { ...r.report.schema, summary: HOSTILE, note: HOSTILE, destructive: [HOSTILE, `\`${HOSTILE}`] }
      }),
      [pr]
    )
    expect(pub.errors).toEqual([])
    expect(pub.code).toBe(0)
    const [comment] = emu.github.comments(REPO, pr)
    for (const text of [comment.body, pub.summary]) {
      expect(text).toContain('acme/admins') // the text is there…
      expect(text).not.toMatch(/\]\(https?:\/\/evil/) // …but no link or image
      expect(text).not.toMatch(/(?<!\\)<(img|!-- preview-postgres:v1 \{"mode":"instant","databaseId":"fake")/) // no HTML, no marker
      expect(text).not.toMatch(/@[A-Za-z0-9]/) // no mention, no email autolink
      expect(text).not.toMatch(/https?:\/\/evil|www\.evil/) // no bare-URL autolink
      expect(text).not.toMatch(/#\d/) // no issue reference
      expect(text).not.toMatch(/:rocket:/)
      expect(text).not.toMatch(/^(?:> )*#+ Heading/m) // no heading
      expect(text).not.toMatch(/^::/m) // nothing at a line's start
      expect(text.match(/^> \[!WARNING\]/gm)).toHaveLength(1) // the destructive changes' own alert, no other
      // Every backtick of the fork's text is escaped or replaced: no code span can close early.
      expect(text).not.toMatch(/(?<!\\)`x/)
    }
    expect(recordOf(comment.body)?.databaseId).toBe(JSON.parse(readFileSync(file, 'utf8')).report.databaseId)
  })

  it('a newline in a field never becomes a workflow command in the log', async () => {
    const { pr, file } = await forkReport()
    const pub = await publishRun(
      altered(file, (r) => {
        r.report.databaseId = `${String(r.report.databaseId)}\n::error::pwned`
        r.record.databaseId = r.report.databaseId
      }),
      [pr]
    )
    expect(pub.code).toBe(1)
    expect(pub.stdout).not.toMatch(/^\s*::(error|warning|notice)::pwned/m)
    expect(pub.errors.join('\n')).not.toContain('pwned')
    expectRefused(pub, pr, /database id is not one of the instant service/)
  })

  it('refuses an `expiresAt` that is not a time before any write, and sets a deployment `failure` when a later step fails', async () => {
    const { pr, file } = await forkReport()
    for (const expiresAt of ['not a date', '2026-13-45T99:99:99Z', 'Tue, 01 Dec 2026 00:00:00 GMT']) {
      const pub = await publishRun(
        altered(file, (r) => (r.report.expiresAt = expiresAt)),
        [pr]
      )
      expectRefused(pub, pr, /`expiresAt` is not an ISO 8601 UTC time/)
      const inRecord = await publishRun(
        altered(file, (r) => (r.record.expiresAt = expiresAt)),
        [pr]
      )
      expectRefused(inRecord, pr, /record's `expiresAt` is not an ISO 8601 UTC time/)
    }
    // The job summary cannot be written: the step fails after the deployment was created, which ends `failure`.
    const failing = await publishRun(file, [pr], { env: { GITHUB_STEP_SUMMARY: path.join(work, 'no-such-folder', 'summary.md') } })
    expect(failing.code).toBe(1)
    const [d] = emu.deployments.of(REPO, environment(pr))
    expect(emu.deployments.statusesOf(d.id).map((s) => s.state)).toEqual(['in_progress', 'failure'])
  })

  it('whatever the report holds, the comment fits GitHub’s body limit with its marker', async () => {
    const { pr, file, run } = await forkReport()
    const long = (n: number): string => '<@#.:`|'.repeat(Math.ceil(n / 7)).slice(0, n)
    const pub = await publishRun(
      altered(file, (r) => {
        r.report.region = long(100)
        r.report.replacedBecause = long(1000)
        r.report.schema = {
          ...r.report.schema,
          summary: long(1000),
          note: long(1000),
          diff: Array.from({ length: 4000 }, (_, i) => `+ line ${i} ${long(10)}`).join('\n').slice(0, 65_536),
          destructive: Array.from({ length: 100 }, () => long(1000))
        }
      }),
      [pr]
    )
    expect(pub.errors).toEqual([])
    expect(pub.warnings).toEqual([])
    expect(pub.code).toBe(0)
    const [comment] = emu.github.comments(REPO, pr)
    expect([...comment.body].length).toBeLessThanOrEqual(65_536)
    expect(comment.body).not.toMatch(/being provisioned/)
    expect(comment.body).toContain(run.outputs['claim-url'])
    expect(comment.body).toMatch(/and 70 more: the `schema-destructive` output lists them all/)
    expect(recordOf(comment.body)?.databaseId).toBe(run.outputs['database-id'])
  })

  it('refuses malformed reports cleanly: not JSON, deeply nested, wrong types', async () => {
    const { pr, file } = await forkReport()
    const write = (text: string): string => {
      const out = path.join(work, `raw-${Math.random().toString(36).slice(2)}.json`)
      writeFileSync(out, text)
      return out
    }
    expectRefused(await publishRun(write('{"format": '), [pr]), pr, /could not be read as JSON/)
    expectRefused(await publishRun(write(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), [pr]), pr, /is not a Preview Postgres report/)
    expectRefused(
      await publishRun(
        altered(file, (r) => (r.report.databaseId = 12)),
        [pr]
      ),
      pr,
      /database id is not one of the instant service/
    )
    expectRefused(
      await publishRun(
        altered(file, (r) => (r.record.databaseId = '01900000-0000-7000-8000-000000000000')),
        [pr]
      ),
      pr,
      /its record names another database than its report/
    )
    for (const run of [await publishRun(write('null'), [pr])]) {
      expect(run.code).toBe(1)
      expect(run.stdout + run.stderr).not.toMatch(/TypeError|\n\s+at /)
    }
  })

  it('publish refuses a triggering run whose head moved (no open PR has that head sha)', async () => {
    const { pr, file } = await forkReport()
    emu.pulls.setHead(REPO, pr, { ref: `fork-branch-${pr}`, sha: 'feedfacecafe', repository: FORK })
    const pub = await publishRun(file, [], {
      workflowRun: { prs: [], headBranch: `fork-branch-${pr}`, headSha: '0123456789ab', headRepository: FORK }
    })
    expectRefused(pub, pr, /belongs to no open pull request/)
  })
})

describe('the marker is the action’s alone', () => {
  it('a marker inside the report’s text does not shadow the real one: the next fork run reuses its database, publish keeps one comment', async () => {
    const other = await forkReport() // a database of another PR, which the quoted marker names
    const { pr, file, run } = await forkReport()
    const quoted = `<!-- preview-postgres:v1 {"mode":"instant","databaseId":"${other.run.outputs['database-id']}"} -->`
    const pub = await publishRun(
      altered(file, (r) => (r.report.schema = { ...r.report.schema, summary: quoted, destructive: [quoted] })),
      [pr]
    )
    expect(pub.code).toBe(0)
    const second = await forkRun(pr)
    expect(second.code).toBe(0)
    expect(second.outputs.created).toBe('false')
    expect(second.outputs['database-id']).toBe(run.outputs['database-id'])
    expect((await publishRun(second.outputs['report-file'], [pr])).code).toBe(0)
    expect(emu.github.comments(REPO, pr)).toHaveLength(1)
  })

  it('a fork run trusts only the comment author that publishes: not another App’s comment, even in the action’s shape', async () => {
    const other = await forkReport()
    expect((await publishRun(other.file, [other.pr])).code).toBe(0)
    const copy = emu.github.comments(REPO, other.pr)[0].body // the action's whole shape, naming the other PR's database
    const pr = newPr()
    emu.github.addComment(REPO, pr, 'other-app[bot]', copy)
    const run = await forkRun(pr)
    expect(run.code).toBe(0)
    expect(run.outputs.created).toBe('true')
    expect(run.outputs['database-id']).not.toBe(other.run.outputs['database-id'])
  })

  it('a fork run trusts the GitHub App that publishes when `comment-author` names it', async () => {
    const { pr, file, run } = await forkReport()
    const pub = await publishRun(file, [pr], {}, APP_INSTALLATION_TOKEN)
    expect(pub.code).toBe(0)
    expect(emu.github.comments(REPO, pr)[0].user.login).toBe(APP_BOT_LOGIN)
    const byDefault = await forkRun(pr)
    expect(byDefault.outputs.created).toBe('true') // github-actions[bot] publishes by default: the App's comment is not trusted
    const named = await forkRun(pr, { 'comment-author': APP_BOT_LOGIN })
    expect(named.code).toBe(0)
    expect(named.outputs.created).toBe('false')
    expect(named.outputs['database-id']).toBe(run.outputs['database-id'])
  })

  it('another workflow’s comment as github-actions[bot] that quotes a marker is neither overwritten nor reused', async () => {
    const donor = newPr()
    const first = await ownRun(donor)
    expect(first.code).toBe(0)
    const ours = emu.github.comments(REPO, donor)[0].body
    const marker = ours.trimEnd().split('\n').at(-1)!
    const pr = newPr()
    const bodies = [
      `Deploy report of another workflow.\n\n${marker}`,
      `Quoting the preview:\n\n${ours
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n')}`,
      `${ours.split('\n')[0]}\n\nA comment that copies the heading, with the marker inside.\n${marker}\nand more text`
    ]
    const others = bodies.map((body) => emu.github.addComment(REPO, pr, 'github-actions[bot]', body))
    const run = await ownRun(pr)
    expect(run.code).toBe(0)
    expect(run.outputs.created).toBe('true')
    expect(run.outputs['database-id']).not.toBe(first.outputs['database-id'])
    const comments = emu.github.comments(REPO, pr)
    expect(comments.slice(0, 3).map((c) => c.body)).toEqual(bodies)
    expect(others.map((c) => c.id)).toEqual(comments.slice(0, 3).map((c) => c.id))
    expect(comments).toHaveLength(4)
    expect(recordOf(comments[3].body)?.databaseId).toBe(run.outputs['database-id'])
    // The PR's delete, in another job, finds its own comment, and only it.
    const closed = await runAction(
      emu,
      work,
      { ...instantInputs(emu), 'github-token': APP_TOKEN, command: 'delete' },
      { pr: { number: pr } }
    )
    expect(closed.code).toBe(0)
    expect(emu.github.comments(REPO, pr).slice(0, 3).map((c) => c.body)).toEqual(bodies)
    expect(emu.github.comments(REPO, pr)[3].body).toMatch(/closed|lapses/i)
  })
})

describe('the record survives publish', () => {
  it('records the seed’s fingerprint, so `reseed: on-change` rebuilds a fork PR’s database when its seed changes', async () => {
    const pr = newPr()
    const seed = `seed-${pr}.sql`
    writeFileSync(path.join(work, seed), 'CREATE TABLE a (id int);\n')
    const first = await forkRun(pr, { seed })
    expect(first.code).toBe(0)
    const fingerprint = (JSON.parse(readFileSync(first.outputs['report-file'], 'utf8')) as { record: { fingerprint?: string } }).record
      .fingerprint
    expect(fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect((await publishRun(first.outputs['report-file'], [pr])).code).toBe(0)
    expect(recordOf(emu.github.comments(REPO, pr)[0].body)?.fingerprint).toBe(fingerprint)
    const same = await forkRun(pr, { seed })
    expect(same.outputs.created).toBe('false')
    expect(same.outputs.reseeded).toBe('false')
    writeFileSync(path.join(work, seed), 'CREATE TABLE b (id int);\n')
    const changed = await forkRun(pr, { seed })
    expect(changed.code).toBe(0)
    expect(changed.outputs.reseeded).toBe('true')
  })
})

describe('branch mode never trusts the comment’s record to pick a branch', () => {
  it('a record of ours edited to name another PR’s branch: the run finds its own branch by name, and the other is untouched', async () => {
    const project = await freshProject(emu, { createBranchMs: 50, startComputeMs: 50, deleteMs: 50 })
    const run = (pr: number): Promise<RunResult> =>
      runAction(emu, work, { ...branchInputs(emu, project), 'github-token': APP_TOKEN, seed: 'schema.sql' }, { pr: { number: pr } })
    const victim = newPr()
    const theirs = await run(victim)
    expect(theirs.code).toBe(0)
    const pr = newPr()
    const mine = await run(pr)
    expect(mine.code).toBe(0)
    const [comment] = emu.github.comments(REPO, pr)
    comment.body = comment.body
      .replaceAll(mine.outputs['branch-id'], theirs.outputs['branch-id'])
      .replaceAll(mine.outputs['branch-name'], theirs.outputs['branch-name'])
    expect(recordOf(comment.body)?.branchId).toBe(theirs.outputs['branch-id'])
    const again = await run(pr)
    expect(again.code).toBe(0)
    expect(again.outputs['branch-id']).toBe(mine.outputs['branch-id'])
    expect(again.outputs['branch-name']).toBe(mine.outputs['branch-name'])
    const closed = await runAction(
      emu,
      work,
      { ...branchInputs(emu, project), 'github-token': APP_TOKEN, command: 'delete' },
      { pr: { number: pr } }
    )
    expect(closed.code).toBe(0)
    expect(previewBranches(project).map((b) => b.id)).toEqual([theirs.outputs['branch-id']])
  })
})

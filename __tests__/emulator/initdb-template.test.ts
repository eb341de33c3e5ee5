/**
 * emulator/postgres/initdb-template.ts: with PREVIEW_PG_TEMPLATE_DIR set (as jest's
 * globalSetup sets it), clusters started at once run initdb once between
 * them and each gets its own copy, which starts, answers with the template's
 * password and is independent of the others; without it, each cluster runs
 * initdb with its own password.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { TEMPLATE_ENV } from '../../emulator/postgres/initdb-template.js'
import { ADMIN_USER, PostgresServer } from '../../emulator/postgres/postgres.js'

const saved = process.env[TEMPLATE_ENV]
let base: string
beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'initdb-template-test-'))
  chmodSync(base, 0o755)
})
afterAll(() => {
  if (saved === undefined) delete process.env[TEMPLATE_ENV]
  else process.env[TEMPLATE_ENV] = saved
  rmSync(base, { recursive: true, force: true })
})

it('three clusters started at once: one initdb, three independent copies with the template password', async () => {
  process.env[TEMPLATE_ENV] = base
  const servers = await Promise.all([1, 2, 3].map(() => PostgresServer.start({ hostPattern: 'db.localhost' })))
  try {
    const made = readdirSync(base)
    expect(made).toHaveLength(1)
    expect(made[0]).toMatch(/^initdb-[0-9a-f]{16}$/)
    const template = path.join(base, made[0])
    const password = readFileSync(path.join(template, 'password'), 'utf8')
    expect(servers.map((s) => s.adminPassword)).toEqual([password, password, password])
    // The template itself is never started; each copy is a data folder of its own.
    expect(existsSync(path.join(template, 'data', 'PG_VERSION'))).toBe(true)
    expect(existsSync(path.join(template, 'data', 'postmaster.pid'))).toBe(false)
    expect(new Set(servers.map((s) => s.dataDir)).size).toBe(3)
    await servers[0].createDatabase('only_in_the_first', ADMIN_USER)
    expect(await servers[0].databases()).toContain('only_in_the_first')
    expect(await servers[1].databases()).not.toContain('only_in_the_first')
    for (const s of servers) expect((await s.query<{ one: number }>('postgres', 'SELECT 1 AS one'))[0].one).toBe(1)
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
})

it('without the variable each cluster runs initdb with a password of its own', async () => {
  delete process.env[TEMPLATE_ENV]
  const [a, b] = await Promise.all([1, 2].map(() => PostgresServer.start({ hostPattern: 'db.localhost' })))
  try {
    expect(a.adminPassword).not.toBe(b.adminPassword)
    expect(readdirSync(base)).toHaveLength(1)
    expect((await b.query<{ one: number }>('postgres', 'SELECT 1 AS one'))[0].one).toBe(1)
  } finally {
    await Promise.all([a.stop(), b.stop()])
  }
})

it('a template folder that cannot be used (here: missing) falls back to initdb of its own', async () => {
  process.env[TEMPLATE_ENV] = path.join(base, 'missing', 'folder')
  const server = await PostgresServer.start({ hostPattern: 'db.localhost' })
  try {
    expect(existsSync(path.join(base, 'missing'))).toBe(false)
    expect((await server.query<{ one: number }>('postgres', 'SELECT 1 AS one'))[0].one).toBe(1)
  } finally {
    await server.stop()
  }
})

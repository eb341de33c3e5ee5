/**
 * The emulator's PostgreSQL start-up: as root, with the programs
 * inside a folder only root can enter (a clone in `mktemp -d`, `/root`), it
 * still starts; any failure to start is one line naming the cause and the
 * fix, from the real entry points (`npm start`, `npm run emulator`), never
 * an unhandled 'error' event.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { PostgresStartError } from '../../emulator/child.js'
import { BINARIES_PACKAGE, placeCopy } from '../../emulator/postgres/pg-binaries.js'
import { PostgresCluster } from '../../emulator/postgres/pg-cluster.js'
import { PostgresServer } from '../../emulator/postgres/postgres.js'
import { ROOT } from '../../emulator/runner/runner.js'

const asRoot = process.getuid?.() === 0
const ONE_LINE = /^PostgreSQL did not start: [^\n]+\. Fix: [^\n]+\.$/
const packageNative = path.resolve(path.dirname(createRequire(import.meta.url).resolve(BINARIES_PACKAGE)), '..', 'native')

let work: string
beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'pg-start-test-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A folder for copies that the user `postgres` can enter (mkdtemp makes 0700). */
function openFolder(name: string): string {
  const dir = path.join(work, name)
  mkdirSync(dir)
  chmodSync(dir, 0o755)
  chmodSync(work, 0o755)
  return dir
}

// PostgreSQL refuses root, so only as root does it run as another user who may not reach the programs.
const rootOnly = asRoot ? describe : describe.skip
if (!asRoot)
  console.log('postgres-start.test.ts: the 0700-folder start-up tests need root (they run PostgreSQL as the user "postgres"); skipped.')

rootOnly('as root, with the programs inside a 0700 folder', () => {
  let privateDir: string
  let privateNative: string
  beforeAll(() => {
    privateDir = mkdtempSync(path.join(os.tmpdir(), 'pg-start-private-'))
    expect(lstatSync(privateDir).mode & 0o777).toBe(0o700)
    privateNative = path.join(privateDir, 'clone', 'node_modules', 'native')
    cpSync(packageNative, privateNative, { recursive: true, verbatimSymlinks: true })
  })
  afterAll(() => rmSync(privateDir, { recursive: true, force: true }))

  it('starts PostgreSQL 17 from a 0755 copy made once, with the data folder owned by "postgres"', async () => {
    const base = openFolder('copies')
    const key = `test-${process.pid}`
    const first = await PostgresServer.start({
      hostPattern: '*.test.localhost',
      binaries: { nativeDir: privateNative, key, tmpBases: [base] }
    })
    try {
      expect(first.binaries).toMatchObject({
        copied: true,
        bin: path.join(base, `preview-pg-native-${key}`, 'bin'),
        runAs: { name: 'postgres' }
      })
      expect(lstatSync(path.dirname(first.binaries.bin)).mode & 0o777).toBe(0o755)
      expect(first.dataDir.startsWith(base + path.sep)).toBe(true)
      expect(lstatSync(first.dataDir).uid).toBe(first.binaries.runAs!.uid)
      const [{ server_version_num }] = await first.query('postgres', 'SHOW server_version_num')
      expect(Math.floor(Number(server_version_num) / 10000)).toBe(17)
      // Over TLS as a database's own login role, as the action connects.
      await first.createRole('app_owner', 'pw_app')
      await first.createDatabase('app', 'app_owner')
    } finally {
      await first.stop()
    }
    expect(existsSync(first.dataDir)).toBe(false)
    const madeAt = lstatSync(path.dirname(first.binaries.bin)).mtimeMs
    const second = await PostgresServer.start({
      hostPattern: '*.test.localhost',
      binaries: { nativeDir: privateNative, key, tmpBases: [base] }
    })
    try {
      expect(second.binaries.bin).toBe(first.binaries.bin)
      expect(lstatSync(path.dirname(second.binaries.bin)).mtimeMs).toBe(madeAt)
    } finally {
      await second.stop()
    }
  })

  it('makes one copy when several start at once, and leaves no temporary copy behind', async () => {
    const base = openFolder('concurrent')
    const targets = await Promise.all([1, 2, 3].map(() => placeCopy(privateNative, base, 'race')))
    expect(new Set(targets)).toEqual(new Set([path.join(base, 'preview-pg-native-race')]))
    expect(readdirSync(base)).toEqual(['preview-pg-native-race'])
    expect(existsSync(path.join(base, 'preview-pg-native-race', 'bin', 'postgres'))).toBe(true)
  })

  it('refuses a copy folder that others can change, in one line', async () => {
    const base = openFolder('planted')
    const planted = path.join(base, 'preview-pg-native-planted')
    mkdirSync(planted)
    chmodSync(planted, 0o777)
    const err = await placeCopy(privateNative, base, 'planted').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(PostgresStartError)
    expect((err as Error).message).toMatch(ONE_LINE)
    expect((err as Error).message).toContain(`remove ${planted}`)
  })
})

/** Runs an entry point with PREVIEW_PG_NATIVE_DIR set; returns its exit status and stderr without npm's own notices. */
function entryPoint(script: string, nativeDir: string): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [script], {
    cwd: ROOT,
    env: { ...process.env, PREVIEW_PG_NATIVE_DIR: nativeDir, NODE_OPTIONS: '' },
    encoding: 'utf8',
    timeout: 60_000
  })
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr
      .split('\n')
      .filter((l) => l && !l.startsWith('npm warn'))
      .join('\n')
  }
}

/** A `native/` folder whose programs are shell scripts: `-V` answers, anything else runs `body`. */
function fakeNative(name: string, body: { initdb: string; postgres?: string }, mode = 0o755): string {
  const dir = path.join(work, name)
  mkdirSync(path.join(dir, 'bin'), { recursive: true })
  for (const [program, script] of Object.entries({ postgres: 'exit 0', ...body })) {
    const file = path.join(dir, 'bin', program)
    writeFileSync(file, `#!/bin/sh\n[ "$1" = -V ] && { echo "${program} (PostgreSQL) 17.0"; exit 0; }\n${script}\n`)
    chmodSync(file, mode)
  }
  chmodSync(work, 0o755)
  return dir
}

describe('a start-up failure is one line naming the cause and the fix', () => {
  it('npm start: initdb failing (a full disk) gives its reason and exit 1', () => {
    const native = fakeNative('initdb-fails', {
      initdb: 'echo "initdb: error: could not create directory: No space left on device" >&2; exit 1'
    })
    const r = entryPoint('emulator/demo.ts', native)
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(ONE_LINE)
    expect(r.stderr).toContain('initdb failed')
    expect(r.stderr).toContain('No space left on device')
    expect(r.stderr).not.toMatch(/Unhandled 'error' event|\n\s+at /)
  })

  it('npm start: programs that cannot be executed (EACCES) give one line, not an unhandled error event', () => {
    const native = fakeNative('not-executable', { initdb: 'exit 0' }, 0o644)
    const r = entryPoint('emulator/demo.ts', native)
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(ONE_LINE)
    expect(r.stderr).toContain('EACCES')
    expect(r.stderr).not.toMatch(/Unhandled 'error' event/)
  })

  it('npm run emulator: postgres exiting at start gives its FATAL line', () => {
    const native = fakeNative('postgres-exits', {
      initdb: 'for a in "$@"; do case "$a" in --pgdata=*) mkdir -p "${a#--pgdata=}";; esac; done; exit 0',
      postgres: 'echo "FATAL:  could not create lock file: Permission denied" >&2; exit 1'
    })
    const r = entryPoint('emulator/serve.ts', native)
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(ONE_LINE)
    expect(r.stderr).toContain('postgres exited (exit 1: FATAL: could not create lock file: Permission denied)')
    expect(r.stdout).not.toContain('PREVIEW_PG_INSTANT_URL=')
  })
})

describe('a process that starts PostgreSQL and is ended by SIGTERM', () => {
  it('takes its server down with it (fast shutdown), instead of leaving it orphaned', async () => {
    const script = path.join(work, 'hold.mts')
    writeFileSync(
      script,
      `import { PostgresServer } from ${JSON.stringify(path.join(ROOT, 'emulator', 'postgres', 'postgres.ts'))}\n` +
        "const s = await PostgresServer.start({ hostPattern: '*.test.localhost' })\n" +
        'console.log(`READY ${process.pid}`)\nsetInterval(() => undefined, 1000)\n'
    )
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    for (let i = 0; i < 600 && !out.includes('READY'); i++) await new Promise((r) => setTimeout(r, 100))
    expect(out).toContain('READY')
    const postgres = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
    expect(postgres.length).toBeGreaterThan(0)
    const [, signal] = await Promise.all([Promise.resolve(child.kill('SIGTERM')), once(child, 'exit').then(([, s]) => s)])
    expect(signal).toBe('SIGTERM')
    // Running: /proc has it and it is not a zombie (an orphan's exit status nobody has collected yet).
    const alive = (pid: number): boolean => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
      } catch {
        return false
      }
    }
    for (let i = 0; i < 100 && postgres.some(alive); i++) await new Promise((r) => setTimeout(r, 100))
    expect(postgres.filter(alive)).toEqual([])
  })
})

describe('a port taken between its choice and the server listening on it (test files start side by side)', () => {
  it('PostgresServer.start tries another port, and the server runs on it', async () => {
    const held: net.Server[] = []
    const hold = (port: number): Promise<void> =>
      new Promise((resolve) => {
        const s = net.createServer()
        held.push(s)
        s.listen(port, '127.0.0.1', () => resolve())
      })
    // Every port freePort() hands out is taken again as soon as it is released, the first time only.
    const close = net.Server.prototype.close
    const spy = jest.spyOn(net.Server.prototype, 'close').mockImplementation(function (this: net.Server, done?: (err?: Error) => void) {
      const port = (this.address() as net.AddressInfo | null)?.port
      return close.call(this, (err?: Error) => {
        if (held.length === 0 && port) void hold(port).then(() => done?.(err))
        else done?.(err)
      })
    })
    let server: PostgresServer | undefined
    try {
      server = await PostgresServer.start({ hostPattern: '*.us-east-2.localhost' })
    } finally {
      spy.mockRestore()
    }
    try {
      const taken = (held[0].address() as net.AddressInfo).port
      expect(server.port).not.toBe(taken)
      expect((await server.query<{ one: number }>('postgres', 'SELECT 1 AS one'))[0].one).toBe(1)
    } finally {
      await server.stop()
      held.forEach((s) => s.close())
    }
  })

  it('says which port, when it is taken', async () => {
    const s = net.createServer()
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()))
    const port = (s.address() as net.AddressInfo).port
    const cluster = await PostgresCluster.initialise({
      port,
      user: 'x',
      password: 'p',
      authMethod: 'scram-sha-256',
      initdbFlags: ['--no-sync'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => undefined
    })
    try {
      const err = await cluster.start().then(
        () => null,
        (e: unknown) => e
      )
      expect(err).toBeInstanceOf(PostgresStartError)
      expect((err as Error).message).toMatch(ONE_LINE)
      expect((err as Error).message).toContain(`could not listen on port ${port}: Address already in use`)
      expect((err as Error).message).toContain(`Fix: free port ${port} or run again`)
    } finally {
      await cluster.stop()
      s.close()
    }
  })
})

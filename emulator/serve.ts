/**
 * `npm run emulator`: starts the local emulator (instant service, platform
 * API with one project, GitHub's comment API, a real PostgreSQL 17) and keeps
 * it running until SIGINT or SIGTERM, so the action can be run against it by
 * hand or by a workflow (`uses: ./` in .github/workflows/ci.yml).
 *
 * Once ready it prints `NAME=value` lines and, when GITHUB_ENV is set, appends
 * them there for the job's later steps:
 * - PREVIEW_PG_INSTANT_URL, PREVIEW_PG_API_URL, PREVIEW_PG_API_KEY,
 *   PREVIEW_PG_PROJECT_ID: inputs for instant and branch mode;
 * - PREVIEW_PG_GITHUB_API_URL, PREVIEW_PG_GITHUB_TOKEN: the emulated GitHub
 *   (a workflow cannot point the action at it: the runner does not let
 *   GITHUB_API_URL be overridden);
 * - NODE_EXTRA_CA_CERTS: the CA that signed PostgreSQL's certificate;
 * - PREVIEW_PG_NODE_OPTIONS: `--import=<loopback DNS shim>`, which resolves
 *   the `*.localhost` endpoint hosts to 127.0.0.1. The runner refuses
 *   NODE_OPTIONS from GITHUB_ENV, so a step sets it in its own `env:`.
 *
 * Options: `--ready-file PATH` is written (with this process's pid, for a
 * SIGTERM at the end) once everything above is
 * printed, for a background start to wait on. The API key and token are the
 * emulator's own and worth nothing elsewhere.
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { exitOnStartError } from './child.js'
import { APP_TOKEN, startEmulator } from './index.js'
import { ROOT } from './runner/runner.js'

/** The variables `npm run emulator` prints and exports, in order. */
export const EMULATOR_VARIABLES = [
  'PREVIEW_PG_INSTANT_URL',
  'PREVIEW_PG_API_URL',
  'PREVIEW_PG_API_KEY',
  'PREVIEW_PG_PROJECT_ID',
  'PREVIEW_PG_GITHUB_API_URL',
  'PREVIEW_PG_GITHUB_TOKEN',
  'NODE_EXTRA_CA_CERTS',
  'PREVIEW_PG_NODE_OPTIONS'
] as const

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

/** Starts the emulator and a platform project, prints and exports the variables, and stops on SIGINT/SIGTERM. */
async function serve(): Promise<void> {
  const emu = await startEmulator().catch(exitOnStartError)
  let stopping = false
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return
    stopping = true
    console.log(`Emulator: ${signal}, stopping.`)
    await emu.stop()
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))

  const project = await emu.platform.createProject()
  const values: Record<(typeof EMULATOR_VARIABLES)[number], string> = {
    PREVIEW_PG_INSTANT_URL: emu.instant.url,
    PREVIEW_PG_API_URL: emu.platform.url,
    PREVIEW_PG_API_KEY: project.apiKey,
    PREVIEW_PG_PROJECT_ID: project.id,
    PREVIEW_PG_GITHUB_API_URL: emu.github.url,
    PREVIEW_PG_GITHUB_TOKEN: APP_TOKEN,
    NODE_EXTRA_CA_CERTS: emu.caCertFile,
    PREVIEW_PG_NODE_OPTIONS: `--import=${path.join(ROOT, 'emulator', 'loopback-dns.mjs')}`
  }
  const lines = EMULATOR_VARIABLES.map((name) => `${name}=${values[name]}`)
  console.log(lines.join('\n'))
  if (process.env.GITHUB_ENV) appendFileSync(process.env.GITHUB_ENV, lines.join('\n') + '\n')
  const ready = arg('--ready-file')
  if (ready) writeFileSync(ready, `${process.pid}\n`)
  console.log('Emulator: ready. Stop it with Ctrl-C (SIGINT) or SIGTERM.')
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await serve()

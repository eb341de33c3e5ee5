/**
 * The run's phase trace: where the wall time of one run went, phase by phase,
 * with the round trips each phase spent. The run is one timeline: {@link mark}
 * ends the current phase and starts the next, so the phases add up to the
 * run's wall time from the process's start (`performance.timeOrigin`). A
 * phase entered more than once (the schema diff's two snapshots) adds up.
 * Work that overlaps the timeline (the seed's check pass, which runs while
 * the comment lock is taken) is recorded with {@link overlapped} and shown
 * beside it, not in the sum.
 *
 * Round trips: every HTTP request the process makes (undici's fetch, proxy-fetch.ts; its
 * `undici:request:create` diagnostics channel) counts one; PostgreSQL round
 * trips are counted on each session by {@link countRoundTrips}. Imports
 * nothing of the action's: any module may add an entry.
 */
import diagnostics from 'node:diagnostics_channel'
import { performance } from 'node:perf_hooks'

/** One phase of the trace. */
export interface PhaseTiming {
  /** "provisioning", "seed", … */
  phase: string
  /** Wall time spent in the phase, milliseconds. */
  ms: number
  /** PostgreSQL round trips (a message sent, then the server's answer awaited). */
  pgRoundTrips: number
  /** HTTP requests (Neon API, instant service, GitHub). */
  httpRequests: number
  /** Ran beside the timeline (not part of its sum). */
  overlapped?: boolean
}

const entries = new Map<string, PhaseTiming>()
let current = 'process start'
let since = 0 // performance.now() is milliseconds since the process's start

function entry(phase: string): PhaseTiming {
  let e = entries.get(phase)
  if (!e) entries.set(phase, (e = { phase, ms: 0, pgRoundTrips: 0, httpRequests: 0 }))
  return e
}

/**
 * Ends the current phase and starts `phase` (milliseconds from
 * `performance.now()`).
 * @returns a function that goes back to the phase that was current before (for a phase nested in another, like connect)
 */
export function mark(phase: string): () => void {
  const previous = current
  const now = performance.now()
  entry(current).ms += now - since
  current = phase
  since = now
  entry(phase)
  return () => {
    if (current === phase) mark(previous)
  }
}

/** Records work that ran beside the timeline (`ms` milliseconds of wall time). */
export function overlapped(phase: string, ms: number): void {
  const e = entry(phase)
  e.overlapped = true
  e.ms += ms
}

/** Counts one PostgreSQL round trip in the current phase. */
export function pgRoundTrip(): void {
  entry(current).pgRoundTrips++
}

diagnostics.channel('undici:request:create').subscribe(() => entry(current).httpRequests++)

/** The node-postgres wire connection's parts the counter uses. */
interface PgWire {
  /** 'direct': TLS starts at once, without the SSLRequest (node-postgres' sslnegotiation). */
  sslNegotiation?: string
  _send(buffer: unknown): unknown
  requestSsl(): void
  startup(config: unknown): void
  on(event: string, f: () => void): unknown
}

/**
 * Counts the round trips of a node-postgres client, before it connects: one
 * for each answer the server sends after the client has sent something
 * since the last answer (PostgreSQL protocol: the client writes, then reads
 * the reply). The SSLRequest and the TLS 1.3 handshake after it count two;
 * direct TLS (no SSLRequest) one.
 * A client without the expected internals is not counted.
 */
export function countRoundTrips(client: unknown): void {
  const wire = (client as { connection?: PgWire }).connection
  if (!wire || typeof wire._send !== 'function' || typeof wire.requestSsl !== 'function' || typeof wire.startup !== 'function') return
  let sent = false
  const send = wire._send.bind(wire)
  wire._send = (buffer) => {
    sent = true
    return send(buffer)
  }
  // The SSLRequest and the StartupMessage are written to the socket without _send.
  const requestSsl = wire.requestSsl.bind(wire)
  wire.requestSsl = () => {
    sent = true
    requestSsl()
  }
  const startup = wire.startup.bind(wire)
  wire.startup = (config) => {
    sent = true
    startup(config)
  }
  wire.on('sslconnect', () => {
    // the TLS handshake, and before it the SSLRequest's one-byte answer unless TLS started at once; neither a protocol message
    pgRoundTrip()
    if (wire.sslNegotiation !== 'direct') pgRoundTrip()
    sent = false
  })
  wire.on('message', () => {
    if (!sent) return
    sent = false
    pgRoundTrip()
  })
}

/**
 * The trace so far: the timeline's phases in the order first entered (the
 * current one up to now), then the overlapped ones.
 */
export function phaseTrace(): PhaseTiming[] {
  const now = performance.now()
  const all = [...entries.values()].map((e) => ({ ...e, ms: e.phase === current && !e.overlapped ? e.ms + now - since : e.ms }))
  return [...all.filter((e) => !e.overlapped), ...all.filter((e) => e.overlapped)]
}

/** One line per phase for the job log: "provisioning 412 ms, 0 PostgreSQL round trips, 2 HTTP requests". */
export function phaseLog(trace = phaseTrace()): string {
  return trace
    .map(
      (p) =>
        `${p.phase}${p.overlapped ? ' (overlapped)' : ''}: ${Math.round(p.ms)} ms, ${p.pgRoundTrips} PostgreSQL round trip(s), ${p.httpRequests} HTTP request(s)`
    )
    .join('\n')
}

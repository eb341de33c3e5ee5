/**
 * A TCP proxy on loopback that delays every chunk by a fixed time in each
 * direction (the round trip gains twice the delay), for benchmarks that need
 * a link like one between a runner and a database in another region. It
 * only ever connects to 127.0.0.1. Bytes pass through unchanged (TLS runs end
 * to end); order is kept (Node fires timers of equal delay in the order they
 * were set). Used by bench/latency.ts and the tests that count a run's
 * connections.
 */
import net from 'node:net'
import type { PostgresServer } from './postgres/postgres.js'

/** A running delay proxy. */
export interface DelayProxy {
  /** The port it listens on, at 127.0.0.1. */
  port: number
  /** Connections accepted since it started (one per client connection, TLS handshake or not). */
  accepted: number
  close(): Promise<void>
}

/**
 * Listens on an ephemeral port of 127.0.0.1 and forwards each connection to
 * 127.0.0.1:`targetPort`, delaying data and end by `delayMs` milliseconds
 * each way; a new connection's first bytes are read a round trip after it
 * was accepted (TCP's handshake, which loopback does at once).
 */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>()
  const state = { accepted: 0 }
  const pipe = (from: net.Socket, to: net.Socket): void => {
    from.on('data', (chunk: Buffer) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk)
      }, delayMs)
    })
    from.on('end', () => setTimeout(() => to.end(), delayMs))
    from.on('error', () => setTimeout(() => to.destroy(), delayMs))
    from.on('close', () => setTimeout(() => to.destroy(), delayMs + 1))
  }
  const server = net.createServer({ noDelay: true }, (client) => {
    state.accepted++
    const upstream = net.connect({ host: '127.0.0.1', port: targetPort, noDelay: true })
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    // TCP's own handshake costs a round trip before the client can send: read nothing from it until then
    client.pause()
    setTimeout(() => client.resume(), 2 * delayMs)
    pipe(client, upstream)
    pipe(upstream, client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return {
    port: (server.address() as net.AddressInfo).port,
    get accepted() {
      return state.accepted
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

/**
 * `pg` as seen through a proxy on `port`: the same server (roles,
 * databases, admin pool), but the port it hands out is the proxy's, so an
 * InstantService built on it gives out connection strings through the proxy.
 */
export function throughProxy(pg: PostgresServer, port: number): PostgresServer {
  return Object.create(pg, { port: { value: port } }) as PostgresServer
}

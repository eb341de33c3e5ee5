/**
 * A forward proxy on loopback, as a self-hosted runner's network has one
 * (GitHub docs, "Using a proxy server with self-hosted runners"): it takes
 * `CONNECT host:port` tunnels (RFC 9110 §9.3.6, what undici's ProxyAgent
 * sends) and absolute-form requests (`GET http://host/path`), forwards them,
 * and records every HTTP request that went through. The emulated services
 * speak plain HTTP, so the requests inside a tunnel are read one by one and
 * counted too. A tunnel carrying TLS is passed through as bytes, or, when
 * the proxy is given a certificate (`tls`: the emulator's, which the action
 * trusts through `NODE_EXTRA_CA_CERTS`), its TLS is ended here and the
 * requests inside are read, counted and forwarded in plain HTTP: so the
 * tests can give the services `https:` URLs (what `HTTPS_PROXY` applies to)
 * while the emulated services speak HTTP. `*.localhost` targets are
 * reached on 127.0.0.1, as the action's loopback shim resolves them
 * (loopback-dns.mjs). Every CONNECT's `Proxy-Authorization` is recorded;
 * with `requireAuth`, a CONNECT without that header value is answered 407.
 */
import http from 'node:http'
import net from 'node:net'
import tls from 'node:tls'
import { Duplex } from 'node:stream'
import type { AddressInfo } from 'node:net'

/** One request the proxy forwarded. */
export interface ProxiedRequest {
  method: string
  /** `host:port` it went to. */
  target: string
  path: string
  /** True when it came through a CONNECT tunnel. */
  tunnelled: boolean
  /** True when it came through a tunnel whose TLS the proxy ended. */
  tls: boolean
}

/** One CONNECT the proxy received. */
export interface Tunnel {
  /** `host:port` asked for. */
  target: string
  /** The `Proxy-Authorization` header it carried, or undefined. */
  authorization?: string
}

/** What a {@link ForwardProxy} does besides forwarding. */
export interface ForwardProxyOptions {
  /** PEM certificate and key for the tunnels' TLS: ended here instead of passed through. */
  tls?: { cert: string | Buffer; key: string | Buffer }
  /** The only `Proxy-Authorization` value let through; any other CONNECT is answered 407. */
  requireAuth?: string
}

export class ForwardProxy {
  /** Every request forwarded, in order. */
  readonly requests: ProxiedRequest[] = []
  /** Every CONNECT, in order. */
  readonly tunnels: Tunnel[] = []
  /** `http://127.0.0.1:<port>`, once listening. */
  url = ''
  private readonly targets = new WeakMap<net.Socket, { target: string; tls: boolean }>()
  private readonly sockets = new Set<net.Socket>()
  private readonly inner = http.createServer((req, res) => this.forward(req, res, true))
  private readonly outer = http.createServer((req, res) => this.forward(req, res, false))

  constructor(o: ForwardProxyOptions = {}) {
    this.outer.on('connection', (s: net.Socket) => this.track(s))
    this.outer.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      const target = req.url ?? ''
      const authorization = req.headers['proxy-authorization']
      this.tunnels.push({ target, authorization })
      socket.on('error', () => socket.destroy())
      if (o.requireAuth !== undefined && authorization !== o.requireAuth) {
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n')
        return
      }
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) socket.unshift(head)
      socket.once('readable', () => {
        const first = socket.read(1) as Buffer | null
        if (first) socket.unshift(first)
        if (first?.[0] === 0x16 && o.tls) {
          // TLS ended here: the requests inside are read as in a plain tunnel
          // Through a stream, not the socket's handle: the byte read above is back in the stream's buffer only.
          const secure = new tls.TLSSocket(Duplex.from({ readable: socket, writable: socket }) as unknown as net.Socket, {
            isServer: true,
            cert: o.tls.cert,
            key: o.tls.key
          })
          secure.on('error', () => socket.destroy())
          this.targets.set(secure, { target, tls: true })
          this.inner.emit('connection', secure)
          return
        }
        if (first?.[0] === 0x16) {
          // TLS: pass the bytes through unread
          const [host, port] = splitTarget(target)
          const up = net.connect(port, host, () => socket.pipe(up).pipe(socket))
          up.on('error', () => socket.destroy())
          this.track(up)
          return
        }
        this.targets.set(socket, { target, tls: false })
        this.inner.emit('connection', socket)
      })
    })
  }

  /** Starts listening on a loopback port; returns {@link url}. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.outer.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.outer.address() as AddressInfo).port}`
    return this.url
  }

  /** The forwarded requests to `host:port` (or to any host when absent). */
  to(target?: string): ProxiedRequest[] {
    return this.requests.filter((r) => !target || r.target === target)
  }

  /** Stops listening and ends every open connection. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => this.outer.close(() => resolve()))
  }

  private track(s: net.Socket): void {
    this.sockets.add(s)
    s.on('close', () => this.sockets.delete(s))
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, tunnelled: boolean): void {
    let target: string
    let path: string
    const tunnel = tunnelled ? this.targets.get(req.socket) : undefined
    if (tunnelled) {
      target = tunnel?.target ?? ''
      path = req.url ?? '/'
    } else {
      const url = new URL(req.url ?? '/')
      target = `${url.hostname}:${url.port || 80}`
      path = `${url.pathname}${url.search}`
    }
    this.requests.push({ method: req.method ?? 'GET', target, path, tunnelled, tls: tunnel?.tls ?? false })
    const [host, port] = splitTarget(target)
    const headers = { ...req.headers }
    delete headers['proxy-connection']
    delete headers['proxy-authorization']
    const up = http.request({ host, port, method: req.method, path, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`proxy: ${err.message}`)
    })
    req.pipe(up)
  }
}

/** `host:port` → [host, port] (an IPv6 host in brackets loses them; a `*.localhost` host is 127.0.0.1, as loopback-dns.mjs has it). */
function splitTarget(target: string): [string, number] {
  const i = target.lastIndexOf(':')
  const host = target.slice(0, i).replace(/^\[|\]$/g, '')
  return [/(^|\.)localhost\.?$/i.test(host) ? '127.0.0.1' : host, Number(target.slice(i + 1)) || 80]
}

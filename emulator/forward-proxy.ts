/**
 * A forward proxy on loopback, as a self-hosted runner's network has one
 * (GitHub docs, "Using a proxy server with self-hosted runners"): it takes
 * `CONNECT host:port` tunnels (RFC 9110 §9.3.6, what undici's ProxyAgent
 * sends) and absolute-form requests (`GET http://host/path`), forwards them,
 * and records every HTTP request that went through. The emulated services
 * speak plain HTTP, so the requests inside a tunnel are read one by one and
 * counted too; a tunnel carrying TLS is passed through as bytes.
 */
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

/** One request the proxy forwarded. */
export interface ProxiedRequest {
  method: string
  /** `host:port` it went to. */
  target: string
  path: string
  /** True when it came through a CONNECT tunnel. */
  tunnelled: boolean
}

export class ForwardProxy {
  /** Every request forwarded, in order. */
  readonly requests: ProxiedRequest[] = []
  /** The `host:port` of every CONNECT. */
  readonly tunnels: string[] = []
  /** `http://127.0.0.1:<port>`, once listening. */
  url = ''
  private readonly targets = new WeakMap<net.Socket, string>()
  private readonly sockets = new Set<net.Socket>()
  private readonly inner = http.createServer((req, res) => this.forward(req, res, true))
  private readonly outer = http.createServer((req, res) => this.forward(req, res, false))

  constructor() {
    this.outer.on('connection', (s: net.Socket) => this.track(s))
    this.outer.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      const target = req.url ?? ''
      this.tunnels.push(target)
      socket.on('error', () => socket.destroy())
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) socket.unshift(head)
      socket.once('readable', () => {
        const first = socket.read(1) as Buffer | null
        if (first) socket.unshift(first)
        if (first?.[0] === 0x16) {
          // TLS: pass the bytes through unread
          const [host, port] = splitTarget(target)
          const up = net.connect(port, host, () => socket.pipe(up).pipe(socket))
          up.on('error', () => socket.destroy())
          this.track(up)
          return
        }
        this.targets.set(socket, target)
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
    if (tunnelled) {
      target = this.targets.get(req.socket) ?? ''
      path = req.url ?? '/'
    } else {
      const url = new URL(req.url ?? '/')
      target = `${url.hostname}:${url.port || 80}`
      path = `${url.pathname}${url.search}`
    }
    this.requests.push({ method: req.method ?? 'GET', target, path, tunnelled })
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

/** `host:port` → [host, port] (an IPv6 host in brackets loses them). */
function splitTarget(target: string): [string, number] {
  const i = target.lastIndexOf(':')
  return [target.slice(0, i).replace(/^\[|\]$/g, ''), Number(target.slice(i + 1)) || 80]
}

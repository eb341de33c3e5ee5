/**
 * A tiny HTTP server for the emulated services: routes, a request log (with
 * the query, the bodies and the status, for the contract test), and fault
 * injection (status codes, resets, hangs, malformed bodies, delays, and
 * answers lost after the work was done).
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request as the emulator saw it. `at` is milliseconds since the epoch. */
export interface LoggedRequest {
  method: string
  path: string
  at: number
  status: number
  /** The fault that answered, if one did. */
  fault?: Fault['kind']
  /** The query string, without `?`. */
  query: string
  /** The request body as sent (empty when none). */
  requestText: string
  /** The response body as served (empty for none; absent when no answer was sent). */
  responseText?: string
  /** The request id the answer carried (`X-Request-ID`). */
  requestId: string
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export interface Request {
  method: string
  path: string
  query: URLSearchParams
  headers: http.IncomingHttpHeaders
  /** Raw body text. */
  text: string
  /** This request's id: the client's `X-Request-ID` header, else a new UUID; answered in `X-Request-ID`. */
  requestId: string
}

/** The request body as a JSON object, or null when it is not valid JSON or not an object (an array, a string, null). */
export function jsonObject(req: Request): Record<string, unknown> | null {
  try {
    const v = JSON.parse(req.text) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export type Handler = (req: Request, params: string[]) => Reply | Promise<Reply>

/** A fault served instead of the normal answer, `times` times (default 1), to requests that match. */
export interface Fault {
  method?: string
  path?: RegExp
  /** Only requests whose body text matches (for example a comment edit that is the final one, not the lock's). */
  requestText?: RegExp
  times?: number
  /**
   * `lost-reset` and `lost-hang` run the normal handler (the work is done)
   * and then reset the connection or never answer: an answer lost on the way back.
   */
  kind: 'status' | 'reset' | 'hang' | 'malformed' | 'text' | 'delay' | 'lost-reset' | 'lost-hang'
  /** For `status` and `text` (200 when absent). */
  status?: number
  /** For `text`: the body served as `text/plain`, not JSON. */
  text?: string
  body?: unknown
  headers?: Record<string, string>
  /** For `delay`: milliseconds before the normal answer. */
  delayMs?: number
}

export class ServiceServer {
  readonly log: LoggedRequest[] = []
  private readonly routes: { method: string; pattern: RegExp; handler: Handler }[] = []
  private readonly faults: Fault[] = []
  private readonly sockets = new Set<Socket>()
  private readonly server = http.createServer((req, res) => {
    // A client that resets mid-request (the action's request timeout, a test's
    // kill) must not crash the emulator: every emitter here gets a listener.
    req.on('error', () => undefined)
    res.on('error', () => undefined)
    this.handle(req, res).catch((err: Error) => {
      if (!res.headersSent && !res.destroyed)
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `emulator error: ${err.message}` }))
      else res.destroy()
    })
  })
  url = ''
  /** Called with each request as it arrives, before it is answered (tests use it to start work at a precise moment). */
  onRequest?: (entry: LoggedRequest) => void
  /** Answers a request before its route does when it returns a reply (a rate limit, neon-limits.ts); injected faults come first. */
  admit?: (method: string, path: string, headers: http.IncomingHttpHeaders) => Reply | undefined
  /** Headers added to every answer of a request (GitHub's `x-ratelimit-*`, github-rate.ts); called after the request was admitted or refused. */
  headersFor?: (headers: http.IncomingHttpHeaders) => Record<string, string>

  /**
   * @param errorBody the service's error body for a message (used for injected
   *   status faults, and to complete error replies: the platform adds `code`
   *   and `request_id` to every error body, as its spec's GeneralError has them)
   */
  constructor(
    readonly name: string,
    private readonly errorBody: (message: string, requestId: string, body?: Record<string, unknown>) => unknown = (message, _id, body) =>
      body ?? { message }
  ) {
    this.server.on('connection', (s) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
    this.server.on('clientError', (_err, socket) => socket.destroy())
    // Idle connections outlive the client's keep-alive (undici: 4 s), as a hosted API's do: otherwise a request sent
    // on a connection the server is closing meets a reset, which a loaded machine makes likely with many runs at once.
    this.server.keepAliveTimeout = 65_000
  }

  route(method: string, pattern: RegExp, handler: Handler): this {
    this.routes.push({ method, pattern, handler })
    return this
  }

  /** Queues a fault; the first queued fault that matches a request answers it. */
  inject(fault: Fault): void {
    this.faults.push({ times: 1, ...fault })
  }

  clearFaults(): void {
    this.faults.length = 0
  }

  /** Requests that matched `method` and `path`. */
  requests(method?: string, path?: RegExp): LoggedRequest[] {
    return this.log.filter((r) => (!method || r.method === method) && (!path || path.test(r.path)))
  }

  /**
   * Serves every route under `prefix` only (GitHub Enterprise Server's `/api/v3`): `url` gains it,
   * and a request whose path lacks it is answered 404 as by a server that has no such path.
   */
  servePathPrefix(prefix: string): void {
    this.url = this.origin + prefix
    this.pathPrefix = prefix
  }

  private pathPrefix = ''
  private origin = ''

  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    this.url = this.origin + this.pathPrefix
    return this.url
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private takeFault(method: string, path: string, text: string): Fault | undefined {
    const i = this.faults.findIndex(
      (f) => (!f.method || f.method === method) && (!f.path || f.path.test(path)) && (!f.requestText || f.requestText.test(text))
    )
    if (i < 0) return undefined
    const fault = this.faults[i]
    if (--fault.times! <= 0) this.faults.splice(i, 1)
    return fault
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const url = new URL(req.url ?? '/', 'http://emulator')
    const unprefixed = this.pathPrefix && !url.pathname.startsWith(`${this.pathPrefix}/`)
    if (this.pathPrefix && !unprefixed) url.pathname = url.pathname.slice(this.pathPrefix.length)
    if (unprefixed) url.pathname = `/no-such-path${url.pathname}` // routes match nothing: 404
    const method = req.method ?? 'GET'
    const text = Buffer.concat(chunks).toString('utf8')
    const header = req.headers['x-request-id']
    const requestId = typeof header === 'string' && header ? header : randomUUID()
    const entry: LoggedRequest = {
      method,
      path: url.pathname,
      at: Date.now(),
      status: 0,
      query: url.search.replace(/^\?/, ''),
      requestText: text,
      requestId
    }
    this.log.push(entry)
    this.onRequest?.(entry)
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      entry.status = status
      entry.responseText = body === undefined ? '' : JSON.stringify(body)
      res.writeHead(status, {
        'x-request-id': requestId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...this.headersFor?.(req.headers),
        ...headers
      })
      res.end(entry.responseText)
    }
    const fault = this.takeFault(method, url.pathname, text)
    if (fault) {
      entry.fault = fault.kind
      if (fault.kind === 'reset') return void req.socket.destroy()
      if (fault.kind === 'hang') return
      if (fault.kind === 'malformed') {
        entry.status = 200
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "0190c3e0-7c1a-7000-8000-00000000000')
        return
      }
      if (fault.kind === 'text') {
        entry.status = fault.status ?? 200
        entry.responseText = fault.text ?? ''
        res.writeHead(entry.status, { 'content-type': 'text/plain', 'x-request-id': requestId }).end(entry.responseText)
        return
      }
      if (fault.kind === 'status') {
        const status = fault.status ?? 500
        const body = fault.body ?? this.errorBody(`injected HTTP ${status}`, requestId)
        return send(
          status,
          status >= 400 && isRecord(body) ? this.errorBody(String(body.message ?? body.error ?? ''), requestId, body) : body,
          fault.headers
        )
      }
      if (fault.kind === 'delay') await new Promise((r) => setTimeout(r, fault.delayMs ?? 1000))
    }
    let reply: Reply = { status: 404, body: this.errorBody(`no route for ${method} ${url.pathname}`, requestId) }
    const refused = this.admit?.(method, url.pathname, req.headers)
    if (refused)
      return send(
        refused.status,
        this.errorBody(String((refused.body as { message?: string })?.message ?? ''), requestId, refused.body as Record<string, unknown>),
        refused.headers
      )
    for (const r of this.routes) {
      const m = r.method === method ? r.pattern.exec(url.pathname) : null
      if (!m) continue
      try {
        reply = await r.handler(
          { method, path: url.pathname, query: url.searchParams, headers: req.headers, text, requestId },
          m.slice(1).map(decodeURIComponent)
        )
      } catch (err) {
        reply = { status: 500, body: this.errorBody(`emulator error: ${(err as Error).message}`, requestId) }
      }
      break
    }
    if (fault?.kind === 'lost-reset') {
      entry.status = reply.status
      return void req.socket.destroy()
    }
    if (fault?.kind === 'lost-hang') {
      entry.status = reply.status
      return
    }
    const body =
      reply.status >= 400 && isRecord(reply.body)
        ? this.errorBody(String(reply.body.message ?? reply.body.error ?? ''), requestId, reply.body)
        : reply.body
    send(reply.status, body, reply.headers)
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * JSON over HTTP for the service clients: one timeout per request, error
 * bodies quoted with every known secret redacted (secrets.ts), a 2xx body
 * that is not JSON never quoted (it may be a connection string), and a
 * bounded retry only where retrying cannot do harm.
 * Requests and waits made from the main flow stop when the run is cancelled
 * (cancel.ts): they reject with CancelledError, except a request that
 * creates something (not idempotent), which is let finish; none is sent
 * after the cancel.
 */
import { cancelSignal, finishBeforeUndo, throwIfCancelled } from './cancel.js'
import { redactSecrets } from './secrets.js'
import { proxiedFetch, proxyHint } from './proxy-fetch.js'

/** Failure of one HTTP request. `status` is 0 when no response arrived. */
export class HttpError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 for a timeout or network error. */
    readonly status: number,
    /** The service's own message from the error body, if it sent one. */
    readonly serviceMessage?: string,
    /** The service's `hint`, if it sent one (instant service API: 400 Missing referrer). */
    readonly hint?: string,
    /** True when the request timed out. */
    readonly timedOut = false,
    /** Seconds the service asked us to wait (`Retry-After`), on 429 and 503. */
    readonly retryAfterSeconds?: number,
    /** The platform's `request_id` of the failed request (error body, or the `X-Request-ID` header), for its support. */
    readonly requestId?: string,
    /** The service's error `code` (Neon API spec, GeneralError: for example `BRANCHES_LIMIT_EXCEEDED`), if it sent one. */
    readonly code?: string
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/** One request. `label` names it in every message, e.g. "Create database". */
export interface JsonRequest {
  label: string
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  url: string
  body?: unknown
  headers?: Record<string, string>
  /** Milliseconds before the request is abandoned. */
  timeoutMs: number
  /**
   * May the request be sent again after a 5xx, a network error or a timeout?
   * Only for requests that change nothing (GET). A request that creates
   * something is never retried blindly: the first may have succeeded.
   */
  idempotent: boolean
  /**
   * May the request be sent again after HTTP 503? The platform spec (GeneralError)
   * says a 503 "is always safe to retry". Defaults to `idempotent`; set it for a
   * create that is idempotent through its name (create branch: a duplicate answers 409).
   */
  retryOn503?: boolean
  /**
   * 2xx statuses whose body may be empty, for example 204 on
   * `DELETE /projects/{project_id}/branches/{branch_id}` (platform spec:
   * "Returned if the branch doesn't exist or has already been deleted").
   * Such an answer returns `body: undefined`.
   */
  emptyBodyStatuses?: readonly number[]
  /**
   * Seconds to wait after an HTTP 429, read from the service's own answer
   * when it sends no `Retry-After` (Vercel REST API: the `X-RateLimit-Reset`
   * header, epoch seconds). With it, 429s are waited out until
   * `rateLimitDeadline` instead of {@link RATE_LIMIT_ATTEMPTS} attempts.
   */
  rateLimitWait?: (headers: Headers) => number | undefined
  /** Milliseconds since the epoch after which a 429 is no longer waited out (with `rateLimitWait`). */
  rateLimitDeadline?: number
}

export interface JsonResponse {
  status: number
  body: unknown
  headers: Headers
}

/** Attempts for idempotent requests on 5xx, network errors and timeouts. */
const IDEMPOTENT_ATTEMPTS = 3
/**
 * Attempts for HTTP 429, which means the request was refused unprocessed. Enough to ride out
 * a burst of many runs against one account (Neon: 700 requests a minute, 40 a second per route).
 */
const RATE_LIMIT_ATTEMPTS = 8
/** Each wait after a 429 is `Retry-After` lengthened by up to this fraction of a second, at random (never shortened), so refused runs do not all come back at once. */
const RATE_LIMIT_JITTER_S = 0.25
/**
 * Longest `Retry-After` the run spends on one wait, in seconds. A longer one
 * fails the request at once, saying how long the service asked for: waiting
 * it out would hold the job (and the PR's comment lock) for longer than a
 * preview database is worth, so the user re-runs later instead.
 */
export const MAX_RETRY_AFTER_S = 60

/**
 * Sleeps `ms` milliseconds. From the main flow, rejects with CancelledError
 * as soon as the run is cancelled (cancel.ts).
 */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const signal = cancelSignal()
    if (signal?.aborted) return reject(signal.reason as Error)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal!.reason as Error)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/**
 * Extracts `{message, hint, requestId, code}` from an error body: `{code, message,
 * request_id}` (platform spec, GeneralError) or `{error, hint}` (instant service).
 * Every field has the run's known secrets and `requestSecrets` (the
 * request's own credentials) redacted before it is cut to length.
 */
function describeErrorBody(
  body: unknown,
  raw: string,
  requestSecrets: readonly string[]
): { message?: string; hint?: string; requestId?: string; code?: string } {
  const clean = (text: string | undefined): string | undefined => (text === undefined ? undefined : redactWith(text, requestSecrets))
  if (body && typeof body === 'object') {
    const outer = body as Record<string, unknown>
    // Vercel REST API: errors are `{"error": {"code", "message"}}`.
    const b = outer.error && typeof outer.error === 'object' ? (outer.error as Record<string, unknown>) : outer
    const message = typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : undefined
    const hint = typeof b.hint === 'string' ? b.hint : undefined
    const requestId = typeof b.request_id === 'string' && b.request_id ? b.request_id : undefined
    const code = typeof b.code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(b.code) ? b.code : undefined
    return { message: clean(message), hint: clean(hint), requestId: clean(requestId), code }
  }
  const trimmed = clean(raw.trim())!
  return trimmed ? { message: trimmed.slice(0, 200) } : {}
}

/** `text` with the run's known secrets (secrets.ts) and `extra` replaced by `***`. */
function redactWith(text: string, extra: readonly string[]): string {
  let out = redactSecrets(text)
  for (const secret of extra) if (secret.length >= 4) out = out.split(secret).join('***')
  return out
}

/** The credentials a request carries in its headers (`Authorization`'s token), which an answer must never be quoted with. */
function credentialsOf(req: JsonRequest): string[] {
  const out: string[] = []
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (name.toLowerCase() !== 'authorization') continue
    out.push(value, value.replace(/^\S+\s+/, ''))
  }
  return out
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterSeconds(headers: Headers): number {
  const value = headers.get('retry-after') ?? ''
  const n = Number(value)
  if (Number.isFinite(n)) return Math.max(0, n)
  const date = Date.parse(value)
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : 1
}

async function once(req: JsonRequest): Promise<JsonResponse> {
  const where = `${req.method} ${new URL(req.url).origin}${new URL(req.url).pathname}`
  // A request that changes nothing is abandoned on a cancel; one that creates something is let finish
  // (cancel.ts waits for it), since what it made must be known to be undone.
  const cancel = req.idempotent ? cancelSignal() : undefined
  let res: Response
  try {
    res = await proxiedFetch(req.url, {
      method: req.method,
      headers: {
        Accept: 'application/json',
        ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...req.headers
      },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      signal: cancel ? AbortSignal.any([AbortSignal.timeout(req.timeoutMs), cancel]) : AbortSignal.timeout(req.timeoutMs)
    })
  } catch (err) {
    if (cancel?.aborted) throw cancel.reason as Error
    const e = err as Error & { cause?: { code?: string; message?: string } }
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new HttpError(`${req.label} timed out after ${req.timeoutMs / 1000} s (${where}).`, 0, undefined, undefined, true)
    }
    const reason = e.cause?.code ?? e.cause?.message ?? e.message
    throw new HttpError(`${req.label} failed: could not reach the service (${where}): ${reason}.${proxyHint(req.url)}`, 0)
  }
  let raw: string
  try {
    raw = await res.text()
  } catch (err) {
    if (cancel?.aborted) throw cancel.reason as Error
    const e = err as Error
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError'
    throw new HttpError(
      timedOut
        ? `${req.label} timed out after ${req.timeoutMs / 1000} s while reading the response (${where}).`
        : `${req.label} failed while reading the response (${where}): ${e.message}.`,
      0,
      undefined,
      undefined,
      timedOut
    )
  }
  let body: unknown = undefined
  let parsed = false
  if (raw.trim() !== '') {
    try {
      body = JSON.parse(raw)
      parsed = true
    } catch {
      parsed = false
    }
  }
  if (!res.ok) {
    const { message, hint, requestId: fromBody, code } = describeErrorBody(parsed ? body : undefined, parsed ? '' : raw, credentialsOf(req))
    const requestId = fromBody ?? (res.headers.get('x-request-id') || undefined)
    const quoted = message ? `: "${message}"` : ''
    throw new HttpError(
      `${req.label} failed with HTTP ${res.status}${quoted}${hint ? ` (hint: ${hint})` : ''} (${where}${requestId ? `, request_id ${requestId}` : ''}).`,
      res.status,
      message,
      hint,
      false,
      res.headers.has('retry-after') ? retryAfterSeconds(res.headers) : res.status === 429 ? req.rateLimitWait?.(res.headers) : undefined,
      requestId,
      code
    )
  }
  if (!parsed && raw.trim() === '' && req.emptyBodyStatuses?.includes(res.status)) {
    return { status: res.status, body: undefined, headers: res.headers }
  }
  if (!parsed) {
    // not quoted: a 2xx body may be exactly the secret asked for (a connection string)
    throw new HttpError(`${req.label} returned HTTP ${res.status} with a body that is not JSON (${where}).`, res.status)
  }
  return { status: res.status, body, headers: res.headers }
}

/**
 * Sends one JSON request and returns the parsed body.
 *
 * Retries: HTTP 429 up to 8 attempts in all, waiting `Retry-After` (1 s when
 * absent) plus up to 0.25 s of jitter, never less; a 429 is a refusal, so this is safe even for a create. A
 * `Retry-After` over 60 s (on 429 or 503) fails at once with a message giving the wait the
 * service asked for (RFC 9110 §10.2.3: delta-seconds or an HTTP date). Idempotent
 * requests are also retried on 5xx, network errors and timeouts, 3 attempts
 * in all, waiting 1 s then 2 s; a request with `retryOn503` is retried so on
 * HTTP 503 only (platform spec: a 503 "is always safe to retry"). A request
 * with `rateLimitDeadline` waits out every 429 (its `Retry-After`, else
 * `rateLimitWait`'s seconds) until that deadline, however long the wait,
 * and fails with the 429 when the next wait would pass it.
 *
 * @throws HttpError with a message naming the request, the status and the
 *   service's own message and hint.
 */
export async function requestJson(req: JsonRequest): Promise<JsonResponse> {
  let rateLimited = 0
  let transient = 0
  for (;;) {
    try {
      throwIfCancelled()
      return await (req.idempotent ? once(req) : finishBeforeUndo(once(req)))
    } catch (err) {
      if (!(err instanceof HttpError)) throw err
      if (err.status === 429 && req.rateLimitDeadline !== undefined) {
        const waitMs = ((err.retryAfterSeconds ?? 1) + RATE_LIMIT_JITTER_S * Math.random()) * 1000
        if (Date.now() + waitMs > req.rateLimitDeadline) throw err
        await sleep(waitMs)
        continue
      }
      if ((err.status === 429 || err.status === 503) && (err.retryAfterSeconds ?? 0) > MAX_RETRY_AFTER_S) {
        throw new HttpError(
          `${err.message} The service asked to wait ${Math.round(err.retryAfterSeconds!)} s (Retry-After) before retrying, ` +
            `longer than this action waits (${MAX_RETRY_AFTER_S} s): re-run the job later.`,
          err.status,
          err.serviceMessage,
          err.hint,
          false,
          err.retryAfterSeconds
        )
      }
      if (err.status === 429 && ++rateLimited < RATE_LIMIT_ATTEMPTS) {
        await sleep(((err.retryAfterSeconds ?? 1) + RATE_LIMIT_JITTER_S * Math.random()) * 1000)
        continue
      }
      const transientFailure = err.status === 0 || err.status >= 500
      const retryable = req.idempotent ? transientFailure : err.status === 503 && req.retryOn503 === true
      if (retryable && ++transient < IDEMPOTENT_ATTEMPTS) {
        await sleep(1000 * transient)
        continue
      }
      throw err
    }
  }
}

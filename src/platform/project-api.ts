/**
 * How the client (client.ts) sends a request to the Neon API v2 (Neon
 * operations guide, authentication): every request is the project's
 * (`/projects/{project_id}…`), sends `Authorization: Bearer <api-key>` and
 * has a timeout; a GET counts as idempotent unless the endpoint says
 * otherwise (http.ts, requestJson, decides what it resends), and a refusal
 * is explained in words of what to fix (api-errors.ts).
 */
import { HttpError, requestJson } from '../http.js'
import { explainApiError } from './api-errors.js'
import { isObject, need } from './shapes.js'

/** `request`'s value, or null when the Neon API answered 404 (Not Found). */
export async function nullOn404<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) return null
    throw err
  }
}

/** Sends the requests of one Neon project; the endpoints are the client's (client.ts, NeonClient). */
export class NeonProjectApi {
  /**
   * @param apiUrl base address including `/api/v2`
   * @param apiKey secret; already masked by the inputs
   * @param timeoutMs per-request timeout in milliseconds
   */
  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs: number,
    readonly projectId: string
  ) {}

  /** Awaited before each request is sent (its retries aside): a sweep's pace within Neon's rate limit (sweep/pace.ts). */
  pace?: () => Promise<void>

  /**
   * Sends `method path` under the project, after {@link pace}.
   * @returns the answer's JSON object, or null when it had no body (one of `emptyBodyStatuses`)
   * @throws what explainApiError (api-errors.ts) makes of the failure: an input to fix in words, else the error as it was
   */
  protected async call(
    label: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown; idempotent?: boolean; retryOn503?: boolean; emptyBodyStatuses?: readonly number[] } = {}
  ): Promise<Record<string, unknown> | null> {
    try {
      await this.pace?.()
      const res = await requestJson({
        label,
        method,
        url: `${this.apiUrl}/projects/${encodeURIComponent(this.projectId)}${path}`,
        body: options.body,
        headers: { Authorization: `Bearer ${this.apiKey}` },
        timeoutMs: this.timeoutMs,
        idempotent: options.idempotent ?? method === 'GET',
        retryOn503: options.retryOn503,
        emptyBodyStatuses: options.emptyBodyStatuses
      })
      if (res.body === undefined) return null
      return need<Record<string, unknown>>(res.body, 'JSON object', label, isObject)
    } catch (err) {
      throw explainApiError(err, label, this.projectId)
    }
  }

  /** A call whose success always has a JSON object body. */
  protected async callJson(
    label: string,
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    options: { body?: unknown; retryOn503?: boolean; idempotent?: boolean } = {}
  ) {
    const body = await this.call(label, method, path, options)
    return need<Record<string, unknown>>(body, 'JSON object', label, isObject)
  }
}

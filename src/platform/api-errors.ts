/**
 * Neon API refusals that an input can fix, made into messages that name the
 * input (Neon API spec, error responses `{code, message, request_id}`):
 * 401/403 (the `api-key`) and a 404 about the project (`project-id`).
 */
import { HttpError } from '../http.js'

/**
 * `err` as the action reports it: an {@link HttpError} 401 or 403 names the
 * `api-key` secret, a 404 whose message names the project names
 * `project-id`; anything else is returned as it is.
 * @param label the request's label, which starts the message
 */
export function explainApiError(err: unknown, label: string, projectId: string): unknown {
  const rid = err instanceof HttpError && err.requestId ? ` (request_id ${err.requestId})` : ''
  if (err instanceof HttpError && (err.status === 401 || err.status === 403)) {
    return new HttpError(
      `${label}: Neon refused the API key (HTTP ${err.status}${err.serviceMessage ? `: "${err.serviceMessage}"` : ''})${rid}. ` +
        `Check the \`api-key\` secret and that it can access project ${projectId}.`,
      err.status,
      err.serviceMessage,
      undefined,
      false,
      undefined,
      err.requestId
    )
  }
  if (err instanceof HttpError && err.status === 404 && /project/i.test(err.serviceMessage ?? '')) {
    return new HttpError(
      `${label}: project "${projectId}" was not found (HTTP 404)${rid}. Check \`project-id\`.`,
      404,
      err.serviceMessage,
      undefined,
      false,
      undefined,
      err.requestId
    )
  }
  return err
}

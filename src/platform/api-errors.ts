/**
 * Neon API refusals that an input can fix, made into messages that name the
 * input (Neon API spec, error responses `{code, message, request_id}`):
 * 401/403 (the `api-key`), a 404 about the project (`project-id`), and the
 * plan's limits: the branches per project (HTTP 422 `BRANCHES_LIMIT_EXCEEDED`,
 * "branches limit exceeded"; Free and Launch: 10, Scale: 25), the computes
 * active at once ("active endpoints limit exceeded"; 20 per project), and
 * any other "… limit exceeded" (`*_LIMIT_EXCEEDED`).
 */
import { HttpError } from '../http.js'

/**
 * `err` as the action reports it: an {@link HttpError} 401 or 403 names the
 * `api-key` secret, a 404 whose message names the project names
 * `project-id`, a plan limit is a {@link NeonLimitError} that names the
 * limit and the way out; anything else is returned as it is.
 * @param label the request's label, which starts the message
 */
export function explainApiError(err: unknown, label: string, projectId: string): unknown {
  const rid = err instanceof HttpError && err.requestId ? ` (request_id ${err.requestId})` : ''
  const limit = err instanceof HttpError ? limitOf(err) : null
  if (limit && err instanceof HttpError) return new NeonLimitError(limit, label, err, rid)
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

/** Which of Neon's plan limits refused a request. */
export type NeonLimit = 'branches' | 'computes' | 'other'

/**
 * The limit `err` reports: by Neon's error `code` (`BRANCHES_LIMIT_EXCEEDED`,
 * any other `*_LIMIT_EXCEEDED`), else by its message ("branches limit
 * exceeded", "active endpoints limit exceeded", "… limit exceeded"); null for
 * any other error.
 */
export function limitOf(err: HttpError): NeonLimit | null {
  if (err.code === 'BRANCHES_LIMIT_EXCEEDED') return 'branches'
  if (err.code && /^(ACTIVE_)?(ENDPOINTS|COMPUTES?)_LIMIT_EXCEEDED$/.test(err.code)) return 'computes'
  if (err.code?.endsWith('_LIMIT_EXCEEDED')) return 'other'
  const m = err.serviceMessage ?? ''
  if (/branch(es)? limit exceeded|BRANCHES_LIMIT_EXCEEDED/i.test(m)) return 'branches'
  if (/active endpoints? limit exceeded|compute.*limit exceeded/i.test(m)) return 'computes'
  if (err.status === 422 && /limit exceeded|_LIMIT_EXCEEDED/i.test(m)) return 'other'
  return null
}

/** What to do at each limit, in the action's inputs. */
const WAY_OUT: Record<NeonLimit, string> = {
  branches:
    'Make room: run `command: cleanup` (it deletes the previews of closed and merged pull requests; with `max-age`, idle ones too; ' +
    '`make-room` does it for one branch at create), set `expires-in` so previews delete themselves, delete branches nobody uses, ' +
    'or move the project to a Neon plan with more branches (Free and Launch: 10 per project, Scale: 25).',
  computes:
    'Computes suspend when idle, so the limit passes: re-run the job in a few minutes; a lower `suspend-timeout` frees them sooner. ' +
    'Or suspend computes nobody uses, delete idle previews (`command: cleanup` with `max-age`), or move to a Neon plan with more active computes.',
  other: 'Make room in the project (`command: cleanup`, `max-age`, `expires-in`), or move it to a Neon plan with higher limits.'
}

/** A request refused by one of Neon's plan limits; the message names the limit in Neon's words and the way out. */
export class NeonLimitError extends HttpError {
  constructor(
    readonly limit: NeonLimit,
    readonly label: string,
    err: HttpError,
    rid: string,
    /** Figures that explain the limit (branches in the project, previews, …), when known. */
    readonly figures = ''
  ) {
    super(
      `${label}: Neon's ${limit === 'branches' ? 'branch limit of the project' : limit === 'computes' ? 'limit on active computes of the project' : 'plan limit'} ` +
        `is reached (HTTP ${err.status}: "${err.serviceMessage ?? ''}")${rid}.${figures ? ` ${figures}` : ''} ${WAY_OUT[limit]}`,
      err.status,
      err.serviceMessage,
      undefined,
      false,
      err.retryAfterSeconds,
      err.requestId
    )
    this.name = 'NeonLimitError'
  }

  /** The same error with `figures` added to its message. */
  withFigures(figures: string): NeonLimitError {
    const rid = this.requestId ? ` (request_id ${this.requestId})` : ''
    return new NeonLimitError(this.limit, this.label, this, rid, figures)
  }
}

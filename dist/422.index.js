export const id = 422;
export const ids = [422];
export const modules = {

/***/ 833:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ao: () => (/* binding */ onCancel),
/* harmony export */   Bj: () => (/* binding */ cancelSignal),
/* harmony export */   JZ: () => (/* binding */ finishBeforeUndo),
/* harmony export */   MS: () => (/* binding */ unlessCancelled),
/* harmony export */   cc: () => (/* binding */ CancelledError),
/* harmony export */   dV: () => (/* binding */ UNSEEDED_BRANCH),
/* harmony export */   dZ: () => (/* binding */ throwIfCancelled),
/* harmony export */   ik: () => (/* binding */ COMMENT_LOCK),
/* harmony export */   mm: () => (/* binding */ isCancelled),
/* harmony export */   qC: () => (/* binding */ offCancel),
/* harmony export */   qO: () => (/* binding */ handleCancellation),
/* harmony export */   zw: () => (/* binding */ runMainFlow)
/* harmony export */ });
/* unused harmony export CANCEL_BUDGET */
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6698);
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_async_hooks__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1889);
/**
 * What happens when the runner cancels the job. GitHub's runner sends the
 * action SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that
 * (actions/runner, ProcessInvoker: `_sigintTimeout` 7500 ms,
 * `_sigtermTimeout` 2500 ms). On the first of SIGINT or SIGTERM the action:
 *
 * 1. stops its main flow: an abort signal reaches every phase (service
 *    requests and the waits between them through http.ts, the wait for the
 *    comment lock, seeding, and the checkpoints before outputs and the
 *    comment), and the flow is given at most 1 s to unwind; a create request
 *    already in flight is let finish (at most 4 s after the signal), so what
 *    it made is known and undone, and no new request is sent;
 * 2. runs the undo steps, newest first, each with a deadline 7.5 s after the
 *    signal (delete a branch it made but did not finish seeding, waiting for
 *    that branch's operations first, since a DELETE meets 423 until they end);
 * 3. leaves the PR comment saying the run was cancelled (the comment lock's
 *    undo step, registered first so it runs last), and exits 1 at the latest
 *    9 s after the signal, before the SIGKILL.
 */


/** The main flow was cancelled by the runner; thrown out of every phase once the abort signal fires. */
class CancelledError extends Error {
    constructor(signal) {
        super(`The run was cancelled (${signal}).`);
        this.name = 'CancelledError';
    }
}
/** Time budget after the cancel signal, in milliseconds since it arrived. */
const CANCEL_BUDGET = {
    /** The main flow has this long to unwind before the undo steps run anyway. */
    stopMs: 1000,
    /** The handler waits up to this long for a request that creates something and is already in flight ({@link finishBeforeUndo}). */
    createMs: 4000,
    /** Deadline handed to each undo step. */
    undoMs: 7500,
    /** The process exits 1 at this point whatever is left (GitHub kills it at 10 s). */
    exitMs: 9000
};
const undo = new Map();
const flow = new node_async_hooks__WEBPACK_IMPORTED_MODULE_0__.AsyncLocalStorage();
const controller = new AbortController();
let mainFlow = Promise.resolve();
/** The undo step that deletes a branch this run created but has not finished (operations, then seeding). */
const UNSEEDED_BRANCH = 'the unseeded branch';
/** The undo step that writes the PR comment (the run was cancelled) and so releases the comment lock. */
const COMMENT_LOCK = 'the comment lock';
/** Registers `fn` under `key` (replacing an earlier one); undone newest first. */
function onCancel(key, fn) {
    undo.delete(key);
    undo.set(key, fn);
}
/** Forgets the undo step `key` (its work is done for good). */
function offCancel(key) {
    undo.delete(key);
}
/**
 * The abort signal of the main flow when called from within it (see
 * {@link runMainFlow}); undefined elsewhere, for example in an undo step, whose
 * requests must still go out after the cancel.
 */
function cancelSignal() {
    return flow.getStore();
}
/** True once the runner cancelled this run. */
function isCancelled() {
    return controller.signal.aborted;
}
/** Throws CancelledError when called from a main flow that was cancelled: a checkpoint between phases. */
function throwIfCancelled() {
    const signal = cancelSignal();
    if (signal?.aborted)
        throw signal.reason;
}
/**
 * Settles like `work`, or rejects with CancelledError as soon as the main flow
 * is cancelled. The work itself is not stopped (a seed transaction that is
 * never committed is rolled back when the process exits); the main flow just
 * no longer waits for it.
 */
function unlessCancelled(work) {
    const signal = cancelSignal();
    if (!signal)
        return work;
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        if (signal.aborted)
            return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
}
const creating = new Set();
/**
 * Marks `work` as a request that creates something (sent once, never
 * aborted): a cancel lets it finish, so that what it created is known and
 * its undo step registered, before the undo steps run. The handler waits for
 * it at most {@link CANCEL_BUDGET}.createMs after the signal.
 */
function finishBeforeUndo(work) {
    creating.add(work);
    work.then(() => creating.delete(work), () => creating.delete(work));
    return work;
}
/** Runs the action's main flow with the cancel signal in its async context. */
function runMainFlow(fn) {
    const running = flow.run(controller.signal, fn);
    mainFlow = running;
    return running;
}
/** The newest undo step not in `done`, or undefined. */
function newestUndone(done) {
    return [...undo.entries()].reverse().find(([, fn]) => !done.has(fn));
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** Installs the SIGINT/SIGTERM handler: stop the main flow, undo newest first, exit 1 (budget: {@link CANCEL_BUDGET}). */
function handleCancellation() {
    let cancelling = false;
    const handler = (signal) => {
        if (cancelling)
            return; // SIGTERM after SIGINT: already undoing
        cancelling = true;
        const t0 = Date.now();
        _actions_core__WEBPACK_IMPORTED_MODULE_1__/* .error */ .z3(`The run was cancelled (${signal}); ${undo.size ? `stopping, then undoing: ${[...undo.keys()].reverse().join(', ')}.` : 'nothing to undo.'}`);
        controller.abort(new CancelledError(signal));
        const steps = async () => {
            const stopped = mainFlow.catch(() => undefined);
            await Promise.race([stopped, sleep(CANCEL_BUDGET.stopMs)]);
            if (creating.size) {
                await Promise.race([Promise.allSettled([...creating]), sleep(t0 + CANCEL_BUDGET.createMs - Date.now())]);
                await Promise.race([stopped, sleep(100)]); // the flow registers the new thing's undo step, then stops
            }
            // Newest first; a step the flow registers meanwhile (a lock it had just taken) runs too.
            const done = new Set();
            for (let next = newestUndone(done); next; next = newestUndone(done)) {
                const [key, fn] = next;
                done.add(fn);
                try {
                    await fn(t0 + CANCEL_BUDGET.undoMs);
                }
                catch (err) {
                    _actions_core__WEBPACK_IMPORTED_MODULE_1__/* .warning */ .$e(`Could not undo ${key} after the cancel: ${err.message}`);
                }
            }
            // The flow may still be finishing an undo of its own (publish/publication.ts): let it, within the budget.
            await Promise.race([stopped, sleep(t0 + CANCEL_BUDGET.undoMs - Date.now())]);
        };
        void Promise.race([steps(), sleep(t0 + CANCEL_BUDGET.exitMs - Date.now())]).finally(() => process.exit(1));
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
}


/***/ }),

/***/ 1349:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ commentScope),
/* harmony export */   n: () => (/* binding */ scopeComments)
/* harmony export */ });
/**
 * The preview this process's PR comments belong to (`preview-name`). A
 * module of its own, with no imports, so that reading the inputs (index.ts,
 * before any chunk loads) can set it without loading the GitHub client.
 */
/** The preview this process's comments belong to (`preview-name`); '' for the PR's one preview. */
let previewName = '';
/**
 * Scopes every comment this process reads or writes to one preview of the
 * PR (`preview-name`): comment.ts's markerOf writes the name into the marker as
 * `preview` (absent for the PR's one preview), and its recordOf sees only
 * markers of that preview. So each name has its own comment, and with it its
 * own lock, record and reuse, and runs of other names never see it.
 * Called once the inputs are read, in the main step and in the post step.
 */
function scopeComments(name) {
    previewName = name;
}
/** The preview name comments are scoped to ('' for the PR's one preview). */
function commentScope() {
    return previewName;
}


/***/ }),

/***/ 6803:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   SS: () => (/* binding */ requestJson),
/* harmony export */   j$: () => (/* binding */ HttpError),
/* harmony export */   yy: () => (/* binding */ sleep)
/* harmony export */ });
/* unused harmony export MAX_RETRY_AFTER_S */
/* harmony import */ var _cancel_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(833);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7194);
/* harmony import */ var _proxy_fetch_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9694);
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



/** Failure of one HTTP request. `status` is 0 when no response arrived. */
class HttpError extends Error {
    status;
    serviceMessage;
    hint;
    timedOut;
    retryAfterSeconds;
    requestId;
    code;
    constructor(message, 
    /** HTTP status, or 0 for a timeout or network error. */
    status, 
    /** The service's own message from the error body, if it sent one. */
    serviceMessage, 
    /** The service's `hint`, if it sent one (instant service API: 400 Missing referrer). */
    hint, 
    /** True when the request timed out. */
    timedOut = false, 
    /** Seconds the service asked us to wait (`Retry-After`), on 429 and 503. */
    retryAfterSeconds, 
    /** The platform's `request_id` of the failed request (error body, or the `X-Request-ID` header), for its support. */
    requestId, 
    /** The service's error `code` (Neon API spec, GeneralError: for example `BRANCHES_LIMIT_EXCEEDED`), if it sent one. */
    code) {
        super(message);
        this.status = status;
        this.serviceMessage = serviceMessage;
        this.hint = hint;
        this.timedOut = timedOut;
        this.retryAfterSeconds = retryAfterSeconds;
        this.requestId = requestId;
        this.code = code;
        this.name = 'HttpError';
    }
}
/** Attempts for idempotent requests on 5xx, network errors and timeouts. */
const IDEMPOTENT_ATTEMPTS = 3;
/**
 * Attempts for HTTP 429, which means the request was refused unprocessed. Enough to ride out
 * a burst of many runs against one account (Neon: 700 requests a minute, 40 a second per route).
 */
const RATE_LIMIT_ATTEMPTS = 8;
/** Each wait after a 429 is `Retry-After` lengthened by up to this fraction of a second, at random (never shortened), so refused runs do not all come back at once. */
const RATE_LIMIT_JITTER_S = 0.25;
/**
 * Longest `Retry-After` the run spends on one wait, in seconds. A longer one
 * fails the request at once, saying how long the service asked for: waiting
 * it out would hold the job (and the PR's comment lock) for longer than a
 * preview database is worth, so the user re-runs later instead.
 */
const MAX_RETRY_AFTER_S = 60;
/**
 * Sleeps `ms` milliseconds. From the main flow, rejects with CancelledError
 * as soon as the run is cancelled (cancel.ts).
 */
const sleep = (ms) => new Promise((resolve, reject) => {
    const signal = (0,_cancel_js__WEBPACK_IMPORTED_MODULE_0__/* .cancelSignal */ .Bj)();
    if (signal?.aborted)
        return reject(signal.reason);
    const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
    };
    const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
});
/**
 * Extracts `{message, hint, requestId, code}` from an error body: `{code, message,
 * request_id}` (platform spec, GeneralError) or `{error, hint}` (instant service).
 * Every field has the run's known secrets and `requestSecrets` (the
 * request's own credentials) redacted before it is cut to length.
 */
function describeErrorBody(body, raw, requestSecrets) {
    const clean = (text) => (text === undefined ? undefined : redactWith(text, requestSecrets));
    if (body && typeof body === 'object') {
        const outer = body;
        // Vercel REST API: errors are `{"error": {"code", "message"}}`.
        const b = outer.error && typeof outer.error === 'object' ? outer.error : outer;
        const message = typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : undefined;
        const hint = typeof b.hint === 'string' ? b.hint : undefined;
        const requestId = typeof b.request_id === 'string' && b.request_id ? b.request_id : undefined;
        const code = typeof b.code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(b.code) ? b.code : undefined;
        return { message: clean(message), hint: clean(hint), requestId: clean(requestId), code };
    }
    const trimmed = clean(raw.trim());
    return trimmed ? { message: trimmed.slice(0, 200) } : {};
}
/** `text` with the run's known secrets (secrets.ts) and `extra` replaced by `***`. */
function redactWith(text, extra) {
    let out = (0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .redactSecrets */ .fp)(text);
    for (const secret of extra)
        if (secret.length >= 4)
            out = out.split(secret).join('***');
    return out;
}
/** The credentials a request carries in its headers (`Authorization`'s token), which an answer must never be quoted with. */
function credentialsOf(req) {
    const out = [];
    for (const [name, value] of Object.entries(req.headers ?? {})) {
        if (name.toLowerCase() !== 'authorization')
            continue;
        out.push(value, value.replace(/^\S+\s+/, ''));
    }
    return out;
}
/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterSeconds(headers) {
    const value = headers.get('retry-after') ?? '';
    const n = Number(value);
    if (Number.isFinite(n))
        return Math.max(0, n);
    const date = Date.parse(value);
    return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : 1;
}
async function once(req) {
    const where = `${req.method} ${new URL(req.url).origin}${new URL(req.url).pathname}`;
    // A request that changes nothing is abandoned on a cancel; one that creates something is let finish
    // (cancel.ts waits for it), since what it made must be known to be undone.
    const cancel = req.idempotent ? (0,_cancel_js__WEBPACK_IMPORTED_MODULE_0__/* .cancelSignal */ .Bj)() : undefined;
    let res;
    try {
        res = await (0,_proxy_fetch_js__WEBPACK_IMPORTED_MODULE_2__/* .proxiedFetch */ .iR)(req.url, {
            method: req.method,
            headers: {
                Accept: 'application/json',
                ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
                ...req.headers
            },
            body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
            signal: cancel ? AbortSignal.any([AbortSignal.timeout(req.timeoutMs), cancel]) : AbortSignal.timeout(req.timeoutMs)
        });
    }
    catch (err) {
        if (cancel?.aborted)
            throw cancel.reason;
        const e = err;
        if (e.name === 'TimeoutError' || e.name === 'AbortError') {
            throw new HttpError(`${req.label} timed out after ${req.timeoutMs / 1000} s (${where}).`, 0, undefined, undefined, true);
        }
        const reason = e.cause?.code ?? e.cause?.message ?? e.message;
        throw new HttpError(`${req.label} failed: could not reach the service (${where}): ${reason}.${(0,_proxy_fetch_js__WEBPACK_IMPORTED_MODULE_2__/* .proxyHint */ .CJ)(req.url)}`, 0);
    }
    let raw;
    try {
        raw = await res.text();
    }
    catch (err) {
        if (cancel?.aborted)
            throw cancel.reason;
        const e = err;
        const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
        throw new HttpError(timedOut
            ? `${req.label} timed out after ${req.timeoutMs / 1000} s while reading the response (${where}).`
            : `${req.label} failed while reading the response (${where}): ${e.message}.`, 0, undefined, undefined, timedOut);
    }
    let body = undefined;
    let parsed = false;
    if (raw.trim() !== '') {
        try {
            body = JSON.parse(raw);
            parsed = true;
        }
        catch {
            parsed = false;
        }
    }
    if (!res.ok) {
        const { message, hint, requestId: fromBody, code } = describeErrorBody(parsed ? body : undefined, parsed ? '' : raw, credentialsOf(req));
        const requestId = fromBody ?? (res.headers.get('x-request-id') || undefined);
        const quoted = message ? `: "${message}"` : '';
        throw new HttpError(`${req.label} failed with HTTP ${res.status}${quoted}${hint ? ` (hint: ${hint})` : ''} (${where}${requestId ? `, request_id ${requestId}` : ''}).`, res.status, message, hint, false, res.headers.has('retry-after') ? retryAfterSeconds(res.headers) : res.status === 429 ? req.rateLimitWait?.(res.headers) : undefined, requestId, code);
    }
    if (!parsed && raw.trim() === '' && req.emptyBodyStatuses?.includes(res.status)) {
        return { status: res.status, body: undefined, headers: res.headers };
    }
    if (!parsed) {
        // not quoted: a 2xx body may be exactly the secret asked for (a connection string)
        throw new HttpError(`${req.label} returned HTTP ${res.status} with a body that is not JSON (${where}).`, res.status);
    }
    return { status: res.status, body, headers: res.headers };
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
async function requestJson(req) {
    let rateLimited = 0;
    let transient = 0;
    for (;;) {
        try {
            (0,_cancel_js__WEBPACK_IMPORTED_MODULE_0__/* .throwIfCancelled */ .dZ)();
            return await (req.idempotent ? once(req) : (0,_cancel_js__WEBPACK_IMPORTED_MODULE_0__/* .finishBeforeUndo */ .JZ)(once(req)));
        }
        catch (err) {
            if (!(err instanceof HttpError))
                throw err;
            if (err.status === 429 && req.rateLimitDeadline !== undefined) {
                const waitMs = ((err.retryAfterSeconds ?? 1) + RATE_LIMIT_JITTER_S * Math.random()) * 1000;
                if (Date.now() + waitMs > req.rateLimitDeadline)
                    throw err;
                await sleep(waitMs);
                continue;
            }
            if ((err.status === 429 || err.status === 503) && (err.retryAfterSeconds ?? 0) > MAX_RETRY_AFTER_S) {
                throw new HttpError(`${err.message} The service asked to wait ${Math.round(err.retryAfterSeconds)} s (Retry-After) before retrying, ` +
                    `longer than this action waits (${MAX_RETRY_AFTER_S} s): re-run the job later.`, err.status, err.serviceMessage, err.hint, false, err.retryAfterSeconds);
            }
            if (err.status === 429 && ++rateLimited < RATE_LIMIT_ATTEMPTS) {
                await sleep(((err.retryAfterSeconds ?? 1) + RATE_LIMIT_JITTER_S * Math.random()) * 1000);
                continue;
            }
            const transientFailure = err.status === 0 || err.status >= 500;
            const retryable = req.idempotent ? transientFailure : err.status === 503 && req.retryOn503 === true;
            if (retryable && ++transient < IDEMPOTENT_ATTEMPTS) {
                await sleep(1000 * transient);
                continue;
            }
            throw err;
        }
    }
}


/***/ }),

/***/ 8422:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   s: () => (/* binding */ readSettings)
/* harmony export */ });
/* unused harmony export duration */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _publish_env_file_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3015);
/* harmony import */ var _platform_masking_rules_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4077);
/* harmony import */ var _settings_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8750);
/* harmony import */ var _platform_expiry_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(1288);
/* harmony import */ var _platform_branch_point_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(8888);
/* harmony import */ var _comment_scope_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(1349);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(7194);
/* harmony import */ var _vercel_inputs_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(542);
/**
 * All inputs of the action, read once and validated into one typed settings
 * object before any network call. Every problem is reported as an
 * {@link InputError} that names the input and the values it accepts.
 */









function text(name) {
    return _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4(name).trim();
}
function oneOf(name, allowed, fallback) {
    const value = text(name) || fallback;
    if (!allowed.includes(value)) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be one of ${allowed.join(', ')}; got "${value}".`);
    }
    return value;
}
/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
function bool(name, fallback) {
    const value = text(name);
    if (value === '')
        return fallback;
    if (['true', 'True', 'TRUE'].includes(value))
        return true;
    if (['false', 'False', 'FALSE'].includes(value))
        return false;
    throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be true or false; got "${value}".`);
}
function seconds(name, fallback, min) {
    const value = text(name);
    if (value === '')
        return fallback;
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n) || n < min) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be a number of seconds, at least ${min}; got "${value}".`);
    }
    return n;
}
function url(name, fallback) {
    const value = text(name) || fallback;
    let parsed;
    try {
        parsed = new URL(value);
    }
    catch {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be an http(s) URL; got "${value}".`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be an http(s) URL; got "${value}".`);
    }
    return value.replace(/\/+$/, '');
}
/**
 * Branch names the platform accepts: at most 256 characters, no control
 * characters. (The platform's v2 API documents the length limit; we also
 * refuse leading/trailing spaces, which its console trims away.)
 */
function branchName(value) {
    if (value === '')
        return value;
    // eslint-disable-next-line no-control-regex
    if (value.length > 256 || /[\u0000-\u001f\u007f]/.test(value) || value !== value.trim()) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`branch-name\` must be 1 to 256 printable characters without leading or trailing spaces; got "${value}".`);
    }
    return value;
}
const UNITS = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };
/**
 * A duration input: `90m`, `36h`, `7d`, `45s` or a whole number of seconds.
 * @returns seconds; 0 when the input is empty.
 */
function duration(name) {
    const value = text(name);
    if (value === '')
        return 0;
    const m = /^(\d+)\s*([smhd]?)$/.exec(value);
    const n = m ? Number(m[1]) * UNITS[m[2]] : NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be a duration such as 90m, 36h, 7d or a number of seconds (at least 1); got "${value}".`);
    }
    return n;
}
/** `suspend-timeout` (platform spec, SuspendTimeoutSeconds): -1 (never), 0 (the project's default) or 60 to 604800 seconds. */
function suspendTimeout() {
    const value = text('suspend-timeout');
    if (value === '')
        return undefined;
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || !(n === -1 || n === 0 || (n >= 60 && n <= 604800))) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`suspend-timeout\` must be a whole number of seconds from 60 to 604800, or 0 (the project's default) or -1 (never suspend); got "${value}".`);
    }
    return n;
}
/** A compute-unit input (platform spec, ComputeUnit: a number, at least 0.25). */
function computeUnits(name) {
    const value = text(name);
    if (value === '')
        return undefined;
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !(n >= 0.25)) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`${name}\` must be a number of compute units, at least 0.25 (for example 0.25, 0.5, 1, 2); got "${value}".`);
    }
    return n;
}
/**
 * `env-key` (default `DATABASE_URL`) and `env-prefix` (default `PUBLIC_`),
 * named as the instant service's CLI names its variables (instant service API): `<key>`,
 * `<key>_DIRECT`, `<prefix>POSTGRES_CLAIM_URL`. Each must make a valid
 * environment variable name ({@link ENV_NAME}), and the three must differ.
 * @throws InputError
 */
function envNames() {
    const names = { key: text('env-key') || 'DATABASE_URL', prefix: text('env-prefix') || 'PUBLIC_' };
    const rule = 'letters A-Z or a-z, digits and _, not starting with a digit';
    if (!_publish_env_file_js__WEBPACK_IMPORTED_MODULE_1__/* .ENV_NAME */ .G1.test(names.key)) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`env-key\` must be an environment variable name (${rule}), for example DATABASE_URL; got "${names.key}".`);
    }
    if (!_publish_env_file_js__WEBPACK_IMPORTED_MODULE_1__/* .ENV_NAME */ .G1.test(names.prefix)) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`env-prefix\` must be the start of an environment variable name (${rule}), for example PUBLIC_, VITE_ or NEXT_PUBLIC_; got "${names.prefix}".`);
    }
    const v = (0,_publish_env_file_js__WEBPACK_IMPORTED_MODULE_1__/* .envVariables */ .tU)(names);
    if (v.url === v.claim) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Inputs \`env-key\` and \`env-prefix\` name the same variable, ${v.url}, for the connection string and the claim URL: change one of them.`);
    }
    return names;
}
/** Inputs that only mean something for a branch the action creates, refused in instant mode. */
const BRANCH_ONLY = [
    'expires-in',
    'suspend-timeout',
    'min-cu',
    'max-cu',
    'schema-only',
    'parent-lsn',
    'parent-timestamp',
    'branch-id'
];
/** Inputs that say the workflow wants a Neon branch: with any set, `api-key` and `project-id` must both be. */
const BRANCH_INPUTS = [
    'api-key',
    'project-id',
    'parent-branch',
    'branch-name',
    'branch-id',
    'masking-rules',
    'schema-only',
    'parent-lsn',
    'parent-timestamp'
];
const list = (names) => names.map((n) => `\`${n}\``).join(names.length > 2 ? ', ' : ' and ');
/**
 * Fails safe where GitHub passes no secrets and no configuration variables
 * (pull requests from forks, Dependabot's): when `mode` is `branch`, or any
 * branch input is set, an empty `api-key` or `project-id` is refused before
 * any request, instead of falling back to a public neon.new database. Only
 * `mode: auto` with no branch input at all means instant mode.
 * @throws InputError naming the empty input(s), the branch inputs set, why they may be empty and what to do.
 */
function refuseMissingNeonAccess(modeInput, schemaOnly) {
    if (modeInput === 'instant')
        return;
    const given = BRANCH_INPUTS.filter((name) => (name === 'schema-only' ? schemaOnly : text(name) !== ''));
    if (modeInput === 'auto' && given.length === 0)
        return;
    const empty = ['api-key', 'project-id'].filter((name) => text(name) === '');
    if (!empty.length)
        return;
    const what = empty.length === 2 ? 'a Neon API key and project id' : empty[0] === 'api-key' ? 'a Neon API key' : 'a Neon project id';
    throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input${empty.length > 1 ? 's' : ''} ${list(empty)} ${empty.length > 1 ? 'are' : 'is'} required in branch mode (${what}: ` +
        'pass `${{ secrets.NEON_API_KEY }}` and `${{ vars.NEON_PROJECT_ID }}`) but ' +
        `${empty.length > 1 ? 'are' : 'is'} empty, while ${given.length ? `${list(given)} ${given.length > 1 ? 'are' : 'is'} set` : '`mode` is branch'}` +
        `${empty.includes('project-id') && modeInput === 'branch' ? ' (`project-id` is required when `mode` is branch)' : ''}. ` +
        'GitHub gives no secrets and no configuration variables to workflows run for pull requests from forks, or for Dependabot ' +
        '(it has its own Dependabot secrets), which is the likely cause. Nothing was created: with branch inputs set, the action does not fall back ' +
        'to a public, claimable neon.new database (instant mode). Skip the job on such pull requests ' +
        '(`if: github.event.pull_request.head.repo.full_name == github.repository`), add the secret to Dependabot secrets, or set `mode: instant`.');
}
/** `preview-name`: 1 to 40 letters, digits, `-`, `_` or `.` (it goes into the branch name and the comment's marker); '' when not set. */
function previewName() {
    const value = text('preview-name');
    if (value !== '' && !/^[A-Za-z0-9._-]{1,40}$/.test(value)) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`preview-name\` must be 1 to 40 letters, digits, \`-\`, \`_\` or \`.\` (for example api or web); got "${value}".`);
    }
    return value;
}
/**
 * `comment-author`: a GitHub login (1 to 39 letters, digits or single
 * inner `-`; GitHub's username rule), with `[bot]` for an App's bot account.
 * @throws InputError
 */
function commentAuthor() {
    const value = text('comment-author') || 'github-actions[bot]';
    if (!/^[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}(?:\[bot\])?$/.test(value))
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`comment-author\` must be a GitHub login, such as github-actions[bot] or my-app[bot] (a GitHub App's bot account); got "${value}".`);
    return value;
}
/** `branch-id`: only for `command: delete` and `command: reset`. @throws InputError */
function branchId(command) {
    const value = text('branch-id');
    if (value !== '' && command !== 'delete' && command !== 'reset') {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`branch-id\` applies to \`command: delete\` and \`command: reset\` (the branch to act on); \`command: ${command}\` finds the PR's branch by name (\`branch-name\`).`);
    }
    if (value !== '' && !/^[a-z0-9-]{1,60}$/.test(value)) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`branch-id\` must be a Neon branch id such as br-wispy-meadow-a5b2c3d4; got "${value}".`);
    }
    return value;
}
/** `parent-lsn` / `parent-timestamp` (platform/branch-point.ts). @throws InputError */
function parentPoint() {
    try {
        return (0,_platform_branch_point_js__WEBPACK_IMPORTED_MODULE_5__/* .branchPointOf */ .Yx)(text('parent-lsn'), text('parent-timestamp'));
    }
    catch (err) {
        if (err instanceof _platform_branch_point_js__WEBPACK_IMPORTED_MODULE_5__/* .BranchPointError */ .d6)
            throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(err.message);
        throw err;
    }
}
/** Checks the lifecycle inputs against each other and the mode. @throws InputError */
function checkLifecycle(s) {
    if (s.minCu !== undefined && s.maxCu !== undefined && s.minCu > s.maxCu) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`min-cu\` (${s.minCu}) must not be larger than \`max-cu\` (${s.maxCu}).`);
    }
    if (s.expiresInSeconds > _platform_expiry_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_EXPIRES_IN_SECONDS */ .Gt) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input \`expires-in\` must be at most 30d (${_platform_expiry_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_EXPIRES_IN_SECONDS */ .Gt} seconds), Neon's longest branch expiry (Neon docs, branch expiration); got "${text('expires-in')}". ` +
            'Use 30d or less; an active PR keeps its branch anyway, since every run that uses it pushes the expiry forward.');
    }
    if (s.mode === 'instant') {
        if (s.command === 'reset')
            throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d('`command: reset` needs branch mode (set `project-id`): the instant service cannot restore a database.');
        const given = BRANCH_ONLY.filter((name) => text(name) !== '' && !(name === 'schema-only' && !s.schemaOnly));
        if (given.length) {
            throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(`Input${given.length > 1 ? 's' : ''} ${given.map((n) => `\`${n}\``).join(', ')} appl${given.length > 1 ? 'y' : 'ies'} to branch mode only (set \`project-id\`), not to neon.new (instant mode).`);
        }
    }
}
/**
 * Reads `masking-rules` (YAML, JSON or `@file`, relative to the workspace),
 * masks the rules' values in the log, and refuses it with `schema-only` or in
 * instant mode. @throws InputError
 */
function maskingRules(mode, schemaOnly) {
    let rules;
    try {
        rules = (0,_platform_masking_rules_js__WEBPACK_IMPORTED_MODULE_2__/* .parseMaskingRules */ .$_)(_actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('masking-rules'), process.env.GITHUB_WORKSPACE || process.cwd());
    }
    catch (err) {
        if (err instanceof _platform_masking_rules_js__WEBPACK_IMPORTED_MODULE_2__/* .MaskingRulesError */ .Sc)
            throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d(err.message);
        throw err;
    }
    for (const secret of (0,_platform_masking_rules_js__WEBPACK_IMPORTED_MODULE_2__/* .ruleSecrets */ .cf)(rules))
        (0,_secrets_js__WEBPACK_IMPORTED_MODULE_6__/* .maskSecret */ .$l)(secret);
    if (rules.length === 0)
        return rules;
    if (mode === 'instant') {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d('Input `masking-rules` needs branch mode (set `project-id`): masking runs on a Neon branch copied from its parent, ' +
            'and an instant database is new and empty, holding only what `seed` puts in it, so there is nothing to mask.');
    }
    if (schemaOnly) {
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d("Inputs `masking-rules` and `schema-only` cannot be combined: a schema-only branch has none of the parent's rows, so there is nothing to mask. " +
            'Use `masking-rules` for production-like rows with personal data masked, or `schema-only` for an empty copy of the schema.');
    }
    return rules;
}
/**
 * Reads and validates every input.
 * @returns one {@link Settings} object.
 * @throws InputError naming the input and its accepted values.
 */
function readSettings() {
    const modeInput = oneOf('mode', ['auto', 'instant', 'branch'], 'auto');
    const command = oneOf('command', ['create', 'delete', 'cleanup', 'reset', 'publish'], 'create');
    const projectId = text('project-id');
    const apiKey = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('api-key').trim();
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_6__/* .maskSecret */ .$l)(apiKey);
    refuseMissingNeonAccess(modeInput, bool('schema-only', false));
    const mode = modeInput === 'auto' ? (projectId ? 'branch' : 'instant') : modeInput;
    const referrer = text('referrer') || 'preview-postgres-action';
    const settings = {
        mode,
        command,
        referrer,
        logicalReplication: bool('logical-replication', false),
        instantUrl: url('instant-url', 'https://neon.new'),
        apiUrl: url('api-url', 'https://console.neon.tech/api/v2'),
        apiKey,
        projectId,
        parentBranch: text('parent-branch'),
        parentPoint: parentPoint(),
        branchName: branchName(text('branch-name')),
        branchId: branchId(command),
        previewName: previewName(),
        database: text('database'),
        role: text('role'),
        seed: _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('seed')
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '' && !line.startsWith('#')),
        seedCommand: _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('seed-command').trim(),
        migrateCommand: _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('migrate-command').trim(),
        reseed: oneOf('reseed', ['on-change', 'never'], 'on-change'),
        reuse: bool('reuse', true),
        githubToken: _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('github-token').trim(),
        comment: bool('comment', true),
        pollIntervalSeconds: seconds('poll-interval', 5, 0.1),
        waitTimeoutSeconds: seconds('wait-timeout', 600, 1),
        requestTimeoutSeconds: seconds('request-timeout', 30, 0.1),
        envFile: text('env-file'),
        envNames: envNames(),
        compareSchema: bool('compare-schema', true),
        failOnDestructive: bool('fail-on-destructive', false),
        expiresInSeconds: duration('expires-in'),
        maxAgeSeconds: duration('max-age'),
        dryRun: bool('dry-run', false),
        makeRoom: bool('make-room', true),
        suspendTimeoutSeconds: suspendTimeout(),
        minCu: computeUnits('min-cu'),
        maxCu: computeUnits('max-cu'),
        schemaOnly: bool('schema-only', false),
        maskingRules: [],
        deployment: bool('deployment', true),
        reportFile: text('report-file'),
        commentAuthor: commentAuthor(),
        vercel: (0,_vercel_inputs_js__WEBPACK_IMPORTED_MODULE_7__/* .readVercelSettings */ .j)(url)
    };
    settings.maskingRules = maskingRules(mode, settings.schemaOnly);
    checkLifecycle(settings);
    if (command === 'publish' && !settings.reportFile)
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_3__/* .InputError */ .d("`command: publish` needs input `report-file`: the report a fork PR's run wrote (its `report-file` output, downloaded from the run's artifact).");
    // Every comment this run (or its post step) reads or writes is this preview's.
    (0,_comment_scope_js__WEBPACK_IMPORTED_MODULE_8__/* .scopeComments */ .n)(settings.previewName);
    return settings;
}


/***/ }),

/***/ 8888:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Yx: () => (/* binding */ branchPointOf),
/* harmony export */   d6: () => (/* binding */ BranchPointError),
/* harmony export */   sj: () => (/* binding */ pointFields),
/* harmony export */   yR: () => (/* binding */ describePoint)
/* harmony export */ });
/**
 * A point-in-time parent: the inputs `parent-lsn` and `parent-timestamp`,
 * sent as the new branch's `parent_lsn` or `parent_timestamp` (Neon API spec,
 * BranchCreateRequest.branch: "The branch will be created with data from
 * this LSN" / "from this point in time", ISO 8601 such as
 * `2024-02-26T12:00:00Z`). At most one of the two; each checked before any
 * request.
 */
/** A `parent-lsn` or `parent-timestamp` the action refuses; the message names the input and what it accepts. */
class BranchPointError extends Error {
    constructor(message) {
        super(message);
        this.name = 'BranchPointError';
    }
}
/** PostgreSQL's textual LSN: two hexadecimal numbers of up to 8 digits, `X/Y` (pg_lsn). */
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;
/** RFC 3339 date-time (section 5.6): full date, `T`, full time with optional fraction, `Z` or an offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/**
 * Reads the two inputs' values.
 * @param lsn `parent-lsn`, trimmed; empty when not set
 * @param timestamp `parent-timestamp`, trimmed; empty when not set
 * @returns the point, or undefined when neither is set.
 * @throws BranchPointError when both are set, or one is malformed (an LSN not
 *   `X/Y` in hexadecimal; a time not RFC 3339, or not a real date, or in the future).
 */
function branchPointOf(lsn, timestamp, now = Date.now()) {
    if (lsn && timestamp) {
        throw new BranchPointError('Inputs `parent-lsn` and `parent-timestamp` cannot be combined: each names the point of the parent branch to copy. Set one of them.');
    }
    if (lsn) {
        if (!LSN.test(lsn)) {
            throw new BranchPointError(`Input \`parent-lsn\` must be a PostgreSQL LSN, two hexadecimal numbers such as 0/1DE2850 (from pg_current_wal_lsn() or Neon's console); got "${lsn}".`);
        }
        return { lsn: lsn.toUpperCase() };
    }
    if (timestamp) {
        const m = RFC3339.exec(timestamp);
        const ms = Date.parse(timestamp);
        const real = m && !Number.isNaN(ms) && new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDate() === +m[3] && +m[4] < 24 && +m[5] < 60;
        if (!real) {
            throw new BranchPointError(`Input \`parent-timestamp\` must be an RFC 3339 time with a zone, such as 2026-02-26T12:00:00Z or 2026-02-26T13:00:00+01:00; got "${timestamp}".`);
        }
        if (ms > now)
            throw new BranchPointError(`Input \`parent-timestamp\` must not be in the future; got "${timestamp}".`);
        return { timestamp };
    }
    return undefined;
}
/** The point in words for the log, the comment and the summary: `at LSN 0/1DE2850` or `as of 2026-02-26T12:00:00Z`. */
function describePoint(point) {
    return 'lsn' in point ? `at LSN ${point.lsn}` : `as of ${point.timestamp}`;
}
/** The point as BranchCreateRequest.branch takes it: `{ parent_lsn }` or `{ parent_timestamp }`. */
function pointFields(point) {
    if (!point)
        return {};
    return 'lsn' in point ? { parent_lsn: point.lsn } : { parent_timestamp: point.timestamp };
}


/***/ }),

/***/ 1288:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gt: () => (/* binding */ MAX_EXPIRES_IN_SECONDS),
/* harmony export */   aP: () => (/* binding */ expiresAtFrom),
/* harmony export */   zZ: () => (/* binding */ explainExpiryRefusal),
/* harmony export */   zk: () => (/* binding */ recordUse)
/* harmony export */ });
/* unused harmony export EXPIRY_CLOCK_MARGIN_SECONDS */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6803);
/* harmony import */ var _retry_423_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6639);
/* harmony import */ var _operations_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9085);
/**
 * Branch expiry (`expires-in`): the platform deletes a branch whose
 * `expires_at` has passed (platform spec, Branch.expires_at: RFC 3339 with
 * at most whole seconds; "Deletion is performed by a background job"). It is
 * set on create and pushed forward on every run that reuses the branch, so an
 * active PR keeps its branch and an abandoned one disappears by itself.
 *
 * The platform keeps a branch at most 30 days ahead (platform docs, branch
 * expiration: "the maximum expiration period is 30 days"): inputs.ts refuses
 * a longer `expires-in` before any request, and every `expires_at` sent is
 * at most {@link MAX_EXPIRES_IN_SECONDS} minus {@link EXPIRY_CLOCK_MARGIN_SECONDS} from now.
 *
 * Every reuse also records its use on the branch ({@link recordUse}):
 * the update moves the branch's `updated_at`, which `command: cleanup`'s
 * `max-age` reads as its last use.
 */




/** The platform's longest branch expiry, in seconds: 30 days (platform docs, branch expiration). */
const MAX_EXPIRES_IN_SECONDS = 30 * 86400;
/** Kept below the 30-day limit, in seconds, so a runner clock a little ahead of the platform's stays within it. */
const EXPIRY_CLOCK_MARGIN_SECONDS = 600;
/**
 * RFC 3339 UTC, whole seconds: `now` (milliseconds since the epoch) plus
 * `seconds`, but never more than 30 days less {@link EXPIRY_CLOCK_MARGIN_SECONDS} ahead.
 */
function expiresAtFrom(seconds, now = Date.now()) {
    const capped = Math.min(seconds, MAX_EXPIRES_IN_SECONDS - EXPIRY_CLOCK_MARGIN_SECONDS);
    return new Date(now + capped * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
/**
 * Records a use of the reused `branch` (`PATCH …/branches/{id}`, 423 retried,
 * its operations waited on; platform spec, updateProjectBranch), which moves
 * its `updated_at`, the last use `command: cleanup` reads for `max-age`:
 * with `expires-in` the update pushes `expires_at` to `expires-in` from now;
 * without it, it sets the branch's own name again and the expiry stays as it is.
 * @returns the branch's `expires_at` afterwards, if it has one.
 * @throws HttpError (explained by {@link explainExpiryRefusal} when the platform refuses the expiry), ProjectBusyError,
 *   only with `expires-in`; without it a failed update is a warning.
 */
async function recordUse(client, branch, o) {
    const expiresAt = o.expiresInSeconds > 0 ? expiresAtFrom(o.expiresInSeconds) : undefined;
    try {
        const updated = await (0,_retry_423_js__WEBPACK_IMPORTED_MODULE_2__/* .retryLocked */ .rU)(`Update branch "${branch.name}"`, () => client.updateBranch(branch.id, expiresAt ? { expires_at: expiresAt } : { name: branch.name }));
        if (updated.operations.length) {
            await (0,_operations_js__WEBPACK_IMPORTED_MODULE_3__/* .waitForOperations */ .ft)(updated.operations, { ...o, get: (id) => client.getOperation(id) });
        }
        if (!expiresAt)
            return updated.branch.expires_at ?? branch.expires_at;
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch "${branch.name}" now expires at ${updated.branch.expires_at ?? expiresAt} (expires-in from this run).`);
        return updated.branch.expires_at ?? expiresAt;
    }
    catch (err) {
        if (expiresAt)
            throw explainExpiryRefusal(err, o.expiresInSeconds);
        // Without expires-in the update only records the use: the branch is still usable, so a warning.
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not record this use of branch "${branch.name}" (${err.message}); \`command: cleanup\` with \`max-age\` counts from its earlier use.`);
        return branch.expires_at;
    }
}
/**
 * A 400 or 422 whose message is about the expiry, on a request that carried
 * `expires_at`, becomes an error that names `expires-in` and its 30-day
 * limit. Other errors are returned as they are.
 */
function explainExpiryRefusal(err, expiresInSeconds) {
    if (expiresInSeconds <= 0 || !(err instanceof _http_js__WEBPACK_IMPORTED_MODULE_1__/* .HttpError */ .j$) || ![400, 422].includes(err.status))
        return err;
    if (!/expir|ttl/i.test(err.serviceMessage ?? ''))
        return err;
    const why = err.serviceMessage ? `: "${err.serviceMessage}"` : '';
    return new _http_js__WEBPACK_IMPORTED_MODULE_1__/* .HttpError */ .j$(`Neon refused the branch expiry that input \`expires-in\` asks for (sent as \`branch.expires_at\`; HTTP ${err.status}${why}). ` +
        `Neon keeps a branch at most ${MAX_EXPIRES_IN_SECONDS / 86400} days ahead (Neon docs, branch expiration). ` +
        'If the project does not accept branch expiry, remove `expires-in` and sweep old branches with `command: cleanup` and `max-age` instead.', err.status, err.serviceMessage);
}


/***/ }),

/***/ 4077:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $_: () => (/* binding */ parseMaskingRules),
/* harmony export */   Gb: () => (/* binding */ sameRules),
/* harmony export */   J6: () => (/* binding */ fromPlatformRules),
/* harmony export */   Qy: () => (/* binding */ toPlatformRules),
/* harmony export */   Sc: () => (/* binding */ MaskingRulesError),
/* harmony export */   XQ: () => (/* binding */ maskingLabel),
/* harmony export */   cf: () => (/* binding */ ruleSecrets)
/* harmony export */ });
/* unused harmony export sqlLiteral */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8815);
/**
 * The `masking-rules` input: YAML or JSON in the input, or `@path/to/file`,
 * a list of rules in either of two shapes (each rule one or the other):
 *
 * - ours: `{database?, schema, table, column, function | value}`, where
 *   `value` is a literal: a YAML string goes out as an SQL string literal
 *   (quotes doubled), a number as a number, `null` as `NULL`, a boolean as
 *   `true`/`false`;
 * - Neon's (the API's MaskingRule, as neondatabase/create-branch-action's
 *   `masking_rules` takes it): `{database_name?, schema_name, table_name,
 *   column_name, masking_function | masking_value}`, where `masking_value`
 *   is SQL text passed through as is (Neon docs, data anonymization: a static
 *   literal value such as `'REDACTED'`, `0` or `NULL`).
 *
 * Parsed and validated before any network call; the result maps 1:1 onto
 * Neon's MaskingRule (Neon API spec, `public-v2-for-users.gen.yaml`).
 *
 * The spec marks every MaskingRule field `x-sensitive`; a value or a
 * function's literal argument could carry real data (a salt), so
 * {@link ruleSecrets} names them for the runner's log masking, leaving out
 * what masking would only garble the log with: strings under 4 characters,
 * numbers, booleans, NULL and column names (which the comment shows).
 */



/** A `masking-rules` input the action refuses; the message names the input, the rule and what to fix. */
class MaskingRulesError extends Error {
    constructor(message) {
        super(message);
        this.name = 'MaskingRulesError';
    }
}
const KEYS = ['database', 'schema', 'table', 'column', 'function', 'value'];
/** Neon API spec, MaskingRule: the keys of Neon's shape, in the order of {@link KEYS}. */
const NEON_KEYS = ['database_name', 'schema_name', 'table_name', 'column_name', 'masking_function', 'masking_value'];
/** PostgreSQL's identifier limit: NAMEDATALEN - 1 = 63 bytes. */
const MAX_IDENTIFIER_BYTES = 63;
/** A function call: an optionally schema-qualified name, then `(arguments)`. */
const CALL = /^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*\s*\(([\s\S]*)\)$/;
function fail(where, what) {
    throw new MaskingRulesError(`Input \`masking-rules\`${where}: ${what}`);
}
function identifier(v, key, where) {
    if (typeof v !== 'string' || v === '')
        fail(where, `\`${key}\` must be a non-empty name; got ${JSON.stringify(v) ?? 'nothing'}.`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(v) || v !== v.trim())
        fail(where, `\`${key}\` ${JSON.stringify(v)} must have no control characters and no leading or trailing spaces.`);
    if (Buffer.byteLength(v) > MAX_IDENTIFIER_BYTES)
        fail(where, `\`${key}\` "${v}" is longer than PostgreSQL's ${MAX_IDENTIFIER_BYTES} bytes.`);
    return v;
}
/** An SQL literal for a YAML/JSON scalar: a string quoted (quotes doubled), a finite number, `true`/`false`, `NULL`; undefined for anything else. */
function sqlLiteral(v) {
    if (v === null)
        return 'NULL';
    if (typeof v === 'string')
        return `'${v.replace(/'/g, "''")}'`;
    if (typeof v === 'number' && Number.isFinite(v))
        return String(v);
    if (typeof v === 'boolean')
        return String(v);
    return undefined;
}
/** One entry of the list, checked; `e` in our shape or in Neon's (keys named by `keys`). */
function ruleOf(entry, i) {
    const where = ` (rule ${i + 1})`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
        fail(where, "each rule must be a mapping {schema, table, column, function | value} (or Neon's {schema_name, table_name, column_name, masking_function | masking_value}).");
    const e = entry;
    const neon = Object.keys(e).some((k) => NEON_KEYS.includes(k));
    const keys = neon ? NEON_KEYS : KEYS;
    const [dbKey, schemaKey, tableKey, columnKey, functionKey, valueKey] = keys;
    const unknown = Object.keys(e).filter((k) => !keys.includes(k));
    if (unknown.length)
        fail(where, `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `\`${k}\``).join(', ')}; a rule has ${keys.map((k) => `\`${k}\``).join(', ')}` +
            (neon ? " (Neon's shape; do not mix it with `schema`, `table`, …)" : '') +
            '.');
    const rule = {
        schema: identifier(e[schemaKey], schemaKey, where),
        table: identifier(e[tableKey], tableKey, where),
        column: identifier(e[columnKey], columnKey, where)
    };
    if (e[dbKey] !== undefined)
        rule.database = identifier(e[dbKey], dbKey, where);
    const at = ` (rule ${i + 1}, ${rule.schema}.${rule.table}.${rule.column})`;
    const hasFunction = e[functionKey] !== undefined && e[functionKey] !== null;
    const hasValue = e[valueKey] !== undefined;
    if (hasFunction === hasValue)
        fail(at, `give exactly one of \`${functionKey}\` (for example anon.fake_email()) or \`${valueKey}\` (${neon ? "SQL text such as 'REDACTED' or 0" : 'a literal'}).`);
    if (hasFunction) {
        const f = typeof e[functionKey] === 'string' ? e[functionKey].trim() : '';
        if (!CALL.test(f))
            fail(at, `\`${functionKey}\` must be a call such as anon.fake_email() or anon.partial(column, 2, '***', 2).`);
        rule.function = f;
    }
    else if (neon) {
        // Neon's masking_value is SQL text: sent as given.
        if (typeof e.masking_value !== 'string' || e.masking_value.trim() === '')
            fail(at, "`masking_value` must be SQL text such as 'REDACTED', 0 or NULL (quote it in YAML).");
        rule.value = e.masking_value;
    }
    else {
        const sql = sqlLiteral(e.value);
        if (sql === undefined)
            fail(at, '`value` must be a string, a number, a boolean or null.');
        rule.value = sql;
    }
    return rule;
}
/**
 * Parses the `masking-rules` input.
 * @param text the input: YAML or JSON, or `@path` (relative to `cwd`)
 * @param cwd the directory `@path` is relative to (the workspace)
 * @returns the rules in input order; an empty list when the input is empty.
 * @throws MaskingRulesError for an unreadable file, bad YAML/JSON, a wrong
 *   shape, a bad name, neither or both of `function`/`value`, or a column named twice.
 */
function parseMaskingRules(text, cwd = process.cwd()) {
    let source = text.trim();
    if (source === '')
        return [];
    let origin = '';
    if (source.startsWith('@')) {
        const file = node_path__WEBPACK_IMPORTED_MODULE_1___default().resolve(cwd, source.slice(1).trim());
        origin = ` (file ${source.slice(1).trim()})`;
        try {
            source = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(file, 'utf8');
        }
        catch (err) {
            fail(origin, `cannot read the file: ${err.code ?? err.message}.`);
        }
    }
    let doc;
    try {
        doc = (0,yaml__WEBPACK_IMPORTED_MODULE_2__/* .parse */ .qg)(source); // YAML 1.2 is a superset of JSON
    }
    catch (err) {
        fail(origin, `not valid YAML or JSON: ${err.message.split('\n')[0]}`);
    }
    if (!Array.isArray(doc) || doc.length === 0)
        fail(origin, 'must be a non-empty list of rules, each {schema, table, column, function | value}.');
    const rules = doc.map(ruleOf);
    const seen = new Set();
    for (const r of rules) {
        const key = JSON.stringify([r.database ?? '', r.schema, r.table, r.column]);
        if (seen.has(key))
            fail(origin, `column ${r.schema}.${r.table}.${r.column} has more than one rule.`);
        seen.add(key);
    }
    return rules;
}
/** Shortest string worth masking in the log: shorter ones (`0`, `N/A`) would garble it and carry nothing personal. */
const MIN_SECRET = 4;
/** A number, a boolean or NULL in SQL: a replacement constant, nothing to mask. */
const CONSTANT = /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|true|false|null)$/i;
/** A plain or quoted identifier (a column name, which the comment shows). */
const NAME = /^(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")$/;
/** Splits `a, 'b, c', 3` into its arguments, keeping quoted strings whole. */
function splitArguments(text) {
    const out = [];
    let cur = '';
    let quote = '';
    let depth = 0;
    for (const ch of text) {
        if (quote) {
            if (ch === quote)
                quote = '';
        }
        else if (ch === "'" || ch === '"')
            quote = ch;
        else if (ch === '(')
            depth++;
        else if (ch === ')')
            depth--;
        else if (ch === ',' && depth === 0) {
            out.push(cur.trim());
            cur = '';
            continue;
        }
        cur += ch;
    }
    if (cur.trim() !== '')
        out.push(cur.trim());
    return out;
}
/**
 * What of one SQL text (a value, an argument) to mask: a string literal's
 * content (and its quoted spelling, when it has a doubled quote), or the text;
 * nothing for a constant, a name or under 4 characters.
 */
function secretsOf(sql) {
    const text = sql.trim();
    const quoted = /^'((?:[^']|'')*)'$/.exec(text);
    const forms = quoted ? [quoted[1].replace(/''/g, "'"), quoted[1]] : CONSTANT.test(text) || NAME.test(text) ? [] : [text];
    return forms.filter((f) => f.trim().length >= MIN_SECRET);
}
/**
 * The strings to mask in the log (Neon API spec: MaskingRule fields are
 * x-sensitive): each value and each argument of each function, as their text
 * (a string literal's content), except strings under 4 characters, numbers,
 * booleans, NULL and column names.
 */
function ruleSecrets(rules) {
    const out = new Set();
    const texts = rules.flatMap((r) => [
        ...(r.value !== undefined ? [r.value] : []),
        ...splitArguments((r.function && CALL.exec(r.function)?.[2]) || '')
    ]);
    for (const t of texts)
        for (const s of secretsOf(t))
            out.add(s);
    return [...out];
}
/** The rules as Neon's API takes them (MaskingRule), `database` defaulting to `database`. */
function toPlatformRules(rules, database) {
    return rules.map((r) => ({
        database_name: r.database ?? database,
        schema_name: r.schema,
        table_name: r.table,
        column_name: r.column,
        ...(r.function !== undefined ? { masking_function: r.function } : { masking_value: r.value })
    }));
}
/**
 * Neon's rules (a branch's `masking_rules`) in the input's shape: the inverse
 * of {@link toPlatformRules}. `withDatabase` false leaves `database` out, as an
 * input that named none gave them.
 */
function fromPlatformRules(rules, withDatabase) {
    return rules.map((r) => ({
        ...(withDatabase ? { database: r.database_name } : {}),
        schema: r.schema_name,
        table: r.table_name,
        column: r.column_name,
        ...(r.masking_function !== undefined ? { function: r.masking_function } : { value: r.masking_value })
    }));
}
/** The function's name without its arguments (`anon.partial`), or `value` for a literal: what the comment may show. */
function maskingLabel(r) {
    if (r.masking_function !== undefined)
        return r.masking_function.replace(/\s*\([\s\S]*$/, '');
    return 'value';
}
/**
 * Whether two rule sets are the same, in any order (platform spec,
 * updateMaskingRules: a PATCH replaces the whole set, so the set is what counts).
 */
function sameRules(a, b) {
    const key = (r) => JSON.stringify([r.database_name, r.schema_name, r.table_name, r.column_name, r.masking_function ?? null, r.masking_value ?? null]);
    const ka = a.map(key).sort();
    const kb = b.map(key).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}


/***/ }),

/***/ 9085:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   OK: () => (/* binding */ OperationError),
/* harmony export */   QC: () => (/* binding */ displayName),
/* harmony export */   "do": () => (/* binding */ transient),
/* harmony export */   fS: () => (/* binding */ summarise),
/* harmony export */   ft: () => (/* binding */ waitForOperations)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6803);
/* harmony import */ var _poll_schedule_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5758);
/* harmony import */ var _project_pace_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4996);
/**
 * Platform operations (Neon operations guide, and the platform's OpenAPI spec where the
 * seed is silent): their shape, their display names, and waiting until the
 * operations a request started are terminal.
 */




/**
 * Terminal statuses that count as success. `cancelled` and `error` are
 * terminal failures; `failed` is NOT terminal (Neon operations guide: it can still be
 * retried). `error` is terminal because the spec lists it beside `failed`
 * (which is the retried state) and gives it the error text: nothing moves an
 * operation out of it, so waiting on it could only end at `wait-timeout`.
 */
const SUCCESS = ['finished', 'skipped'];
const FAILED_TERMINAL = ['cancelled', 'error'];
/** Display names of the Neon operations guide's table; other actions are shown in sentence case. */
const DISPLAY = {
    apply_config: 'Apply config',
    apply_storage_config: 'Apply storage config',
    check_availability: 'Check availability',
    create_branch: 'Create branch',
    // The Neon operations guide spells the display name so
    create_timeline: 'Create timelime',
    delete_tenant: 'Delete tenant',
    start_compute: 'Start compute',
    suspend_compute: 'Suspend compute',
    tenant_attach: 'Tenant attach',
    tenant_detach: 'Tenant detach',
    tenant_reattach: 'Tenant reattach',
    timeline_archive: 'Timeline archive',
    timeline_unarchive: 'Timeline unarchive'
};
/** "Create branch" for `create_branch`; unknown actions in sentence case. */
function displayName(action) {
    return DISPLAY[action] ?? action.charAt(0).toUpperCase() + action.slice(1).replace(/_/g, ' ');
}
/** An operation that ended `cancelled` or `error`, or operations still pending at `wait-timeout`. */
class OperationError extends Error {
    operations;
    constructor(message, operations) {
        super(message);
        this.operations = operations;
        this.name = 'OperationError';
    }
}
/** The report's row of an operation; the duration is `total_duration_ms` when given, else `updated_at` − `created_at`. */
function summarise(op) {
    const seconds = typeof op.total_duration_ms === 'number' ? op.total_duration_ms / 1000 : (Date.parse(op.updated_at) - Date.parse(op.created_at)) / 1000;
    return { name: displayName(op.action), status: op.status, durationSeconds: Number.isFinite(seconds) ? Math.max(0, seconds) : 0 };
}
/** "Create branch, Start compute": the display names of `ops`' actions, each once. */
function names(ops) {
    return [...new Set(ops.map((op) => displayName(op.action)))].join(', ');
}
function table(ops) {
    const rows = ops.map((op) => `  ${displayName(op.action).padEnd(20)} ${op.status.padEnd(11)} failures ${op.failures_count}  id ${op.id}`);
    return rows.join('\n');
}
/** A failure that a later poll may not meet: no answer, 5xx, or 429 after http.ts's own retries. */
function transient(err) {
    return err instanceof _http_js__WEBPACK_IMPORTED_MODULE_1__/* .HttpError */ .j$ && (err.status === 0 || err.status >= 500 || err.status === 429);
}
/**
 * Waits until every operation in `operations` is terminal (Neon operations guide, Polling
 * rule), polling on a schedule (poll-schedule.ts) whose first poll comes a few hundred
 * milliseconds after the request that started them (`since`), or when the project's
 * operations of the same kinds have ended when the run has seen some finish
 * (project-pace.ts), and whose waits grow to `pollIntervalSeconds`. With two or more pending
 * and `list` given, a poll reads them all from one page of the project's newest operations (a
 * create's branch and compute start, which end about together: one request where reading
 * them by id took two). Else, and for those the page does not hold, it reads them one after
 * another, in the given order, and stops at the first not yet successful: one request a poll
 * while the first runs, the rest read as soon as it ended.
 * `finished` and `skipped` are success; `cancelled` and `error` fail as soon
 * as a poll reads them (the message quotes the operation's own `error` text;
 * an operation behind one still running is read once that one succeeded); `failed` is not
 * terminal, so it is waited on and its `failures_count` reported. 5xx,
 * resets and timeouts while polling are logged and polled again.
 * @returns the operations in their terminal state, in the given order.
 * @throws OperationError when one ends `cancelled` or `error`, or when
 *   `waitTimeoutSeconds` pass with some still pending (the message tables them).
 */
async function waitForOperations(operations, options) {
    const latest = new Map(operations.map((op) => [op.id, op]));
    const deadline = Date.now() + options.waitTimeoutSeconds * 1000;
    const pending = () => [...latest.values()].filter((op) => !SUCCESS.includes(op.status) && !FAILED_TERMINAL.includes(op.status));
    const check = () => {
        const errored = [...latest.values()].filter((op) => op.status === 'error');
        if (errored.length) {
            const what = errored.map((op) => `"${displayName(op.action)}" (${op.id}) ended in error: ${op.error ? `"${op.error}"` : 'Neon gave no error text'}`);
            throw new OperationError(`Neon's operation ${what.join('; ')}${errored[0].branch_id ? ` (branch ${errored[0].branch_id})` : ''}.`, errored);
        }
        const cancelled = [...latest.values()].filter((op) => op.status === 'cancelled');
        if (cancelled.length) {
            throw new OperationError(`Neon cancelled ${cancelled.map((op) => `"${displayName(op.action)}" (${op.id})`).join(', ')}${cancelled[0].branch_id ? ` on branch ${cancelled[0].branch_id}` : ''}.`, cancelled);
        }
    };
    /** Takes in `now`, the state of `op` just read, and warns when it turned `failed`. */
    const record = (op, now) => {
        if (now.status === 'failed' && (op.status !== 'failed' || now.failures_count !== op.failures_count)) {
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Operation "${displayName(now.action)}" (${now.id}) is failed with ${now.failures_count} failure(s) so far; Neon retries it, still waiting.`);
        }
        latest.set(op.id, now);
        return now;
    };
    /** Reads `op` again: the operation now, or undefined after a failure a later poll may not meet. */
    const poll = async (op) => {
        try {
            return record(op, await options.get(op.id));
        }
        catch (err) {
            if (!transient(err))
                throw err;
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Polling "${displayName(op.action)}" failed for now (${err.message}); polling again.`);
            return undefined;
        }
    };
    /** The newest page of the project's operations by id, when `list` is given and two or more are pending; undefined else or after a transient failure. */
    const listed = async () => {
        if (!options.list || pending().length < 2)
            return undefined;
        try {
            return new Map((await options.list()).map((op) => [op.id, op]));
        }
        catch (err) {
            if (!transient(err))
                throw err;
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Listing the project's operations failed for now (${err.message}); reading them one by one.`);
            return undefined;
        }
    };
    check();
    _project_pace_js__WEBPACK_IMPORTED_MODULE_3__/* .learnedDurations */ .XT.learn([...latest.values()]);
    const expectedMs = _project_pace_js__WEBPACK_IMPORTED_MODULE_3__/* .learnedDurations */ .XT.expectedMs(pending().map((op) => op.action));
    const schedule = (0,_poll_schedule_js__WEBPACK_IMPORTED_MODULE_2__/* .pollSchedule */ .dI)(options.pollIntervalSeconds, { since: options.since, expectedMs });
    if (expectedMs !== undefined && schedule.headStartMs() > 0)
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Polling ${names(pending())} first in ${(schedule.headStartMs() / 1000).toFixed(1)} s: operations of these kinds took ${(expectedMs / 1000).toFixed(1)} s in this project.`);
    while (pending().length) {
        const left = deadline - Date.now();
        if (left <= 0) {
            throw new OperationError(`Timed out after ${options.waitTimeoutSeconds} s (wait-timeout) waiting for Neon's operations; still pending:\n${table(pending())}`, pending());
        }
        await (0,_poll_schedule_js__WEBPACK_IMPORTED_MODULE_2__/* .sleepNext */ .r3)(schedule, left);
        // One request a poll: the page of the newest operations when it holds them, or while the first
        // pending operation runs that one alone (the next is read only once the one before it succeeded).
        const page = await listed();
        for (const op of pending()) {
            const now = page?.get(op.id);
            if (now)
                record(op, now);
        }
        for (const op of pending()) {
            const now = page?.has(op.id) ? latest.get(op.id) : await poll(op);
            if (!now || !SUCCESS.includes(now.status))
                break;
        }
        check();
    }
    _project_pace_js__WEBPACK_IMPORTED_MODULE_3__/* .learnedDurations */ .XT.learn([...latest.values()]);
    return operations.map((op) => latest.get(op.id));
}


/***/ }),

/***/ 5758:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   dI: () => (/* binding */ pollSchedule),
/* harmony export */   r3: () => (/* binding */ sleepNext)
/* harmony export */ });
/* unused harmony exports POLL_SCHEDULE, PollSchedule */
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6803);
/**
 * When to poll something that ends by itself: Neon's operations, a project
 * busy with other runs' operations, an anonymized branch's masking, a
 * compute slot. The Neon operations guide's polling rule asks for a poll
 * every 5 seconds until the operations are terminal, and no request that
 * starts work before; most operations end within a second or two (create
 * branch and start compute about 1 s each), so a fixed 5 s left a run idle
 * for seconds after its operations had ended. The schedule polls soon and
 * then less and less often, up to `poll-interval`, the guide's rate for a
 * long wait. So it polls more often than the guide at first (8 polls in the
 * first 9 s of a wait, against 2): a few requests more a provision, counted
 * against Neon's rate limit in docs/benchmarks.md.
 *
 * The algorithm is "Equal Jitter" of Marc Brooker, "Exponential Backoff And
 * Jitter" (AWS Architecture Blog, 2015): the n-th wait (n from 0) has the
 * ceiling `min(longest, firstMs · factor^n)` and is drawn at random between
 * `1 − jitter` of that ceiling and the ceiling (with `jitter` 0.5, the post's
 * `temp / 2 + random_between(0, temp / 2)`). Equal rather than Full Jitter
 * (`random_between(0, temp)`): a wait near zero spends a request on a state
 * just read, and at the ceiling Full Jitter polls twice as often as
 * `poll-interval` on average; Equal Jitter keeps every wait within half of
 * its ceiling while runs that started together still drift apart by a
 * random share of each wait, so they do not poll in step.
 */

/**
 * The schedule's constants: the first wait's ceiling in milliseconds, the
 * growth of the ceiling from one wait to the next, and the share of each
 * ceiling that is random. The first poll so comes 175 to 350 ms after the
 * request, the ceilings are 0.35, 0.49, 0.69, 0.96, 1.3, 1.9, 2.6, 3.7 s, then
 * `poll-interval`; in all, a run polls about 0.26, 0.63, 1.1, 1.9, 2.9, 4.3 s
 * after the request (the means), later every 2.5 to 5 s (at the default).
 * Growth 1.4 rather than the post's doubling: the time from an operation's
 * end to the poll that sees it is at most one wait, and with 1.4 a wait is
 * on average about 0.4 of the time already waited (with doubling, about all
 * of it), at the cost of about one more poll for a 1 s operation. The first
 * ceiling puts the third poll about 1.1 s after the request, just after
 * Neon's usual create branch and compute start (about 1 s each).
 */
const POLL_SCHEDULE = { firstMs: 350, factor: 1.4, jitter: 0.5 };
/**
 * The waits of one schedule, one per poll, in milliseconds. Each call of
 * {@link next} gives the wait before the next poll; a new wait (a new
 * request's operations, a new wait for the project) takes a new schedule.
 */
class PollSchedule {
    random;
    n = 0;
    longestMs;
    limitMs;
    firstMs;
    elapsedMs;
    expectedMs;
    raisedMs = 0;
    /** @param random in [0, 1) (injectable for tests) */
    constructor(options, random = Math.random) {
        this.random = random;
        this.longestMs = this.limitMs = Math.max(1, options.longestMs);
        this.firstMs = Math.min(this.longestMs, options.firstMs ?? POLL_SCHEDULE.firstMs);
        this.elapsedMs = Math.max(0, options.elapsedMs ?? 0);
        this.expectedMs = Math.max(0, options.expectedMs ?? 0);
    }
    /** The longest wait now, in milliseconds (see {@link setLongest}). */
    longest() {
        return this.longestMs;
    }
    /**
     * Lowers (or raises back) the longest wait from the next wait on, in
     * milliseconds, never above the schedule's own (`poll-interval`) nor under
     * its first ceiling: a waiting run's share of the polls (project-pace.ts).
     */
    setLongest(ms) {
        this.longestMs = Math.min(this.limitMs, Math.max(this.firstMs, ms));
        this.raisedMs = Math.min(this.raisedMs, this.longestMs);
    }
    /** The ceiling of the next wait, in milliseconds: `min(longest, max(raised, first · factor^n))`. */
    ceilingMs() {
        return Math.min(this.longestMs, Math.max(this.raisedMs, this.firstMs * POLL_SCHEDULE.factor ** this.n));
    }
    /**
     * Lets the ceilings jump to `ms` from the next wait on, however few waits
     * the schedule has had (never above the longest wait): a waiting run that
     * learned that many runs poll with it (project-pace.ts) need not poll at
     * the first waits' pace.
     */
    raiseTo(ms) {
        this.raisedMs = Math.max(this.raisedMs, Math.min(this.limitMs, ms));
    }
    /**
     * The first wait when it comes from `expectedMs` (the time left until the
     * work is expected to end, at most the longest wait), in milliseconds; 0
     * when the schedule starts as usual (no expectation, one already nearly
     * past, or the first wait already taken).
     */
    headStartMs() {
        return this.expectedMs > this.elapsedMs + (1 - POLL_SCHEDULE.jitter) * this.firstMs
            ? Math.min(this.limitMs, this.expectedMs - this.elapsedMs)
            : 0;
    }
    /**
     * The wait before the next poll, in milliseconds: between `(1 − jitter)` of
     * its ceiling and the ceiling; the first call skips what `elapsedMs` covers (see there),
     * and the first wait is the head start when there is one ({@link headStartMs}).
     */
    next() {
        const head = this.headStartMs();
        if (head > 0) {
            // The first poll when operations of these kinds have ended; the next ones a first ceiling apart, growing.
            this.expectedMs = this.elapsedMs = 0;
            return head;
        }
        this.expectedMs = 0;
        let ceiling = this.ceilingMs();
        let wait = this.draw();
        if (this.elapsedMs > 0) {
            while (wait - this.elapsedMs < (1 - POLL_SCHEDULE.jitter) * ceiling) {
                ceiling = this.ceilingMs();
                wait += this.draw();
            }
            wait -= this.elapsedMs;
            this.elapsedMs = 0;
        }
        return wait;
    }
    /** The next wait at random under its ceiling, and the schedule moved on by one. */
    draw() {
        const ceiling = this.ceilingMs();
        this.n++;
        return ceiling * (1 - POLL_SCHEDULE.jitter * this.random());
    }
}
/**
 * A schedule whose longest wait is `pollIntervalSeconds` (`poll-interval`).
 * @param o.since when the request that started the work was sent (milliseconds since the epoch): the schedule counts from it
 * @param o.firstMs the first wait's ceiling, if not {@link POLL_SCHEDULE}'s
 * @param o.expectedMs when the work is expected to end, in milliseconds after `since` (see {@link PollScheduleOptions})
 */
function pollSchedule(pollIntervalSeconds, o = {}) {
    return new PollSchedule({
        longestMs: pollIntervalSeconds * 1000,
        firstMs: o.firstMs,
        elapsedMs: o.since === undefined ? 0 : Date.now() - o.since,
        expectedMs: o.expectedMs
    }, o.random);
}
/**
 * Sleeps the schedule's next wait, cut to `leftMs` (the time left before a
 * deadline). Rejects with CancelledError on a cancel, as http.ts's `sleep`.
 */
async function sleepNext(schedule, leftMs = Infinity, sleepMs = _http_js__WEBPACK_IMPORTED_MODULE_0__/* .sleep */ .yy) {
    await sleepMs(Math.max(0, Math.min(schedule.next(), leftMs)));
}


/***/ }),

/***/ 4996:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Iy: () => (/* binding */ runsPolling),
/* harmony export */   Rr: () => (/* binding */ lowers),
/* harmony export */   XT: () => (/* binding */ learnedDurations),
/* harmony export */   jw: () => (/* binding */ waitCeilingMs),
/* harmony export */   wb: () => (/* binding */ HandoffGaps)
/* harmony export */ });
/* unused harmony exports OperationDurations, TARGET_GAP_MS, MIN_CEILING_MS, MAX_RAISE, CROWDED_GAP_MS */
/** Finished durations kept per action; the expectation is their median. */
const KEPT = 9;
/** Durations of finished operations by action (milliseconds), newest last. */
class OperationDurations {
    byAction = new Map();
    counted = new Set();
    /** Records the `total_duration_ms` of each finished operation not recorded before. */
    learn(ops) {
        for (const op of ops) {
            if (op.status !== 'finished' || typeof op.total_duration_ms !== 'number' || this.counted.has(op.id))
                continue;
            this.counted.add(op.id);
            const list = this.byAction.get(op.action) ?? [];
            list.push(Math.max(0, op.total_duration_ms));
            if (list.length > KEPT)
                list.shift();
            this.byAction.set(op.action, list);
        }
    }
    /**
     * How long operations of these actions take together, in milliseconds: the
     * longest of their medians; undefined when one of them was never seen finished.
     */
    expectedMs(actions) {
        let longest = 0;
        for (const action of actions) {
            const list = this.byAction.get(action);
            if (!list?.length)
                return undefined;
            const sorted = [...list].sort((a, b) => a - b);
            longest = Math.max(longest, sorted[Math.floor(sorted.length / 2)]);
        }
        return actions.length ? longest : undefined;
    }
    /** Forgets everything (tests). */
    clear() {
        this.byAction.clear();
        this.counted.clear();
    }
}
/** The run's learned durations (one project a run). */
const learnedDurations = new OperationDurations();
/**
 * The idle time to aim for between one run's operations and the next's, in
 * milliseconds, when runs queue on a project: the runs waiting poll together
 * about once every 0.2 s (5 listings a second), whatever their number. Measured
 * in docs/benchmarks.md ("Many runs in one project") against 0.25 s: twenty
 * runs 1.25 and 1.31 times the busy time with 257 and 340 requests in the
 * busiest minute, against 1.37 and 1.41 with 295 and 278.
 */
const TARGET_GAP_MS = 200;
/** The mean wait over its ceiling under Equal Jitter (poll-schedule.ts: a wait is drawn between half its ceiling and the ceiling). */
const MEAN_SHARE = 0.75;
/** The shortest longest-wait {@link waitCeilingMs} gives (a lone waiting run polls about every 0.5 s). */
const MIN_CEILING_MS = 700;
/**
 * The most a waiting run's longest wait rises at one poll ({@link waitCeilingMs}).
 * Measured with `npm run bench:queue` (the waits' own code on a simulated clock,
 * docs/benchmarks.md): twenty runs 1.251 times the busy time (median of 500
 * queues) against 1.269 with no bound, forty 1.191 against 1.208, at 1 to 2 %
 * more requests. 1.05 and 1.1 gave twenty 1.241 and 1.247 at a few more
 * requests for forty (464 and 465 in the median minute against 460); 1.5 gave 1.259.
 */
const MAX_RAISE = 1.2;
/** Handoffs a gap is read over: the newest ones, so that it follows the queue as it shortens. */
const GAP_WINDOW = 5;
/** Handoffs needed before a gap is read: below this the second rounding of two starts weighs too much. */
const MIN_HANDOFFS = 3;
/**
 * A gap under this over the first two handoffs of a wait, in milliseconds, is read
 * ({@link HandoffGaps.crowdedGapMs}): only a crowd of runs polling finds the project free so
 * soon, and the reading can only raise a run's longest wait, never lower it. Measured with
 * `npm run bench:queue`: forty runs sent 446 requests in the median minute, 484 to 489 in the
 * 90th percentile and 503 to 509 in the 97th (400 queues, two rounds), against 458 to 461, 499 to
 * 506 and 521 to 539 waiting for a third handoff; twenty runs 1.255 times the busy time against
 * 1.251. Read on one handoff (under 30 to 100 ms), twenty runs took 1.265 to 1.27: one handoff's
 * second rounding gives 0 too often.
 */
const CROWDED_GAP_MS = 60;
/** Handoffs {@link CROWDED_GAP_MS} is read over. */
const CROWDED_HANDOFFS = 2;
/**
 * The project's holds seen during one wait, and the idle gaps between them.
 * Only operations created no earlier than the first one seen running count,
 * so that the gaps are those of the queue the run waits in, not of the
 * project's past.
 */
class HandoffGaps {
    ops = new Map();
    seenAt = new Map();
    floor = Infinity;
    /** @param running the operations running when the wait began */
    constructor(running) {
        for (const op of running) {
            const start = startOf(op);
            if (start !== undefined)
                this.floor = Math.min(this.floor, start);
        }
        this.observe(running);
    }
    /**
     * Takes in a page of the project's operations (newest first, as listed), read at `at` (this machine's clock).
     * An operation whose `created_at` is not a time (a service answer off the spec) is left out.
     */
    observe(page, at = Date.now()) {
        for (const op of page) {
            const start = startOf(op);
            if (start === undefined || start < this.floor)
                continue;
            this.ops.set(op.id, op);
            if (!this.seenAt.has(op.id))
                this.seenAt.set(op.id, at);
        }
    }
    /** Holds seen, by start. */
    holds() {
        const byKey = new Map();
        for (const op of this.ops.values()) {
            const start = startOf(op); // observe() keeps only operations with a start
            const key = `${op.branch_id ?? op.endpoint_id ?? op.id} ${start}`;
            const hold = byKey.get(key) ?? { start, durationMs: 0, pending: false, seenAt: Infinity };
            if (op.status === 'finished' || op.status === 'skipped')
                hold.durationMs = Math.max(hold.durationMs ?? 0, op.total_duration_ms ?? 0);
            else
                hold.pending = true;
            hold.seenAt = Math.min(hold.seenAt, this.seenAt.get(op.id) ?? Infinity);
            byKey.set(key, hold);
        }
        return [...byKey.values()]
            .map((h) => ({ start: h.start, durationMs: h.pending ? undefined : h.durationMs, seenAt: h.seenAt }))
            .sort((a, b) => a.start - b.start);
    }
    /**
     * The mean idle time between consecutive holds over the newest
     * {@link GAP_WINDOW} handoffs whose earlier hold has ended, in
     * milliseconds (at least 0); undefined before {@link MIN_HANDOFFS} were seen.
     * @param sinceMs only handoffs to a hold this run first saw at or after this time (this machine's clock):
     *   the time its own recent waits cover, so that the gap and its mean wait are of the same queue
     */
    gapMs(sinceMs = -Infinity) {
        return this.meanGapMs(sinceMs, MIN_HANDOFFS);
    }
    /**
     * For a wait that has seen fewer handoffs than {@link gapMs} needs: their mean idle time when
     * at least {@link CROWDED_HANDOFFS} were seen and it is under {@link CROWDED_GAP_MS} (many runs
     * poll), else undefined; in milliseconds. Read only to raise a run's longest wait
     * ({@link waitCeilingMs} lowers it only on a gap of 1.5 times the target).
     */
    crowdedGapMs(sinceMs = -Infinity) {
        const gap = this.meanGapMs(sinceMs, CROWDED_HANDOFFS);
        return gap !== undefined && gap < CROWDED_GAP_MS ? gap : undefined;
    }
    /** The mean idle time over the newest {@link GAP_WINDOW} handoffs seen since `sinceMs`; undefined below `minHandoffs`. */
    meanGapMs(sinceMs, minHandoffs) {
        const holds = this.holds();
        let idle = 0;
        let counted = 0;
        for (let i = holds.length - 1; i > 0 && counted < GAP_WINDOW; i--) {
            const before = holds[i - 1];
            if (before.durationMs === undefined || holds[i].seenAt < sinceMs)
                continue;
            idle += holds[i].start - before.start - before.durationMs;
            counted++;
        }
        return counted >= minHandoffs ? Math.max(0, idle / counted) : undefined;
    }
}
/** `created_at` in milliseconds since the epoch; undefined when it is not a time. */
function startOf(op) {
    const ms = Date.parse(op.created_at);
    return Number.isFinite(ms) ? ms : undefined;
}
/**
 * The longest wait of a waiting run's schedule, in milliseconds, from the
 * project's idle gap and the run's own mean wait over the same time: with k
 * runs waiting as this one does, gap ≈ meanWait / (k + 1); so that they poll
 * together about once every {@link TARGET_GAP_MS}, each waits on average
 * (k + 1) · target, and (Equal Jitter: the mean wait is 3/4 of its ceiling)
 * the ceiling is 4/3 of that. The rounding of the starts to the second
 * puts up to ±0.2 s into a gap read over {@link GAP_WINDOW} handoffs, as much
 * as the target itself, so the ceiling follows a gap in one direction at a
 * time: it is lowered only on a gap of at least 1.5 times the target
 * ({@link lowers}), so that runs do not poll more often on a gap the rounding
 * lengthened; on a shorter gap it may only rise (fewer requests). It rises by
 * at most {@link MAX_RAISE} times at a poll, so that a gap the rounding
 * shortened (a true 0.2 s read as 0) does not send the last runs of a queue
 * back to `poll-interval` at once.
 * Between {@link MIN_CEILING_MS} and `longestMs` (`poll-interval`);
 * `currentMs` (the ceiling now) while no gap is known.
 */
function waitCeilingMs(gapMs, meanWaitMs, longestMs, currentMs = longestMs) {
    if (gapMs === undefined || !(meanWaitMs > 0))
        return currentMs;
    let ceiling = (runsPolling(gapMs, meanWaitMs) * TARGET_GAP_MS) / MEAN_SHARE;
    if (!lowers(gapMs))
        ceiling = Math.max(ceiling, currentMs);
    ceiling = Math.min(ceiling, currentMs * MAX_RAISE);
    return Math.min(longestMs, Math.max(Math.min(MIN_CEILING_MS, longestMs), ceiling));
}
/**
 * How many runs poll the project as this one does, this one included (k + 1
 * in {@link waitCeilingMs}): its mean wait over the idle gap, both in
 * milliseconds; not rounded.
 */
function runsPolling(gapMs, meanWaitMs) {
    return meanWaitMs / Math.max(gapMs, 1);
}
/** Whether a gap is long enough to lower a waiting run's ceiling (see {@link waitCeilingMs}); a shorter one may raise it. */
function lowers(gapMs) {
    return gapMs >= 1.5 * TARGET_GAP_MS;
}


/***/ }),

/***/ 6639:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   P: () => (/* binding */ ProjectBusyError),
/* harmony export */   Sz: () => (/* binding */ LIST_AFTER_ATTEMPT),
/* harmony export */   U8: () => (/* binding */ lockedWaitMs),
/* harmony export */   d9: () => (/* binding */ setLockedHandler),
/* harmony export */   rU: () => (/* binding */ retryLocked),
/* harmony export */   s8: () => (/* binding */ LOCKED_RETRY)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6803);
/**
 * HTTP 423 Locked handling (Neon operations guide, Errors): a request that starts work
 * while the project is busy with conflicting operations is refused with 423;
 * resend the same request after a wait that starts at 0.1 s and doubles each
 * time, for at most five attempts in all, then give up. After the first 423
 * of a schedule the run's {@link LockedHandler} may instead wait for the
 * project's running operations (fewer attempts than five is within the rule):
 * another run's create holds the project for a second or more, and the
 * attempts at 0.1, 0.3, 0.7 and 1.5 s would only meet 423 again, twenty or forty
 * runs' at once drawing HTTP 429 from Neon's rate limit.
 */


/**
 * Attempts in all, first wait in milliseconds, and factor (Neon operations guide, Limits: 0.1 s / 2 / 5), and the
 * jitter: each wait is lengthened by up to this fraction of itself, at random (never shortened), so
 * runs that met the same 423 do not all send again at the same instant. The waits are so 100–125,
 * 200–250, 400–500 and 800–1000 ms.
 */
const LOCKED_RETRY = { attempts: 5, firstWaitMs: 100, factor: 2, jitter: 0.25 };
/**
 * The 423 of a schedule after which the handler is first asked whether operations run (see
 * {@link LockedHandler}): the first. A lock that lasts a moment (an operation ending as the
 * first attempt arrived) so costs one listing, which finds nothing running, before the
 * attempts go on; a queue of runs on a busy project saves one create a waiting run (forty
 * runs at once: about 40 of some 700 requests, docs/benchmarks.md).
 */
const LIST_AFTER_ATTEMPT = 1;
/** The wait before attempt `attempt + 1`, in milliseconds; `random` in [0, 1). */
function lockedWaitMs(attempt, random) {
    const base = LOCKED_RETRY.firstWaitMs * LOCKED_RETRY.factor ** (attempt - 1);
    return Math.round(base * (1 + LOCKED_RETRY.jitter * random));
}
/** The project stayed locked through every attempt. */
class ProjectBusyError extends Error {
    attempts;
    requestId;
    /** @param requestId the platform's `request_id` of the last 423, if it sent one */
    constructor(label, attempts, requestId) {
        super(`${label}: the project is busy with other operations (HTTP 423 Locked on all ${attempts} attempts, waiting 0.1 s doubling between them` +
            `${requestId ? `; last request_id ${requestId}` : ''}). ` +
            'Another run, or a system operation such as an availability check, is changing the project; re-run the job in a minute.');
        this.attempts = attempts;
        this.requestId = requestId;
        this.name = 'ProjectBusyError';
    }
}
let handler;
/** Sets (or with undefined clears) the run's {@link LockedHandler}. */
function setLockedHandler(h) {
    handler = h;
}
/**
 * Sends `request` and resends it on HTTP 423 per that rule, with the
 * jitter of {@link LOCKED_RETRY}; after the first 423 (`early`) and the
 * fifth asks the run's {@link LockedHandler} (if any) whether to start a
 * fresh schedule after waiting for the project. Any other
 * outcome is returned or thrown as is. `sleepMs` and `random` are injectable for tests.
 * @throws ProjectBusyError after the fifth 423 when there is no handler or it gives up.
 */
async function retryLocked(label, request, sleepMs = _http_js__WEBPACK_IMPORTED_MODULE_1__/* .sleep */ .yy, random = Math.random) {
    const requestStart = Date.now();
    for (let scheduleStart = requestStart;; scheduleStart = Date.now()) {
        for (let attempt = 1;; attempt++) {
            try {
                return await request();
            }
            catch (err) {
                if (!(err instanceof _http_js__WEBPACK_IMPORTED_MODULE_1__/* .HttpError */ .j$) || err.status !== 423)
                    throw err;
                if (attempt >= LOCKED_RETRY.attempts) {
                    if (handler && (await handler.afterLocked(label, { requestStart, scheduleStart })))
                        break;
                    throw new ProjectBusyError(label, attempt, err.requestId);
                }
                if (attempt === LIST_AFTER_ATTEMPT && handler && (await handler.afterLocked(label, { requestStart, scheduleStart, early: true })))
                    break;
                const wait = lockedWaitMs(attempt, random());
                _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: HTTP 423 Locked (project busy), attempt ${attempt} of ${LOCKED_RETRY.attempts}; retrying in ${wait / 1000} s.`);
                await sleepMs(wait);
            }
        }
    }
}


/***/ }),

/***/ 9694:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CJ: () => (/* binding */ proxyHint),
/* harmony export */   iR: () => (/* binding */ proxiedFetch)
/* harmony export */ });
/* unused harmony export proxyFor */
/* harmony import */ var _actions_http_client_lib_proxy__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9783);
/* harmony import */ var undici__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6752);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7194);
/**
 * The one `fetch` every HTTP request of the action goes through (the Neon
 * API, neon.new and Vercel in http.ts, GitHub in comment/comment.ts). On a
 * runner whose environment names a proxy (GitHub docs, "Using a proxy server
 * with self-hosted runners") it goes through that proxy, read as
 * `@actions/http-client` reads it for GitHub's own actions: its
 * `getProxyUrl` and `checkBypass` (`@actions/http-client/lib/proxy`) pick
 * `https_proxy`/`HTTPS_PROXY` for an `https:` URL and `http_proxy`/
 * `HTTP_PROXY` for an `http:` one, and (`checkBypass`, which it calls)
 * bypass loopback hosts and every `NO_PROXY`/`no_proxy` entry: a host and
 * its subdomains (`corp.example` covers `ghes.corp.example`), `.domain`,
 * `host:port`, `*`.
 * Underneath is undici's `ProxyAgent` (one per proxy, made on first use),
 * as in http-client itself; credentials in the proxy URL are sent as
 * `Proxy-Authorization: Basic` and the password is masked. undici's
 * `EnvHttpProxyAgent` is not used: it is experimental and Node prints a
 * warning (`UNDICI-EHPA`) in every run that makes one.
 * Without a proxy the request goes straight to the host through the same
 * undici: `@actions/core` loads it in every run (through
 * `@actions/http-client`), while the runtime's own `fetch` is a second copy
 * of undici that the run would compile as well (about 40 ms of CPU a run).
 * PostgreSQL connections (pg) are not HTTP and never go through a proxy.
 */



/** One agent per proxy (`http_proxy` and `https_proxy` may name two), by its URL with the credentials. */
const agents = new Map();
/**
 * The proxy a request to `url` goes through, or undefined when it goes
 * straight to the host (no proxy variable for its scheme, or bypassed).
 *
 * http-client's `getProxyUrl` keeps a proxy variable that parses as a URL
 * as it is, so a scheme-less `proxy.corp:3128` (what many runner images
 * set) comes back as a URL whose scheme is `proxy.corp:` and which has no
 * host, and http-client then sends the request direct; `127.0.0.1:3128`
 * does not parse, and it prefixes `http://`. Here a URL whose scheme is
 * not `http:` or `https:` is read with `http://` in front as well (curl's
 * reading of a scheme-less proxy), credentials included. And where
 * http-client drops a variable it cannot decode (`%zz` in the password)
 * and sends the request direct, this throws: the proxy was meant.
 * @param url the request's URL (`http:` or `https:`)
 * @throws Error naming the variable when the proxy's URL cannot be read (a malformed percent-escape); the message holds no part of the URL
 */
function proxyFor(url) {
    const https = url.protocol === 'https:';
    const unreadable = new Error(`the proxy that ${https ? 'HTTPS_PROXY' : 'HTTP_PROXY'} names is not a URL this action can read (write a % in its username or password as %25)`);
    try {
        const proxy = (0,_actions_http_client_lib_proxy__WEBPACK_IMPORTED_MODULE_0__/* .getProxyUrl */ .s)(url);
        if (!proxy) {
            // http-client drops a variable it cannot decode and goes direct; a proxy that is set is used or named as wrong.
            const variable = https ? process.env.https_proxy || process.env.HTTPS_PROXY : process.env.http_proxy || process.env.HTTP_PROXY;
            if (variable && !(0,_actions_http_client_lib_proxy__WEBPACK_IMPORTED_MODULE_0__/* .checkBypass */ .H)(url))
                throw unreadable;
            return undefined;
        }
        const read = proxy.protocol === 'http:' || proxy.protocol === 'https:' ? new URL(proxy.href) : new URL(`http://${proxy.href}`);
        const credentials = { username: decodeURIComponent(read.username), password: decodeURIComponent(read.password) };
        read.username = '';
        read.password = '';
        return { url: read.href, ...credentials };
    }
    catch {
        throw unreadable;
    }
}
/** The agent for `proxy`, made on first use: `Proxy-Authorization: Basic` from its credentials (as http-client sends them), the password masked. */
function agentFor(proxy) {
    const { url, username, password } = proxy;
    const key = JSON.stringify([url, username, password]);
    let agent = agents.get(key);
    if (!agent) {
        // A password of a few characters is not masked: the runner would mask those letters everywhere in the log (it is never logged).
        if (password.length >= 4)
            (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .maskSecret */ .$l)(password);
        const token = username || password ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : undefined;
        agents.set(key, (agent = new undici__WEBPACK_IMPORTED_MODULE_1__.ProxyAgent({ uri: url, ...(token ? { token } : {}) })));
    }
    return agent;
}
/**
 * undici's `fetch`, through the proxy {@link proxyFor} names for `url`
 * when there is one, else straight to the host (undici's global
 * dispatcher). Same arguments and answer as the global `fetch`.
 * @throws what `fetch` throws (a TypeError whose `cause` says why the proxy or the host could not be reached); proxyFor's Error for a proxy URL it cannot read
 */
function proxiedFetch(url, init) {
    const proxy = proxyFor(new URL(url));
    const options = (proxy ? { ...init, dispatcher: agentFor(proxy) } : init);
    return (0,undici__WEBPACK_IMPORTED_MODULE_1__.fetch)(url, options);
}
/**
 * What to add to a "could not reach the service" message for a request to
 * `url`: when it went through a proxy, that it did and how to send it
 * direct; '' when it went straight to the host.
 */
function proxyHint(url) {
    const parsed = new URL(url);
    try {
        if (!proxyFor(parsed))
            return '';
    }
    catch {
        return '';
    }
    const variable = parsed.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
    return ` The request went through the proxy that ${variable} names: check that the proxy is reachable and lets ${parsed.host} through, or add the host to NO_PROXY.`;
}


/***/ }),

/***/ 3015:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G1: () => (/* binding */ ENV_NAME),
/* harmony export */   Jk: () => (/* binding */ writeEnvFile),
/* harmony export */   tU: () => (/* binding */ envVariables)
/* harmony export */ });
/* unused harmony export DEFAULT_ENV_NAMES */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/**
 * The env file the instant service's CLI writes (instant service API, "Command-line
 * output"), kept idempotent: earlier values are replaced, not appended.
 * Its variable names follow the CLI's `--key` and `--prefix` (inputs
 * `env-key` and `env-prefix`).
 */



/** The CLI's defaults (instant service API). */
const DEFAULT_ENV_NAMES = { key: 'DATABASE_URL', prefix: 'PUBLIC_' };
/**
 * A name a shell can `export` and `source .env` can set (POSIX, "Name"):
 * ASCII letters, digits and `_`, not starting with a digit.
 */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The variables the file gets: pooled URL, direct URL, claim URL. */
function envVariables(names) {
    return { url: names.key, direct: `${names.key}_DIRECT`, claim: `${names.prefix}POSTGRES_CLAIM_URL` };
}
const MANAGED_COMMENT = /^# (Claimable Postgres database expires at|Claim it to keep it|preview-postgres)/;
/**
 * Writes the variables of {@link envVariables} (by default `DATABASE_URL`,
 * `DATABASE_URL_DIRECT`, `PUBLIC_POSTGRES_CLAIM_URL`; the claim URL only
 * when `v.claimUrl` is given) and the expiry comment lines into `file`,
 * replacing those variables and comment lines where the file already has
 * them and keeping every other line. `names` must be valid ({@link ENV_NAME};
 * inputs.ts checks them before any network call).
 * The comment lines never contain a secret.
 *
 * The file ends up mode 0600 even when it existed with wider permissions,
 * and no secret is ever in a file others can read: the new content goes
 * into a new file in the same directory, created 0600 (`wx`, so never one
 * that already exists), which then replaces `file` by rename (atomic on
 * POSIX). A reader sees the old file or the new one, never half of it.
 * @throws the file system error (the temporary file is removed).
 */
async function writeEnvFile(file, v, names = DEFAULT_ENV_NAMES) {
    const n = envVariables(names);
    let existing = '';
    try {
        existing = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readFile)(file, 'utf8');
    }
    catch (err) {
        if (err.code !== 'ENOENT')
            throw err;
    }
    const vars = [
        [n.url, v.databaseUrl],
        [n.direct, v.databaseUrlDirect]
    ];
    if (v.claimUrl)
        vars.push([n.claim, v.claimUrl]);
    const managed = new Set([n.url, n.direct, n.claim]);
    const kept = existing.split('\n').filter((line) => {
        const key = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
        return !(key && managed.has(key)) && !MANAGED_COMMENT.test(line);
    });
    while (kept.length && kept[kept.length - 1] === '')
        kept.pop();
    const block = ['# preview-postgres: written by the Preview Postgres action'];
    if (v.expiresAt) {
        block.push(`# Claimable Postgres database expires at: ${new Date(v.expiresAt).toUTCString()}`);
        block.push(`# Claim it to keep it: open the link in ${n.claim}`);
    }
    for (const [k, value] of vars)
        block.push(`${k}="${value.replace(/(["\\$`])/g, '\\$1')}"`);
    const content = [...kept, ...(kept.length ? [''] : []), ...block].join('\n') + '\n';
    const dir = node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname(node_path__WEBPACK_IMPORTED_MODULE_2___default().resolve(file));
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir)(dir, { recursive: true });
    const temp = node_path__WEBPACK_IMPORTED_MODULE_2___default().join(dir, `.${node_path__WEBPACK_IMPORTED_MODULE_2___default().basename(file)}.${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(6).toString('hex')}.tmp`);
    try {
        const handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(temp, 'wx', 0o600);
        try {
            await handle.chmod(0o600); // the umask can only narrow the mode; make it exact
            await handle.writeFile(content);
            await handle.sync();
        }
        finally {
            await handle.close();
        }
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rename)(temp, file);
    }
    catch (err) {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm)(temp, { force: true });
        throw err;
    }
}


/***/ }),

/***/ 7194:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $l: () => (/* binding */ maskSecret),
/* harmony export */   Gz: () => (/* binding */ rememberSecret),
/* harmony export */   fp: () => (/* binding */ redactSecrets)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/**
 * The run's known secrets: every value registered with the runner's masking
 * (`core.setSecret`, `::add-mask::`) through {@link maskSecret}, and every
 * connection string's secret forms (connection.ts, {@link rememberSecret}) the
 * moment it is parsed. The runner masks them in the log only; text that may
 * reach a PR comment, a summary or an error quoting a service's answer goes
 * through {@link redactSecrets} as well.
 */

const known = new Set();
/** Remembers `value` as a secret for {@link redactSecrets}, without telling the runner. Empty strings are ignored. */
function rememberSecret(value) {
    if (value !== '')
        known.add(value);
}
/** Registers `value` with the runner's masking (`core.setSecret`) and remembers it ({@link rememberSecret}). Empty strings are ignored (the runner refuses to mask them). */
function maskSecret(value) {
    if (value === '')
        return;
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(value);
    rememberSecret(value);
}
/**
 * `text` with every known secret replaced by `***` (as the runner shows a
 * masked value), the longest first so that a connection string is replaced
 * whole rather than around its password.
 */
function redactSecrets(text) {
    if (known.size === 0 || text === '')
        return text;
    let out = text;
    for (const secret of [...known].sort((a, b) => b.length - a.length))
        out = out.split(secret).join('***');
    return out;
}


/***/ }),

/***/ 8750:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   d: () => (/* binding */ InputError)
/* harmony export */ });
/**
 * The settings' types: what the action's inputs become once read and
 * checked (inputs.ts reads them). The bottom of the module graph: it imports
 * nothing, so every folder can name these types without importing upward.
 */
/** A wrong input value. The message names the input and what it accepts. */
class InputError extends Error {
    constructor(message) {
        super(message);
        this.name = 'InputError';
    }
}


/***/ }),

/***/ 542:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   j: () => (/* binding */ readVercelSettings),
/* harmony export */   q: () => (/* binding */ forkOf)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1758);
/* harmony import */ var _settings_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8750);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7194);
/**
 * The Vercel wiring's inputs (`vercel-token`, `vercel-project`,
 * `vercel-team`, `vercel-api-url`), read and checked before any network
 * call. The token is masked the moment it is read.
 */




/** Vercel project names: up to 100 lowercase letters, digits, `.`, `_`, `-` (Vercel docs, "Project name"); ids are `prj_…`. */
const PROJECT = /^(prj_[A-Za-z0-9]{1,64}|[a-z0-9._-]{1,100})$/;
/** A team id (`team_…`) or a team's slug (lowercase letters, digits, `-`). */
const TEAM = /^(team_[A-Za-z0-9]{1,64}|[a-z0-9][a-z0-9-]{0,99})$/;
/**
 * The head repository (`owner/repo`) of the event's pull request when it is
 * not the base repository (a fork's PR, under any event: `pull_request`,
 * `pull_request_target`), else undefined.
 */
function forkOf() {
    const pr = _actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.payload.pull_request;
    const head = pr?.head?.repo?.full_name;
    return head !== undefined && head !== `${_actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.repo.owner}/${_actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.repo.repo}` ? head : undefined;
}
/** True when the run is for a fork's PR or Dependabot's: GitHub gives such runs no secrets. */
const withoutSecrets = () => forkOf() !== undefined || _actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.actor === 'dependabot[bot]';
/**
 * Reads the Vercel inputs. `url` checks `vercel-api-url` (inputs.ts's http(s) rule).
 * @returns the settings, or null when the wiring is off: no `vercel-token` and no
 *   `vercel-project`, or a fork's or Dependabot's PR without the secret (one notice says so).
 * @throws InputError when `vercel-token` is set without `vercel-project`, a project or team is malformed,
 *   or `vercel-project` is set and the token is empty in a run that has secrets.
 */
function readVercelSettings(url) {
    const token = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('vercel-token').trim();
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_3__/* .maskSecret */ .$l)(token);
    const project = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('vercel-project').trim();
    const team = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4('vercel-team').trim();
    const apiUrl = url('vercel-api-url', 'https://api.vercel.com');
    if (project && !PROJECT.test(project))
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d(`Input \`vercel-project\` must be a Vercel project's id (prj_…) or name (lowercase letters, digits, ., _, -); got "${project}".`);
    if (team && !TEAM.test(team))
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d(`Input \`vercel-team\` must be a Vercel team's id (team_…) or slug; got "${team}".`);
    if (!token) {
        if (!project)
            return null;
        if (withoutSecrets()) {
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .notice */ .lm("Vercel wiring skipped: `vercel-token` is empty, as GitHub gives no secrets to a fork's or Dependabot's pull request. " +
                'The preview database is made as usual; the Vercel preview keeps the variables it had.');
            return null;
        }
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d('Input `vercel-project` is set but `vercel-token` is empty: pass `vercel-token: ${{ secrets.VERCEL_TOKEN }}` (a Vercel access token with access to the project), or remove `vercel-project`.');
    }
    if (!project)
        throw new _settings_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .d("Input `vercel-token` is set but `vercel-project` is empty: give the Vercel project's id (prj_…) or name.");
    return { token, project, team, apiUrl };
}


/***/ })

};

export const id = 359;
export const ids = [359];
export const modules = {

/***/ 6924:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $f: () => (/* binding */ githubClient),
/* harmony export */   AM: () => (/* reexport safe */ _scope_js__WEBPACK_IMPORTED_MODULE_0__.A),
/* harmony export */   DS: () => (/* binding */ COMMENT_HEADING),
/* harmony export */   I2: () => (/* binding */ commentBody),
/* harmony export */   Ly: () => (/* binding */ anyPreviewRecordOf),
/* harmony export */   My: () => (/* binding */ pullRequestOfEvent),
/* harmony export */   OY: () => (/* binding */ withoutLock),
/* harmony export */   Oi: () => (/* binding */ lockReactionOf),
/* harmony export */   Pe: () => (/* binding */ withMarker),
/* harmony export */   c2: () => (/* binding */ statusOf),
/* harmony export */   dZ: () => (/* binding */ describeGitHubError),
/* harmony export */   nV: () => (/* reexport safe */ _scope_js__WEBPACK_IMPORTED_MODULE_0__.n),
/* harmony export */   we: () => (/* binding */ markerOf),
/* harmony export */   zv: () => (/* binding */ recordOf)
/* harmony export */ });
/* unused harmony exports MAX_GITHUB_WAIT_S, listOurComments */
/* harmony import */ var _scope_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1349);
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1758);
/* harmony import */ var _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9735);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(6856);
/* harmony import */ var bottleneck__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2203);
/* harmony import */ var bottleneck__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(bottleneck__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _proxy_fetch_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9694);
/**
 * The one PR comment this action keeps per pull request: its hidden marker
 * (what it records for the next run), the GitHub client that reads and writes
 * it, and the listing of our own marker comments. The comment lock built on
 * these lives in lock.ts.
 */







/** The record without the lock's fields (`provisioningSince`, `heartbeatAt`, `run`, `reaction`): what it says for reuse. */
function withoutLock(record) {
    const { provisioningSince: _since, heartbeatAt: _beat, run: _run, reaction: _reaction, ...rest } = record;
    return rest;
}
/**
 * The first line of every comment of ours starts with this (report.ts's
 * heading): then `` `<preview-name>` `` for a named preview, then `: `.
 */
const COMMENT_HEADING = '### 🐘 Preview Postgres';
/** A comment's first line as this action writes it. */
const HEADING_LINE = /^### 🐘 Preview Postgres(?: `[^`]+`)?: \S/;
/** The marker: the whole last line of a comment of ours. */
const MARKER_LINE = /^<!-- preview-postgres:v1 (\{.*\}) -->$/;
/** The marker's fields and their JSON types: nothing else is read from it. */
const MARKER_FIELDS = {
    mode: 'string',
    databaseId: 'string',
    expiresAt: 'string',
    branchId: 'string',
    branchName: 'string',
    fingerprint: 'string',
    provisioningSince: 'string',
    heartbeatAt: 'string',
    run: 'string',
    reaction: 'number',
    preview: 'string'
};
/**
 * The hidden marker line for a record (with this process's preview name).
 * `<` and `>` are written as JSON's `\u003c` and `\u003e`, so no value can
 * end the HTML comment (`-->`) and show as Markdown.
 */
function markerOf(record) {
    const json = JSON.stringify((0,_scope_js__WEBPACK_IMPORTED_MODULE_0__/* .commentScope */ .A)() ? { ...record, preview: (0,_scope_js__WEBPACK_IMPORTED_MODULE_0__/* .commentScope */ .A)() } : record);
    return `<!-- preview-postgres:v1 ${json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e')} -->`;
}
/** A comment body of ours: `markdown` (report.ts's rendering, heading first), a blank line, and the marker of `record` as its last line. */
function commentBody(markdown, record) {
    return `${markdown}\n\n${markerOf(record)}`;
}
/** Parses the marker out of a comment body (without its `preview`), or null, also for a marker of another preview. */
function recordOf(body) {
    const found = anyPreviewRecordOf(body);
    return found && found.preview === (0,_scope_js__WEBPACK_IMPORTED_MODULE_0__/* .commentScope */ .A)() ? found.record : null;
}
/**
 * Parses the marker out of a comment body whatever preview it belongs to:
 * the record and its preview name ('' for the PR's one preview), or null.
 * The lock's waiters read every preview's markers, since two names may
 * share a lock reaction ({@link lockReactionOf}).
 *
 * A body counts only when it has this action's whole structure
 * ({@link commentBody}): its first line is the report's heading
 * ({@link COMMENT_HEADING}), the line before its last is blank, and its last
 * line is exactly one marker whose JSON is an object of the known fields of
 * their types (others are dropped) with `mode` `instant` or `branch`. A
 * marker anywhere else (quoted in another comment, or in text a report
 * holds) is not read. Who wrote the comment is the caller's to check.
 */
function anyPreviewRecordOf(body) {
    const lines = body.trimEnd().split(/\r?\n/);
    if (lines.length < 3 || !HEADING_LINE.test(lines[0]) || lines[lines.length - 2].trim() !== '')
        return null;
    const m = MARKER_LINE.exec(lines[lines.length - 1]);
    if (!m)
        return null;
    let parsed;
    try {
        parsed = JSON.parse(m[1]);
    }
    catch {
        return null;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        return null;
    const kept = {};
    for (const [key, value] of Object.entries(parsed)) {
        if (!Object.hasOwn(MARKER_FIELDS, key))
            continue;
        if (typeof value !== MARKER_FIELDS[key])
            return null;
        kept[key] = value;
    }
    const { preview = '', ...record } = kept;
    return record.mode === 'instant' || record.mode === 'branch' ? { record, preview } : null;
}
/** `body` (a comment of ours) with its last line, the marker, made that of `record`. */
function withMarker(body, record) {
    const trimmed = body.trimEnd();
    return `${trimmed.slice(0, trimmed.lastIndexOf('\n') + 1)}${markerOf(record)}`;
}
/** GitHub's reaction contents (REST, reactions) a lock may use: 👀 for the PR's one preview, the others for named previews. */
const LOCK_CONTENTS = ['eyes', 'rocket', 'hooray', 'heart', 'laugh', '+1'];
/**
 * The reaction on the PR that is this preview's lock: 👀 (`eyes`) for the
 * PR's one preview; for a `preview-name`, one of five other contents (not
 * `-1` or `confused`, which read as a verdict on the PR),
 * picked by a hash of the name. GitHub keeps one reaction of a content per
 * user, so two names that hash alike share one lock and wait on each other
 * (safe, only slower); names that hash apart never do.
 */
function lockReactionOf(name = (0,_scope_js__WEBPACK_IMPORTED_MODULE_0__/* .commentScope */ .A)()) {
    if (!name)
        return 'eyes';
    let h = 0;
    for (const ch of name)
        h = (h * 31 + ch.codePointAt(0)) >>> 0;
    return LOCK_CONTENTS[1 + (h % (LOCK_CONTENTS.length - 1))];
}
/** The PR of the triggering event (`pull_request`, `pull_request_target`), or null. */
function pullRequestOfEvent() {
    const pr = _actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.payload.pull_request;
    if (!pr || typeof pr.number !== 'number')
        return null;
    const head = pr.head?.ref ?? '';
    return { ..._actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.repo, number: pr.number, headRef: head };
}
/** Longest wait a GitHub rate limit may ask for before the request is retried, in seconds; beyond it the request fails at once. */
const MAX_GITHUB_WAIT_S = 60;
/**
 * A GitHub client for the comment: every request is abandoned after
 * `timeoutMs` milliseconds; 5xx answers, network errors and timeouts are
 * retried 3 times after 0.5 s, 2 s and 4.5 s (@octokit/plugin-retry; 4xx
 * are not retried by it); rate limits (403/429 with
 * `Retry-After` or `x-ratelimit-reset`) are retried once when the wait is at
 * most 60 s (@octokit/plugin-throttling, whose `secondary rate limit` and
 * `x-ratelimit-remaining: 0` handling is kept). The plugin's spacing of
 * writes (1 s) and of notifying writes (3 s) is turned off: GitHub's advice
 * ("wait at least one second between each request") is for many writes, and
 * a run makes a handful (lock.ts), one at a time.
 */
function githubClient(token, timeoutMs) {
    const withinBudget = (retryAfter, _options, _octokit, retryCount) => retryCount < 1 && retryAfter <= MAX_GITHUB_WAIT_S;
    return _actions_github__WEBPACK_IMPORTED_MODULE_1__/* .getOctokit */ .Q(token, {
        request: {
            fetch: (url, init) => (0,_proxy_fetch_js__WEBPACK_IMPORTED_MODULE_3__/* .proxiedFetch */ .iR)(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
        },
        // 429 is the throttling plugin's alone (plugin-retry would resend it after 0.5 s whatever Retry-After says).
        retry: { retries: 3, retryAfterBaseValue: 500, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
        throttle: {
            onRateLimit: withinBudget,
            onSecondaryRateLimit: withinBudget,
            // One write at a time, no spacing (the plugin's defaults: minTime 1000 ms for writes, 3000 ms for notifying ones).
            write: new (bottleneck__WEBPACK_IMPORTED_MODULE_2___default().Group)({ maxConcurrent: 1, minTime: 0 }),
            notifications: new (bottleneck__WEBPACK_IMPORTED_MODULE_2___default().Group)({ maxConcurrent: 1, minTime: 0 })
        }
    }, _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_4__/* .retry */ .L, _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_5__/* .throttling */ .A);
}
/**
 * Our marker comments on the PR, oldest first: every page of comments
 * (octokit pagination), only those written by `login`, only those carrying a
 * marker.
 * @throws the GitHub error when the comments cannot be read (after the retries).
 */
async function listOurComments(octokit, pr, login) {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        per_page: 100
    });
    const found = [];
    for (const c of comments) {
        if (c.user?.login !== login)
            continue;
        const record = recordOf(c.body ?? '');
        if (record)
            found.push({ id: c.id, record });
    }
    return found.sort((a, b) => a.id - b.id);
}
/** The HTTP status of a GitHub (octokit) error, if it has one. */
const statusOf = (err) => err.status;
/** A GitHub error in words, with what to do for a rate limit, 403 and 404. */
function describeGitHubError(err) {
    const e = err;
    if ((e.status === 403 || e.status === 429) && /rate limit/i.test(e.message ?? '')) {
        return `HTTP ${e.status}: GitHub's rate limit (${e.message}), with a wait longer than ${MAX_GITHUB_WAIT_S} s or a second time`;
    }
    if (e.status === 403) {
        return 'HTTP 403: the token may not write to this pull request (fork PRs and Dependabot get a read-only GITHUB_TOKEN; grant `permissions: pull-requests: write`)';
    }
    if (e.status === 404)
        return 'HTTP 404: the pull request or repository was not found (deleted, or the token cannot see it)';
    return e.status ? `HTTP ${e.status}: ${e.message ?? ''}` : (e.message ?? String(err));
}


/***/ }),

/***/ 2208:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $w: () => (/* binding */ ReserveKeptError),
/* harmony export */   Jz: () => (/* binding */ isRateLimited),
/* harmony export */   Nl: () => (/* binding */ GitHubBudget),
/* harmony export */   nT: () => (/* binding */ budgetOf)
/* harmony export */ });
/* unused harmony exports RESERVE_SHARE, MIN_RESERVE */
/**
 * The share of the hour's limit (`x-ratelimit-limit`) that whatever spends
 * the repository's budget in bulk (the sweep, make-room) leaves to the
 * repository's pull requests: a quarter, 250 of a `GITHUB_TOKEN`'s 1,000
 * (a PR's run needs 5 to 8: lock.ts, LOCK_BUDGET).
 */
const RESERVE_SHARE = 0.25;
/** Requests kept back whatever the limit (one PR's run). */
const MIN_RESERVE = 8;
/** The budget watching each client ({@link GitHubBudget.watch}), so that every spender of one client reads one budget. */
const watching = new WeakMap();
/** The budget that watches `octokit`, made and set watching it when none does yet (then empty until an answer or {@link GitHubBudget.read}). */
function budgetOf(octokit) {
    const known = watching.get(octokit);
    if (known)
        return known;
    const budget = new GitHubBudget();
    budget.watch(octokit);
    return budget;
}
/** What the last answer said about the token's budget. */
class GitHubBudget {
    /** Requests left in the window; undefined until an answer said (or when GitHub sends no rate-limit headers). */
    remaining;
    /** Requests per window (`x-ratelimit-limit`). */
    limit;
    /** When the window resets, milliseconds since the epoch. */
    resetAt;
    /** Requests this run sent through the watched clients. */
    sent = 0;
    /** Reads the headers of every answer (and error answer) of `octokit`, which {@link budgetOf} then answers with this budget. @returns `octokit`. */
    watch(octokit) {
        watching.set(octokit, this);
        const read = (headers) => {
            const remaining = Number(headers?.['x-ratelimit-remaining']);
            if (headers?.['x-ratelimit-remaining'] === undefined || !Number.isFinite(remaining))
                return;
            this.remaining = remaining;
            const limit = Number(headers['x-ratelimit-limit']);
            if (Number.isFinite(limit))
                this.limit = limit;
            const reset = Number(headers['x-ratelimit-reset']);
            if (Number.isFinite(reset))
                this.resetAt = reset * 1000;
        };
        octokit.hook.before('request', () => {
            this.sent++;
        });
        octokit.hook.after('request', (response) => read(response.headers));
        octokit.hook.error('request', (err) => {
            read(err.response?.headers);
            throw err;
        });
        return octokit;
    }
    /** Requests a bulk spender never goes below: {@link RESERVE_SHARE} of the limit, at least {@link MIN_RESERVE}. */
    reserve() {
        return Math.max(MIN_RESERVE, Math.ceil((this.limit ?? 0) * RESERVE_SHARE));
    }
    /**
     * Reads the budget from `GET /rate_limit` (free: GitHub REST docs, "Rate
     * limit") when no answer has said it yet, before any counted request.
     * @returns the requests left ({@link remaining}): undefined when GitHub does not say (no rate limit, an error)
     */
    async read(octokit) {
        if (this.remaining !== undefined)
            return this.remaining;
        try {
            const { core } = (await octokit.rest.rateLimit.get()).data.resources;
            if (Number.isFinite(core.remaining) && this.remaining === undefined)
                Object.assign(this, { remaining: core.remaining, limit: core.limit, resetAt: core.reset * 1000 });
        }
        catch {
            // No rate limit (GitHub Enterprise Server without one), or an error: the answers' headers say later.
        }
        return this.remaining;
    }
    /**
     * When `n` more requests would take the window below {@link reserve}: the
     * time it resets (`x-ratelimit-reset`, milliseconds since the epoch;
     * Infinity when GitHub did not say), which is when a spender that keeps
     * the reserve (the sweep's lock waits) may send them. Undefined when they
     * fit, when nothing is known, or once that time has passed (the figures
     * are the old window's: the next answer gives the new one's).
     */
    pausedUntil(n) {
        if (this.allows(this.reserve() + n))
            return undefined;
        const at = this.resetAt ?? Infinity;
        return Date.now() < at ? at : undefined;
    }
    /** True when at least `n` requests are known to be left, or nothing is known. */
    allows(n) {
        return this.remaining === undefined || this.remaining >= n;
    }
    /** "12 of 1000 requests left, resetting at 21:04 UTC". */
    describe() {
        if (this.remaining === undefined)
            return 'no rate-limit figures from GitHub';
        const at = this.resetAt ? `, resetting at ${new Date(this.resetAt).toISOString().slice(11, 16)} UTC` : '';
        return `${this.remaining} of ${this.limit ?? '?'} requests left${at}`;
    }
}
/** A spender stopped at the {@link GitHubBudget.reserve} (a lock's wait at its deadline): a rate limit to the sweep ({@link isRateLimited}). */
class ReserveKeptError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ReserveKeptError';
    }
}
/**
 * True for GitHub's rate limit (primary or secondary), or a {@link ReserveKeptError}: HTTP 403 or 429 with
 * `x-ratelimit-remaining: 0`, or a message saying "rate limit" (GitHub REST
 * docs, "Rate limits for the REST API": exceeding the primary limit answers
 * 403 or 429 with `x-ratelimit-remaining` 0; a secondary limit says so in
 * its message, with `retry-after`).
 */
function isRateLimited(err) {
    if (err instanceof ReserveKeptError)
        return true;
    const e = err;
    if (e?.status !== 403 && e?.status !== 429)
        return false;
    return String(e.response?.headers?.['x-ratelimit-remaining']) === '0' || /rate limit/i.test(e.message ?? '') || e.status === 429;
}


/***/ }),

/***/ 7466:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Nq: () => (/* binding */ clearLock),
/* harmony export */   an: () => (/* binding */ releaseSavedLock),
/* harmony export */   h3: () => (/* binding */ savedLock),
/* harmony export */   lF: () => (/* binding */ markLock)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _post_state_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8653);
/* harmony import */ var _comment_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6924);
/* harmony import */ var _wait_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9088);
/**
 * The PR's lock as the post step sees it: the main step saves which lock it
 * holds (its reaction's id on the PR) in the runner's step state the moment
 * its reaction exists, clears it once released, and the post step releases
 * a lock still saved (a main step killed, or ended before it released).
 * The release is the same as {@link CommentLock.finish}'s: a comment whose
 * marker still names this run's reaction says the run failed (keeping what
 * it records for reuse, without the lock's fields), then the reaction is
 * deleted from the PR by its id, so a reaction of another run is never
 * touched.
 */




/** This run holds the PR's lock (its reaction `reactionId` on the PR, made by `login`, the token's identity) until {@link clearLock}. */
function markLock(reactionId, login) {
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(_post_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c4.lockComment, JSON.stringify({ reaction: reactionId, login }));
}
/** The lock {@link markLock} saved, from the post step's `STATE_lockComment`; null when none. */
function savedLock(saved) {
    if (!saved)
        return null;
    const v = JSON.parse(saved);
    if (typeof v.reaction !== 'number')
        return null;
    return typeof v.login === 'string' ? { reaction: v.reaction, login: v.login } : { reaction: v.reaction };
}
/** The lock is released (the comment is final). */
function clearLock() {
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(_post_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c4.lockComment, '');
}
/**
 * Releases the lock `saved` names (the post step's `STATE_lockComment`):
 * writes `failedMarkdown` over the PR's comment whose marker still names the
 * saved reaction (found by listing the comments: a user may have deleted the
 * comment and the holder posted it again), then deletes the reaction from
 * the PR. Other runs would take the lock over minutes later; this frees them
 * at once.
 * @returns the reaction released and the comment written (undefined when none named it), or null when nothing was saved
 * @throws the GitHub error of the edit or the delete (a 404 on the reaction is success)
 */
async function releaseSavedLock(octokit, pr, saved, failedMarkdown) {
    const lock = savedLock(saved);
    if (!lock)
        return null;
    const { owner, repo, number } = pr;
    const comments = await octokit
        .paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 })
        .catch(() => []);
    let comment;
    for (const c of comments) {
        if (lock.login !== undefined && c.user?.login !== lock.login)
            continue;
        const record = (0,_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .recordOf */ .zv)(c.body ?? '');
        if (record?.reaction !== lock.reaction)
            continue;
        comment = c.id;
        await octokit.rest.issues.updateComment({
            owner,
            repo,
            comment_id: c.id,
            body: (0,_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .commentBody */ .I2)(failedMarkdown, (0,_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .withoutLock */ .OY)(record))
        });
    }
    await (0,_wait_js__WEBPACK_IMPORTED_MODULE_3__/* .deleteLockReaction */ .A_)(octokit, pr, lock.reaction);
    return { reaction: lock.reaction, comment };
}


/***/ }),

/***/ 9088:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A_: () => (/* binding */ deleteLockReaction),
/* harmony export */   FI: () => (/* binding */ NAME_WITHIN_MS),
/* harmony export */   Uv: () => (/* binding */ waitForRelease),
/* harmony export */   V6: () => (/* binding */ markerComments),
/* harmony export */   _k: () => (/* binding */ STALE_AFTER_MS),
/* harmony export */   hR: () => (/* binding */ ORPHAN_AFTER_MS),
/* harmony export */   m: () => (/* binding */ HEARTBEAT_MS),
/* harmony export */   n9: () => (/* binding */ lockReactionIds)
/* harmony export */ });
/* unused harmony exports POLL_COST, LOCK_REACTION */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6803);
/* harmony import */ var _budget_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2208);
/* harmony import */ var _comment_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6924);
/**
 * The waiting side of the PR's lock (lock.ts has the protocol): its timing
 * constants, the lock reactions on the PR, and the wait until the lock
 * reaction is gone (released, or deleted here by its id when stale or
 * orphaned).
 */




/** How often the holder refreshes `heartbeatAt` in the marker (and so the comment's `updated_at`), in milliseconds. */
const HEARTBEAT_MS = 60_000;
/** A lock whose marker comment GitHub last saw written this long ago (GitHub's clock) is stale: its run is gone. Milliseconds. */
const STALE_AFTER_MS = 5 * 60_000;
/**
 * A lock reaction no marker names for this long, as one waiter watches it,
 * is orphaned, in milliseconds: longer than a heartbeat and its requests, so
 * a holder whose marker a user erased (comment deleted or edited) has
 * written it again well before.
 */
const ORPHAN_AFTER_MS = 3 * 60_000;
/** The holder keeps a take only when its naming write was answered within this long of sending its create, in milliseconds. */
const NAME_WITHIN_MS = 30_000;
/** GitHub requests one look at the lock costs: its reactions, and its marker comment (one page each). */
const POLL_COST = 2;
/** The reaction that is the PR's lock when no `preview-name` is set (comment.ts: lockReactionOf). */
const LOCK_REACTION = 'eyes';
/** Deletes lock reaction `reactionId` on the PR; a 404 (already gone) is success. @throws other GitHub errors. */
async function deleteLockReaction(octokit, pr, reactionId) {
    try {
        await octokit.rest.reactions.deleteForIssue({ owner: pr.owner, repo: pr.repo, issue_number: pr.number, reaction_id: reactionId });
    }
    catch (err) {
        if ((0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .statusOf */ .c2)(err) !== 404)
            throw err;
    }
}
/** The ids of `login`'s lock reactions on the PR itself (all pages). @throws the GitHub error. */
async function lockReactionIds(octokit, pr, login) {
    const reactions = await octokit.paginate(octokit.rest.reactions.listForIssue, {
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        content: (0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .lockReactionOf */ .Oi)(),
        per_page: 100
    });
    return reactions.filter((r) => r.user?.login === login).map((r) => r.id);
}
/** GitHub's clock from a response's `Date` header (milliseconds since the epoch), else this machine's. */
const githubNow = (headers) => {
    const at = Date.parse(headers.date ?? '');
    return Number.isFinite(at) ? at : Date.now();
};
/**
 * `login`'s marker comments on the PR, oldest first (all pages): this
 * preview's, or with `anyPreview` every preview's (`preview-name`).
 * @throws the GitHub error.
 */
async function markerComments(octokit, pr, login, anyPreview = false) {
    const found = [];
    await octokit.paginate(octokit.rest.issues.listComments, { owner: pr.owner, repo: pr.repo, issue_number: pr.number, per_page: 100 }, (response) => {
        const now = githubNow(response.headers);
        for (const c of response.data) {
            const body = c.body ?? '';
            const record = c.user?.login !== login ? null : anyPreview ? ((0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .anyPreviewRecordOf */ .Ly)(body)?.record ?? null) : (0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .recordOf */ .zv)(body);
            if (record)
                found.push({ id: c.id, body: c.body ?? '', record, age: now - Date.parse(c.updated_at) });
        }
        return [];
    });
    return found.sort((a, b) => a.id - b.id);
}
/**
 * Reads the marker that names lock reaction `reactionId`: the comment
 * `commentId` when given, still ours and naming it, else the marker comment
 * of `login` that names it, of any preview (two `preview-name`s may share a
 * lock reaction: comment.ts, lockReactionOf), else this preview's oldest.
 * Null when the PR has no marker comment of `login`.
 * @throws the GitHub error.
 */
async function readMarker(octokit, pr, login, commentId, reactionId) {
    if (commentId !== null) {
        const got = await octokit.rest.issues.getComment({ owner: pr.owner, repo: pr.repo, comment_id: commentId }).catch((err) => {
            if ((0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .statusOf */ .c2)(err) === 404)
                return null;
            throw err;
        });
        const record = got?.data.user?.login === login ? ((0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .anyPreviewRecordOf */ .Ly)(got.data.body ?? '')?.record ?? null) : null;
        if (got && record && (reactionId === undefined || record.reaction === reactionId))
            return { id: commentId, body: got.data.body ?? '', record, age: githubNow(got.headers) - Date.parse(got.data.updated_at) };
    }
    const all = await markerComments(octokit, pr, login, true);
    const naming = reactionId === undefined ? undefined : all.find((m) => m.record.reaction === reactionId);
    if (naming)
        return naming;
    return all.find((m) => (0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .recordOf */ .zv)(m.body) !== null) ?? null;
}
/**
 * Waits until `login`'s lock reaction on the PR is gone: released by its
 * holder, or deleted here by its id when stale or orphaned (lock.ts). Polls
 * the PR's lock reactions and the comment's marker every `pollSeconds`
 * seconds while a look ({@link POLL_COST} requests) leaves the reserve of
 * GitHub's rate limit that the sweep keeps for the repository's pull
 * requests (budget.ts, the budget of `octokit`'s answers); below it the
 * wait slows down to one look when the window resets. Milliseconds for
 * `staleAfterMs` and `orphanAfterMs`.
 * @throws Error naming the comment when the lock is still live at `deadline`
 *   (milliseconds since the epoch); ReserveKeptError when the reserve kept
 *   it from looking again before `deadline`; CancelledError on a cancel.
 */
async function waitForRelease(octokit, pr, seen, deadline, o) {
    const budget = (0,_budget_js__WEBPACK_IMPORTED_MODULE_2__/* .budgetOf */ .nT)(octokit);
    await budget.read(octokit);
    let slowed = false;
    /** Per reaction id: since when this waiter has seen no marker name it (milliseconds since the epoch). */
    const unnamedSince = new Map([[seen.id, Date.now()]]);
    let commentId = null;
    let told = false;
    for (;;) {
        const until = budget.pausedUntil(POLL_COST);
        if (until !== undefined) {
            if (Date.now() >= deadline)
                throw new _budget_js__WEBPACK_IMPORTED_MODULE_2__/* .ReserveKeptError */ .$w(`${lowBudget(pr, budget)} It could not look at the lock again before wait-timeout: re-run ${at(budget.resetAt, 'after')}, or once the other run is done.`);
            if (!slowed)
                _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${lowBudget(pr, budget)} It looks at the lock again ${at(until, 'at')}.`);
            slowed = true;
            await (0,_http_js__WEBPACK_IMPORTED_MODULE_1__/* .sleep */ .yy)(Math.min(until, deadline) - Date.now());
            continue;
        }
        let marker;
        let ids;
        try {
            ids = await lockReactionIds(octokit, pr, seen.login);
            marker = await readMarker(octokit, pr, seen.login, commentId, ids[0]);
            commentId = marker?.id ?? null;
        }
        catch (err) {
            // A GitHub hiccup (after the client's retries): decide nothing on it, keep waiting.
            if (Date.now() >= deadline)
                throw new Error(`Could not read the lock of PR #${pr.number} before wait-timeout: ${(0,_comment_js__WEBPACK_IMPORTED_MODULE_3__/* .describeGitHubError */ .dZ)(err)}.`, { cause: err });
            await (0,_http_js__WEBPACK_IMPORTED_MODULE_1__/* .sleep */ .yy)(Math.min(o.pollSeconds * 1000, Math.max(0, deadline - Date.now())));
            continue;
        }
        const id = ids[0];
        const named = id !== undefined && marker?.record.reaction === id;
        if (!told) {
            // Said once, even when the holder released it meanwhile: the 200 meant another run held it.
            told = true;
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Another run of this PR holds the lock${named ? ` (comment ${marker.id}, provisioning since ${marker.record.provisioningSince})` : ''}: waiting for it.`);
        }
        if (id === undefined)
            return;
        const now = Date.now();
        if (named)
            unnamedSince.delete(id);
        else if (!unnamedSince.has(id))
            unnamedSince.set(id, now);
        let reason = null;
        if (named && marker.age >= o.staleAfterMs) {
            reason = `stale: its comment was last written ${Math.round(marker.age / 1000)} s ago (GitHub's clock)`;
        }
        else if (!named && now - unnamedSince.get(id) >= o.orphanAfterMs) {
            reason = `orphaned: no marker named it for ${o.orphanAfterMs / 1000} s`;
        }
        if (reason) {
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Taking over the lock of PR #${pr.number}: its reaction ${id} is ${reason}.`);
            await deleteLockReaction(octokit, pr, id).catch(() => undefined);
            return;
        }
        if (now >= deadline) {
            throw new Error(`Another run of PR #${pr.number} has been provisioning its preview database since ${named ? marker.record.provisioningSince : 'a moment ago'}` +
                `${marker ? ` (comment ${marker.id})` : ''} and did not finish within wait-timeout. Re-run when it is done; a lock whose run was killed is taken over ` +
                `${o.staleAfterMs / 60_000} minutes after its last heartbeat.`);
        }
        await (0,_http_js__WEBPACK_IMPORTED_MODULE_1__/* .sleep */ .yy)(Math.min(o.pollSeconds * 1000, Math.max(0, deadline - now)));
    }
}
/** "at 21:04 UTC" (`word` first), or "when GitHub's hourly window resets" when the time is not known. */
const at = (ms, word) => ms !== undefined && Number.isFinite(ms) ? `${word} ${new Date(ms).toISOString().slice(11, 16)} UTC` : "when GitHub's hourly window resets";
/** Why a wait for the lock of `pr` slows down: the budget's figures and the reserve it keeps. */
const lowBudget = (pr, budget) => `Another run of PR #${pr.number} holds its lock, and GitHub's rate limit is low (${budget.describe()}): the wait for the lock leaves the last ` +
    `${budget.reserve()} requests of the hour to the repository's pull requests, as the cleanup does.`;


/***/ }),

/***/ 2308:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  YX: () => (/* binding */ ANNOTATION),
  Ih: () => (/* binding */ annotationsOf),
  bf: () => (/* binding */ ownerOf),
  iz: () => (/* binding */ ownerOfRun)
});

// UNUSED EXPORTS: RUN_CLAIM

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/version.ts
/** The action's version, recorded in the annotations of every branch it creates (kept equal to package.json's by a unit test). */
const ACTION_VERSION = '1.0.0';

// EXTERNAL MODULE: ./src/comment/scope.ts
var scope = __webpack_require__(1349);
// EXTERNAL MODULE: ./src/run-source.ts
var run_source = __webpack_require__(7838);
;// CONCATENATED MODULE: ./src/platform/annotations.ts
/**
 * The annotations that mark a branch as this action's (platform spec,
 * AnnotationValueData: string values, at most 50 properties; set with
 * `annotation_value` on create, read from `annotation.value` of
 * `GET /projects/{project_id}/branches/{branch_id}`). `command: cleanup`
 * recognises its branches by these alone, never by name.
 */





/** Annotation keys. */
const ANNOTATION = {
    repository: 'preview-postgres/repository',
    pr: 'preview-postgres/pr',
    headSha: 'preview-postgres/head-sha',
    version: 'preview-postgres/action-version',
    preview: 'preview-postgres/preview-name',
    /** Outside a pull request: `merge-group` or `git-branch` (run-source.ts), what owns the preview. */
    kind: 'preview-postgres/kind',
    /** `git-branch` previews: the git branch's name. */
    gitBranch: 'preview-postgres/git-branch',
    /** The PR comment's id (GitHub REST), recorded for the sweep's direct edit. */
    comment: 'preview-postgres/comment-id',
    /** The GitHub deployment's id, recorded for the sweep's direct `inactive`. */
    deployment: 'preview-postgres/deployment-id',
    /** A value drawn once per run (step): a branch found after a lost create answer is this run's only when it carries it. */
    claim: 'preview-postgres/claim'
};
/** This run's claim (12 hex digits, drawn when the module loads): recorded on the branch it creates. */
const RUN_CLAIM = (0,external_node_crypto_.randomBytes)(6).toString('hex');
/** The annotation values for a branch made for `owner` by this version of the action. */
function annotationsOf(owner) {
    return {
        [ANNOTATION.repository]: owner.repository,
        ...(owner.pr ? { [ANNOTATION.pr]: String(owner.pr) } : {}),
        [ANNOTATION.headSha]: owner.headSha,
        [ANNOTATION.version]: ACTION_VERSION,
        ...(owner.preview ? { [ANNOTATION.preview]: owner.preview } : {}),
        ...(owner.kind ? { [ANNOTATION.kind]: owner.kind } : {}),
        ...(owner.gitBranch ? { [ANNOTATION.gitBranch]: owner.gitBranch } : {}),
        ...(owner.commentId ? { [ANNOTATION.comment]: String(owner.commentId) } : {}),
        ...(owner.deploymentId ? { [ANNOTATION.deployment]: String(owner.deploymentId) } : {}),
        ...(owner.claim ? { [ANNOTATION.claim]: owner.claim } : {})
    };
}
/** A positive safe integer from an annotation's string, else undefined. */
const idOf = (text) => {
    const n = Number(text);
    return text && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
/**
 * Reads the owner back from a branch's annotation values; null when the
 * branch carries no repository and version annotation of ours (a branch that
 * merely looks like ours by name).
 */
function ownerOf(value) {
    const get = (k) => (typeof value?.[k] === 'string' ? value[k] : undefined);
    const repository = get(ANNOTATION.repository);
    const version = get(ANNOTATION.version);
    if (!repository || !version)
        return null;
    const kind = get(ANNOTATION.kind);
    return {
        repository,
        version,
        headSha: get(ANNOTATION.headSha) ?? '',
        pr: idOf(get(ANNOTATION.pr)),
        preview: get(ANNOTATION.preview),
        kind: kind === 'merge-group' || kind === 'git-branch' ? kind : undefined,
        gitBranch: get(ANNOTATION.gitBranch),
        commentId: idOf(get(ANNOTATION.comment)),
        deploymentId: idOf(get(ANNOTATION.deployment)),
        claim: get(ANNOTATION.claim)
    };
}
/** The owner of a branch this run creates: the workflow's repository, its PR and head commit (the PR's head, else the run's commit), and its `preview-name`. */
function ownerOfRun() {
    const { owner, repo } = github/* context */._.repo;
    const pr = github/* context */._.payload.pull_request;
    const source = (0,run_source/* runSource */.Rh)();
    return {
        repository: `${owner}/${repo}`,
        pr: typeof pr?.number === 'number' ? pr.number : undefined,
        headSha: pr?.head?.sha ?? (source.kind === 'merge-group' && source.headSha ? source.headSha : github/* context */._.sha) ?? '',
        preview: (0,scope/* commentScope */.A)() || undefined,
        ...(source.kind === 'merge-group' ? { kind: source.kind } : {}),
        ...(source.kind === 'git-branch' ? { kind: source.kind, gitBranch: source.branch } : {}),
        claim: RUN_CLAIM
    };
}


/***/ }),

/***/ 7243:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cU: () => (/* binding */ explainApiError),
/* harmony export */   w: () => (/* binding */ NeonLimitError)
/* harmony export */ });
/* unused harmony export limitOf */
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6803);
/**
 * Neon API refusals that an input can fix, made into messages that name the
 * input (Neon API spec, error responses `{code, message, request_id}`):
 * 401/403 (the `api-key`), a 404 about the project (`project-id`), and the
 * plan's limits: the branches per project (HTTP 422 `BRANCHES_LIMIT_EXCEEDED`,
 * "branches limit exceeded"; Free and Launch: 10, Scale: 25), the computes
 * active at once ("active endpoints limit exceeded"; 20 per project), and
 * any other "… limit exceeded" (`*_LIMIT_EXCEEDED`).
 */

/**
 * `err` as the action reports it: an {@link HttpError} 401 or 403 names the
 * `api-key` secret, a 404 whose message names the project names
 * `project-id`, a plan limit is a {@link NeonLimitError} that names the
 * limit and the way out; anything else is returned as it is.
 * @param label the request's label, which starts the message
 */
function explainApiError(err, label, projectId) {
    const rid = err instanceof _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$ && err.requestId ? ` (request_id ${err.requestId})` : '';
    const limit = err instanceof _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$ ? limitOf(err) : null;
    if (limit && err instanceof _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$)
        return new NeonLimitError(limit, label, err, rid);
    if (err instanceof _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$ && (err.status === 401 || err.status === 403)) {
        return new _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$(`${label}: Neon refused the API key (HTTP ${err.status}${err.serviceMessage ? `: "${err.serviceMessage}"` : ''})${rid}. ` +
            `Check the \`api-key\` secret and that it can access project ${projectId}.`, err.status, err.serviceMessage, undefined, false, undefined, err.requestId);
    }
    if (err instanceof _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$ && err.status === 404 && /project/i.test(err.serviceMessage ?? '')) {
        return new _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$(`${label}: project "${projectId}" was not found (HTTP 404)${rid}. Check \`project-id\`.`, 404, err.serviceMessage, undefined, false, undefined, err.requestId);
    }
    return err;
}
/**
 * The limit `err` reports: by Neon's error `code` (`BRANCHES_LIMIT_EXCEEDED`,
 * any other `*_LIMIT_EXCEEDED`), else by its message ("branches limit
 * exceeded", "active endpoints limit exceeded", "… limit exceeded"); null for
 * any other error.
 */
function limitOf(err) {
    if (err.code === 'BRANCHES_LIMIT_EXCEEDED')
        return 'branches';
    if (err.code && /^(ACTIVE_)?(ENDPOINTS|COMPUTES?)_LIMIT_EXCEEDED$/.test(err.code))
        return 'computes';
    if (err.code?.endsWith('_LIMIT_EXCEEDED'))
        return 'other';
    const m = err.serviceMessage ?? '';
    if (/branch(es)? limit exceeded|BRANCHES_LIMIT_EXCEEDED/i.test(m))
        return 'branches';
    if (/active endpoints? limit exceeded|compute.*limit exceeded/i.test(m))
        return 'computes';
    if (err.status === 422 && /limit exceeded|_LIMIT_EXCEEDED/i.test(m))
        return 'other';
    return null;
}
/** What to do at each limit, in the action's inputs. */
const WAY_OUT = {
    branches: 'Make room: run `command: cleanup` (it deletes the previews of closed and merged pull requests; with `max-age`, idle ones too; ' +
        '`make-room` does it for one branch at create), set `expires-in` so previews delete themselves, delete branches nobody uses, ' +
        'or move the project to a Neon plan with more branches (Free and Launch: 10 per project, Scale: 25).',
    computes: 'Computes suspend when idle, so the limit passes: re-run the job in a few minutes; a lower `suspend-timeout` frees them sooner. ' +
        'Or suspend computes nobody uses, delete idle previews (`command: cleanup` with `max-age`), or move to a Neon plan with more active computes.',
    other: 'Make room in the project (`command: cleanup`, `max-age`, `expires-in`), or move it to a Neon plan with higher limits.'
};
/** A request refused by one of Neon's plan limits; the message names the limit in Neon's words and the way out. */
class NeonLimitError extends _http_js__WEBPACK_IMPORTED_MODULE_0__/* .HttpError */ .j$ {
    limit;
    label;
    figures;
    constructor(limit, label, err, rid, 
    /** Figures that explain the limit (branches in the project, previews, …), when known. */
    figures = '') {
        super(`${label}: Neon's ${limit === 'branches' ? 'branch limit of the project' : limit === 'computes' ? 'limit on active computes of the project' : 'plan limit'} ` +
            `is reached (HTTP ${err.status}: "${err.serviceMessage ?? ''}")${rid}.${figures ? ` ${figures}` : ''} ${WAY_OUT[limit]}`, err.status, err.serviceMessage, undefined, false, err.retryAfterSeconds, err.requestId);
        this.limit = limit;
        this.label = label;
        this.figures = figures;
        this.name = 'NeonLimitError';
    }
    /** The same error with `figures` added to its message. */
    withFigures(figures) {
        const rid = this.requestId ? ` (request_id ${this.requestId})` : '';
        return new NeonLimitError(this.limit, this.label, this, rid, figures);
    }
}


/***/ }),

/***/ 723:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ deleteBranchAndWait)
/* harmony export */ });
/* harmony import */ var _preview_branch_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5272);
/* harmony import */ var _retry_423_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6639);
/* harmony import */ var _operations_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9085);
/* harmony import */ var _branch_wait_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1441);




/**
 * Deletes `branch` (423 retried per the Neon operations guide, Errors) and waits for the operations
 * the delete started; with `shared`, one DELETE of the sweep is sent at a time and the polls share
 * one listing of the project's operations.
 * @returns those operations; null when the branch was already gone.
 */
async function deleteBranchAndWait(client, branch, o, shared) {
    (0,_preview_branch_js__WEBPACK_IMPORTED_MODULE_0__/* .refuseProtected */ .fZ)(branch, 'delete');
    (0,_branch_wait_js__WEBPACK_IMPORTED_MODULE_3__/* .logArchived */ .Jl)(branch);
    const label = `Delete branch "${branch.name}"`;
    let since = Date.now();
    const attempt = () => {
        since = Date.now();
        return client.deleteBranch(branch.id);
    };
    const ops = shared ? await shared.send(label, attempt) : await (0,_retry_423_js__WEBPACK_IMPORTED_MODULE_1__/* .retryLocked */ .rU)(label, attempt);
    if (ops === null)
        return null;
    return await (0,_operations_js__WEBPACK_IMPORTED_MODULE_2__/* .waitForOperations */ .ft)(ops, {
        ...(0,_branch_wait_js__WEBPACK_IMPORTED_MODULE_3__/* .waitOptions */ .Sn)(client, o),
        since,
        ...(shared ? { get: shared.get, list: undefined } : {})
    });
}


/***/ }),

/***/ 1441:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Jl: () => (/* binding */ logArchived),
/* harmony export */   Sn: () => (/* binding */ waitOptions),
/* harmony export */   fS: () => (/* binding */ waitForPendingOf)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _operations_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9085);
/**
 * Waiting on one branch: the options of a wait for the run's own operations, the wait for the operations
 * still running on a branch before a request changes it (a DELETE or PATCH meets 423 until they end, Neon
 * operations guide), and the log line of an archived branch. Shared by the lifecycle, the delete and the
 * commands that change a branch.
 */


/**
 * Operations a poll lists when it waits for two or more of its own (operations.ts `list`): a request that
 * starts work holds the project until its operations end, so they are among its newest.
 */
const OWN_OPERATIONS_PAGE = 10;
/**
 * The options of operations.ts's wait for this run's own operations: `get` reads one by id, `list` the
 * project's newest page ({@link OWN_OPERATIONS_PAGE}).
 */
function waitOptions(client, o) {
    return {
        pollIntervalSeconds: o.pollIntervalSeconds,
        waitTimeoutSeconds: o.waitTimeoutSeconds,
        get: (id) => client.getOperation(id),
        list: async () => (await client.listOperations(OWN_OPERATIONS_PAGE)).operations
    };
}
/**
 * Waits for the operations still running on `branch` (started within the
 * last hour and since it was created): another run's create, a compute start
 * a cancelled run left, a restore. A DELETE or PATCH meets 423 until they end
 * (Neon operations guide), so every path waits for them first.
 * @returns those operations, in their terminal state (empty when none ran).
 * @throws OperationError, or Error after `waitTimeoutSeconds`.
 */
async function waitForPendingOf(client, branch, o) {
    const since = new Date(Math.max(Date.parse(branch.created_at) || 0, Date.now() - 3600_000)).toISOString();
    const pending = await client.pendingOperationsOf(branch.id, since);
    if (!pending.length)
        return [];
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Waiting for ${pending.length} operation(s) still running on branch "${branch.name}".`);
    return await (0,_operations_js__WEBPACK_IMPORTED_MODULE_1__/* .waitForOperations */ .ft)(pending, waitOptions(client, o));
}
/** The one log line for an archived branch: Neon unarchives it on this access (a `timeline_unarchive` operation, waited out like any other). */
function logArchived(branch) {
    if (branch.current_state === 'archived')
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch "${branch.name}" (${branch.id}) is archived (Neon archives branches unused for a while): Neon unarchives it on this access (operation timeline_unarchive); waiting for it.`);
}


/***/ }),

/***/ 7442:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Jy: () => (/* reexport */ shapes/* PlatformResponseError */.Jy),
  ZF: () => (/* binding */ neonClientOf)
});

// UNUSED EXPORTS: NeonClient

// EXTERNAL MODULE: ./src/http.ts
var http = __webpack_require__(6803);
// EXTERNAL MODULE: ./src/platform/api-errors.ts
var api_errors = __webpack_require__(7243);
// EXTERNAL MODULE: ./src/platform/shapes.ts
var shapes = __webpack_require__(4773);
;// CONCATENATED MODULE: ./src/platform/project-api.ts
/**
 * How the client (client.ts) sends a request to the Neon API v2 (Neon
 * operations guide, authentication): every request is the project's
 * (`/projects/{project_id}…`), sends `Authorization: Bearer <api-key>` and
 * has a timeout; a GET counts as idempotent unless the endpoint says
 * otherwise (http.ts, requestJson, decides what it resends), and a refusal
 * is explained in words of what to fix (api-errors.ts).
 */



/** `request`'s value, or null when the Neon API answered 404 (Not Found). */
async function nullOn404(request) {
    try {
        return await request;
    }
    catch (err) {
        if (err instanceof http/* HttpError */.j$ && err.status === 404)
            return null;
        throw err;
    }
}
/** Sends the requests of one Neon project; the endpoints are the client's (client.ts, NeonClient). */
class NeonProjectApi {
    apiUrl;
    apiKey;
    timeoutMs;
    projectId;
    /**
     * @param apiUrl base address including `/api/v2`
     * @param apiKey secret; already masked by the inputs
     * @param timeoutMs per-request timeout in milliseconds
     */
    constructor(apiUrl, apiKey, timeoutMs, projectId) {
        this.apiUrl = apiUrl;
        this.apiKey = apiKey;
        this.timeoutMs = timeoutMs;
        this.projectId = projectId;
    }
    /** Awaited before each request is sent (its retries aside): a sweep's pace within Neon's rate limit (sweep/pace.ts). */
    pace;
    /**
     * Sends `method path` under the project, after {@link pace}.
     * @returns the answer's JSON object, or null when it had no body (one of `emptyBodyStatuses`)
     * @throws what explainApiError (api-errors.ts) makes of the failure: an input to fix in words, else the error as it was
     */
    async call(label, method, path, options = {}) {
        try {
            await this.pace?.();
            const res = await (0,http/* requestJson */.SS)({
                label,
                method,
                url: `${this.apiUrl}/projects/${encodeURIComponent(this.projectId)}${path}`,
                body: options.body,
                headers: { Authorization: `Bearer ${this.apiKey}` },
                timeoutMs: this.timeoutMs,
                idempotent: options.idempotent ?? method === 'GET',
                retryOn503: options.retryOn503,
                emptyBodyStatuses: options.emptyBodyStatuses
            });
            if (res.body === undefined)
                return null;
            return (0,shapes/* need */.$B)(res.body, 'JSON object', label, shapes/* isObject */.Gv);
        }
        catch (err) {
            throw (0,api_errors/* explainApiError */.cU)(err, label, this.projectId);
        }
    }
    /** A call whose success always has a JSON object body. */
    async callJson(label, method, path, options = {}) {
        const body = await this.call(label, method, path, options);
        return (0,shapes/* need */.$B)(body, 'JSON object', label, shapes/* isObject */.Gv);
    }
}

;// CONCATENATED MODULE: ./src/platform/client.ts
/**
 * The one client of the Neon API v2 (Neon operations guide for operations and
 * authentication; Neon API spec, `public-v2-for-users.gen.yaml` in
 * `@neondatabase/api-client`, checked by `npm run contract`, for the rest).
 * Each method is one endpoint; how a request is sent (the key, the timeout,
 * the sweep's pace, errors in words) is project-api.ts's. Requests that
 * start work are not retried here: callers wrap them in
 * {@link retryLocked} for 423 and never resend them after an unclear failure.
 */




/** Branches asked for per page of List branches (the spec allows 1 to 10000). */
const BRANCH_PAGE_LIMIT = 100;
/** Pages of List branches read before giving up on a lookup. */
const MAX_BRANCH_PAGES = 200;
/** The one client of the Neon API a run uses: built once ({@link neonClientOf}) and passed down. */
class NeonClient extends NeonProjectApi {
    /**
     * One page of `GET /projects/{project_id}/branches?search&sort_by&sort_order&limit&cursor`
     * (platform spec, listProjectBranches: cursor pagination; send `pagination.next`
     * back as `cursor`). Sorted by `created_at` ascending, so pages stay stable while
     * branches are renamed (the default order is `updated_at`).
     * @returns the page's branches and the cursor of the next page, if the response gave one.
     */
    async listBranchesPage(options = {}) {
        const label = options.search ? `List branches matching "${options.search}"` : 'List branches';
        const q = new URLSearchParams({
            ...(options.search ? { search: options.search } : {}),
            sort_by: 'created_at',
            sort_order: 'asc',
            limit: String(options.limit ?? BRANCH_PAGE_LIMIT),
            ...(options.cursor ? { cursor: options.cursor } : {})
        });
        const body = await this.callJson(label, 'GET', `/branches?${q}`);
        const branches = (0,shapes/* need */.$B)(body.branches, '`branches` array', label, Array.isArray).map((b) => (0,shapes/* branchOf */.W0)(b, label));
        const pagination = body.pagination;
        return {
            branches,
            annotations: annotationValues(body.annotations),
            next: typeof pagination?.next === 'string' && pagination.next ? pagination.next : undefined
        };
    }
    /**
     * The first branch that `match` accepts, following `pagination.next` page
     * by page (at most {@link MAX_BRANCH_PAGES} pages; stops on an empty page
     * or a cursor that repeats). `search` narrows the list on the server
     * (platform spec: partial match on name or id), so `match` must still
     * compare exactly.
     */
    async findBranch(match, search) {
        let cursor;
        const seen = new Set();
        for (let page = 0; page < MAX_BRANCH_PAGES; page++) {
            const res = await this.listBranchesPage({ search, cursor });
            const found = res.branches.find(match);
            if (found)
                return found;
            if (!res.next || res.branches.length === 0 || seen.has(res.next))
                return null;
            seen.add(res.next);
            cursor = res.next;
        }
        return null;
    }
    /**
     * Every branch of the project, following `pagination.next` (at most
     * {@link MAX_BRANCH_PAGES} pages; stops on an empty page or a cursor that
     * repeats). For `command: cleanup` and `reset`, which look at all of them.
     * @param annotations filled with each branch's annotation values the list
     *   answered (platform spec, AnnotationsMapResponse: keyed by branch id)
     * @param search only the branches whose name or id contains it (platform spec: partial match)
     */
    async listBranches(annotations, search) {
        const all = [];
        let cursor;
        const seen = new Set();
        for (let page = 0; page < MAX_BRANCH_PAGES; page++) {
            const res = await this.listBranchesPage({ search, cursor });
            all.push(...res.branches);
            for (const [id, value] of res.annotations)
                annotations?.set(id, value);
            if (!res.next || res.branches.length === 0 || seen.has(res.next))
                break;
            seen.add(res.next);
            cursor = res.next;
        }
        return all;
    }
    /** `GET /projects/{project_id}/branches/{branch_id}` (platform spec, getProjectBranch); null on 404. */
    async getBranch(branchId) {
        const label = `Get branch ${branchId}`;
        const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}`));
        return body && (0,shapes/* branchOf */.W0)(body.branch, label);
    }
    /** The branch named exactly `name`, looked up with `search=<name>` and the cursor; null when there is none. */
    findBranchByName(name) {
        return this.findBranch((b) => b.name === name, name);
    }
    /**
     * `POST /projects/{project_id}/branches` with
     * `{endpoints: [{type: "read_write"}], branch: {parent_id, name}}` (Neon operations guide
     * plus the spec's `name` field) and the `extras` of branch-create-extras.ts
     * (expiry, annotations, init source, endpoint settings). Retried on HTTP 503 only (platform spec:
     * a 503 "is always safe to retry"; a duplicate create answers 409, so the
     * name makes it idempotent); never resent after a timeout or a reset, whose
     * outcome the caller finds out by looking the name up. Wrap in retryLocked for 423.
     * @throws HttpError (409 when the name exists, 423 when locked).
     */
    async createBranch(parentId, name, extras = {}) {
        const label = `Create branch "${name}"`;
        const { endpoint, branch, ...top } = extras;
        const body = await this.callJson(label, 'POST', '/branches', {
            body: { endpoints: [{ type: 'read_write', ...endpoint }], branch: { parent_id: parentId, name, ...branch }, ...top },
            idempotent: false,
            retryOn503: true
        });
        return (0,shapes/* createdBranchOf */.qd)(body, label);
    }
    /**
     * `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: {name}}`
     * (platform spec, updateProjectBranch). Retried on 503. Wrap in retryLocked for 423.
     * @returns the renamed branch and the operations the update started (often none).
     * @throws HttpError (409 when another branch has the name).
     */
    async renameBranch(branchId, name) {
        const label = `Rename branch ${branchId} to "${name}"`;
        const body = await this.callJson(label, 'PATCH', `/branches/${encodeURIComponent(branchId)}`, {
            body: { branch: { name } },
            idempotent: false,
            retryOn503: true
        });
        return { branch: (0,shapes/* branchOf */.W0)(body.branch, label), operations: (0,shapes/* operationsOf */.CF)(body.operations, label) };
    }
    /**
     * `DELETE /projects/{project_id}/branches/{branch_id}`.
     * @returns the operations the delete started; null when the branch was
     *   already gone: HTTP 204 with an empty body (platform spec: "Returned if
     *   the branch doesn't exist or has already been deleted"), or 404.
     * Retried on 5xx and network errors like a GET: DELETE is idempotent, and a
     * retry after a lost answer meets 204. Wrap in retryLocked for 423.
     */
    async deleteBranch(branchId) {
        const label = `Delete branch ${branchId}`;
        try {
            const body = await this.call(label, 'DELETE', `/branches/${encodeURIComponent(branchId)}`, {
                idempotent: true,
                emptyBodyStatuses: [204]
            });
            return body === null ? null : (0,shapes/* operationsOf */.CF)(body.operations, label);
        }
        catch (err) {
            if (err instanceof http/* HttpError */.j$ && err.status === 404)
                return null;
            throw err;
        }
    }
    /** `GET /projects/{project_id}/branches/{branch_id}/endpoints`. */
    async listEndpoints(branchId) {
        const label = `List endpoints of branch ${branchId}`;
        const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/endpoints`);
        return (0,shapes/* need */.$B)(body.endpoints, '`endpoints` array', label, Array.isArray);
    }
    /** `GET /projects/{project_id}/branches/{branch_id}/databases`. */
    async listDatabases(branchId) {
        const label = `List databases of branch ${branchId}`;
        const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/databases`);
        return (0,shapes/* need */.$B)(body.databases, '`databases` array', label, Array.isArray);
    }
    /**
     * `GET /projects/{project_id}/branches/{branch_id}/compare_schema?base_branch_id&db_name`
     * (platform spec, getProjectBranchSchemaComparison): the difference between
     * the base branch's schema and this branch's, as text (`diff`, '' when equal).
     */
    async compareSchema(branchId, baseBranchId, database) {
        const label = `Compare the schema of branch ${branchId} with ${baseBranchId}`;
        const q = new URLSearchParams({ base_branch_id: baseBranchId, db_name: database });
        const body = await this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/compare_schema?${q}`);
        return (0,shapes/* need */.$B)(body.diff ?? '', '`diff`', label, (v) => typeof v === 'string');
    }
    /** `GET /projects/{project_id}/connection_uri?branch_id&database_name&role_name&pooled`. A secret: mask it. */
    async connectionUri(branchId, database, role, pooled) {
        const label = `Get ${pooled ? 'pooled' : 'direct'} connection URI of branch ${branchId}`;
        const q = new URLSearchParams({ branch_id: branchId, database_name: database, role_name: role, pooled: String(pooled) });
        const body = await this.callJson(label, 'GET', `/connection_uri?${q}`);
        return (0,shapes/* need */.$B)(body.uri, '`uri`', label, (v) => typeof v === 'string' && /^postgres(ql)?:\/\//.test(v));
    }
    /** `GET /projects/{project_id}/operations/{operation_id}` (Neon operations guide). Not retried here: the poll loop polls again. */
    async getOperation(operationId) {
        const label = `Get operation ${operationId}`;
        const body = await this.callJson(label, 'GET', `/operations/${encodeURIComponent(operationId)}`, { idempotent: false });
        return (0,shapes/* operationsOf */.CF)([body.operation], label)[0];
    }
    /**
     * `GET /projects/{project_id}/operations?limit&cursor` (Neon operations guide): newest
     * first; send the returned `pagination.cursor` with `limit` for the next page.
     */
    async listOperations(limit, cursor) {
        const label = 'List operations';
        const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
        const body = await this.callJson(label, 'GET', `/operations?${q}`);
        const pagination = body.pagination;
        return {
            operations: (0,shapes/* operationsOf */.CF)(body.operations, label),
            cursor: typeof pagination?.cursor === 'string' ? pagination.cursor : undefined
        };
    }
    /**
     * Operations on `branchId` that are not terminal, from the newest pages of
     * the project's operations, stopping at operations older than `since` (ISO
     * 8601) or after `maxPages` pages of `limit`.
     */
    async pendingOperationsOf(branchId, since, limit = 50, maxPages = 5) {
        const out = [];
        let cursor;
        const floor = Date.parse(since) - 1000;
        for (let page = 0; page < maxPages; page++) {
            const res = await this.listOperations(limit, cursor);
            for (const op of res.operations) {
                if (op.branch_id === branchId && !['finished', 'skipped', 'cancelled', 'error'].includes(op.status))
                    out.push(op);
            }
            const oldest = res.operations.at(-1);
            if (!res.cursor || res.operations.length < limit || (oldest && Date.parse(oldest.created_at) < floor))
                break;
            cursor = res.cursor;
        }
        return out;
    }
    /**
     * `PATCH /projects/{project_id}/branches/{branch_id}` with `{branch: update}`
     * (platform spec, updateProjectBranch: 200 BranchOperations). Not retried
     * blindly; wrap in retryLocked for 423.
     */
    async updateBranch(branchId, update) {
        const label = `Update branch ${branchId}`;
        const body = await this.callJson(label, 'PATCH', `/branches/${encodeURIComponent(branchId)}`, {
            body: { branch: update },
            idempotent: false
        });
        return { branch: (0,shapes/* branchOf */.W0)(body.branch, label), operations: (0,shapes/* operationsOf */.CF)(body.operations, label) };
    }
    /**
     * `POST /projects/{project_id}/branches/{branch_id}/restore` (platform spec,
     * restoreProjectBranch: 200 BranchOperations). Sent once; wrap in retryLocked for 423.
     */
    async restoreBranch(branchId, request) {
        const label = `Restore branch ${branchId}`;
        const body = await this.callJson(label, 'POST', `/branches/${encodeURIComponent(branchId)}/restore`, {
            body: request,
            idempotent: false
        });
        return { branch: (0,shapes/* branchOf */.W0)(body.branch, label), operations: (0,shapes/* operationsOf */.CF)(body.operations, label) };
    }
    /**
     * `GET /projects/{project_id}/branches/{branch_id}` with its annotation
     * (platform spec: BranchResponse + AnnotationResponse, `annotation.value`
     * a string map). Null on 404.
     */
    async branchWithAnnotations(branchId) {
        const label = `Get branch ${branchId}`;
        const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}`));
        if (!body)
            return null;
        const value = body.annotation?.value;
        return {
            branch: (0,shapes/* branchOf */.W0)(body.branch, label),
            annotations: value && typeof value === 'object' ? value : {}
        };
    }
    /**
     * `POST /projects/{project_id}/branch_anonymized` with a read-write
     * endpoint, the `extras` of branch-create-extras.ts, the rules, and
     * `start_anonymization: true`. Retried on 503 only, like create branch
     * (the name makes a duplicate answer 409). Wrap in retryLocked for 423.
     * @throws HttpError (409 when the name exists, 423 when locked), PlatformResponseError.
     */
    async createAnonymizedBranch(parentId, name, rules, extras = {}) {
        const label = `Create anonymized branch "${name}"`;
        const { endpoint, branch, annotation_value } = extras;
        const body = await this.callJson(label, 'POST', '/branch_anonymized', {
            body: {
                branch_create: { endpoints: [{ type: 'read_write', ...endpoint }], branch: { parent_id: parentId, name, ...branch } },
                masking_rules: rules,
                start_anonymization: true,
                ...(annotation_value ? { annotation_value } : {})
            },
            idempotent: false,
            retryOn503: true
        });
        return (0,shapes/* createdBranchOf */.qd)(body, label);
    }
    /** `GET …/branches/{branch_id}/anonymized_status`; null on 404 (not an anonymized branch, or gone). */
    async anonymizedStatus(branchId) {
        const label = `Get the anonymization status of branch ${branchId}`;
        const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/anonymized_status`));
        return body && (0,shapes/* need */.$B)(body, '`state`', label, () => typeof body.state === 'string');
    }
    /** `GET …/branches/{branch_id}/masking_rules`; null on 404. */
    async maskingRules(branchId) {
        const label = `Get the masking rules of branch ${branchId}`;
        const body = await nullOn404(this.callJson(label, 'GET', `/branches/${encodeURIComponent(branchId)}/masking_rules`));
        return body && (0,shapes/* need */.$B)(body.masking_rules, '`masking_rules`', label, Array.isArray);
    }
}
/** The client of the settings' project (timeout in seconds from `request-timeout`). */
function neonClientOf(s) {
    return new NeonClient(s.apiUrl, s.apiKey, s.requestTimeoutSeconds * 1000, s.projectId);
}
/** The annotation values of a list's AnnotationsMapResponse (`{<branch id>: {value: {…}}}`), by branch id; empty when absent. */
function annotationValues(map) {
    const out = new Map();
    if (!map || typeof map !== 'object')
        return out;
    for (const [id, data] of Object.entries(map)) {
        const value = data?.value;
        if (value && typeof value === 'object')
            out.set(id, value);
    }
    return out;
}


/***/ }),

/***/ 5272:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Nj: () => (/* binding */ findPreviewAndParent),
/* harmony export */   PK: () => (/* binding */ BranchRefusedError),
/* harmony export */   Q2: () => (/* binding */ UNSEEDED_SUFFIX),
/* harmony export */   fZ: () => (/* binding */ refuseProtected),
/* harmony export */   lu: () => (/* binding */ unseededName),
/* harmony export */   pe: () => (/* binding */ defaultBranchName),
/* harmony export */   wE: () => (/* binding */ findPreviewBranches)
/* harmony export */ });
/* unused harmony export resolveParent */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/**
 * Which branch is the PR's (Neon API spec, listProjectBranches with
 * `search`): its default name, the unseeded name (`<name>~seeding`) it has
 * until its seed completes, the lookup under both names, and the parent it
 * is made from. Refusals are {@link BranchRefusedError}s.
 */

/** A request the action refuses to make, with what to change. */
class BranchRefusedError extends Error {
}
/** `s` with characters other than letters, digits, `.`, `_` and `-` made `-`, no runs of `-`, none at either end. */
function clean(s) {
    return s
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/-{2,}/g, '-')
        .replace(/^-|-$/g, '');
}
/**
 * `preview/pr-<number>-<head ref>` in a PR; outside one, by what owns the
 * preview (run-source.ts): `preview/<git branch>` for a push or
 * `workflow_dispatch` on a branch (and its `delete` event), `preview/queue-<short sha>-<job key>`
 * for a merge group's job, else `preview/<short sha>`. Characters other than letters,
 * digits, `.`, `_` and `-` become `-`, at most 256 characters, then
 * `-<preview name>` for one of several previews of the PR (`preview-name`).
 * A git branch whose name that changes (`feature/x`, which would meet `feature-x`; a name of
 * non-ASCII letters only, which becomes `branch`), or that starts like a PR's or a merge group's preview
 * (`pr-<n>`, `queue-`), gets `-<8 hex digits>` of its exact name's SHA-256 after it, so two git branches, or a
 * git branch and a PR, never share a preview.
 */
function defaultBranchName(pr, sha, previewName = '', source) {
    const suffix = previewName ? `-${previewName}` : '';
    const short = (s) => clean(s).slice(0, 7) || 'local';
    const name = pr
        ? `preview/pr-${pr.number}${pr.headRef ? `-${clean(pr.headRef)}` : ''}`
        : source?.kind === 'git-branch' && source.branch
            ? gitBranchName(source.branch, 256 - suffix.length)
            : source?.kind === 'merge-group'
                ? `preview/queue-${short(source.headSha || sha)}${source.job ? `-${clean(source.job)}` : ''}`
                : `preview/${short(sha)}`;
    return name.slice(0, 256 - suffix.length) + suffix;
}
/**
 * `preview/<git branch>` within `max` characters, the name cleaned (see {@link defaultBranchName}); when
 * cleaning or the cut changed it, `-<first 8 hex digits of SHA-256 of the exact name>` ends it.
 */
function gitBranchName(branch, max) {
    const base = `preview/${clean(branch) || 'branch'}`;
    // `pr-<n>…` and `queue-…` are the names of a PR's and a merge group's previews
    if (base === `preview/${branch}` && base.length <= max && !/^(pr-\d|queue-)/.test(branch))
        return base;
    const tag = `-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(branch).digest('hex').slice(0, 8)}`;
    return base.slice(0, max - tag.length) + tag;
}
/**
 * Refuses to `what` (delete, reset, …) the project's default or a protected branch.
 * @param input the input that named the branch, which the message says to change
 * @throws BranchRefusedError
 */
function refuseProtected(branch, what, input = 'branch-name') {
    if (branch.default || branch.protected) {
        throw new BranchRefusedError(`Refusing to ${what} branch "${branch.name}" (${branch.id}): it is the project's ${branch.default ? 'default' : 'protected'} branch. ` +
            `Set \`${input}\` to a preview branch${input === 'branch-id' ? "'s id" : ' name'}.`);
    }
}
/** Resolves `parent-branch` (an id or a name, looked up with `search`) or the project's default branch. */
async function resolveParent(client, parentBranch) {
    if (parentBranch) {
        const parent = await client.findBranch((b) => b.id === parentBranch || b.name === parentBranch, parentBranch);
        if (!parent)
            throw new BranchRefusedError(`Parent branch "${parentBranch}" was not found in the project (input \`parent-branch\`, an id or a name).`);
        return parent;
    }
    const parent = await client.findBranch((b) => !!b.default);
    if (!parent)
        throw noDefaultBranch();
    return parent;
}
const noDefaultBranch = () => new BranchRefusedError('The project has no default branch; set `parent-branch`.');
/** Marks a branch whose seed has not completed (see the module comment). */
const UNSEEDED_SUFFIX = '~seeding';
/**
 * The unseeded name of the branch `name` until its seed completes:
 * `<name>~seeding`, the name cut so the whole stays within the spec's 256 characters.
 */
function unseededName(name) {
    return name.slice(0, 256 - UNSEEDED_SUFFIX.length) + UNSEEDED_SUFFIX;
}
/**
 * Looks the PR's branch up under both names with one search (`search=` the
 * part both names share), following the cursor through every page.
 */
async function findPreviewBranches(client, name) {
    const { found, match } = previewMatcher(name);
    await client.findBranch(match, name.slice(0, 256 - UNSEEDED_SUFFIX.length));
    return found;
}
/** What {@link findPreviewBranches} fills, and the test it passes each listed branch to (true once both names were seen). */
function previewMatcher(name) {
    const unseeded = unseededName(name);
    const found = { seeded: null, unseeded: null };
    const match = (b) => {
        if (b.name === name)
            found.seeded = b;
        if (b.name === unseeded)
            found.unseeded = b;
        return !!found.seeded && !!found.unseeded;
    };
    return { found, match };
}
/**
 * {@link findPreviewBranches} and {@link resolveParent} together, with one request where the
 * project allows: without `parent-branch`, the first page of List branches (oldest first, at
 * most 100 a page) holds the default branch, and when it is the only page it holds every
 * branch, so the lookup by name needs no request of its own (twenty or forty runs started
 * together send one `GET …/branches` each, not two in the same half second). A named parent,
 * more branches than a page, or a default branch beyond the first page: the two lookups as before.
 * @throws BranchRefusedError as {@link resolveParent} does; HttpError.
 */
async function findPreviewAndParent(client, name, parentBranch) {
    if (parentBranch)
        return { found: await findPreviewBranches(client, name), parent: await resolveParent(client, parentBranch) };
    const first = await client.listBranchesPage();
    let parent = first.branches.find((b) => !!b.default);
    if (!parent && first.next)
        parent = await resolveParent(client, '');
    if (!parent)
        throw noDefaultBranch();
    if (first.next)
        return { found: await findPreviewBranches(client, name), parent };
    const { found, match } = previewMatcher(name);
    first.branches.forEach(match);
    return { found, parent };
}


/***/ }),

/***/ 9142:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   rH: () => (/* binding */ projectWaitSummary),
/* harmony export */   vo: () => (/* binding */ waitForBusyProject)
/* harmony export */ });
/* unused harmony exports describeOperation, ProjectWaiter */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _cancel_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(833);
/* harmony import */ var _http_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6803);
/* harmony import */ var _retry_423_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6639);
/* harmony import */ var _operations_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9085);
/* harmony import */ var _poll_schedule_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(5758);
/* harmony import */ var _project_pace_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(4996);
/**
 * Waiting for a busy project. A request that starts work meets HTTP 423 while
 * the project runs conflicting operations (Neon operations guide, Errors), and Neon's
 * guidance is to "retry with exponential backoff or wait for the in-flight
 * operation to finish" (Neon API reference, Operations). When the first
 * attempt of the backoff (retry-423.ts) met 423, and again when the fifth
 * did, {@link ProjectWaiter} lists the project's running operations (`GET /projects/{project_id}/operations`,
 * newest first, cursor-paginated; platform spec, listProjectOperations), waits
 * until none is running, polling one page of the list on the schedule of
 * every operation wait (poll-schedule.ts: soon, then less often up to the poll
 * interval, with jitter), counted from the first attempt of the schedule (after
 * the first attempt, as if the four left had been spent: 1.5 s more), within
 * `wait-timeout`, and then lets the request be sent
 * again with a fresh schedule. After the first attempt, when nothing is
 * listed running (a system operation the list does not show yet, or one just
 * ended) or `wait-timeout` would pass first, the remaining attempts of the
 * backoff follow. After the fifth, when nothing is running and nothing ended
 * since the schedule began, the 423 has no operation to wait for and the
 * request gives up; an operation that ended since (just before the listing)
 * is a reason to send again, not to give up. While it waits, the run learns
 * the project's pace from what it lists (project-pace.ts): how long each kind
 * of operation takes, for its own create's first poll, and how long the
 * project stands idle between other runs' operations, from which its longest
 * wait follows, so that the runs waiting together poll about as often
 * whether two or forty wait.
 */







/** Statuses after which an operation no longer holds the project (`failed` is retried by the platform, so it still does). */
const ENDED = ['finished', 'skipped', 'cancelled', 'error'];
const running = (op) => !ENDED.includes(op.status);
/** The waits of the 423 attempts an early wait skips, in milliseconds (without their jitter): 1,500. */
const SKIPPED_MS = Array.from({ length: _retry_423_js__WEBPACK_IMPORTED_MODULE_3__/* .LOCKED_RETRY */ .s8.attempts - _retry_423_js__WEBPACK_IMPORTED_MODULE_3__/* .LIST_AFTER_ATTEMPT */ .Sz }, (_x, i) => (0,_retry_423_js__WEBPACK_IMPORTED_MODULE_3__/* .lockedWaitMs */ .U8)(_retry_423_js__WEBPACK_IMPORTED_MODULE_3__/* .LIST_AFTER_ATTEMPT */ .Sz + i, 0)).reduce((a, b) => a + b, 0);
/** The run's own waits (the newest) that its mean wait is taken over when it sets its share of the polls. */
const WAITS_KEPT = 6;
/** Operations per page of the list (the spec allows 1 to 1000). */
const PAGE = 50;
/** Pages read when listing what runs: running operations older than these are not looked for. */
const MAX_PAGES = 4;
/** Operations created longer ago than this (milliseconds) end the listing: the platform's own are short. */
const LIST_HORIZON_MS = 3600_000;
/** "Create branch on branch br-… (running)". */
function describeOperation(op) {
    return `${(0,_operations_js__WEBPACK_IMPORTED_MODULE_4__/* .displayName */ .QC)(op.action)} on branch ${op.branch_id ?? '(none)'} (${op.status}${op.status === 'failed' ? `, ${op.failures_count} failure(s)` : ''})`;
}
class ProjectWaiter {
    reader;
    options;
    random;
    sleepMs;
    waitedMs = 0;
    waitedOn = new Set();
    /**
     * @param options seconds: `poll-interval` (the longest wait between polls) and `wait-timeout` (which bounds all waits of one request)
     * @param random in [0, 1), for the schedule's jitter; `sleepMs` likewise injectable for tests
     */
    constructor(reader, options, random = Math.random, sleepMs = _http_js__WEBPACK_IMPORTED_MODULE_2__/* .sleep */ .yy) {
        this.reader = reader;
        this.options = options;
        this.random = random;
        this.sleepMs = sleepMs;
    }
    /** What this run waited for so far; undefined when it never waited. */
    summary() {
        return this.waitedOn.size ? { seconds: this.waitedMs / 1000, operations: this.waitedOn.size } : undefined;
    }
    /**
     * After the first (`early`) or the last 423 of a schedule: waits for the project's running operations to end.
     * @returns true to send the request again with a fresh schedule; false to go on with the schedule (`early`:
     *   nothing listed running, the listing failed, or `wait-timeout` passed while waiting) or else to give up
     *   (nothing runs, nothing ended since `scheduleStart`); false also when the main flow was cancelled and the
     *   caller is an undo step that must not wait.
     * @throws OperationError when, not `early`, `wait-timeout` (from `requestStart`) passes with operations still
     *   running (the message names them); CancelledError on a cancel while waiting.
     */
    async afterLocked(label, times) {
        if ((0,_cancel_js__WEBPACK_IMPORTED_MODULE_1__/* .isCancelled */ .mm)())
            return false;
        const deadline = times.requestStart + this.options.waitTimeoutSeconds * 1000;
        if (times.early && Date.now() >= deadline)
            return false;
        let listed;
        try {
            listed = await this.list();
        }
        catch (err) {
            if (!(0,_operations_js__WEBPACK_IMPORTED_MODULE_4__/* .transient */ ["do"])(err))
                throw err;
            if (times.early)
                return false;
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: could not list the project's operations (${err.message}); sending again.`);
            return Date.now() < deadline;
        }
        _project_pace_js__WEBPACK_IMPORTED_MODULE_6__/* .learnedDurations */ .XT.learn(listed);
        const now = listed.filter(running);
        if (times.early) {
            if (!now.length)
                return false;
            try {
                // Polls no sooner than the attempts left would have (0.1 + 0.2 + 0.4 + 0.8 s): a create holds the project a second or more.
                await this.waitUntilFree(label, now, deadline, times.scheduleStart - SKIPPED_MS);
            }
            catch (err) {
                if (err instanceof _operations_js__WEBPACK_IMPORTED_MODULE_4__/* .OperationError */ .OK)
                    return false;
                throw err;
            }
            return true;
        }
        if (!now.length) {
            // Updated times have second precision: an operation that ended during the attempts shows an updated_at of at most 1 s before.
            const ended = listed.filter((op) => !running(op) && Date.parse(op.updated_at) >= times.scheduleStart - 1000);
            if (ended.length && Date.now() < deadline) {
                _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: no operation runs now, but ${ended.map(describeOperation).join(', ')} ended meanwhile; sending again.`);
                return true;
            }
            return false;
        }
        await this.waitUntilFree(label, now, deadline, times.scheduleStart);
        return true;
    }
    /** The project's newest operations, page by page, until an older one than the horizon or {@link MAX_PAGES}. */
    async list() {
        const all = [];
        const floor = Date.now() - LIST_HORIZON_MS;
        let cursor;
        for (let page = 0; page < MAX_PAGES; page++) {
            const res = await this.reader.listOperations(PAGE, cursor);
            all.push(...res.operations);
            const oldest = res.operations.at(-1);
            if (!res.cursor || res.operations.length < PAGE || (oldest && Date.parse(oldest.created_at) < floor))
                break;
            cursor = res.cursor;
        }
        return all;
    }
    /**
     * Polls until no operation runs in the project, on the schedule of every operation wait counted from
     * `since` (the first of the 423 attempts, or 1.5 s before it: see afterLocked).
     */
    async waitUntilFree(label, first, deadline, since) {
        const start = Date.now();
        const tracked = new Map(first.map((op) => [op.id, op]));
        const seconds = (ms) => `${Math.max(0, Math.round(ms / 100) / 10)} s`;
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: the project is busy (HTTP 423 on every attempt) with ${first.length} operation(s): ${first.map(describeOperation).join('; ')}. ` +
            `Waiting for the project to be free, polling soon and then at most every ${this.options.pollIntervalSeconds} s (poll-interval), at most ${seconds(deadline - start)} more (wait-timeout).`);
        for (const op of first) {
            this.waitedOn.add(op.id);
            sayIfFailed(label, op);
        }
        const schedule = (0,_poll_schedule_js__WEBPACK_IMPORTED_MODULE_5__/* .pollSchedule */ .dI)(this.options.pollIntervalSeconds, { since, random: this.random });
        const gaps = new _project_pace_js__WEBPACK_IMPORTED_MODULE_6__/* .HandoffGaps */ .wb(first);
        const waits = [];
        let said = this.options.pollIntervalSeconds * 1000;
        try {
            for (;;) {
                const pending = [...tracked.values()].filter(running);
                if (!pending.length)
                    break;
                const left = deadline - Date.now();
                if (left <= 0) {
                    throw new _operations_js__WEBPACK_IMPORTED_MODULE_4__/* .OperationError */ .OK(`${label}: timed out after ${this.options.waitTimeoutSeconds} s (wait-timeout) waiting for the project to be free; ` +
                        `still running: ${pending.map((op) => `${describeOperation(op)} id ${op.id}`).join('; ')}. Nothing was created by this request.`, pending);
                }
                const before = Date.now();
                await (0,_poll_schedule_js__WEBPACK_IMPORTED_MODULE_5__/* .sleepNext */ .r3)(schedule, left, this.sleepMs);
                const page = await this.poll(label, tracked);
                waits.push({ from: before, ms: Date.now() - before });
                if (waits.length > WAITS_KEPT)
                    waits.shift();
                if (!page)
                    continue;
                _project_pace_js__WEBPACK_IMPORTED_MODULE_6__/* .learnedDurations */ .XT.learn(page);
                gaps.observe(page);
                // This run's share of the polls of every run waiting with it (project-pace.ts), over the time of its recent waits.
                const meanWait = waits.reduce((a, w) => a + w.ms, 0) / waits.length;
                // Before three handoffs, only a crowd's short gap is read (to raise the longest wait, never to lower it).
                const gap = gaps.gapMs(waits[0].from) ?? gaps.crowdedGapMs(waits[0].from);
                const ceiling = (0,_project_pace_js__WEBPACK_IMPORTED_MODULE_6__/* .waitCeilingMs */ .jw)(gap, meanWait, this.options.pollIntervalSeconds * 1000, schedule.longest());
                schedule.setLongest(ceiling);
                // Many runs poll with this one: no need for the first waits' pace either.
                if (gap !== undefined && !(0,_project_pace_js__WEBPACK_IMPORTED_MODULE_6__/* .lowers */ .Rr)(gap))
                    schedule.raiseTo(ceiling);
                if (gap !== undefined && Math.abs(ceiling - said) > said / 4) {
                    said = ceiling;
                    const others = Math.max(0, Math.round((0,_project_pace_js__WEBPACK_IMPORTED_MODULE_6__/* .runsPolling */ .Iy)(gap, meanWait)) - 1);
                    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: the project stood idle about ${seconds(gap)} between other runs' operations lately, so ${others > 50 ? 'many' : `about ${others}`} other run(s) seem to wait with this one; ` +
                        `polling at most every ${seconds(ceiling)}.`);
                }
            }
        }
        finally {
            this.waitedMs += Date.now() - start;
        }
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: the project is free after ${seconds(Date.now() - start)} of waiting; sending the request again.`);
    }
    /**
     * One poll: the newest page of the list, and each tracked running operation older than it.
     * @returns the operations read (the page and the older ones), or undefined when the listing failed for now
     */
    async poll(label, tracked) {
        let page;
        try {
            page = (await this.reader.listOperations(PAGE)).operations;
        }
        catch (err) {
            if (!(0,_operations_js__WEBPACK_IMPORTED_MODULE_4__/* .transient */ ["do"])(err))
                throw err;
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: listing the project's operations failed for now (${err.message}); polling again.`);
            return undefined;
        }
        const seen = new Set(page.map((op) => op.id));
        const older = [...tracked.values()].filter((op) => running(op) && !seen.has(op.id));
        for (const op of older) {
            try {
                page.push(await this.reader.getOperation(op.id));
            }
            catch (err) {
                // Gone from the project (404): it no longer holds it.
                if (err instanceof _http_js__WEBPACK_IMPORTED_MODULE_2__/* .HttpError */ .j$ && err.status === 404)
                    tracked.delete(op.id);
                else if (!(0,_operations_js__WEBPACK_IMPORTED_MODULE_4__/* .transient */ ["do"])(err))
                    throw err;
            }
        }
        const added = [];
        for (const now of page) {
            const before = tracked.get(now.id);
            if (!before && !running(now))
                continue;
            if (!before)
                added.push(now);
            sayIfFailed(label, now, before);
            tracked.set(now.id, now);
            this.waitedOn.add(now.id);
        }
        if (added.length)
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`${label}: waiting also for ${added.map(describeOperation).join('; ')}.`);
        return page;
    }
}
/** Warns when `now` turned `failed` or `error` since `before` (or is so when first seen): someone else's operation, so the wait goes on. */
function sayIfFailed(label, now, before) {
    if (now.status !== 'failed' && now.status !== 'error')
        return;
    if (before && now.status === before.status && now.failures_count === before.failures_count)
        return;
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`${label}: operation ${describeOperation(now)}, which this run waits on, ${now.status === 'error' ? `ended in error${now.error ? ` ("${now.error}")` : ''}` : 'failed; the platform retries it'}. ` +
        "It is not this run's operation: still waiting for the project to be free.");
}
let current;
/**
 * Makes `reader`'s project the one whose operations the run waits for after a
 * schedule of 423s (every request that starts work goes through retry-423.ts).
 * @returns the waiter, whose {@link ProjectWaiter.summary} the report shows.
 */
function waitForBusyProject(reader, options) {
    current = new ProjectWaiter(reader, options);
    (0,_retry_423_js__WEBPACK_IMPORTED_MODULE_3__/* .setLockedHandler */ .d9)(current);
    return current;
}
/** What the run waited for a busy project, if it did. */
function projectWaitSummary() {
    return current?.summary();
}


/***/ }),

/***/ 4773:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $B: () => (/* binding */ need),
/* harmony export */   CF: () => (/* binding */ operationsOf),
/* harmony export */   Gv: () => (/* binding */ isObject),
/* harmony export */   Jy: () => (/* binding */ PlatformResponseError),
/* harmony export */   W0: () => (/* binding */ branchOf),
/* harmony export */   bq: () => (/* binding */ ANONYMIZATION_DOCS),
/* harmony export */   qd: () => (/* binding */ createdBranchOf)
/* harmony export */ });
/** A response whose shape is not what the API documents. Never quotes the body (it may hold a password). */
class PlatformResponseError extends Error {
}
function need(value, what, label, check) {
    if (!check(value))
        throw new PlatformResponseError(`${label}: Neon's response has no valid ${what}.`);
    return value;
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v) => typeof v === 'string' && v !== '';
function branchOf(v, label) {
    const b = need(v, '`branch`', label, isObject);
    need(b.id, '`branch.id`', label, isString);
    need(b.name, '`branch.name`', label, isString);
    return b;
}
function operationsOf(v, label) {
    const ops = need(v ?? [], '`operations` array', label, Array.isArray);
    for (const op of ops) {
        const o = need(op, 'operation', label, isObject);
        need(o.id, '`operations[].id`', label, isString);
        need(o.status, '`operations[].status`', label, isString);
        need(o.action, '`operations[].action`', label, isString);
    }
    return ops;
}
/**
 * A create-branch answer (platform spec, CreatedBranch: `branch`, `endpoints`,
 * `operations`, `connection_uris`), checked. Shared by create branch and create anonymized branch.
 * @throws PlatformResponseError when a required part is missing.
 */
function createdBranchOf(body, label) {
    return {
        branch: branchOf(body.branch, label),
        endpoints: need(body.endpoints ?? [], '`endpoints` array', label, Array.isArray),
        operations: operationsOf(body.operations, label),
        connection_uris: need(body.connection_uris ?? [], '`connection_uris` array', label, Array.isArray)
    };
}
/** The Neon docs on anonymized branches, linked from the comment and the errors. */
const ANONYMIZATION_DOCS = 'https://neon.com/docs/workflows/data-anonymization';


/***/ }),

/***/ 3703:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $x: () => (/* binding */ markdownUrl),
/* harmony export */   BP: () => (/* binding */ logLine),
/* harmony export */   D9: () => (/* binding */ markdownCode),
/* harmony export */   p7: () => (/* binding */ markdownText)
/* harmony export */ });
/* unused harmony export MAX_FIELD */
/**
 * Text from outside (a fork's `report-file`, a service's answer) made inert
 * for the one place it goes: one function per destination. Markdown for the
 * PR comment and the job summary ({@link markdownText}, {@link markdownCode})
 * and one line of the job log ({@link logLine}).
 */
/** Longest text any of these functions keeps by default, in characters (before escaping). */
const MAX_FIELD = 1_000;
/** One line: every control character (C0, DEL, C1) and Unicode line or paragraph separator becomes a space. */
function oneLine(text) {
    // eslint-disable-next-line no-control-regex
    return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}
/** `text` cut to `max` characters (UTF-16 units, never inside a surrogate pair), with `…` when cut. */
function capped(text, max) {
    if (text.length <= max)
        return text;
    let end = Math.max(0, max - 1);
    if (/[\ud800-\udbff]/.test(text.charAt(end - 1)))
        end--;
    return `${text.slice(0, end)}…`;
}
/** U+200B ZERO WIDTH SPACE: invisible, and neither a domain character nor a name character of a mention. */
const ZWSP = '\u200b';
/**
 * `text` as Markdown that renders exactly as the characters it holds, on one
 * line, cut to `max` characters first. The rule, from the GitHub Flavored
 * Markdown spec (0.29-gfm) and what GitHub adds to it:
 * - every control character and line separator becomes a space and the ends
 *   are trimmed, so the text cannot end its line: no block (heading, block
 *   quote, alert `> [!NOTE]`, table row, fence) can start after it (spec 4, 5);
 * - these are backslash-escaped (spec 2.4, "Backslash escapes": an escaped
 *   character is literal): `` \ ` * _ [ ] < > & # | ~ $ ``, so no emphasis,
 *   strikethrough, link or image (both need `[`), footnote, code span, raw
 *   HTML, HTML comment, autolink in `<…>`, entity reference (spec 2.5), table
 *   cell separator (spec 4.10) or math can form; so are a leading `-`, `+`
 *   or `=` and the `.` or `)` after leading digits, which could start a list
 *   where the text opens a container (a list item's first line);
 * - a U+200B ZERO WIDTH SPACE goes after every `:`, `@` and `#` that a
 *   non-space follows, and between `www` and `.`: the extended autolinks (spec 6.9) need a literal `www.`,
 *   `://` after their scheme, or an `@` followed by a domain; GitHub's
 *   @mentions, team mentions, `#123` references and `:emoji:` shortcodes
 *   (applied to the rendered text, where backslash escapes are already
 *   gone) need the name right after the sign.
 * `(`, `)`, `!`, `,`, `.`, `'`, `"`, `/`, `;`, `?` and the rest stay as
 * they are: without the characters above they form nothing. Every character may become up to three (`#` → `\#` and
 * the space), so the result is at most `3 * max` characters long.
 */
function markdownText(text, max = MAX_FIELD) {
    return capped(oneLine(text).trim(), max)
        .replace(/[\\`*_[\]<>&#|~$]/g, (c) => `\\${c}`)
        .replace(/^[-+=]/, '\\$&')
        .replace(/^(\d+)([.)])/, '$1\\$2')
        .replace(/[:@#](?=\S)/g, (c) => `${c}${ZWSP}`)
        .replace(/(www)\./gi, `$1${ZWSP}.`);
}
/**
 * A URL for Markdown: as it is (GitHub links it) when it is an http(s) URL
 * in its canonical form (the WHATWG URL Standard's serialization: nothing
 * a parser would read otherwise), else as {@link markdownText}.
 */
function markdownUrl(url) {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    return parsed && parsed.href === url && /^https?:$/.test(parsed.protocol) ? url : markdownText(url);
}
/**
 * `text` as a Markdown code span (`` `text` ``), on one line, cut to `max`
 * characters first. A code span ends at the first backtick run as long as
 * its opening one (GitHub Flavored Markdown spec 6.1, "Code spans"), and
 * backslash escapes do not work inside it, so every backtick becomes `'`;
 * GitHub makes no link, mention or reference inside code. A `|` is left for
 * the table row that holds the span to escape (spec 4.10).
 */
function markdownCode(text, max = MAX_FIELD) {
    return `\`${capped(oneLine(text), max).replace(/`/g, "'")}\``;
}
/**
 * `text` as part of one line of the job log, cut to `max` characters: every
 * control character and line separator becomes a space, so the text cannot
 * start a line of its own, and with it a workflow command (`::error::`,
 * `::add-mask::`: the runner reads a command only at the start of a line;
 * GitHub docs, "Workflow commands for GitHub Actions").
 */
function logLine(text, max = 200) {
    return capped(oneLine(text), max);
}


/***/ }),

/***/ 1016:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  W$: () => (/* binding */ COMMENT_LIMIT),
  B1: () => (/* binding */ renderReport),
  n$: () => (/* binding */ utc)
});

// UNUSED EXPORTS: relativeExpiry, renderMasked, renderMigrationCost, renderPhases

// EXTERNAL MODULE: ./src/platform/shapes.ts
var shapes = __webpack_require__(4773);
// EXTERNAL MODULE: ./src/comment/scope.ts
var scope = __webpack_require__(1349);
// EXTERNAL MODULE: ./src/comment/comment.ts
var comment = __webpack_require__(6924);
// EXTERNAL MODULE: ./src/publish/inert.ts
var inert = __webpack_require__(3703);
// EXTERNAL MODULE: ./src/vercel/report.ts
var report = __webpack_require__(4737);
;// CONCATENATED MODULE: ./src/publish/schema-section.ts
/**
 * The schema section of a run's report (publish/report.ts): the summary, the
 * destructive changes, the diff (cut to a budget for the PR comment) and, for
 * a reused branch, the PR's total change against its parent.
 */

/** Destructive changes listed in the report at most, and the characters kept of each (the `schema-destructive` output has them all). */
const MAX_DESTRUCTIVE_SHOWN = 30;
const MAX_DESTRUCTIVE_TEXT = 300;
/** A code fence longer than any run of backticks in `text`. */
function fence(text) {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    return '`'.repeat(longest + 1);
}
/**
 * The schema section. `diffBudget` (characters) cuts the diff at a line end
 * with a pointer to the job summary and the `schema-diff` file.
 */
function renderSchema(r, diffBudget = Infinity) {
    const s = r.schema;
    if (!s)
        return [];
    const against = s.source === 'platform'
        ? ` (compared with the parent branch${r.parentBranch ? ` ${(0,inert/* markdownCode */.D9)(r.parentBranch)}` : ''} by Neon)`
        : s.source === 'migra' || s.source === 'listing'
            ? s.madeBy
                ? ` (made by ${s.madeBy})`
                : r.mode === 'instant'
                    ? ' (made by `seed-command`)'
                    : ' (made by the seed and `seed-command`)'
            : '';
    if (s.unavailable)
        return [
            '#### Schema',
            '',
            `**schema diff unavailable**: ${(0,inert/* markdownText */.p7)(s.unavailable)}. The database is seeded; only the diff is missing.`,
            ''
        ];
    const lines = ['#### Schema', '', `**${(0,inert/* markdownText */.p7)(s.summary)}**${against}`, ''];
    if (s.note)
        lines.push(`_The diff below lists the changed objects: ${(0,inert/* markdownText */.p7)(s.note)}._`, '');
    if (s.destructive.length > 0) {
        lines.push('> [!WARNING]', `> ${s.destructive.length} destructive change${s.destructive.length === 1 ? '' : 's'}${s.failOnDestructive ? ' (the step failed: `fail-on-destructive` is true)' : ''}:`);
        for (const d of s.destructive.slice(0, MAX_DESTRUCTIVE_SHOWN))
            lines.push(`> - ${(0,inert/* markdownText */.p7)(d, MAX_DESTRUCTIVE_TEXT)}`);
        const more = s.destructive.length - MAX_DESTRUCTIVE_SHOWN;
        if (more > 0)
            lines.push(`> - and ${more} more: the \`schema-destructive\` output lists them all`);
        lines.push('');
    }
    if (s.diff) {
        let diff = s.diff.replace(/\r\n?/g, '\n');
        let cut = '';
        if (diff.length > diffBudget) {
            diff = diff.slice(0, Math.max(0, diff.lastIndexOf('\n', diffBudget)));
            cut = `\n_The diff is cut here (${s.diff.split('\n').length} lines in all): the job summary and the file in the \`schema-diff\` output have all of it._\n`;
        }
        const f = fence(diff);
        lines.push(`<details><summary>Schema diff (${s.diff.split('\n').length} lines)</summary>`, '', `${f}diff`, diff, f, cut, '</details>', '');
    }
    if (s.total !== undefined) {
        const parent = r.parentBranch ? ` ${(0,inert/* markdownCode */.D9)(r.parentBranch)}` : '';
        if (!s.total.trim())
            lines.push(`**This pull request's total change against the parent branch${parent}**: none.`, '');
        else {
            const total = s.total.length > diffBudget ? s.total.slice(0, Math.max(0, s.total.lastIndexOf('\n', diffBudget))) : s.total;
            const f = fence(total);
            lines.push(`<details><summary>This pull request's total change against the parent branch${parent} (the platform's compare_schema)</summary>`, '', `${f}diff`, total, f, '', '</details>', '');
        }
    }
    return lines;
}

// EXTERNAL MODULE: ./src/publish/usage-report.ts
var usage_report = __webpack_require__(5283);
;// CONCATENATED MODULE: ./src/publish/report.ts
/**
 * What one run did, rendered once as Markdown for both the PR comment and the
 * job summary. Holds no secret: no connection string, no password.
 */







/** GitHub's limit on a comment body, in characters. */
const COMMENT_LIMIT = 65_536;
/**
 * The migration cost section: one line per finding (migration-cost/findings.ts);
 * nothing when there is none, or nothing was measured.
 */
function renderMigrationCost(r) {
    const m = r.migrationCost;
    if (!m?.lines.length || r.state === 'seed-failed')
        return [];
    return [
        '#### Migration cost',
        '',
        `Measured on this preview's data while \`${m.command}\` ran:`,
        '',
        ...m.lines.map((l) => l.replace(/\n/g, ' ')),
        '',
        "<sub>Times are this preview's; on production the same statements wait at least as long, and so does every query queued behind their locks. All tables and locks: the `migration-report` output.</sub>",
        ''
    ];
}
/** The platform's docs on anonymized branches. */
/** The masked columns of an anonymized branch: schema.table.column and the function's name, never a value. */
function renderMasked(r) {
    if (!r.anonymized?.length || r.state === 'seed-failed')
        return [];
    const n = r.anonymized.length;
    const code = (s) => `\`${s.replace(/`/g, "'")}\``;
    return [
        '#### Anonymized',
        '',
        `**anonymized: ${n} column${n === 1 ? '' : 's'} masked** before the branch was handed out ([anonymized branches](${shapes/* ANONYMIZATION_DOCS */.bq})).`,
        '',
        '| Column | Masked with |',
        '| --- | --- |',
        ...r.anonymized.map((c) => `| ${code(`${c.schema}.${c.table}.${c.column}`).replace(/\|/g, '\\|')} | ${c.masking === 'value' ? 'a fixed value' : code(c.masking).replace(/\|/g, '\\|')} |`),
        ''
    ];
}
/**
 * The "where the time went" table of the job summary: each phase's wall
 * time (milliseconds, the share of the run), its PostgreSQL round trips and
 * HTTP requests; work overlapped with the timeline is marked so.
 */
function renderPhases(phases) {
    if (!phases?.length)
        return [];
    const total = phases.filter((p) => !p.overlapped).reduce((sum, p) => sum + p.ms, 0);
    return [
        '<details><summary>Where the time went</summary>',
        '',
        '| Phase | Time | Share | PostgreSQL round trips | HTTP requests |',
        '| --- | --- | --- | --- | --- |',
        ...phases.map((p) => `| ${p.phase}${p.overlapped ? ' (overlapped)' : ''} | ${Math.round(p.ms)} ms | ${p.overlapped ? '' : `${Math.round((100 * p.ms) / Math.max(total, 1))} %`} | ${p.pgRoundTrips} | ${p.httpRequests} |`),
        `| **run so far** | **${Math.round(total)} ms** | | ${phases.reduce((n, p) => n + p.pgRoundTrips, 0)} | ${phases.reduce((n, p) => n + p.httpRequests, 0)} |`,
        '',
        '</details>',
        ''
    ];
}
/** "in 71 hours", "in 40 minutes", or "expired" for a time `iso` relative to `now` (milliseconds since the epoch). */
function relativeExpiry(iso, now = Date.now()) {
    const ms = Date.parse(iso) - now;
    if (ms <= 0)
        return 'expired';
    const hours = Math.floor(ms / 3_600_000);
    if (hours >= 1)
        return `in ${hours} hour${hours === 1 ? '' : 's'}`;
    const minutes = Math.max(1, Math.floor(ms / 60_000));
    return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
/** "2026-11-25 10:17 UTC"; text that is not a date is shown as inert text. */
function utc(iso) {
    if (!Number.isFinite(Date.parse(iso)))
        return (0,inert/* markdownText */.p7)(iso, 40);
    return new Date(iso)
        .toISOString()
        .replace('T', ' ')
        .replace(/:\d\d\.\d+Z$/, ' UTC');
}
const HEADLINES = {
    created: 'created for this pull request',
    reused: 'reused from an earlier run of this pull request',
    closed: 'kept after the pull request closed',
    deleted: 'deleted: the pull request closed',
    'seed-failed': 'not ready: seeding failed',
    provisioning: 'being provisioned',
    closing: 'being closed: the pull request closed',
    resetting: 'being reset to its parent and seeded again',
    sweeping: 'being swept by the scheduled cleanup',
    failed: 'not ready: the run failed',
    cancelled: 'not ready: the run was cancelled',
    swept: 'deleted by the scheduled cleanup',
    reset: 'reset to its parent and seeded again',
    'migrate-failed': 'kept, but its migrations failed'
};
/**
 * Renders the report as Markdown (comment and summary share it). `limit`
 * (characters) cuts the schema diff so the whole text fits: the PR comment
 * uses {@link COMMENT_LIMIT}; the job summary takes up to 1 MiB.
 */
function renderReport(r, now = Date.now(), limit = 1_000_000) {
    const kind = r.mode === 'instant' ? 'Instant Postgres database' : 'Postgres branch';
    const preview = (0,scope/* commentScope */.A)();
    const lines = [`${comment/* COMMENT_HEADING */.DS}${preview ? ` \`${preview}\`` : ''}: ${kind} ${HEADLINES[r.state]}`, ''];
    if (r.replacedBecause)
        lines.push(`> A new database was created because ${(0,inert/* markdownText */.p7)(r.replacedBecause)}.`, '');
    if (r.rebuiltBecause)
        lines.push(`> Rebuilt because ${(0,inert/* markdownText */.p7)(r.rebuiltBecause)}.`, '');
    if (r.state === 'migrate-failed' && r.migrateFailure) {
        lines.push(`**The migrations failed at commit ${(0,inert/* markdownCode */.D9)(r.migrateFailure.commit.slice(0, 7))}** (${r.migrateFailure.exitCode !== undefined ? `\`migrate-command\` exit code ${r.migrateFailure.exitCode}` : (0,inert/* markdownText */.p7)(r.migrateFailure.reason ?? '')}). ` +
            'This run handed out no connection. The database is kept with its data, and the next run runs `migrate-command` again; see the job log for its output.', '');
    }
    if (r.state === 'provisioning') {
        lines.push('A run of this pull request is provisioning the database; this comment is updated when it is ready. Other runs of the PR wait for it.', '');
    }
    if (r.state === 'swept' && r.sweptBecause)
        lines.push(`The scheduled cleanup swept this branch: ${(0,inert/* markdownText */.p7)(r.sweptBecause)}.`, '');
    if (r.state === 'closing')
        lines.push('A run of this pull request is closing its database; this comment is updated when it is done.', '');
    if (r.state === 'resetting')
        lines.push('A run of this pull request is resetting its branch and seeding it again; no run uses the branch until that is done. This comment is updated when it is.', '');
    if (r.state === 'sweeping')
        lines.push('The scheduled cleanup (`command: cleanup`) is sweeping this branch once it has checked again that no run uses it; this comment is updated when it is done.', '');
    if (r.state === 'failed') {
        lines.push('The run failed before it handed anything out; nothing it made is recorded for reuse. See the job log for what to fix.', '');
        // Neon's message is quoted in it: no HTML, link, image, mention or table cell from it.
        if (r.failedBecause) {
            const inert = r.failedBecause
                .replace(/\s*\n\s*/g, ' ')
                .replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c])
                .replace(/[[\]!@|]/g, '\\$&');
            lines.push(`> ${inert}`, '');
        }
    }
    if (r.state === 'cancelled') {
        lines.push('The run was cancelled: it stopped before handing anything out, and deleted (or does not record) what it made but had not seeded.', '');
    }
    if (r.state === 'seed-failed') {
        lines.push('The seed was rolled back and this database is not recorded for reuse; the next run creates a fresh one. See the job log for the file and line.', '');
    }
    const rows = [];
    if (r.claimUrl && r.state !== 'seed-failed')
        rows.push(['Claim URL', `${(0,inert/* markdownUrl */.$x)(r.claimUrl)} (anyone with this link can claim the database)`]);
    if (r.expiresAt) {
        const unless = r.mode === 'instant'
            ? ' unless claimed'
            : r.state === 'deleted' || r.state === 'swept'
                ? ''
                : ', pushed forward by every run that uses it';
        rows.push(['Expires', `${utc(r.expiresAt)} (${relativeExpiry(r.expiresAt, now)})${unless}`]);
    }
    if (r.databaseId)
        rows.push(['Database id', (0,inert/* markdownCode */.D9)(r.databaseId)]);
    if (r.branchName)
        rows.push(['Branch', `${(0,inert/* markdownCode */.D9)(r.branchName)}${r.branchId ? ` (${(0,inert/* markdownCode */.D9)(r.branchId)})` : ''}`]);
    if (r.parentBranch)
        rows.push([
            r.schemaOnly ? 'Schema from' : 'Parent branch',
            `${(0,inert/* markdownCode */.D9)(r.parentBranch)}${r.parentPoint ? ` ${r.parentPoint}` : ''}`
        ]);
    if (r.schemaOnly)
        rows.push(['Data', "schema only: the parent's tables without their rows (`schema-only`)"]);
    if (r.anonymized && r.state !== 'seed-failed')
        rows.push(['Data', `anonymized: ${r.anonymized.length} column${r.anonymized.length === 1 ? '' : 's'} masked (see below)`]);
    if (r.resetAt)
        rows.push(['Reset', `${utc(r.resetAt)}: restored from the parent's latest state`]);
    if (r.projectId)
        rows.push(['Project', (0,inert/* markdownCode */.D9)(r.projectId)]);
    if (r.host)
        rows.push(['Host', (0,inert/* markdownCode */.D9)(r.host)]);
    if (r.region)
        rows.push(['Region', (0,inert/* markdownText */.p7)(r.region, 100)]);
    if (r.pgVersion)
        rows.push(['Postgres', String(r.pgVersion)]);
    if (r.vercel)
        rows.push((0,report/* vercelRow */.g)(r.vercel));
    const used = r.mode === 'branch' ? (0,usage_report/* usageRow */.Q$)(r.usage, r.state) : null;
    if (used)
        rows.push(used);
    const action = {
        created: 'created',
        reused: 'reused (not seeded again)',
        closed: 'none (pull request closed)',
        deleted: 'deleted',
        'seed-failed': 'created, seed rolled back',
        provisioning: 'provisioning',
        closing: 'closing',
        resetting: 'resetting',
        sweeping: 'being swept by `command: cleanup`',
        failed: 'failed',
        cancelled: 'cancelled',
        swept: 'deleted by `command: cleanup`',
        reset: 'reset in place (same branch and connection strings)',
        'migrate-failed': 'reused; `migrate-command` failed, nothing handed out'
    };
    if (r.projectWait) {
        const n = r.projectWait.operations;
        rows.push([
            'Waited for the project',
            `${r.projectWait.seconds.toFixed(1)} s, for ${n} operation${n === 1 ? '' : 's'} of other runs or of Neon`
        ]);
    }
    rows.push(['This run', action[r.state] + (r.seedFiles ? `, seeded from ${r.seedFiles} file${r.seedFiles === 1 ? '' : 's'}` : '')]);
    lines.push('| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v.replace(/(?<!\\)\|/g, '\\|')} |`), '');
    if (r.operations?.length) {
        lines.push('| Operation | Status | Duration |', '| --- | --- | --- |');
        for (const op of r.operations)
            lines.push(`| ${(0,inert/* markdownText */.p7)(op.name, 100)} | ${(0,inert/* markdownText */.p7)(op.status, 100)} | ${op.durationSeconds.toFixed(1)} s |`);
        lines.push('');
    }
    const tail = [
        ...renderMigrationCost(r),
        ...renderPhases(r.phases),
        '<sub>Connection strings are in the step outputs `database-url` and `database-url-direct` (masked); they are never posted here.</sub>',
        ...(r.runUrl ? [`<sub>Last updated by [this run](${r.runUrl}).</sub>`] : [])
    ];
    lines.push(...renderMasked(r));
    const head = lines.join('\n');
    const full = [head, ...renderSchema(r), ...tail].join('\n');
    if (full.length <= limit)
        return full;
    // Over the limit: cut the diff so the whole comment fits (headroom for the marker the comment adds).
    const budget = limit -
        2_000 -
        head.length -
        tail.join('\n').length -
        renderSchema({ ...r, schema: r.schema && { ...r.schema, diff: '' } }).join('\n').length;
    return [head, ...renderSchema(r, Math.max(0, budget)), ...tail].join('\n');
}


/***/ }),

/***/ 5283:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   GI: () => (/* binding */ cuHours),
/* harmony export */   Q$: () => (/* binding */ usageRow),
/* harmony export */   dQ: () => (/* binding */ binarySize),
/* harmony export */   nC: () => (/* binding */ PRICING_URL)
/* harmony export */ });
/* unused harmony export describeUsage */
/** Neon's pricing page, where a CU-hour and a GB-month are priced per plan (docs/costs.md). */
const PRICING_URL = 'https://neon.com/pricing';
/** `seconds` of compute as CU-hours with one decimal: 5400 → "1.5". */
function cuHours(seconds) {
    return (seconds / 3600).toFixed(1);
}
/** `bytes` in the largest binary unit that keeps the number at least 1, one decimal: "7.6 MiB"; under 1 KiB, "512 B". */
function binarySize(bytes) {
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    if (bytes < 1024)
        return `${bytes} B`;
    let n = bytes / 1024;
    let i = 0;
    while (n >= 1024 && i < units.length - 1) {
        n /= 1024;
        i++;
    }
    return `${n.toFixed(1)} ${units[i]}`;
}
/**
 * "1.5 CU-hours of compute (6.0 hours active), 7.6 MiB of data, 2.0 MiB sent to clients":
 * the counters `u` has, in that order; '' when it has none of them.
 * @param sizeWord how the data size is named ("of data", "of data when deleted")
 */
function describeUsage(u, sizeWord = 'of data') {
    const parts = [];
    if (u.computeTimeSeconds !== undefined) {
        const active = u.activeTimeSeconds !== undefined ? ` (${(u.activeTimeSeconds / 3600).toFixed(1)} hours active)` : '';
        parts.push(`${cuHours(u.computeTimeSeconds)} CU-hours of compute${active}`);
    }
    else if (u.activeTimeSeconds !== undefined)
        parts.push(`${(u.activeTimeSeconds / 3600).toFixed(1)} hours active`);
    if (u.logicalSizeBytes !== undefined)
        parts.push(`${binarySize(u.logicalSizeBytes)} ${sizeWord}`);
    if (u.dataTransferBytes)
        parts.push(`${binarySize(u.dataTransferBytes)} sent to clients`);
    return parts.join(', ');
}
/**
 * The report's usage row of a branch-mode preview: "Used so far" while it
 * lives, "Used in all" once deleted or swept; null when Neon gave no counter.
 */
function usageRow(usage, state) {
    const gone = state === 'deleted' || state === 'swept';
    const text = usage && describeUsage(usage, gone ? 'of data when deleted' : 'of data');
    if (!text)
        return null;
    return [gone ? 'Used in all' : 'Used so far', `${text}, by Neon's count this billing period ([pricing](${PRICING_URL}))`];
}


/***/ }),

/***/ 7838:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Rh: () => (/* binding */ runSource),
/* harmony export */   n7: () => (/* binding */ expiryFor),
/* harmony export */   wZ: () => (/* binding */ QUEUE_EXPIRY_SECONDS),
/* harmony export */   yd: () => (/* binding */ commandRefusedBecause)
/* harmony export */ });
/* unused harmony exports QUEUE_JOB_VARIABLE, queueJobKey, UNOWNED_EXPIRY_SECONDS, createRefusedBecause */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1758);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_2__);
/**
 * Where a run comes from, read from the triggering event (GitHub docs,
 * "Events that trigger workflows" and "Webhook events and payloads"): the
 * event name in `GITHUB_EVENT_NAME` and its payload. What a preview is keyed
 * on, and who ends it, follows from this (docs/lifecycle.md, "Where runs
 * come from").
 */



/** Events whose `GITHUB_REF` names the git branch that owns the preview. */
const BRANCH_EVENTS = new Set(['push', 'workflow_dispatch']);
/** The run's source, from `github.context` (the event name and payload the runner gave the step). */
function runSource() {
    const { payload, eventName, ref } = _actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._;
    const pr = payload.pull_request;
    if (pr && typeof pr.number === 'number') {
        const closed = payload.action === 'closed' || pr.state === 'closed';
        return { kind: 'pull-request', number: pr.number, closed };
    }
    if (eventName === 'merge_group') {
        const group = payload.merge_group;
        const headSha = typeof group?.head_sha === 'string' ? group.head_sha : (_actions_github__WEBPACK_IMPORTED_MODULE_1__/* .context */ ._.sha ?? '');
        return { kind: 'merge-group', headSha, job: queueJobKey() };
    }
    // the create and delete events: `ref` is the short name, `ref_type` branch or tag (GitHub webhook events, create and delete)
    if ((eventName === 'delete' || eventName === 'create') && typeof payload.ref === 'string' && payload.ref) {
        const deleted = eventName === 'delete';
        if (payload.ref_type === 'tag')
            return { kind: 'tag', tag: payload.ref, deleted };
        if (payload.ref_type === 'branch')
            return { kind: 'git-branch', branch: payload.ref, deleted };
    }
    if (BRANCH_EVENTS.has(eventName) && ref?.startsWith('refs/heads/') && ref.length > 'refs/heads/'.length)
        return { kind: 'git-branch', branch: ref.slice('refs/heads/'.length), deleted: payload.deleted === true };
    if (BRANCH_EVENTS.has(eventName) && ref?.startsWith('refs/tags/') && ref.length > 'refs/tags/'.length)
        return { kind: 'tag', tag: ref.slice('refs/tags/'.length), deleted: payload.deleted === true };
    return { kind: 'other', event: eventName ?? '' };
}
/** The job environment variable that carries {@link queueJobKey} to the job's later steps. */
const QUEUE_JOB_VARIABLE = 'PREVIEW_POSTGRES_QUEUE_JOB';
/**
 * This job's key among the jobs of one merge-queue entry: `<GITHUB_JOB>-<6 random hex digits>`, made by the
 * job's first step that asks and handed to its later steps through `GITHUB_ENV` ({@link QUEUE_JOB_VARIABLE}).
 * Nothing GitHub gives a step names the job uniquely (GitHub docs, "Variables reference"): `GITHUB_JOB` is the
 * workflow's job id, the same for every job of a matrix; `GITHUB_RUN_ID` is the same for every job of the run;
 * `RUNNER_NAME` "may not be unique" across runner levels; the `matrix` context exists only in expressions.
 * `GITHUB_ENV`'s variables reach the later steps of this job alone, so each job, matrix jobs included, has its own.
 */
function queueJobKey() {
    const kept = process.env[QUEUE_JOB_VARIABLE];
    if (kept && /^[A-Za-z0-9._-]{1,80}$/.test(kept))
        return kept;
    const job = (process.env.GITHUB_JOB ?? '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40);
    const key = `${job ? `${job}-` : ''}${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.randomBytes)(3).toString('hex')}`;
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .exportVariable */ .dN(QUEUE_JOB_VARIABLE, key);
    return key;
}
/**
 * The branch expiry a run's create sets when `expires-in` is empty, in seconds:
 * a merge queue's database lives for its job alone (the post step deletes it),
 * so it carries Neon's `expires_at` 6 hours ahead (GitHub's default job
 * timeout, `timeout-minutes: 360`) should the post step never run.
 */
const QUEUE_EXPIRY_SECONDS = 6 * 3600;
/**
 * The expiry, in seconds, of a preview that no pull request or git branch ends (`schedule`, `workflow_run`,
 * a tag, …: no event of theirs deletes it): 24 hours, a day's runs apart.
 */
const UNOWNED_EXPIRY_SECONDS = 24 * 3600;
/**
 * `expires-in` for this run's create: the input when given, else {@link QUEUE_EXPIRY_SECONDS} for a merge group,
 * {@link UNOWNED_EXPIRY_SECONDS} for a run with no PR and no git branch, 0 (none) for a PR's or a git branch's preview.
 */
function expiryFor(expiresInSeconds, source = runSource()) {
    if (expiresInSeconds)
        return expiresInSeconds;
    if (source.kind === 'merge-group')
        return QUEUE_EXPIRY_SECONDS;
    return source.kind === 'tag' || source.kind === 'other' ? UNOWNED_EXPIRY_SECONDS : 0;
}
/**
 * Why `command: create` must provision nothing for this run, or null when it
 * may: a pull request that is closed (the `closed` event, or a payload whose
 * `pull_request.state` is `closed`) gets no new preview; its previews are
 * `command: delete`'s and the sweep's to remove.
 */
function createRefusedBecause(source = runSource()) {
    if (source.kind === 'pull-request' && source.closed)
        return (`Pull request #${source.number} is closed: \`command: create\` provisions nothing for a closed pull request ` +
            '(no branch, database, comment or deployment). Its preview is removed by `command: delete` on the `closed` event, or by `command: cleanup`. ' +
            "To skip this step, give the create job `if: github.event.action != 'closed'`.");
    if (source.kind === 'git-branch' && source.deleted)
        return (`Git branch "${source.branch}" was deleted: \`command: create\` provisions nothing for it. ` +
            'Its preview is removed by `command: delete` on the `delete` event, or by `command: cleanup`.');
    if (source.kind === 'tag' && source.deleted)
        return tagDeleted(source.tag, 'create', 'provisions nothing');
    return null;
}
/**
 * Why `command` (delete, reset) must change nothing for this run, or null when it may: a tag's `delete` event
 * names no preview (a tag's preview is named by its commit and expires, run-source.ts).
 */
function commandRefusedBecause(command, source = runSource()) {
    if (command === 'create')
        return createRefusedBecause(source);
    if (source.kind === 'tag' && source.deleted && (command === 'delete' || command === 'reset'))
        return tagDeleted(source.tag, command, command === 'delete' ? 'deletes nothing' : 'changes nothing');
    return null;
}
const tagDeleted = (tag, command, outcome) => `Tag "${tag}" was deleted: \`command: ${command}\` ${outcome} on a tag's \`delete\` event. ` +
    "Previews belong to pull requests and git branches; a tag's run makes one named by its commit, which expires on its own. " +
    "To skip this step, give the job `if: github.event.ref_type == 'branch'`.";


/***/ }),

/***/ 4737:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   g: () => (/* binding */ vercelRow),
/* harmony export */   m: () => (/* binding */ deploymentUrlOf)
/* harmony export */ });
/* harmony import */ var _publish_inert_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3703);
/**
 * The Vercel preview in the PR comment and the job summary: one row beside
 * the database's, with the deployment's link and state, or what the wiring
 * did instead. Holds no secret (a URL of Vercel's and Vercel's state).
 */

/** A deployment's address as Vercel gives it: a host name (`shop-abc123-acme.vercel.app`), with or without `https://`. */
const DEPLOYMENT_URL = /^(?:https:\/\/)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})\/?$/i;
/** `https://<host>` for a deployment address of Vercel's shape, else '' (an answer of another shape is not used). */
function deploymentUrlOf(url) {
    const host = DEPLOYMENT_URL.exec(url)?.[1];
    return host ? `https://${host.toLowerCase()}` : '';
}
/** The report's row: `Vercel preview | <link> (<state>): <note>`. Vercel's URL and state are rendered inert. */
function vercelRow(v) {
    // `https://host/`: canonical, so that markdownUrl links it; an address of another shape is shown as escaped text
    const url = v.url ? deploymentUrlOf(v.url) : '';
    const shown = url ? (0,_publish_inert_js__WEBPACK_IMPORTED_MODULE_0__/* .markdownUrl */ .$x)(`${url}/`) : v.url ? (0,_publish_inert_js__WEBPACK_IMPORTED_MODULE_0__/* .markdownText */ .p7)(v.url, 100) : '';
    const link = shown ? `${shown}${v.state ? ` (${(0,_publish_inert_js__WEBPACK_IMPORTED_MODULE_0__/* .markdownText */ .p7)(v.state.toLowerCase(), 20)})` : ''}: ` : '';
    return ['Vercel preview', `${link}${v.note}`];
}


/***/ })

};

export const id = 825;
export const ids = [825];
export const modules = {

/***/ 7199:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $P: () => (/* binding */ directClientConfig),
/* harmony export */   Fj: () => (/* binding */ secretsOf),
/* harmony export */   If: () => (/* binding */ describeConnection),
/* harmony export */   Lt: () => (/* binding */ replaceHost),
/* harmony export */   zM: () => (/* binding */ fallBackFromDirectTls)
/* harmony export */ });
/* unused harmony exports ConnectionStringError, directUrlOf */
/* harmony import */ var node_net__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7030);
/* harmony import */ var node_net__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_net__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7194);
/**
 * Pooled and direct connection strings, and their parts.
 */


/** A connection string that cannot be used. The message never includes the string. */
class ConnectionStringError extends Error {
}
/** Splits `scheme://authority/rest` without decoding anything. */
function splitAuthority(url) {
    const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
    if (!m)
        throw new ConnectionStringError('The connection string is not a URL.');
    const authority = m[2];
    const at = authority.lastIndexOf('@');
    return {
        head: m[1],
        userinfo: at >= 0 ? authority.slice(0, at + 1) : '',
        hostport: at >= 0 ? authority.slice(at + 1) : authority,
        tail: m[3]
    };
}
/**
 * `url` with its host name replaced by `rewrite(host)`; user, password, port,
 * database and query string kept byte for byte.
 * @throws ConnectionStringError when the string is not a URL.
 */
function replaceHost(url, rewrite) {
    const { head, userinfo, hostport, tail } = splitAuthority(url);
    const port = /:\d+$/.exec(hostport)?.[0] ?? '';
    return head + userinfo + rewrite(hostport.slice(0, hostport.length - port.length)) + port + tail;
}
/**
 * The direct connection string for a pooled one: `-pooler` removed from the
 * end of the host's first label only (instant service API: "for a direct connection
 * remove `-pooler` from the host name"); everything else byte for byte. A URL
 * without `-pooler` is returned as is.
 */
function directUrlOf(pooledUrl) {
    return replaceHost(pooledUrl, (host) => host.replace(/^([^.]*?)-pooler(?=\.|$)/, '$1'));
}
/**
 * Parses a pooled connection string into a {@link Connection}, and remembers
 * its secret forms ({@link secretsOf}) as the run's secrets (secrets.ts), so no
 * error quoting a service's answer shows them from then on.
 * @throws ConnectionStringError naming what is missing (never quoting the string).
 */
function describeConnection(pooledUrl, directUrl = directUrlOf(pooledUrl)) {
    const c = parseConnection(pooledUrl, directUrl);
    for (const secret of secretsOf(c))
        (0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .rememberSecret */ .Gz)(secret);
    return c;
}
function parseConnection(pooledUrl, directUrl) {
    let pooled;
    let direct;
    try {
        pooled = new URL(pooledUrl);
        direct = new URL(directUrl);
    }
    catch {
        throw new ConnectionStringError('The connection string is not a valid URL.');
    }
    if (!/^postgres(ql)?:$/.test(pooled.protocol))
        throw new ConnectionStringError('The connection string is not a postgresql:// URL.');
    const database = decodeURIComponent(pooled.pathname.replace(/^\//, ''));
    if (!pooled.hostname || !pooled.username || !database) {
        throw new ConnectionStringError('The connection string lacks a host, a user or a database name.');
    }
    return {
        pooledUrl,
        directUrl,
        pooledHost: pooled.hostname,
        directHost: direct.hostname,
        port: pooled.port,
        database,
        user: decodeURIComponent(pooled.username),
        password: decodeURIComponent(pooled.password),
        sslmode: pooled.searchParams.get('sslmode') ?? '',
        channelBinding: pooled.searchParams.get('channel_binding') === 'require'
    };
}
/**
 * Every form in which a connection's secrets could be printed: both URLs, the
 * password, its URL-encoded form and the form the URL itself carries. Empty
 * strings are left out (the runner refuses to mask them).
 */
function secretsOf(c) {
    const forms = [c.pooledUrl, c.directUrl, c.password, encodeURIComponent(c.password), new URL(c.pooledUrl).password];
    return [...new Set(forms.filter((s) => s !== ''))];
}
/**
 * Hosts that failed a direct TLS connection in this run (see
 * {@link directClientConfig}); later connections to them send the SSLRequest first.
 */
const sslRequestHosts = new Set();
/**
 * A `pg` client configuration for the direct connection. TLS is verified
 * against the host name unless the URL says `sslmode=disable` (stricter than
 * libpq's `require`, which skips verification); channel binding is enabled
 * when the URL asks for it. Built field by field so `pg` does not print its
 * sslmode deprecation warning into the user's log.
 *
 * TLS starts at once, without the SSLRequest and its answer, one round trip
 * fewer (`sslnegotiation=direct`, ALPN `postgresql`; PostgreSQL docs, 55.2.11
 * "SSL Session Encryption": direct SSL, PostgreSQL 17; Neon's proxy accepts it
 * whatever the compute's version), unless a direct connection to the host
 * failed earlier in the run ({@link fallBackFromDirectTls}). The connection
 * strings handed to users are not changed: libpq before 17 refuses the parameter.
 */
function directClientConfig(c, applicationName) {
    const ssl = c.sslmode === 'disable' ? false : (0,node_net__WEBPACK_IMPORTED_MODULE_0__.isIP)(c.directHost) ? {} : { servername: c.directHost };
    return {
        host: c.directHost,
        port: c.port ? Number(c.port) : 5432,
        user: c.user,
        password: c.password,
        database: c.database,
        // SNI takes host names only (RFC 6066); an IP address is verified against the certificate's IP SANs.
        ssl,
        ...(ssl && !sslRequestHosts.has(c.directHost) ? { sslnegotiation: 'direct' } : {}),
        enableChannelBinding: c.channelBinding,
        application_name: applicationName
    };
}
/**
 * After a failed connect with `config` (from {@link directClientConfig}):
 * whether to connect once more, with the SSLRequest. True when the connect
 * used direct TLS and failed before the server answered as PostgreSQL (no
 * ErrorResponse: a server before 17, or a proxy that does not take direct TLS, ends
 * the connection or answers with something that is not TLS); the host then
 * gets the SSLRequest for the rest of the run. An ErrorResponse (a wrong
 * password, a missing database) is the server's word, not retried.
 */
function fallBackFromDirectTls(config, err) {
    if (config.sslnegotiation !== 'direct')
        return false;
    if (typeof err?.severity === 'string')
        return false; // pg's DatabaseError: an ErrorResponse
    sslRequestHosts.add(config.host);
    return true;
}


/***/ }),

/***/ 1825:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  run: () => (/* binding */ run)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 13 modules
var core = __webpack_require__(1889);
// EXTERNAL MODULE: ./src/inputs.ts
var inputs = __webpack_require__(8422);
// EXTERNAL MODULE: ./src/cancel.ts
var cancel = __webpack_require__(833);
// EXTERNAL MODULE: ./src/platform/client.ts + 1 modules
var platform_client = __webpack_require__(7442);
// EXTERNAL MODULE: ./src/platform/project-wait.ts
var project_wait = __webpack_require__(9142);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./src/platform/annotations.ts + 1 modules
var platform_annotations = __webpack_require__(2308);
// EXTERNAL MODULE: ./src/comment/comment.ts
var comment_comment = __webpack_require__(6924);
// EXTERNAL MODULE: ./src/comment/lock/budget.ts
var lock_budget = __webpack_require__(2208);
// EXTERNAL MODULE: ./src/comment/lock/wait.ts
var wait = __webpack_require__(9088);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/comment/lock/one-comment.ts
/**
 * One comment, whatever the network does. A POST of a comment whose answer
 * is lost after GitHub made it (the connection drops on the way back) is
 * sent again by the client's retry (comment.ts, githubClient), and GitHub
 * makes a second comment: POST is not idempotent (GitHub REST, "Create an
 * issue comment"). A run that posted its comment therefore looks for the
 * copies it made before it relies on the one it was answered: its own
 * comments are those of the token's user whose marker carries this run's
 * `run` id (comment.ts, CommentRecord) or whose body is exactly the one it
 * posted. It keeps the oldest, the one every later run reads (the PR's
 * oldest marker comment, lock.ts), and deletes the others.
 */


/**
 * The copies of one POST among `comments`: `login`'s comments whose marker
 * names `runId` or whose body is `body`, oldest first. Pure (no request).
 */
function copiesOf(comments, login, runId, body) {
    return comments
        .filter((c) => c.user?.login === login && (c.body === body || (runId !== '' && (0,comment_comment/* recordOf */.zv)(c.body ?? '')?.run === runId)))
        .sort((a, b) => a.id - b.id);
}
/**
 * After this run posted `posted` (a comment of the token's user `login`,
 * with body `body`): lists the PR's comments (all pages), keeps the oldest
 * copy this run made ({@link copiesOf}) and deletes the others; when the
 * copy kept is not the one GitHub answered and says something else (an
 * earlier write of this run), writes `body` into it.
 * @returns the comment kept (its id and `html_url`); `posted` itself when the comments cannot be listed (a warning says the PR may show a copy).
 * Never throws.
 */
async function keepOneCopy(octokit, pr, login, runId, body, posted) {
    const { owner, repo, number } = pr;
    let copies;
    try {
        const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 });
        copies = copiesOf(all, login, runId, body);
    }
    catch (err) {
        core/* warning */.$e(`Posted the preview comment ${posted.id} on PR #${number}, but could not read the PR's comments to check that a retried POST made no copy: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}.`);
        return posted;
    }
    // The copy GitHub answered is one of them even when the listing does not show it yet.
    if (!copies.some((c) => c.id === posted.id))
        copies = [...copies, { ...posted, body }].sort((a, b) => a.id - b.id);
    const [kept, ...extras] = copies;
    for (const extra of extras) {
        await octokit.rest.issues.deleteComment({ owner, repo, comment_id: extra.id }).catch((err) => {
            if ((0,comment_comment/* statusOf */.c2)(err) !== 404)
                core/* warning */.$e(`Could not delete the copy ${extra.id} of the preview comment on PR #${number}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}.`);
        });
    }
    if (extras.length)
        core/* info */.pq(`A retried POST made ${copies.length} copies of the preview comment on PR #${number}: kept ${kept.id}, deleted the others.`);
    if (kept.body !== body) {
        await octokit.rest.issues
            .updateComment({ owner, repo, comment_id: kept.id, body })
            .catch((err) => core/* warning */.$e(`Could not write the preview comment ${kept.id} on PR #${number}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}.`));
    }
    return { id: kept.id, html_url: kept.html_url };
}
/**
 * Deletes `newer` comments (the PR's marker comments of ours after its
 * oldest, which every run reads) that are placeholders a run left with the
 * lock's fields (`run` in the marker): copies a lost answer made of a run
 * that is gone. Called by the lock's holder, so no live run of the preview
 * writes them. What cannot be deleted stays (a warning).
 * Never throws.
 */
async function dropLeftClaims(octokit, pr, newer) {
    for (const c of newer.filter((m) => m.record.run !== undefined)) {
        await octokit.rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: c.id }).then(() => core/* info */.pq(`Deleted comment ${c.id} on PR #${pr.number}: a copy of a placeholder a run that is gone left.`), (err) => {
            if ((0,comment_comment/* statusOf */.c2)(err) !== 404)
                core/* warning */.$e(`Could not delete the left placeholder ${c.id} on PR #${pr.number}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}.`);
        });
    }
}

;// CONCATENATED MODULE: ./src/comment/lock/errors.ts
/**
 * Why a run has no comment lock (lock.ts, acquireLock; held.ts, naming):
 * a GitHub error after the client's retries, or too few requests left of
 * GitHub's rate limit to take and release it.
 */

/** Too few requests are left of GitHub's rate limit to take and release the lock. */
class BudgetLowError extends Error {
    constructor(left, needed) {
        super(`GitHub's rate limit: ${left} request${left === 1 ? '' : 's'} left of this token's hourly budget (x-ratelimit-remaining), and the lock and the comment need ${needed}; the comment is skipped so that no lock is left behind`);
        this.name = 'BudgetLowError';
    }
}
/** The lock could not be taken for a GitHub error (after the client's retries): the run has no lock. */
class ClaimNotPostedError extends Error {
    pr;
    cause;
    what;
    reactionLeft;
    constructor(pr, cause, what = 'take the lock on the preview comment', 
    /** True when this run's reaction may be left on the PR (its delete failed too): the post step tries again. */
    reactionLeft = false) {
        super(`Could not ${what} of PR #${pr.number}: ${(0,comment_comment/* describeGitHubError */.dZ)(cause)}.`);
        this.pr = pr;
        this.cause = cause;
        this.what = what;
        this.reactionLeft = reactionLeft;
        this.name = 'ClaimNotPostedError';
    }
}

;// CONCATENATED MODULE: ./src/comment/lock/held.ts
/**
 * The PR's comment lock while a run holds it (lock.ts takes it; the module
 * comment there has the whole protocol): naming this run's reaction in the
 * comment's marker, the heartbeat that keeps the claim fresh, giving the lock
 * up before use, and the release that writes the final report and record and
 * then deletes the reaction. Each step runs after the one before it, so a
 * release acts on a settled state.
 */






/** The lock a run holds, from acquireLock (lock.ts) until {@link CommentLock.finish}. */
class CommentLock {
    octokit;
    pr;
    reaction;
    placeholder;
    runId;
    heartbeatMs;
    /** True until the lock is released. */
    held = true;
    /** The PR's comment whose marker names the lock (id 0 until named), with the record as this run wrote it (the lock's fields included). */
    claim = { id: 0, record: { mode: 'instant' } };
    /** The PR's comment with what an earlier run recorded (lock fields removed), or null when this run created the comment. */
    home = null;
    /** True when this run created the comment (the PR's first run). */
    createdComment = false;
    /** The comment's body before this run took the lock (written back by `finish(null)`), or null when this run created it. */
    earlierBody = null;
    /** True once the marker names this run's reaction. */
    named = false;
    /** The comment's `html_url` (GitHub REST, issue comment) from this run's last write of it. */
    url;
    timer;
    chain = Promise.resolve();
    /** The release under way: a second {@link finish} (the cancel's undo step and the flow at once) waits for the first. */
    finishing;
    /** When a write of ours last showed the lock alive (milliseconds since the epoch). */
    confirmedAt = 0;
    constructor(octokit, pr, 
    /** This run's lock reaction on the PR. */
    reaction, placeholder, runId, heartbeatMs = wait/* HEARTBEAT_MS */.m) {
        this.octokit = octokit;
        this.pr = pr;
        this.reaction = reaction;
        this.placeholder = placeholder;
        this.runId = runId;
        this.heartbeatMs = heartbeatMs;
    }
    /** Runs `step` after every step before it (naming, heartbeats), so `finish` acts on a settled state. */
    step(step) {
        const next = this.chain.then(step);
        this.chain = next.catch(() => undefined);
        return next;
    }
    /**
     * Writes `text` into the PR's comment; when a user deleted it, posts it
     * again (the record must not be lost) and goes on with the new one.
     * @throws the GitHub error.
     */
    async write(text) {
        const { owner, repo, number } = this.pr;
        if (this.claim.id) {
            try {
                const { data } = await this.octokit.rest.issues.updateComment({ owner, repo, comment_id: this.claim.id, body: text });
                this.url = data.html_url;
                return;
            }
            catch (err) {
                if ((0,comment_comment/* statusOf */.c2)(err) !== 404)
                    throw err;
            }
        }
        const { data } = await (0,cancel/* finishBeforeUndo */.JZ)(this.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: text }));
        // A retried POST may have made it twice (one-comment.ts): the oldest copy is the one kept.
        const kept = await keepOneCopy(this.octokit, this.pr, this.reaction.login, this.runId, text, data);
        if (this.claim.id)
            core/* info */.pq(`The preview comment ${this.claim.id} of PR #${number} was deleted: posted it again (comment ${kept.id}).`);
        this.claim = { ...this.claim, id: kept.id };
        this.url = kept.html_url;
    }
    /**
     * Names this run's reaction in the marker (see the module comment): lists
     * the PR's comments, keeps what the oldest marker comment of ours records
     * and writes the placeholder with the lock's fields into it; the PR's
     * first run (no such comment) creates it.
     * @returns 'named'; 'slow' when answered after {@link NAME_WITHIN_MS} from `sentAt` (the take is unsafe).
     * @throws ClaimNotPostedError when the comments cannot be listed (this run cannot tell whether the PR has a comment); the GitHub error of the write.
     */
    name(mode, sentAt) {
        return this.step(async () => {
            const listed = await (0,wait/* markerComments */.V6)(this.octokit, this.pr, this.reaction.login).catch((err) => {
                throw new ClaimNotPostedError(this.pr, err, 'read the comments');
            });
            const found = listed[0];
            // Copies a lost answer left of a gone run's placeholder (one-comment.ts): this run holds the lock, so no live run writes them.
            await dropLeftClaims(this.octokit, this.pr, listed.slice(1));
            const earlier = found ? (0,comment_comment/* withoutLock */.OY)(found.record) : { mode };
            if (found) {
                this.home = { id: found.id, record: earlier };
                this.earlierBody = (0,comment_comment/* withMarker */.Pe)(found.body, earlier);
                this.claim = { id: found.id, record: found.record };
            }
            const since = new Date().toISOString();
            const record = {
                ...earlier,
                mode: earlier.mode ?? mode,
                provisioningSince: since,
                heartbeatAt: since,
                run: this.runId,
                reaction: this.reaction.id
            };
            await this.write((0,comment_comment/* commentBody */.I2)(this.placeholder, record));
            this.createdComment = !found;
            this.claim = { id: this.claim.id, record };
            this.named = true;
            this.confirmedAt = Date.now();
            if (Date.now() - sentAt > wait/* NAME_WITHIN_MS */.FI)
                return 'slow';
            this.timer = setInterval(() => void this.step(() => this.heartbeat()), this.heartbeatMs);
            this.timer.unref();
            return 'named';
        });
    }
    /** Gives the lock up before it was in use: deletes this run's reaction only. @returns false when the reaction may be left (its delete failed). Never throws. */
    abandon() {
        if (!this.held)
            return Promise.resolve(true);
        this.held = false;
        clearInterval(this.timer);
        return this.step(() => (0,wait/* deleteLockReaction */.A_)(this.octokit, this.pr, this.reaction.id).then(() => true, () => false));
    }
    /** True while this run's reaction is on the PR (read from GitHub); true too when it cannot be read. */
    async stillOurs() {
        try {
            return (await (0,wait/* lockReactionIds */.n9)(this.octokit, this.pr, this.reaction.login)).includes(this.reaction.id);
        }
        catch {
            return true;
        }
    }
    /** Refreshes `heartbeatAt`, writing the whole comment again (a user's edit or delete is undone); stops when the lock was taken over. */
    async heartbeat() {
        if (!this.held)
            return;
        try {
            if (!(await this.stillOurs())) {
                clearInterval(this.timer);
                core/* warning */.$e(`The lock on PR #${this.pr.number} was taken over by another run (this run's comment was not written for ${wait/* STALE_AFTER_MS */._k / 60_000} minutes).`);
                return;
            }
            const record = { ...this.claim.record, heartbeatAt: new Date().toISOString() };
            await this.write((0,comment_comment/* commentBody */.I2)(this.placeholder, record));
            this.claim = { id: this.claim.id, record };
            this.confirmedAt = Date.now();
        }
        catch (err) {
            core/* warning */.$e(`Could not refresh the lock in comment ${this.claim.id} on PR #${this.pr.number}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}.`);
        }
    }
    /**
     * Releases the lock: writes `markdown` and `record` into the PR's comment
     * (with `markdown` null, puts back what it said before this run; a comment
     * this run created is then deleted), then deletes this run's reaction.
     * `record` may be a function: it is called once the naming in flight has
     * settled, so it sees what an earlier run recorded (`home`) whatever step
     * the run was in. Waits for a naming write or heartbeat in flight first.
     * Writes nothing when another run took the lock over. Called again while
     * releasing, returns the same promise. Never throws: what cannot be
     * written is a warning (retries are the client's).
     * @returns the id of the comment written, or null.
     */
    finish(markdown, record) {
        if (this.finishing)
            return this.finishing;
        if (!this.held)
            return Promise.resolve(null);
        this.held = false;
        clearInterval(this.timer);
        return (this.finishing = this.step(async () => {
            const { owner, repo, number } = this.pr;
            let written = null;
            const mayWrite = this.named && (Date.now() - this.confirmedAt < wait/* STALE_AFTER_MS */._k / 2 || (await this.stillOurs()));
            if (mayWrite) {
                try {
                    if (markdown !== null) {
                        await this.write((0,comment_comment/* commentBody */.I2)(markdown, (0,comment_comment/* withoutLock */.OY)(typeof record === 'function' ? record() : record)));
                        written = this.claim.id;
                        core/* info */.pq(`Updated the preview comment on PR #${number}.`);
                    }
                    else if (this.earlierBody !== null) {
                        await this.write(this.earlierBody);
                    }
                    else {
                        await this.octokit.rest.issues.deleteComment({ owner, repo, comment_id: this.claim.id }).catch((err) => {
                            if ((0,comment_comment/* statusOf */.c2)(err) !== 404)
                                throw err;
                        });
                    }
                }
                catch (err) {
                    core/* warning */.$e(`Could not write the preview comment on PR #${number}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}. The database and the outputs are unaffected.`);
                }
            }
            await (0,wait/* deleteLockReaction */.A_)(this.octokit, this.pr, this.reaction.id).catch((err) => core/* warning */.$e(`Could not remove this run's lock reaction on PR #${number}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}. ` +
                `Other runs of this PR take it over ${mayWrite ? wait/* STALE_AFTER_MS */._k / 60_000 : wait/* ORPHAN_AFTER_MS */.hR / 60_000} minutes from now at the latest.`));
            return written;
        }));
    }
}

;// CONCATENATED MODULE: ./src/comment/lock/lock.ts
/**
 * The PR's lock: one run of a pull request at a time provisions (or
 * deletes) its database, and after the PR's first run no run creates a
 * comment (a new comment notifies every subscriber; a reaction and an edit
 * notify nobody).
 *
 * The lock is a reaction (👀, `eyes`) of our token's user on the pull
 * request itself. GitHub's create reaction is a compare-and-set per user: it
 * answers 201 when it creates the reaction and 200 when this user already
 * had it (GitHub REST, "Create reaction for an issue"). Nobody else can
 * remove it (a reaction is its user's alone) and a pull request cannot be
 * deleted, so no user action releases it. All runs of a workflow share one
 * user, so the reaction says *that* a run holds the lock; the marker of the
 * PR's one preview comment (the oldest of our marker comments) says *which*
 * and whether it is alive: right after its 201 the holder reads the comment
 * (what an earlier run recorded; the PR's first run creates the comment
 * here, under the lock, so racing first runs make one comment) and writes
 * `reaction` (its reaction's id, unique for every take), `run`,
 * `provisioningSince` and `heartbeatAt` into the marker, and refreshes
 * `heartbeatAt` every minute.
 *
 * A run that meets 200 waits, reading the PR's lock reaction and the
 * marker. The reaction it sees (id R) is
 * - named by the marker, the comment written within {@link STALE_AFTER_MS}
 *   (its `updated_at` against the answer's `Date`: GitHub's clock, no
 *   runner's): held; wait;
 * - named, the comment not written for {@link STALE_AFTER_MS}: stale (its
 *   run was killed: a live holder writes every minute);
 * - not named for {@link ORPHAN_AFTER_MS} of this waiter's own observation
 *   (seeing it named resets that): orphaned (its run died, or lost the
 *   answer, between the 201 and naming it).
 * A stale or orphaned reaction is deleted **by its id R**, then the waiter
 * creates one again. Two waiters taking over at once both delete R (one gets
 * 204, the other 404: ids are never reused), then both create: exactly one
 * gets 201, the other 200 and waits. A late delete of R never removes a newer
 * reaction.
 *
 * What users do to the comment. Deleting it, editing it or removing its
 * marker releases nothing: the lock is the reaction on the PR. At its next
 * heartbeat (within {@link HEARTBEAT_MS}) the holder writes its comment
 * again: a deleted one is posted again (one new comment, with the record the
 * holder read) and an edited one gets its text and marker back, and its
 * final report lands there. A waiter that meanwhile sees no marker naming R
 * waits {@link ORPHAN_AFTER_MS}, longer than that, before it calls R
 * orphaned; an edit only makes the comment look younger, so it never makes
 * a live lock stale.
 *
 * Why the orphan rule cannot take a lock from a live holder: the holder
 * keeps the lock only when its naming write (retried by the client) was
 * answered within {@link NAME_WITHIN_MS} of sending its create, and writes
 * the marker again every {@link HEARTBEAT_MS}; otherwise it deletes its
 * reaction and starts again. (Assumed, as for every lease: a write GitHub
 * answered has taken effect, and one the client abandoned lands within that
 * time or never.)
 *
 * Release: the holder writes the final report and record into the comment
 * (without the lock's fields), then deletes its reaction, in that order, so
 * the next holder reads the final record. A failed write leaves no dead lock:
 * an unnamed reaction is orphaned after {@link ORPHAN_AFTER_MS}, a named one
 * stale {@link STALE_AFTER_MS} after the comment's last write. When the
 * holder cannot read the PR's comments after its 201 it cannot tell whether a
 * comment (another first run's, or the record of an earlier run) exists: it
 * deletes its reaction and the run goes on without the lock and without a
 * comment. Our own login comes from what GitHub answers to our reaction, so
 * GitHub App installation tokens (whose `GET /user` is refused) work.
 */








/**
 * GitHub requests a run keeps for its lock: take (1), name (list and write,
 * 2), the final report (1) and the release (1), and the 3 a deployment may
 * spend meanwhile (create, `in_progress`, `success`). A first run's check
 * for copies of the comment it posted (one listing, one-comment.ts) is not
 * kept for: refused, it only warns.
 */
const LOCK_BUDGET = 8;
/**
 * Takes the PR's lock (see the module comment), waiting for another run
 * that holds it for at most `timeoutSeconds` in all. Creates a comment only
 * when the PR has no marker comment of ours.
 * @returns the lock; `lock.home` is the comment with what an earlier run recorded (null when this run created it).
 * @throws ClaimNotPostedError when the lock cannot be taken or named for a
 *   GitHub error (after the client's retries; this run's reaction is
 *   deleted), Error naming the holder's comment when its lock is still live
 *   at the timeout, and CancelledError when the run is cancelled while waiting.
 */
async function acquireLock(octokit, pr, o) {
    const runId = (0,external_node_crypto_.randomUUID)();
    const deadline = Date.now() + o.timeoutSeconds * 1000;
    const { owner, repo, number } = pr;
    const before = await (0,lock_budget/* budgetOf */.nT)(octokit).read(octokit);
    if (before !== undefined && before < LOCK_BUDGET)
        throw new ClaimNotPostedError(pr, new BudgetLowError(before, LOCK_BUDGET));
    for (;;) {
        const sentAt = Date.now();
        const answer = await (0,cancel/* finishBeforeUndo */.JZ)(octokit.rest.reactions.createForIssue({ owner, repo, issue_number: number, content: (0,comment_comment/* lockReactionOf */.Oi)() })).catch((err) => {
            throw new ClaimNotPostedError(pr, err);
        });
        const reaction = { id: answer.data.id, login: answer.data.user?.login ?? '' };
        if (answer.status === 201) {
            const lock = new CommentLock(octokit, pr, reaction, o.placeholder, runId, o.heartbeatMs);
            o.onTaken?.(lock);
            const left = Number(answer.headers['x-ratelimit-remaining']);
            if (answer.headers['x-ratelimit-remaining'] !== undefined && left < LOCK_BUDGET - 1) {
                // Spent by others since: release at once, while the reaction's delete still fits.
                const released = await lock.abandon();
                throw new ClaimNotPostedError(pr, new BudgetLowError(left, LOCK_BUDGET - 1), undefined, !released);
            }
            const named = await lock.name(o.mode, sentAt).catch((err) => err);
            if (named === 'named')
                return lock;
            const released = await lock.abandon();
            if (named !== 'slow') {
                const what = named instanceof ClaimNotPostedError ? named.what : undefined;
                throw new ClaimNotPostedError(pr, named instanceof ClaimNotPostedError ? named.cause : named, what, !released);
            }
            if (Date.now() >= deadline)
                throw new ClaimNotPostedError(pr, new Error(`GitHub answered the lock's naming more slowly than ${wait/* NAME_WITHIN_MS */.FI / 1000} s until wait-timeout`), undefined, !released);
            core/* info */.pq(`Naming the lock of PR #${number} took longer than ${wait/* NAME_WITHIN_MS */.FI / 1000} s: released it, taking it again.`);
            continue;
        }
        await (0,wait/* waitForRelease */.Uv)(octokit, pr, reaction, deadline, {
            pollSeconds: o.pollSeconds,
            staleAfterMs: o.staleAfterMs ?? wait/* STALE_AFTER_MS */._k,
            orphanAfterMs: o.orphanAfterMs ?? wait/* ORPHAN_AFTER_MS */.hR
        });
    }
}

// EXTERNAL MODULE: ./src/publish/report.ts + 1 modules
var publish_report = __webpack_require__(1016);
;// CONCATENATED MODULE: ./src/sweep/github.ts
/**
 * What the sweep (cleanup.ts) reads from and writes to GitHub, each in as
 * few requests as it can: the state of many pull requests from the pulls
 * list (100 a page) instead of one request per PR, each PR's preview
 * comments in one listing, and one check, before anything is deleted, that
 * the token may write.
 */






const stateOf = (p) => ({
    state: p.merged || p.merged_at ? 'merged' : p.state === 'closed' ? 'closed' : 'open'
});
/** One PR's state per GitHub's `GET /repos/{owner}/{repo}/pulls/{pull_number}`. */
async function pullState(octokit, number) {
    try {
        const { data } = await octokit.rest.pulls.get({ ...github/* context */._.repo, pull_number: number });
        return stateOf(data);
    }
    catch (err) {
        return { state: null, why: (0,comment_comment/* describeGitHubError */.dZ)(err) };
    }
}
/**
 * The states of the PRs `numbers`, read from the pulls list (GitHub REST,
 * "List pull requests": `state=all`, newest first, 100 a page), stopping
 * once every number is found or the pages have passed the oldest of them
 * (PR numbers grow with creation), or once paging costs more than the reads
 * of one PR each it replaces; the PRs it did not find are read one by one.
 * @returns a state for every number (null state when it cannot be read).
 */
async function pullStates(octokit, numbers) {
    const wanted = new Set(numbers);
    const states = new Map();
    if (wanted.size === 0)
        return states;
    const oldest = Math.min(...wanted);
    let pages = 0;
    try {
        const pagesOf = octokit.paginate.iterator(octokit.rest.pulls.list, {
            ...github/* context */._.repo,
            state: 'all',
            sort: 'created',
            direction: 'desc',
            per_page: 100
        });
        for await (const { data } of pagesOf) {
            pages++;
            for (const p of data)
                if (wanted.has(p.number))
                    states.set(p.number, stateOf(p));
            const left = wanted.size - states.size;
            if (left === 0 || data.length === 0 || data[data.length - 1].number <= oldest || pages >= left)
                break;
        }
    }
    catch (err) {
        if ((0,lock_budget/* isRateLimited */.Jz)(err))
            throw err;
        // Read one by one below.
    }
    for (const n of wanted)
        if (!states.has(n))
            states.set(n, await pullState(octokit, n));
    return states;
}
/** Our preview comments on the PR, every preview's, oldest first (one listing, all pages; comment.ts reads the markers). @throws the GitHub error. */
async function previewComments(octokit, number, login) {
    const pr = { ...github/* context */._.repo, number, headRef: '' };
    const found = await (0,wait/* markerComments */.V6)(octokit, pr, login, true);
    return found.flatMap((m) => {
        const parsed = (0,comment_comment/* anyPreviewRecordOf */.Ly)(m.body);
        return parsed ? [{ id: m.id, preview: parsed.preview, record: parsed.record, age: m.age }] : [];
    });
}
/** The token may not write to pull requests: the sweep would leave comments and locks as they are. */
class SweepPermissionError extends Error {
    constructor(number, cause) {
        super(`\`command: cleanup\` needs a token that may write to pull requests: GitHub refused a reaction on PR #${number} (${(0,comment_comment/* describeGitHubError */.dZ)(cause)}). ` +
            'Grant the workflow `permissions: pull-requests: write` (and `deployments: write` with `deployment: true`). Nothing was deleted.');
        this.name = 'SweepPermissionError';
    }
}
/**
 * Checks that the token may write before the sweep deletes anything, and
 * learns its login (which GitHub App installation tokens cannot ask
 * `GET /user`): adds the lock reaction of PR `number`'s one preview and, when
 * GitHub answers 201 (no run holds that lock), deletes it again by its id. A
 * 200 means a run of ours holds it: left alone.
 * @returns the token's login.
 * @throws SweepPermissionError on a 403 or 404 that is not a rate limit; the GitHub error otherwise.
 */
async function checkWrite(octokit, number) {
    const pr = { ...github/* context */._.repo, number, headRef: '' };
    let answer;
    try {
        answer = await octokit.rest.reactions.createForIssue({ ...github/* context */._.repo, issue_number: number, content: (0,comment_comment/* lockReactionOf */.Oi)('') });
    }
    catch (err) {
        if (!(0,lock_budget/* isRateLimited */.Jz)(err) && ((0,comment_comment/* statusOf */.c2)(err) === 403 || (0,comment_comment/* statusOf */.c2)(err) === 404))
            throw new SweepPermissionError(number, err);
        throw err;
    }
    if (answer.status === 201)
        await (0,wait/* deleteLockReaction */.A_)(octokit, pr, answer.data.id);
    return answer.data.user?.login ?? '';
}
/**
 * PR `number`'s comment lock for the sweep of `branch` (its placeholder says
 * "being swept by the scheduled cleanup", with `reason`), waiting at most
 * `wait-timeout` and two minutes for a run that holds it.
 * @throws the GitHub error of a rate limit; Error saying the branch may be in use otherwise.
 */
async function sweepLock(octokit, settings, number, branch, reason) {
    try {
        return await acquireLock(octokit, { ...github/* context */._.repo, number, headRef: '' }, {
            mode: 'branch',
            placeholder: (0,publish_report/* renderReport */.B1)({
                mode: 'branch',
                state: 'sweeping',
                branchName: branch.name,
                branchId: branch.id,
                sweptBecause: reason
            }),
            pollSeconds: Math.min(settings.pollIntervalSeconds, 2),
            timeoutSeconds: Math.min(settings.waitTimeoutSeconds, 120)
        });
    }
    catch (err) {
        const cause = err.cause;
        if ((0,lock_budget/* isRateLimited */.Jz)(cause ?? err))
            throw cause ?? err;
        throw new Error(`could not take the comment lock of pull request #${number}, so a run of it may be using the branch (${(0,comment_comment/* describeGitHubError */.dZ)(cause ?? err)})`, { cause: err });
    }
}

// EXTERNAL MODULE: ./node_modules/bottleneck/lib/index.js
var lib = __webpack_require__(2203);
var lib_default = /*#__PURE__*/__webpack_require__.n(lib);
;// CONCATENATED MODULE: ./src/deployment/deployment.ts
/**
 * The PR's GitHub deployment: what reviewers find through the pull request's
 * "View deployment" button and the repository's environments. One
 * deployment per run that provisions or reuses, for the PR's head commit,
 * in the environment `preview-postgres/pr-<N>` (GitHub REST, "Create a
 * deployment": `transient_environment: true`, `production_environment:
 * false`, `auto_merge: false`, `required_contexts: []`), and its statuses
 * (GitHub REST, "Create a deployment status"): `in_progress` when the run
 * starts, then `success` with `environment_url` and `log_url`, or
 * `failure`; `inactive` once the preview is deleted.
 *
 * Nothing here fails a run: a token without `deployments: write` (403) gets
 * one notice naming the permission and no further deployment request; any
 * other error, GitHub's rate limit included (403 or 429 with
 * `x-ratelimit-remaining: 0`: comment/lock/budget.ts), is a warning.
 */




/** The undo step that sets a cancelled run's deployment `failure` (cancel.ts), so it is not left `in_progress`. */
const DEPLOYMENT_STATUS = 'the deployment status';
/**
 * The environment of a PR's previews: `preview-postgres/pr-<N>`, with
 * `-<previewName>` appended when a workflow names its preview (the
 * `preview-name` input, once there is one; every name gets its own
 * environment).
 */
function environmentOf(prNumber, previewName = '') {
    return `preview-postgres/pr-${prNumber}${previewName ? `-${previewName}` : ''}`;
}
/** The branch's page in the Neon Console: a branch-mode deployment's `environment_url`. */
function branchConsoleUrl(projectId, branchId) {
    return `https://console.neon.tech/app/projects/${encodeURIComponent(projectId)}/branches/${encodeURIComponent(branchId)}`;
}
/** Set once a deployment request was refused for the permission: the run makes no further one. */
let refused = false;
/** The notice for a 403, once per run; other errors are warnings. Returns null so callers can `.catch(skip(…))`. */
function skip(what) {
    return (err) => {
        if ((0,lock_budget/* isRateLimited */.Jz)(err)) {
            core/* warning */.$e(`Could not ${what}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}. The run goes on without it.`);
        }
        else if ((0,comment_comment/* statusOf */.c2)(err) === 403) {
            if (!refused)
                core/* notice */.lm('GitHub refused the deployment (HTTP 403): grant the workflow `permissions: deployments: write` for the PR\'s "View deployment" button. The run goes on without it.');
            refused = true;
        }
        else
            core/* warning */.$e(`Could not ${what}: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}. The run goes on without it.`);
        return null;
    };
}
/** A deployment this run created, whose statuses it sets. */
class PreviewDeployment {
    octokit;
    target;
    id;
    environment;
    logUrl;
    constructor(octokit, target, id, environment, logUrl) {
        this.octokit = octokit;
        this.target = target;
        this.id = id;
        this.environment = environment;
        this.logUrl = logUrl;
    }
    /**
     * Creates the deployment for `target.sha` in `environment` and sets it
     * `in_progress`; sets the `deployment-id` output. Until it ends, a cancel
     * sets it `failure` (an undo step, cancel.ts), once the create and the
     * `in_progress` status it may have caught in flight have landed.
     * @returns the deployment, or null when GitHub refused it (a notice or warning says why).
     */
    static async start(octokit, target, environment, logUrl) {
        if (refused)
            return null;
        // A cancel lets the create finish, so the deployment it made is known and set `failure`.
        const created = await (0,cancel/* finishBeforeUndo */.JZ)(octokit.rest.repos.createDeployment({
            owner: target.owner,
            repo: target.repo,
            ref: target.sha,
            environment,
            description: `Preview Postgres for pull request #${target.number}`,
            transient_environment: true,
            production_environment: false,
            auto_merge: false,
            required_contexts: []
        })).catch(skip('create the deployment'));
        // 202 ("Auto-merged …") has no id: with auto_merge false GitHub answers 201 or an error.
        const id = created && 'id' in created.data ? created.data.id : undefined;
        if (!id)
            return null;
        core/* setOutput */.uH('deployment-id', String(id));
        const deployment = new PreviewDeployment(octokit, target, id, environment, logUrl);
        const inProgress = deployment.status('in_progress');
        // after `in_progress` has landed, so that `failure` is the status GitHub keeps
        (0,cancel/* onCancel */.Ao)(DEPLOYMENT_STATUS, () => inProgress.then(() => deployment.status('failure')));
        await inProgress;
        return deployment;
    }
    /** Sets `success` with the preview's address (instant: the claim URL; branch: the Console's branch page). */
    succeed(environmentUrl) {
        (0,cancel/* offCancel */.qC)(DEPLOYMENT_STATUS);
        return this.status('success', environmentUrl);
    }
    /** Sets `failure`. */
    fail() {
        (0,cancel/* offCancel */.qC)(DEPLOYMENT_STATUS);
        return this.status('failure');
    }
    async status(state, environmentUrl) {
        if (refused)
            return;
        await setStatus(this.octokit, this.target, this.id, state, this.logUrl, environmentUrl);
    }
}
async function setStatus(octokit, where, id, state, logUrl, environmentUrl) {
    await octokit.rest.repos
        .createDeploymentStatus({
        owner: where.owner,
        repo: where.repo,
        deployment_id: id,
        state,
        log_url: logUrl || undefined,
        environment_url: environmentUrl || undefined,
        auto_inactive: false
    })
        .catch(skip(`set deployment ${id} ${state}`));
}
/**
 * Sets `inactive` on every deployment of `environment` whose latest status
 * is not already `inactive` (the preview was deleted: `command: delete`, the
 * sweep). GitHub lists deployments newest first, 100 a page.
 * @param known the environment's deployments when already listed ({@link previewEnvironments}): not listed again
 */
async function deactivateEnvironment(octokit, where, environment, logUrl, known) {
    if (refused)
        return;
    const deployments = known ??
        (await octokit
            .paginate(octokit.rest.repos.listDeployments, { ...where, environment, per_page: 100 })
            .catch(skip(`list the deployments of ${environment}`)));
    for (const d of deployments ?? []) {
        const latest = await octokit.rest.repos
            .listDeploymentStatuses({ ...where, deployment_id: d.id, per_page: 1 })
            .then(({ data }) => data[0]?.state)
            .catch(() => undefined);
        if (latest === 'inactive')
            continue;
        await setStatus(octokit, where, d.id, 'inactive', logUrl);
        if (refused)
            return;
    }
}
/**
 * Sets `inactive` on the deployments `ids` (the sweep, from the ids a run
 * recorded: sweep/direct.ts), without reading their statuses.
 * @returns the requests sent
 */
async function setInactive(octokit, where, ids, logUrl) {
    let sent = 0;
    for (const id of ids) {
        if (refused)
            break;
        await setStatus(octokit, where, id, 'inactive', logUrl);
        sent++;
    }
    return sent;
}
/** The prefix of every environment this action deploys to ({@link environmentOf}). */
const ENVIRONMENT_PREFIX = 'preview-postgres/pr-';
/**
 * The repository's deployments to this action's environments, by
 * environment, newest first: one listing of the repository's deployments
 * (GitHub REST, "List deployments": newest first, 100 a page) for a sweep
 * of many PRs, where one listing per environment would cost a request per PR.
 * @returns null when the repository has more than `maxPages` pages of
 *   deployments (list per environment instead), `mayRead` stopped it, or they cannot be listed
 */
async function previewEnvironments(octokit, where, maxPages, 
/** Asked as each page arrives (the first was sent already): false stops the listing (null). */
mayRead = () => true) {
    if (refused)
        return null;
    const found = new Map();
    let pages = 0;
    try {
        for await (const { data } of octokit.paginate.iterator(octokit.rest.repos.listDeployments, { ...where, per_page: 100 })) {
            if (++pages > maxPages || !mayRead())
                return null;
            for (const d of data) {
                if (!d.environment.startsWith(ENVIRONMENT_PREFIX))
                    continue;
                found.set(d.environment, [...(found.get(d.environment) ?? []), { id: d.id }]);
            }
        }
    }
    catch (err) {
        return skip('list the deployments')(err);
    }
    return found;
}

// EXTERNAL MODULE: ./src/platform/retry-423.ts
var retry_423 = __webpack_require__(6639);
// EXTERNAL MODULE: ./src/http.ts
var http = __webpack_require__(6803);
;// CONCATENATED MODULE: ./src/sweep/pace.ts
/**
 * How the sweep's deletes share Neon's API (Neon docs, "API rate limiting":
 * 700 requests per minute per account; Neon operations guide: a request
 * that starts work while the project is busy gets 423, resent after 0.1 s
 * doubling): every request of the sweep waits for room in a sliding minute
 * of {@link SWEEP_NEON_PER_MINUTE}; one DELETE is sent at a time (the others
 * would only meet 423), and not before the project is likely free again
 * ({@link SettleTime}: a 423 is a request spent for nothing); the deletes
 * already sent wait for their operations together, polling one listing of
 * the project's operations per poll interval instead of one request per
 * operation.
 */



/** Requests a minute the sweep allows itself: Neon's 700, less room for other runs of the account. */
const SWEEP_NEON_PER_MINUTE = 600;
/** Sends of requests in a sliding minute, at most `perMinute`. */
class MinutePace {
    perMinute;
    windowMs;
    times = [];
    /** Requests sent through {@link wait}. */
    sent = 0;
    /** @param windowMs the window's length in milliseconds (a minute; shorter in tests) */
    constructor(perMinute, windowMs = 60_000) {
        this.perMinute = perMinute;
        this.windowMs = windowMs;
    }
    /** Resolves once one more request fits in the last window, and counts it. */
    wait = async () => {
        for (;;) {
            const now = Date.now();
            while (this.times.length && this.times[0] <= now - this.windowMs)
                this.times.shift();
            if (this.times.length < this.perMinute)
                break;
            await (0,http/* sleep */.yy)(this.times[0] + this.windowMs - now);
        }
        this.times.push(Date.now());
        this.sent++;
    };
}
/** Longest wait {@link SettleTime} puts before a DELETE, in milliseconds; a project busy for longer meets 423 as before. */
const MAX_SETTLE_MS = 5000;
/**
 * How long the project stays busy after the answer to one of the sweep's
 * DELETEs (its operations run; the next DELETE meanwhile gets 423), learned
 * from the sweep's own DELETEs: one that met 423 sets it to the time from
 * the previous answer to its own (at most {@link MAX_SETTLE_MS}); one that
 * did not shortens it by a quarter, so it follows operations that get
 * faster. Times in milliseconds since the epoch.
 */
class SettleTime {
    answeredAt = 0;
    /** The current estimate, in milliseconds. */
    ms = 0;
    /** How long a DELETE sent at `now` should wait first. */
    waitMs(now) {
        return Math.max(0, this.answeredAt + this.ms - now);
    }
    /** Records a DELETE's final answer at `now`; `locked`: it met 423 before that. */
    answered(now, locked) {
        if (locked && this.answeredAt)
            this.ms = Math.min(now - this.answeredAt, MAX_SETTLE_MS);
        else if (!locked)
            this.ms = Math.floor(this.ms * 0.75);
        this.answeredAt = now;
    }
}
/** Shortest time between two listings of the project's operations, in milliseconds. */
const LIST_EVERY_MS = 1000;
/** The deletes' sharing of the project for one sweep (see the module comment). */
function deleteSharing(client, pollIntervalSeconds) {
    const one = new (lib_default())({ maxConcurrent: 1 });
    let listing;
    const every = Math.max(pollIntervalSeconds * 1000, LIST_EVERY_MS);
    const list = () => {
        const ops = client.listOperations(100).then(({ operations }) => new Map(operations.map((op) => [op.id, op])));
        const current = (listing = { at: Date.now(), ops });
        ops.catch(() => {
            if (listing === current)
                listing = undefined;
        });
        return current;
    };
    const settle = new SettleTime();
    return {
        send: (label, attempt) => one.schedule(async () => {
            const wait = settle.waitMs(Date.now());
            if (wait > 0)
                await (0,http/* sleep */.yy)(wait);
            let locked = false;
            const observed = () => attempt().catch((err) => {
                if (err instanceof http/* HttpError */.j$ && err.status === 423)
                    locked = true;
                throw err;
            });
            try {
                return await (0,retry_423/* retryLocked */.rU)(label, observed);
            }
            finally {
                settle.answered(Date.now(), locked);
            }
        }),
        async get(id) {
            // Waiters of one poll interval share one listing; newest first, so the operations of deletes under way are on its first page.
            const asked = Date.now();
            let current = listing && asked - listing.at < every ? listing : list();
            let op = (await current.ops).get(id);
            // Not listed yet (a listing from before the delete): one listing from after this ask has it.
            if (!op && current.at < asked) {
                current = listing && listing.at >= asked ? listing : list();
                op = (await current.ops).get(id);
            }
            return op ?? client.getOperation(id);
        }
    };
}

;// CONCATENATED MODULE: ./src/sweep/direct.ts
/**
 * The sweep's writes to a preview's comment and deployment without listing
 * them per PR (run.ts calls these): a run that creates a branch
 * records the PR comment's id and its deployment's id in the branch's
 * annotations (platform/recorded-ids.ts), so a swept preview costs its two
 * writes, the comment's edit and the deployment's `inactive`, and the
 * sweep's bulk reads (the pulls list, the repository's deployments, the
 * repository's recent comments) are shared by a hundred previews a page.
 *
 * Whether a run of a closed PR holds its lock is read from the repository's
 * comments written lately (GitHub REST, "List issue comments for a
 * repository", `since`): a holder writes its comment every
 * {@link HEARTBEAT_MS}, so a claim not among the comments written within
 * {@link STALE_AFTER_MS} (and a margin for the clocks) is stale, its run
 * gone, and its comment is written over as any other (the gone run's
 * reaction stays on the closed PR; a run of it reopened takes it over as
 * orphaned, lock.ts). Each listing asks only for what was written since the
 * previous one.
 */




/** Slack for the runner's clock against GitHub's (the first listing), in milliseconds. */
const CLOCK_MARGIN_MS = 120_000;
/** Slack for a write GitHub was doing while it answered the previous listing (whose `Date` has whole seconds), in milliseconds. */
const WRITE_MARGIN_MS = 5000;
/** Our preview comments written lately, from the repository's comment listings. */
class RecentComments {
    octokit;
    login;
    since = 0;
    latest = new Map();
    /** True once a listing failed (not for the rate limit): the sweep lists each PR's comments instead. */
    failed = false;
    constructor(octokit, login) {
        this.octokit = octokit;
        this.login = login;
    }
    /**
     * Lists the repository's comments written since the previous listing (the
     * first: within {@link STALE_AFTER_MS} and the margin), a page at a time
     * while `allow(1)` says one more request fits.
     * @returns false when `allow` stopped it before the last page.
     * @throws the GitHub error of a rate limit (other errors set {@link failed}).
     */
    async refresh(allow, isRateLimited) {
        if (this.failed)
            return true;
        // The first listing by this runner's clock, with a margin for it; the next ones from the previous one's `Date` (GitHub's clock).
        const since = new Date(this.since ? this.since - WRITE_MARGIN_MS : Date.now() - wait/* STALE_AFTER_MS */._k - CLOCK_MARGIN_MS).toISOString();
        let listedAt = 0;
        try {
            const pages = this.octokit.paginate.iterator(this.octokit.rest.issues.listCommentsForRepo, {
                ...github/* context */._.repo,
                since,
                per_page: 100
            });
            const next = pages[Symbol.asyncIterator]();
            for (;;) {
                if (!allow(1))
                    return false;
                const page = await next.next();
                if (page.done)
                    break;
                const now = Date.parse(page.value.headers.date ?? '') || Date.now();
                listedAt ||= now;
                for (const c of page.value.data)
                    this.take(c, now);
            }
        }
        catch (err) {
            if (isRateLimited(err))
                throw err;
            this.failed = true;
            return true;
        }
        this.since = listedAt || this.since;
        return true;
    }
    take(c, now) {
        if (c.user?.login !== this.login)
            return;
        const pr = Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1]);
        const parsed = (0,comment_comment/* anyPreviewRecordOf */.Ly)(c.body ?? '');
        if (!pr || !parsed)
            return;
        const key = `${pr} ${parsed.preview}`;
        const known = this.latest.get(key);
        // The PR's oldest comment of the preview is its comment (lock.ts); a newer one is a copy.
        if (known && known.id < c.id)
            return;
        this.latest.set(key, { id: c.id, preview: parsed.preview, record: parsed.record, age: now - Date.parse(c.updated_at) });
    }
    /** Preview `preview`'s comment on PR `pr` as last listed, when it was written lately; else undefined (not written lately, or never). */
    of(pr, preview) {
        return this.latest.get(`${pr} ${preview}`);
    }
}
/**
 * Writes `markdown` (and the record `{mode: 'branch'}`) into the preview's
 * comment `commentId` on PR `pr`; when it is gone (404: a user deleted it,
 * or a run posted it again under another id), into the preview's comment the
 * PR's listing finds, if any (the sweep never creates a comment).
 * @returns the requests sent
 * @throws the GitHub error (other than that 404)
 */
async function writeComment(octokit, pr, preview, commentId, markdown, login) {
    const body = (0,comment_comment/* commentBody */.I2)(markdown, { mode: 'branch' });
    try {
        await octokit.rest.issues.updateComment({ ...github/* context */._.repo, comment_id: commentId, body });
        return 1;
    }
    catch (err) {
        if ((0,comment_comment/* statusOf */.c2)(err) !== 404)
            throw err;
    }
    const found = (await previewComments(octokit, pr, login)).find((c) => c.preview === preview);
    if (!found)
        return 2;
    await octokit.rest.issues.updateComment({ ...github/* context */._.repo, comment_id: found.id, body });
    return 3;
}
/**
 * The deployments of a preview the sweep sets `inactive` without reading
 * their statuses: the one the run that made the preview recorded
 * (`recorded`) and every later one of its environment (`listed`: the
 * environment's deployments; GitHub's ids grow), the deployments of the
 * preview's reuses. Older ones belong to an earlier preview of the PR,
 * already set `inactive` when it was deleted. Ascending ids.
 */
function deploymentsToDeactivate(recorded, listed) {
    return [...new Set([recorded, ...(listed ?? []).map((d) => d.id).filter((id) => id > recorded)])].sort((a, b) => a - b);
}
/**
 * GitHub requests a swept preview's writes may cost: its comment's edit
 * (`comment`), and its deployments' `inactive`: from the recorded id, one
 * per deployment to deactivate; without it, a status read and an
 * `inactive` per deployment of its environment; without the repository's
 * listing (`envs` null), the environment's listing too (one deployment
 * assumed). `envs` undefined: deployments are not touched.
 */
function writesCost(comment, envs, environment, recorded) {
    const n = comment ? 1 : 0;
    if (envs === undefined)
        return n;
    if (envs === null)
        return n + 3;
    const listed = envs.get(environment);
    return n + (recorded ? deploymentsToDeactivate(recorded, listed).length : 2 * (listed?.length ?? 0));
}

// EXTERNAL MODULE: ./src/run-source.ts
var run_source = __webpack_require__(7838);
;// CONCATENATED MODULE: ./src/sweep/kinds.ts
/**
 * The sweep's rules for the previews no pull request owns (run-source.ts,
 * annotations.ts `preview-postgres/kind`), beside a closed PR's (cleanup.ts):
 *
 * - a merge group's branch lives for its job alone: the job's post step
 *   deletes it, and Neon at its `expires_at`; the sweep deletes one whose
 *   expiry has passed (a project where Neon did not remove it) or, without
 *   an expiry, one older than GitHub's default job timeout (6 h). No GitHub request.
 * - a git branch's preview (push, `workflow_dispatch`) lives while the git
 *   branch does: one `GET /repos/{owner}/{repo}/branches/{branch}` (GitHub
 *   REST, "Get a branch") per git branch and sweep, as a closed PR's preview
 *   costs one pull request read; only a 404 `Branch not found` means it was
 *   deleted (a token that may not read the repository's contents gets 404
 *   `Not Found`: the preview is kept). Each read goes through the sweep's
 *   client and keeps the reserve of GitHub's rate limit that the sweep
 *   leaves to the repository's pull requests (comment/lock/budget.ts): below
 *   it the preview is left for the next run, unread.
 */





/** Whether each git branch exists, read once per sweep (the process is one run). */
const gitBranches = new Map();
let octokit;
/** Sends the git-branch reads through `client`: the sweep's, so that they count in the budget it checks (budget.ts, budgetOf). */
function readGitBranchesWith(client) {
    octokit = client;
}
/** The `message` of a GitHub error's body (octokit's RequestError), '' when none. */
function messageOf(err) {
    const data = err.response?.data;
    return typeof data?.message === 'string' ? data.message : '';
}
/**
 * True when git branch `name` exists on GitHub, false when GitHub answers 404 `Branch not found`, or why it could not be read;
 * null, unread, when its request would take GitHub's budget below the reserve.
 */
function gitBranchExists(settings, name) {
    let known = gitBranches.get(name);
    if (!known) {
        octokit ??= (0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
        const client = octokit;
        const budget = (0,lock_budget/* budgetOf */.nT)(client);
        if (!budget.allows(budget.reserve() + 1))
            return null;
        known = client.rest.repos.getBranch({ ...github/* context */._.repo, branch: name }).then(() => true, 
        // GitHub answers 404 `Not Found` too when the token may not read the repository's contents: only `Branch not found` says it is gone
        (err) => ((0,comment_comment/* statusOf */.c2)(err) === 404 && /branch not found/i.test(messageOf(err)) ? false : (0,comment_comment/* describeGitHubError */.dZ)(err)));
        gitBranches.set(name, known);
    }
    return known;
}
/**
 * The sweep's decision for a branch of ours no pull request owns, by the kind
 * its annotations name (see the module comment); null for a branch of no kind
 * (a commit's, made outside a PR by an earlier version), which cleanup.ts decides.
 * @param now milliseconds since the epoch
 */
async function decideByKind(owner, branch, settings, now) {
    if (owner.kind === 'merge-group') {
        const expires = Date.parse(branch.expires_at ?? '');
        if (Number.isFinite(expires) && expires <= now)
            return { decision: 'delete', reason: "a merge group's branch past its expiry: its job is over" };
        const age = (now - Date.parse(branch.created_at)) / 1000;
        if (!Number.isFinite(expires) && age > run_source/* QUEUE_EXPIRY_SECONDS */.wZ)
            return { decision: 'delete', reason: "a merge group's branch older than 6 h: its job is over" };
        return { decision: 'keep', reason: "a merge group's branch whose job may still run (its post step deletes it, or its expiry)" };
    }
    if (owner.kind === 'git-branch' && owner.gitBranch) {
        const reading = gitBranchExists(settings, owner.gitBranch);
        if (!reading)
            return {
                decision: 'left for the next run',
                reason: `git branch \`${owner.gitBranch}\` not read: the sweep leaves GitHub's last ${(0,lock_budget/* budgetOf */.nT)(octokit).reserve()} requests of the hour to the repository's pull requests`
            };
        const exists = await reading;
        if (exists === false)
            return { decision: 'delete', reason: `git branch \`${owner.gitBranch}\` was deleted` };
        if (exists === true)
            return { decision: 'keep', reason: `git branch \`${owner.gitBranch}\` exists` };
        core/* warning */.$e(`Could not read git branch "${owner.gitBranch}" of branch "${branch.name}": ${exists}. Keeping the branch.`);
        return { decision: 'keep', reason: `git branch \`${owner.gitBranch}\` could not be read (${exists}): kept` };
    }
    return null;
}

;// CONCATENATED MODULE: ./src/sweep/decide.ts
/**
 * The sweep's rules for one branch (the module comment of cleanup.ts): the
 * default and protected branches are never touched, a branch without this
 * action's annotations (annotations.ts) is not ours, another repository's is
 * kept; a closed or merged PR's preview is deleted, as is one not used for
 * longer than `max-age`; a preview no PR owns follows its kind (kinds.ts).
 * The sweep (cleanup.ts), its deletes deciding again (run.ts) and
 * `make-room` (make-room.ts) all decide here.
 */




/** "3 d 4 h", "40 min": a whole-unit rendering of `seconds`. */
function humanDuration(seconds) {
    const d = Math.floor(seconds / 86400);
    const h = Math.floor((seconds % 86400) / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    return d ? `${d} d${h ? ` ${h} h` : ''}` : h ? `${h} h${m ? ` ${m} min` : ''}` : `${Math.max(m, 0)} min`;
}
/**
 * Decides one branch: default, protected, not ours, another repository's, a
 * closed or merged PR, older than `max-age`, or kept. `listed`: the
 * branch's annotation values from the branch list, when it answered them
 * (else the branch is read).
 */
async function decide(client, branch, settings, pulls, now, listed) {
    if (branch.default)
        return { branch, decision: 'keep', reason: "the project's default branch: never touched" };
    if (branch.protected)
        return { branch, decision: 'keep', reason: 'a protected branch: never touched' };
    const found = listed ? { branch, annotations: listed } : await client.branchWithAnnotations(branch.id);
    if (!found)
        return { branch, decision: 'keep', reason: 'gone before it could be read' };
    const owner = (0,platform_annotations/* ownerOf */.bf)(found.annotations);
    if (!owner)
        return { branch, decision: 'keep', reason: 'not made by this action (no preview-postgres annotations), whatever its name' };
    const repo = `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
    if (owner.repository !== repo)
        return { branch, pr: owner.pr, decision: 'keep', reason: `made for another repository (${owner.repository})` };
    const row = (decision, reason) => ({
        branch: found.branch,
        pr: owner.pr,
        preview: owner.preview,
        decision,
        reason,
        recorded: { commentId: owner.commentId, deploymentId: owner.deploymentId }
    });
    let unread = null;
    if (owner.pr) {
        const pr = await pulls(owner.pr);
        if (pr.state === 'merged' || pr.state === 'closed')
            return row('delete', `pull request #${owner.pr} is ${pr.state}`);
        if (pr.state === null) {
            unread = `pull request #${owner.pr} could not be read (${pr.why})`;
            core/* warning */.$e(`Could not read pull request #${owner.pr} of branch "${branch.name}": ${pr.why}. Keeping the branch unless max-age applies.`);
        }
    }
    if (settings.maxAgeSeconds > 0) {
        const lastUsed = Date.parse(found.branch.updated_at ?? found.branch.created_at);
        const age = (now - lastUsed) / 1000;
        if (Number.isFinite(age) && age > settings.maxAgeSeconds) {
            return row('delete', `not used for ${humanDuration(age)} (max-age ${humanDuration(settings.maxAgeSeconds)})`);
        }
    }
    const byKind = owner.pr ? null : await decideByKind(owner, found.branch, settings, now); // merge groups, git branches
    if (byKind)
        return row(byKind.decision, byKind.reason);
    if (!owner.pr)
        return row('keep', settings.maxAgeSeconds > 0
            ? 'made outside a pull request, used within max-age'
            : 'made outside a pull request; set `max-age` to sweep it');
    const within = settings.maxAgeSeconds > 0 ? ' and the branch was used within max-age' : '';
    if (unread)
        return row('keep', `${unread}${within}: kept`);
    return row('keep', `pull request #${owner.pr} is open${within}`);
}

;// CONCATENATED MODULE: ./src/sweep/ledger.ts
/** One sweep's GitHub requests kept back from the budget, in requests. */
class SweepLedger {
    budget;
    /** Requests promised to rows already read, per row: kept back from the budget. */
    promised = new Map();
    pendingWrites = 0;
    /** Comment listings under way (their answers not yet counted in the budget). */
    reading = 0;
    /** Requests the rows being handled now may still send (a row under its PR's lock: run.ts's `LOCKED_COST` more). */
    underWay = 0;
    /** True once a request did not fit or GitHub's rate limit was met: the sweep takes no more branches. */
    stopped = false;
    constructor(budget) {
        this.budget = budget;
    }
    /** True when `n` more GitHub requests fit above the reserve (budget.ts), after what is promised and under way; else the sweep stops taking branches. */
    reserve(n) {
        const { budget } = this;
        if (budget.allows(budget.reserve() + this.reading + this.pendingWrites + this.underWay + n))
            return true;
        this.stopped = true;
        return false;
    }
    /** Keeps back `cost` requests for the row's writes until it is handled ({@link settle}). */
    promise(row, cost) {
        this.promised.set(row, cost);
        this.pendingWrites += cost;
    }
    /** Gives back what {@link promise} kept for the row, once it is being handled. */
    settle(row) {
        this.pendingWrites -= this.promised.get(row) ?? 0;
        this.promised.delete(row);
    }
    /** Leaves the row for the next run, saying why in its reason. */
    defer(row) {
        row.decision = 'left for the next run';
        row.reason += `; left for the next run: the sweep leaves GitHub's last ${this.budget.reserve()} requests of the hour to the repository's pull requests`;
    }
    /** Stops the sweep and leaves every row of `rows` for the next run. */
    deferAll(rows) {
        this.stopped = true;
        for (const row of rows)
            this.defer(row);
    }
}

// EXTERNAL MODULE: ./src/platform/branch-delete.ts
var branch_delete = __webpack_require__(723);
// EXTERNAL MODULE: ./src/platform/operations.ts
var platform_operations = __webpack_require__(9085);
;// CONCATENATED MODULE: ./src/platform/usage.ts
/** The Branch schema's field behind each counter. */
const FIELDS = {
    computeTimeSeconds: 'compute_time_seconds',
    activeTimeSeconds: 'active_time_seconds',
    writtenDataBytes: 'written_data_bytes',
    dataTransferBytes: 'data_transfer_bytes',
    logicalSizeBytes: 'logical_size'
};
const isCount = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** The counters `branch` carries; undefined when it carries none (an older API answer). */
function usageOf(branch) {
    if (!branch)
        return undefined;
    const usage = {};
    for (const [key, field] of Object.entries(FIELDS)) {
        const v = branch[field];
        if (isCount(v))
            usage[key] = v;
    }
    return Object.keys(usage).length ? usage : undefined;
}
/**
 * The sum of `usages`, counter by counter: a counter is in the total when at
 * least one usage has it (those without it add nothing); undefined when none has any.
 */
function totalUsage(usages) {
    const total = {};
    for (const u of usages)
        for (const [key, v] of Object.entries(u ?? {}))
            total[key] = (total[key] ?? 0) + v;
    return Object.keys(total).length ? total : undefined;
}

// EXTERNAL MODULE: ./src/phases.ts
var phases = __webpack_require__(119);
// EXTERNAL MODULE: ./src/comment/lock/saved.ts
var saved = __webpack_require__(7466);
;// CONCATENATED MODULE: ./src/publish/read-only.ts
/**
 * A pull request from a fork: its workflow runs with a read-only
 * GITHUB_TOKEN (GitHub docs, "Events that trigger workflows",
 * pull_request from forks), so the PR comment cannot be written or locked.
 * Reading still works: the run reuses the database the PR's comment records,
 * and the `workflow_run` job (`command: publish`) posts the comment from the
 * run's `report-file`.
 */



/** True when the event's pull request comes from another repository (`head.repo.full_name` is not the base's). */
function isForkPullRequest() {
    const pr = github/* context */._.payload.pull_request;
    const head = pr?.head?.repo?.full_name;
    const base = pr?.base?.repo?.full_name ?? `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
    return Boolean(head && head !== base);
}
/**
 * After the comment lock was refused: when the refusal is a fork PR's 403,
 * says once that the `workflow_run` job posts the comment and returns the
 * PR's preview comment as `home` (the oldest comment of ours written by
 * `author`, the login `command: publish` comments as: the `comment-author`
 * input; no other account's comment, a person's, another App's or another
 * bot's, can name a database to reuse; its record without the lock's
 * fields), null when there is none of this mode or it cannot be read.
 * Otherwise returns null: the caller reports the refusal as before.
 */
async function forkRecord(octokit, pr, mode, err, author) {
    if ((0,comment_comment/* statusOf */.c2)(err.cause) !== 403 || !isForkPullRequest())
        return null;
    core/* notice */.lm(`This pull request comes from a fork, so its token may not write to it (HTTP 403): the PR comment will be posted by the \`workflow_run\` job (\`command: publish\`) from this run's \`report-file\`.`);
    const comments = await octokit
        .paginate(octokit.rest.issues.listComments, { owner: pr.owner, repo: pr.repo, issue_number: pr.number, per_page: 100 })
        .catch(() => []);
    for (const c of comments.sort((a, b) => a.id - b.id)) {
        if (c.user?.login !== author)
            continue;
        const record = (0,comment_comment/* recordOf */.zv)(c.body ?? '');
        if (record)
            return { home: record.mode === mode ? { id: c.id, record: (0,comment_comment/* withoutLock */.OY)(record) } : null };
    }
    return { home: null };
}

;// CONCATENATED MODULE: ./src/publish/publication.ts
/**
 * Where a run publishes and how it holds the PR's comment lock: opened before
 * anything is provisioned, written once at the end (success, failure or
 * cancel), and the job summary.
 */











/** The earlier run's record without the lock's fields, when it is of this mode; else nothing reusable. */
function reusableOf(home, mode) {
    if (!home || home.record.mode !== mode)
        return { mode };
    return (0,comment_comment/* withoutLock */.OY)(home.record);
}
/** This run made a new database or branch: a failure or cancel from now on records nothing reusable. */
function forgetReusable(pub, mode) {
    pub.reusable = { mode };
}
/** The workflow run's page (`<server>/<owner>/<repo>/actions/runs/<id>`), when the runner says which run this is. */
function runUrl() {
    const { serverUrl, runId } = github/* context */._;
    const repo = process.env.GITHUB_REPOSITORY;
    return repo && runId ? `${serverUrl}/${repo}/actions/runs/${runId}` : undefined;
}
/**
 * Takes the PR's comment lock (lock.ts), so only one run of the PR
 * provisions or deletes at a time, whatever comment an earlier run left;
 * the lock's comment says what an earlier run recorded. `seedCheck` is
 * awaited before the lock's placeholder is posted (a refused seed posts no
 * comment). A claim that cannot be posted is a warning: the run goes on
 * without a lock and without reuse. A lock that stays held by another run
 * for `wait-timeout` fails the run.
 */
async function openPublication(settings, seedCheck, pr = (0,comment_comment/* pullRequestOfEvent */.My)()) {
    if (!pr) {
        core/* notice */.lm('No pull request in this event: the PR comment is skipped and nothing is recorded for reuse.');
        return { pr: null, lock: null, existing: null, reusable: { mode: settings.mode } };
    }
    if (!settings.comment || !settings.githubToken) {
        core/* info */.pq(`${settings.comment ? 'No `github-token`' : '`comment` is false'}: no PR comment, so no earlier database can be found for reuse.`);
        return { pr, lock: null, existing: null, reusable: { mode: settings.mode } };
    }
    await (0,cancel/* unlessCancelled */.MS)(seedCheck);
    const octokit = (0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
    const cancelled = (0,publish_report/* renderReport */.B1)({ mode: settings.mode, state: 'cancelled', runUrl: runUrl() });
    let pub;
    return core/* group */.Os('Take the PR comment lock', async () => {
        let lock;
        try {
            lock = await acquireLock(octokit, pr, {
                mode: settings.mode,
                placeholder: (0,publish_report/* renderReport */.B1)({
                    mode: settings.mode,
                    state: settings.command === 'create' || settings.command === 'publish'
                        ? 'provisioning'
                        : settings.command === 'reset'
                            ? 'resetting'
                            : 'closing',
                    runUrl: runUrl()
                }),
                pollSeconds: Math.min(settings.pollIntervalSeconds, 2),
                timeoutSeconds: settings.waitTimeoutSeconds,
                // As soon as the lock's reaction exists: a cancel, or a kill before the post step, releases it.
                // What an earlier run recorded is read once the naming in flight has settled, whatever step the run was in.
                onTaken: (taken) => {
                    (0,saved/* markLock */.lF)(taken.reaction.id, taken.reaction.login);
                    (0,cancel/* onCancel */.Ao)(cancel/* COMMENT_LOCK */.ik, () => taken.finish(cancelled, () => pub?.reusable ?? reusableOf(taken.home, settings.mode)).then(saved/* clearLock */.Nq));
                }
            });
        }
        catch (err) {
            if (!(err instanceof ClaimNotPostedError))
                throw err;
            // Nothing of the lock is left (unless its reaction's delete failed too): nothing for a cancel or the post step to release.
            (0,cancel/* offCancel */.qC)(cancel/* COMMENT_LOCK */.ik);
            if (!err.reactionLeft)
                (0,saved/* clearLock */.Nq)();
            const fork = await forkRecord(octokit, pr, settings.mode, err, settings.commentAuthor);
            if (fork)
                return { pr, lock: null, existing: fork.home, reusable: reusableOf(fork.home, settings.mode), readOnly: true };
            core/* warning */.$e(`${err.message} Going on without it: a concurrent run of this PR is not kept out, and nothing an earlier run recorded is reused.`);
            return { pr, lock: null, existing: null, reusable: { mode: settings.mode } };
        }
        pub = { pr, lock, existing: lock.home, reusable: reusableOf(lock.home, settings.mode) };
        if ((0,cancel/* isCancelled */.mm)()) {
            // The cancel's undo steps may have run while the lock was being taken.
            (0,cancel/* offCancel */.qC)(cancel/* COMMENT_LOCK */.ik);
            await lock.finish(cancelled, pub.reusable);
            (0,saved/* clearLock */.Nq)();
            (0,cancel/* throwIfCancelled */.dZ)();
        }
        core/* info */.pq(`This run holds the PR's comment lock (comment ${lock.claim.id}).` +
            (lock.home ? ' The comment records what an earlier run left.' : ''));
        return pub;
    });
}
/**
 * Writes the run's report into the PR comment (releasing the lock) and the
 * job summary. The comment's schema diff is cut to GitHub's comment limit;
 * the summary keeps all of it.
 */
async function publish(pub, report, record) {
    (0,cancel/* throwIfCancelled */.dZ)();
    (0,phases/* mark */.Gy)('publish');
    const markdown = (0,publish_report/* renderReport */.B1)({ ...report, runUrl: runUrl(), phases: (0,phases/* phaseTrace */.pM)() });
    const lock = pub.lock;
    if (lock?.held) {
        const comment = (0,publish_report/* renderReport */.B1)({ ...report, runUrl: runUrl() }, Date.now(), publish_report/* COMMENT_LIMIT */.W$);
        const written = await core/* group */.Os('Update the PR comment', () => lock.finish(comment, record));
        if (written !== null && lock.url)
            core/* setOutput */.uH('comment-url', lock.url);
        (0,cancel/* offCancel */.qC)(cancel/* COMMENT_LOCK */.ik);
        (0,saved/* clearLock */.Nq)();
    }
    if (process.env.GITHUB_STEP_SUMMARY)
        await core/* summary */.z.addRaw(markdown, true).write();
}
/**
 * At the end of a run that did not publish (failed, or had nothing to
 * report): releases the lock. After a failure the comment says the run
 * failed, and records what an earlier run recorded unless this run made
 * something new (and `failedBecause`, a failure the reviewer can act on:
 * a Neon plan limit); otherwise only the claim is removed. A cancelled run
 * leaves this to its undo step.
 */
async function releaseLock(pub, mode, failed, failedBecause) {
    if (!pub?.lock?.held || (0,cancel/* isCancelled */.mm)())
        return;
    (0,cancel/* offCancel */.qC)(cancel/* COMMENT_LOCK */.ik);
    await pub.lock.finish(failed ? (0,publish_report/* renderReport */.B1)({ mode, state: 'failed', runUrl: runUrl(), failedBecause }) : null, pub.reusable);
    (0,saved/* clearLock */.Nq)();
}

// EXTERNAL MODULE: ./src/vercel/inputs.ts
var vercel_inputs = __webpack_require__(542);
;// CONCATENATED MODULE: ./src/vercel/client.ts
/**
 * Vercel's REST API, the requests the wiring makes (Vercel REST API
 * reference; request and response shapes checked against `@vercel/sdk`'s
 * models in __tests__/contract/vercel.test.ts): the project and its Git
 * link, the project's environment variables (list, upsert, remove) and
 * deployments (list by commit and branch, create from a Git source, cancel).
 * Endpoint versions are those `@vercel/sdk` 1.28 calls.
 *
 * Sent through http.ts's `requestJson`, so the run's timeout, cancel, secret
 * redaction and proxy apply. Every request carries the team as `teamId`
 * (`team_…`) or `slug`. A 429 (`rate_limited`) is waited out until its
 * reset (`X-RateLimit-Reset`, epoch seconds) while within `wait-timeout`.
 */

/** Variables per request of the env list are Vercel's to choose: the list is followed page by page, at most this many. */
const ENV_PAGES = 50;
/** A failure of the wiring, with what to fix in its message. */
class VercelError extends Error {
    constructor(message) {
        super(message);
        this.name = 'VercelError';
    }
}
/** The Vercel API client of one run. */
class VercelClient {
    settings;
    timeoutMs;
    deadline;
    constructor(settings, timeoutMs, 
    /** Milliseconds since the epoch: 429s are waited out until then (`wait-timeout` from the client's start). */
    deadline) {
        this.settings = settings;
        this.timeoutMs = timeoutMs;
        this.deadline = deadline;
    }
    /** Where the project lives, for messages: `team acme` or `your personal account`. */
    get scope() {
        return this.settings.team ? `team "${this.settings.team}"` : 'the personal account of the token';
    }
    url(path, query = {}) {
        const q = new URLSearchParams(query);
        const { team } = this.settings;
        if (team)
            q.set(team.startsWith('team_') ? 'teamId' : 'slug', team);
        const s = q.toString();
        return `${this.settings.apiUrl}${path}${s ? `?${s}` : ''}`;
    }
    async send(label, method, path, query, body) {
        try {
            return await (0,http/* requestJson */.SS)({
                label: `Vercel: ${label}`,
                method,
                url: this.url(path, query),
                body,
                headers: { Authorization: `Bearer ${this.settings.token}` },
                timeoutMs: this.timeoutMs,
                idempotent: method === 'GET',
                rateLimitWait: (h) => {
                    const reset = Number(h.get('x-ratelimit-reset'));
                    return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - Date.now() / 1000) : undefined;
                },
                rateLimitDeadline: this.deadline
            });
        }
        catch (err) {
            throw this.explain(err);
        }
    }
    /** An HttpError in the words of what to fix (403: the token's access; 429: the reset passes `wait-timeout`). */
    explain(err) {
        if (!(err instanceof http/* HttpError */.j$))
            return err;
        if (err.status === 403 || err.status === 401)
            return new VercelError(`${err.message} The Vercel token has no access to project "${this.settings.project}" in ${this.scope}: ` +
                'create the token (Vercel: Account Settings, Tokens) with the scope of the team that owns the project, set `vercel-team` to that team, ' +
                'and store it as the secret VERCEL_TOKEN.');
        if (err.status === 429)
            return new VercelError(`${err.message} Vercel's rate limit (rate_limited) resets later than \`wait-timeout\` allows: re-run the job once it has reset.`);
        return err;
    }
    /** The project and its Git link. @throws VercelError naming the project and scope when it does not exist (404). */
    async project() {
        const p = encodeURIComponent(this.settings.project);
        try {
            return (await this.send('read the project', 'GET', `/v9/projects/${p}`)).body;
        }
        catch (err) {
            if (err instanceof http/* HttpError */.j$ && err.status === 404)
                throw new VercelError(`Vercel project "${this.settings.project}" was not found in ${this.scope}: check \`vercel-project\` (the project's id prj_… or name) and \`vercel-team\`.`);
            throw err;
        }
    }
    /**
     * Every variable of the project, page after page (`pagination.next` passed
     * back as `until`: Vercel REST API, "Pagination"; the endpoint's own
     * reference lists no `until`). A page that brings no variable not seen
     * before ends the list, so a service that ignores `until` and answers the
     * first page again is read twice, not 50 times. Values are not asked for
     * (see VercelEnv).
     * @returns each variable once (by `id`)
     * @throws VercelError when the list has more than 50 pages; HttpError
     */
    async allEnvs(projectId) {
        const seen = new Map();
        let until;
        for (let page = 0; page < ENV_PAGES; page++) {
            const query = until ? { until: String(until) } : {};
            const r = await this.send('list environment variables', 'GET', `/v10/projects/${projectId}/env`, query);
            const body = r.body;
            const fresh = (body.envs ?? []).filter((e) => !seen.has(e.id));
            for (const e of fresh)
                seen.set(e.id, e);
            until = body.pagination?.next;
            if (!until || !fresh.length)
                return [...seen.values()];
        }
        throw new VercelError(`Vercel's list of the project's environment variables has more than ${ENV_PAGES} pages: remove unused variables.`);
    }
    /**
     * Writes `envs` in one upsert request.
     * @returns when they were written (the latest `updatedAt` of the answer's `created`, Vercel's clock; else now), milliseconds
     * @throws VercelError when the answer's `failed[]` is not empty, naming each key with Vercel's code and message.
     */
    async upsertEnvs(projectId, envs) {
        const r = await this.send('write environment variables', 'POST', `/v10/projects/${projectId}/env`, { upsert: 'true' }, envs);
        const failed = r.body.failed ?? [];
        if (failed.length)
            throw new VercelError(`Vercel refused ${failed.length} of the preview's variables: ` +
                failed
                    .map(({ error: e }) => `${e?.key ?? e?.envVarKey ?? '(no key)'}: ${e?.code ?? 'error'}: ${e?.message ?? ''}`.trim())
                    .join('; ') +
                '.');
        const created = [r.body.created ?? []].flat();
        return Math.max(0, ...created.map((e) => e.updatedAt ?? e.createdAt ?? 0)) || Date.now();
    }
    /** Removes one variable; one already gone counts as removed. */
    async removeEnv(projectId, id) {
        try {
            await this.send('remove an environment variable', 'DELETE', `/v9/projects/${projectId}/env/${encodeURIComponent(id)}`);
        }
        catch (err) {
            if (!(err instanceof http/* HttpError */.j$ && err.status === 404))
                throw err;
        }
    }
    /**
     * The project's preview deployments of commit `sha` on branch `ref`, newest
     * first. A commit is not a branch: the list's `branch` filter and each
     * item's `meta.githubCommitRef` keep out another branch's deployment of the
     * same commit, and `target: "production"` ones (the production branch's
     * build of a commit a PR shares) are never returned.
     */
    async deploymentsOf(projectId, sha, ref) {
        const r = await this.send('list deployments', 'GET', '/v7/deployments', { projectId, sha, branch: ref, limit: '20' });
        const items = r.body.deployments ?? [];
        return items
            .filter((d) => {
            const meta = d.meta;
            return d.target !== 'production' && meta?.githubCommitSha === sha && meta?.githubCommitRef === ref;
        })
            .map((d) => ({
            id: String(d.uid ?? d.id),
            url: String(d.url ?? ''),
            state: String(d.readyState ?? d.state ?? ''),
            createdAt: Number(d.createdAt ?? d.created ?? 0),
            sha
        }))
            .sort((a, b) => b.createdAt - a.createdAt);
    }
    /**
     * A new preview deployment of `sha` on `ref` from the project's linked Git
     * repository (not a redeploy: it reads today's variables). `forceNew=1`:
     * without it Vercel may answer with an existing deployment of the commit.
     */
    async deployCommit(project, ref, sha) {
        const gitSource = { type: project.link.type ?? 'github', repoId: project.link.repoId, ref, sha };
        const r = await this.send('create a deployment', 'POST', '/v13/deployments', { forceNew: '1' }, {
            name: project.name,
            project: project.id,
            gitSource
        });
        const d = r.body;
        return {
            id: String(d.id),
            url: String(d.url ?? ''),
            state: String(d.readyState ?? d.status ?? 'QUEUED'),
            createdAt: Number(d.createdAt ?? Date.now()),
            sha
        };
    }
    /**
     * Cancels a deployment that is still queued or building, best effort.
     * @returns false when Vercel refuses because it is no longer underway (400, or 404: the build ended or went between the list and the cancel)
     * @throws HttpError for any other failure
     */
    async cancel(id) {
        try {
            await this.send('cancel a deployment', 'PATCH', `/v12/deployments/${encodeURIComponent(id)}/cancel`);
            return true;
        }
        catch (err) {
            if (err instanceof http/* HttpError */.j$ && (err.status === 400 || err.status === 404))
                return false;
            throw err;
        }
    }
}

// EXTERNAL MODULE: ./src/vercel/report.ts
var report = __webpack_require__(4737);
;// CONCATENATED MODULE: ./src/vercel/variables.ts
/**
 * The preview's variables on Vercel: branch-scoped Preview variables
 * (`target: ["preview"]`, `gitBranch` = the PR's head branch, type
 * `encrypted`) named from `env-key`: `<key>` = the pooled connection
 * string, `<key>_UNPOOLED` = the direct one (the names Neon's Vercel
 * integration sets). Each carries a comment with this action's marker
 * (`preview-postgres:<owner>/<repo>#<pr>[:<preview-name>]`), by which the
 * sweep, which knows the PR but not its branch, finds them, and a digest of
 * the value written, by which a later run knows the variable already holds
 * its connection string: Vercel never gives the value back (see
 * `VercelEnv`), so nothing is decided from a value read.
 */


/** The two variable names the wiring manages. */
function managedKeys(names) {
    return { pooled: names.key, direct: `${names.key}_UNPOOLED` };
}
/** The marker of a PR's preview in a variable's comment. */
function markerOf(repository, pr, preview) {
    return `preview-postgres:${repository}#${pr}${preview ? `:${preview}` : ''}`;
}
/**
 * The digest of a variable's value kept in its comment: HMAC-SHA256 of
 * `<key>=<value>`, keyed by the Vercel token, base64url (43 characters).
 * Safe to show to whoever can read the project's variables' comments: the
 * value is a connection string holding a random password, and the key is the
 * token, which the comment's reader does not have; so the digest neither
 * gives the value back nor lets anyone test a guess of it offline. A new
 * token changes every digest: the next run writes the variables once more.
 */
function valueDigest(token, key, value) {
    return (0,external_node_crypto_.createHmac)('sha256', token).update(`${key}=${value}`).digest('base64url');
}
const COMMENT = /^Preview database of this branch, written by Preview Postgres \((preview-postgres:[^\s;()]+)(?:; ([A-Za-z0-9_-]{43}))?\)\.$/;
const commentOf = (marker, digest) => `Preview database of this branch, written by Preview Postgres (${marker}; ${digest}).`;
/** The marker and value digest of a comment this action wrote, else undefined. */
function parseComment(comment) {
    const m = COMMENT.exec(comment ?? '');
    return m ? { marker: m[1], digest: m[2] } : undefined;
}
/** Is `env` one of ours for `marker` (a branch-scoped variable whose comment carries exactly that marker), whatever its key? */
function isOurs(env, marker) {
    return !!env.gitBranch && parseComment(env.comment)?.marker === marker;
}
/**
 * Writes the two variables for `gitBranch` unless their comments record
 * these values (our marker and the value's digest): one listing of the
 * project's variables, then at most one upsert. Our variables of the same
 * preview on another branch (the head branch was renamed) are removed after.
 * @throws VercelError, before anything is written, when a variable of a
 *   managed key and `gitBranch` is not this preview's: another preview's of
 *   this action (two `preview-name`s, one project: each needs its own
 *   `env-key`) or one a person set; also a `failed[]` entry of the upsert. HttpError
 */
async function syncVariables(client, projectId, gitBranch, names, urls, marker, token) {
    const keys = managedKeys(names);
    const envs = await client.allEnvs(projectId);
    const wanted = ['pooled', 'direct'].map((k) => {
        const digest = valueDigest(token, keys[k], urls[k]);
        const write = {
            key: keys[k],
            value: urls[k],
            type: 'encrypted',
            target: ['preview'],
            gitBranch,
            comment: commentOf(marker, digest)
        };
        const held = envs.find((e) => e.key === keys[k] && e.gitBranch === gitBranch && [e.target ?? []].flat().includes('preview'));
        return { write, digest, held };
    });
    for (const { write, held } of wanted) {
        const owner = held && parseComment(held.comment)?.marker;
        if (!held || owner === marker)
            continue;
        throw new VercelError(owner
            ? `Vercel variable ${write.key} of branch "${gitBranch}" belongs to another preview (${owner}), which would be overwritten: ` +
                'give each preview of this project its own `env-key` (e.g. `env-key: API_DATABASE_URL`). Nothing was written.'
            : `Vercel variable ${write.key} of branch "${gitBranch}" was set by someone else (it has no Preview Postgres marker), and would be overwritten: ` +
                'remove it in Vercel (Project Settings, Environment Variables), or set `env-key` to another name. Nothing was written.');
    }
    const current = wanted.filter(({ held, digest }) => held && held.type !== 'plain' && parseComment(held.comment)?.digest === digest);
    const stale = wanted.filter((w) => !current.includes(w)).map((w) => w.write);
    const changedAt = stale.length
        ? await client.upsertEnvs(projectId, stale)
        : Math.max(...current.map(({ held }) => held.updatedAt ?? held.createdAt ?? 0));
    const elsewhere = envs.filter((e) => isOurs(e, marker) && e.gitBranch !== gitBranch);
    for (const e of elsewhere)
        await client.removeEnv(projectId, e.id);
    return { written: stale.map((w) => w.key), moved: elsewhere.map((e) => `${e.key} (${e.gitBranch})`), changedAt };
}
/**
 * Removes every variable of this action's `marker`, whatever its key (a
 * cleanup job without the create job's `env-key`) and whatever branch it
 * names (a renamed head branch). A variable a person set, or another PR's or
 * preview's, stays.
 * @param envs the project's variables when the caller has listed them already
 * @returns the variables removed, as `KEY (branch)`
 */
async function removeVariables(client, projectId, marker, envs) {
    const ours = (envs ?? (await client.allEnvs(projectId))).filter((e) => isOurs(e, marker)).sort((a, b) => a.key.localeCompare(b.key));
    for (const e of ours)
        await client.removeEnv(projectId, e.id);
    return ours.map((e) => `${e.key} (${e.gitBranch})`);
}

;// CONCATENATED MODULE: ./src/vercel/preview.ts
/**
 * `command: create`'s Vercel wiring, once the database is handed out: the
 * PR's head branch gets its Preview variables (variables.ts), and the head
 * commit's preview reads them. Vercel documents that changed variables
 * apply only to new deployments, and that a redeploy inherits the earlier
 * deployment's variables; so a deployment of the commit created before the
 * variables were written (or changed) is replaced by a new deployment of
 * the same commit from its Git source (`POST /v13/deployments` with
 * `gitSource`), and cancelled if it is still queued or building. Without a
 * deployment of the commit, nothing more is done: the one Vercel's Git
 * integration builds from now on reads the variables. At most one new
 * deployment per run; none when a deployment already reads them. Only the
 * PR's branch's preview deployments count: another branch's, or a production
 * deployment of the same commit, is never cancelled nor published.
 *
 * Nothing is written to Vercel for a fork's PR (its branch name is the
 * fork's, and its commit is not the linked repository's) nor when the head
 * branch is the project's production branch (Vercel refuses a Preview
 * variable there, vercel/vercel#15763, and a deployment of it would be a
 * production one): the database is handed out, and one notice says why.
 */







/** States of a deployment that will not serve (`BLOCKED`: the SDK's `readyState`): it never replaces a stale one, and a stale one in them is not cancelled. */
const ENDED = ['CANCELED', 'ERROR', 'DELETED', 'BLOCKED'];
/** States of a deployment still on its way (cancelled when stale). */
const UNDERWAY = ['QUEUED', 'INITIALIZING', 'BUILDING'];
/** The run's Vercel client: 429s waited out within `wait-timeout` from now. */
function vercelClientOf(settings) {
    if (!settings.vercel)
        return null;
    return new VercelClient(settings.vercel, settings.requestTimeoutSeconds * 1000, Date.now() + settings.waitTimeoutSeconds * 1000);
}
/** The PR's head commit: the event's `pull_request.head.sha`, else the run's commit. */
const headSha = () => github/* context */._.payload.pull_request?.head?.sha ?? github/* context */._.sha;
/**
 * Makes the commit's preview read the variables written at `changedAt`.
 * @returns the deployment that reads them, and what was done
 * @throws VercelError when a new deployment is needed and the project has no Git link; HttpError
 */
async function previewOf(client, project, ref, sha, changedAt) {
    const all = await client.deploymentsOf(project.id, sha, ref);
    const reading = all.find((d) => d.createdAt >= changedAt && !ENDED.includes(d.state));
    if (reading) {
        core/* info */.pq(`Vercel deployment ${reading.id} of ${sha.slice(0, 7)} (${reading.state}) was made after the variables: it reads them.`);
        return { deployment: reading, note: 'reads this database' };
    }
    if (all.length === 0) {
        core/* info */.pq(`No Vercel deployment of ${sha.slice(0, 7)} yet: the one Vercel's Git integration builds from now on reads the variables.`);
        return { note: `no deployment of ${sha.slice(0, 7)} yet; the next one Vercel builds for the branch reads this database` };
    }
    if (!project.link?.repoId)
        throw new VercelError(`Vercel project "${project.name}" has no Git repository linked, so its deployment of ${sha.slice(0, 7)} cannot be made again from Git: ` +
            'connect the repository (Vercel: Project Settings, Git), or deploy from the job with the Vercel CLI (docs/preview-deployments.md).');
    const made = await client.deployCommit(project, ref, sha);
    core/* info */.pq(`Made Vercel deployment ${made.id} of ${sha.slice(0, 7)}: the earlier one${all.length > 1 ? 's' : ''} predate${all.length > 1 ? '' : 's'} the variables.`);
    for (const stale of all.filter((d) => UNDERWAY.includes(d.state))) {
        core/* info */.pq((await client.cancel(stale.id))
            ? `Cancelled the stale Vercel deployment ${stale.id} (${stale.state}).`
            : `The stale Vercel deployment ${stale.id} was no longer underway when cancelled (its build had ended): left as it is.`);
    }
    return { deployment: made, note: 'a new deployment of the commit, made to read this database' };
}
/**
 * Wires the PR's Vercel preview to `connection`: never throws but for a
 * cancel; a failure is returned (the caller fails the step after
 * publishing: the database is fine and kept, and the next run wires again).
 * Sets the `vercel-deployment-url` output. A fork's PR, and a head branch
 * that is the project's production branch, get a notice and a report row
 * saying why, and no write to Vercel.
 * @returns null when the wiring is off (no `vercel-token`), the run has no PR, or `branch-id` names another branch than the PR's
 */
async function wirePreview(settings, pr, connection) {
    const client = vercelClientOf(settings);
    if (!client || !settings.vercel)
        return null;
    if (settings.branchId)
        return null; // `branch-id` names a branch that is not the PR's preview
    if (!pr) {
        core/* info */.pq('Vercel wiring skipped: the run is not for a pull request, so there is no preview branch to write variables for.');
        return null;
    }
    const fork = (0,vercel_inputs/* forkOf */.q)();
    if (fork) {
        core/* notice */.lm(`Vercel wiring skipped: the pull request's head is in the fork ${fork}, so nothing is written to Vercel for it ` +
            "(a fork's branch name is not a branch of the project's repository). The preview database is made as usual.");
        core/* setOutput */.uH('vercel-deployment-url', '');
        return { report: { note: "not wired: the pull request comes from a fork, and nothing is written to Vercel for a fork's branch" } };
    }
    const vercel = settings.vercel;
    return core/* group */.Os('Wire the Vercel preview', async () => {
        try {
            const project = await client.project();
            if (project.link?.productionBranch && project.link.productionBranch === pr.headRef) {
                core/* notice */.lm(`Vercel wiring skipped: the pull request's head branch "${pr.headRef}" is the production branch of Vercel project "${project.name}", ` +
                    'which takes no Preview variables and whose deployments are production ones. The preview database is handed out as usual; nothing was written to Vercel.');
                core/* setOutput */.uH('vercel-deployment-url', '');
                return { report: { note: `not wired: "${pr.headRef}" is the Vercel project's production branch` } };
            }
            const sha = headSha();
            const repository = `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
            const marker = markerOf(repository, pr.number, settings.previewName);
            const urls = { pooled: connection.pooledUrl, direct: connection.directUrl };
            const synced = await syncVariables(client, project.id, pr.headRef, settings.envNames, urls, marker, vercel.token);
            core/* info */.pq(synced.written.length
                ? `Wrote ${synced.written.join(' and ')} for branch "${pr.headRef}" of Vercel project "${project.name}" (Preview, encrypted).`
                : `The Vercel variables of branch "${pr.headRef}" already hold this database's connection strings (their comments record it): nothing written.`);
            if (synced.moved.length)
                core/* info */.pq(`Removed ${synced.moved.join(', ')}: the head branch was renamed to "${pr.headRef}".`);
            const { deployment, note } = await previewOf(client, project, pr.headRef, sha, synced.changedAt);
            const url = deployment ? (0,report/* deploymentUrlOf */.m)(deployment.url) : '';
            core/* setOutput */.uH('vercel-deployment-url', url);
            return { report: { url: url || undefined, state: deployment?.state, note } };
        }
        catch (err) {
            if (err instanceof cancel/* CancelledError */.cc)
                throw err;
            const message = err.message;
            core/* setOutput */.uH('vercel-deployment-url', '');
            return {
                report: { note: 'not wired: the run failed to write its variables or deployment (see the job log); the next run tries again' },
                failure: `The preview database is ready and kept, but wiring the Vercel preview failed: ${message}`
            };
        }
    });
}
/** Fails the step for a wiring failure (after the comment and summary are written). */
function failWiring(wiring) {
    if (wiring?.failure)
        core/* setFailed */.C1(wiring.failure);
}

;// CONCATENATED MODULE: ./src/vercel/cleanup.ts
/**
 * Removing the preview's Vercel variables when its database goes:
 * `command: delete`, and the sweep (`command: cleanup`, and `make-room`,
 * which deletes through it) for each swept PR, remove every variable that
 * carries the preview's marker in its comment, whatever branch it names (a
 * renamed head) and whatever its key (a cleanup job without the create
 * job's `env-key`). A variable a person set by hand, or another PR's or
 * preview's, stays.
 */






const repository = () => `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
/**
 * `command: delete`: removes this action's variables of the PR's preview
 * (none for a fork's PR: its run never writes any, and writes nothing).
 * @throws Error saying the database is deleted and what Vercel answered (the step fails)
 */
async function removeVercelVariables(settings, pr) {
    const client = vercelClientOf(settings);
    if (!client || !pr || settings.branchId)
        return; // `branch-id`: a branch other than the PR's preview
    const fork = (0,vercel_inputs/* forkOf */.q)();
    if (fork)
        return core/* notice */.lm(`Vercel wiring skipped: the pull request's head is in the fork ${fork}, so no Vercel variable was written for it and none is removed.`);
    await core/* group */.Os('Remove the Vercel preview variables', async () => {
        try {
            const project = await client.project();
            const marker = markerOf(repository(), pr.number, settings.previewName);
            const removed = await removeVariables(client, project.id, marker);
            core/* info */.pq(removed.length
                ? `Removed ${removed.join(', ')} from Vercel project "${project.name}".`
                : `No Vercel variables of this preview (${marker}): nothing to remove.`);
        }
        catch (err) {
            if (err instanceof cancel/* CancelledError */.cc)
                throw err;
            throw new Error(`The preview database was deleted, but its Vercel variables could not be removed: ${err.message}`, {
                cause: err
            });
        }
    });
}
/** The sweep's one client and listing of the project's variables, shared by every swept branch. */
let sweep;
/**
 * The sweep deleted the preview `preview` of PR `pr`: removes its variables.
 * @returns null, or what went wrong (the sweep counts it as a failure and goes on)
 */
async function removeSweptVariables(settings, pr, preview) {
    if (!pr || !settings.vercel)
        return null;
    try {
        if (!sweep) {
            const client = vercelClientOf(settings);
            const project = client.project().then(async (p) => ({ id: p.id, envs: await client.allEnvs(p.id) }));
            sweep = { client, project };
        }
        const { id, envs } = await sweep.project;
        const removed = await removeVariables(sweep.client, id, markerOf(repository(), pr, preview), envs);
        if (removed.length)
            core/* info */.pq(`Removed the Vercel variables of PR #${pr}: ${removed.join(', ')}.`);
        return null;
    }
    catch (err) {
        sweep = undefined;
        const message = `the Vercel variables of PR #${pr} could not be removed: ${err.message}`;
        core/* warning */.$e(message);
        return message;
    }
}

;// CONCATENATED MODULE: ./src/sweep/delete.ts
/**
 * One swept branch's delete and what follows it (run.ts decides when): a
 * branch with child branches left is kept (Neon does not delete a branch
 * with children); the delete retries 423 and waits for its operations
 * (deleteBranchAndWait), and a project still busy after those retries is
 * tried again after a poll interval, {@link BUSY_TRIES} times in all; then
 * the preview's deployments are set `inactive` (only where its environment
 * has any), its Vercel variables are removed (vercel/cleanup.ts), and the
 * report for the PR's comment says swept.
 */











/** Times a delete is tried again after its 423 retries found the project still busy. */
const BUSY_TRIES = 3;
/**
 * Deletes the row's branch unless child branches are left, sets its PR's
 * deployments `inactive`, removes its Vercel variables, and renders what the
 * PR's comment should say. Updates `row` (decision `deleted`, `already gone`
 * or `keep`).
 * @returns the comment's Markdown, or null when the branch was kept.
 * @throws the delete's error (ProjectBusyError after {@link BUSY_TRIES} tries, HttpError), or the deployments' GitHub error.
 */
async function deleteSwept(x, row) {
    const children = x.branches.filter((b) => b.parent_id === row.branch.id && !x.gone.has(b.id));
    if (children.length) {
        Object.assign(row, {
            decision: 'keep',
            reason: `${row.reason}, but it has child branch${children.length === 1 ? '' : 'es'} ${children.map((c) => `"${c.name}"`).join(', ')}, and Neon does not delete a branch with children: delete them first`
        });
        return null;
    }
    let ops;
    for (let attempt = 1;; attempt++) {
        try {
            ops = await (0,branch_delete/* deleteBranchAndWait */.C)(x.client, row.branch, x.settings, x.sharing);
            break;
        }
        catch (err) {
            if (!(err instanceof retry_423/* ProjectBusyError */.P) || attempt >= BUSY_TRIES)
                throw err;
            await new Promise((r) => setTimeout(r, x.settings.pollIntervalSeconds * 1000));
        }
    }
    x.gone.add(row.branch.id);
    row.decision = ops === null ? 'already gone' : 'deleted';
    core/* info */.pq(`Deleted branch "${row.branch.name}" (${row.branch.id}): ${row.reason}.`);
    await deactivate(x, row);
    const unwired = await removeSweptVariables(x.settings, row.pr, row.preview ?? '');
    if (unwired)
        x.failures.push(`"${row.branch.name}": ${unwired}`);
    return (0,publish_report/* renderReport */.B1)({
        mode: 'branch',
        state: 'swept',
        projectId: x.settings.projectId,
        branchId: row.branch.id,
        branchName: row.branch.name,
        sweptBecause: row.reason,
        usage: usageOf(row.branch),
        operations: (ops ?? []).map(platform_operations/* summarise */.fS)
    });
}
/** Sets the preview's deployments `inactive`, only where its environment has any. */
async function deactivate(x, row) {
    if (!row.pr || !x.settings.deployment || x.envs === undefined)
        return;
    const environment = environmentOf(row.pr, row.preview ?? '');
    const known = x.envs?.get(environment);
    const recorded = row.recorded?.deploymentId;
    // From the id the run recorded: no status read (direct.ts); without the repository's listing, the environment's as below.
    if (recorded && x.envs)
        return void (await setInactive(x.octokit, github/* context */._.repo, deploymentsToDeactivate(recorded, known), runUrl() ?? ''));
    if (x.envs && !known)
        return;
    await deactivateEnvironment(x.octokit, github/* context */._.repo, environment, runUrl() ?? '', known);
}

;// CONCATENATED MODULE: ./src/sweep/run.ts
/**
 * The deleting half of `command: cleanup` (decide.ts decides): deletes the
 * branches it was given, {@link SWEEP_CONCURRENCY} at a time (each delete
 * retries 423 and waits for its operations; a project still busy after
 * those retries is tried again after a poll interval: delete.ts), and tells
 * each PR's preview what happened, within GitHub's rate limit:
 *
 * - one check, before any delete, that the token may write to pull requests
 *   (github.ts, checkWrite): a read-only token fails the sweep naming
 *   the permission, with nothing deleted;
 * - a branch whose run recorded its comment's and deployment's ids costs
 *   their two writes, no listing of its own (direct.ts); for a branch
 *   made before, its PR's comments are listed once; each branch belongs to
 *   one preview of its PR (`preview-name`: the annotation, else the comment
 *   whose record names the branch), whose own comment it updates: the sweep
 *   never creates a comment on a closed PR;
 * - a closed or merged PR's lock is taken only when its preview's comment
 *   shows a claim (a run of it may be using the branch); then the branch is
 *   read and decided again under the lock, as for an open PR's branch that
 *   `max-age` sweeps, which always takes the lock;
 * - deployments are touched only in the environments that have any (one
 *   listing of the repository's deployments), each set `inactive`;
 * - before each branch the sweep checks GitHub's rate limit
 *   (`x-ratelimit-remaining`, comment/lock/budget.ts; its account in ledger.ts): it never takes the
 *   hour's budget below the reserve it leaves to the repository's pull
 *   requests (a quarter of `x-ratelimit-limit`), counting what the branches
 *   under way are still to send; there it stops and leaves the rest for the
 *   next run.
 */












/** Branches deleted at once: one DELETE is sent at a time, the others wait for their operations together (pace.ts). */
const SWEEP_CONCURRENCY = 16;
/** GitHub requests a branch under its PR's lock may need: take (3), read the PR again, write, release (2), with room for a retry. */
const LOCKED_COST = 8;
/** Branches whose comments are read before their deletes start. */
const CHUNK = 40;
/** One sweep's deletes (see the module comment). */
class SweepRun {
    x;
    comments = new Map();
    commentOf = new Map();
    login = '';
    recent;
    /** GitHub requests kept back from the budget (ledger.ts). */
    ledger;
    /** What each delete needs (delete.ts): `envs` is set once the repository's deployments are listed. */
    deletes;
    constructor(x) {
        this.x = x;
        this.ledger = new SweepLedger(x.budget);
        const sharing = deleteSharing(x.client, x.settings.pollIntervalSeconds);
        this.deletes = { ...x, sharing, gone: new Set(), envs: undefined };
    }
    /** Deletes the branches of `doomed` (rows decided `delete`), updating each row. @throws SweepPermissionError before any delete. */
    async run(doomed) {
        const { settings, octokit } = this.x;
        const withPr = doomed.filter((r) => r.pr);
        if (withPr.length && (settings.comment || settings.deployment)) {
            await this.x.budget.read(octokit);
            if (!this.reserve(2))
                return this.deferAll(doomed);
            try {
                this.login = await checkWrite(octokit, withPr[0].pr);
            }
            catch (err) {
                if (!(0,lock_budget/* isRateLimited */.Jz)(err))
                    throw err;
                return this.deferAll(doomed);
            }
            if (settings.deployment && this.reserve(1))
                this.deletes.envs = await previewEnvironments(octokit, github/* context */._.repo, 20, () => this.reserve(1));
            this.recent = new RecentComments(octokit, this.login);
        }
        // Children before their parents; a chunk's comments are read just before its deletes, so a budget that runs low stops both together.
        const ordered = [...doomed].sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0));
        const pace = new MinutePace(SWEEP_NEON_PER_MINUTE);
        this.x.client.pace = pace.wait;
        try {
            for (let i = 0; i < ordered.length; i += CHUNK)
                await this.chunk(ordered.slice(i, i + CHUNK));
        }
        finally {
            this.x.client.pace = undefined;
        }
    }
    /** Reads the comments of a chunk of rows, then deletes their branches, preview by preview and deepest first. */
    async chunk(rows) {
        const withPr = rows.filter((r) => r.pr && r.decision === 'delete');
        if (this.x.settings.comment && this.recent && !this.ledger.stopped && withPr.some((r) => r.recorded?.commentId)) {
            const complete = await this.recent
                .refresh((n) => this.reserve(n), lock_budget/* isRateLimited */.Jz)
                .catch((err) => {
                if (!(0,lock_budget/* isRateLimited */.Jz)(err))
                    throw err;
                return false;
            });
            if (!complete)
                this.ledger.stopped = true;
        }
        if (this.x.settings.comment)
            await this.pool(withPr, (row) => this.read(row));
        const groups = new Map();
        for (const row of rows) {
            const key = `${String(1000 - (row.depth ?? 0)).padStart(4, '0')} ${row.preview ?? ''}`;
            groups.set(key, [...(groups.get(key) ?? []), row]);
        }
        const scope = (0,comment_comment/* commentScope */.AM)();
        try {
            for (const key of [...groups.keys()].sort()) {
                const group = groups.get(key).filter((r) => r.decision === 'delete');
                // Markers, lock reactions and reports are the preview's own (comment/scope.ts).
                (0,comment_comment/* scopeComments */.nV)(group[0]?.preview ?? '');
                await this.pool(group, (row) => this.one(row));
            }
        }
        finally {
            (0,comment_comment/* scopeComments */.nV)(scope);
        }
    }
    /** Runs `f` for every row, {@link SWEEP_CONCURRENCY} at a time; a row that throws is failed (or left for the next run on a rate limit). */
    async pool(rows, f) {
        const limiter = new (lib_default())({ maxConcurrent: SWEEP_CONCURRENCY });
        await Promise.all(rows.map((row) => limiter.schedule(async () => {
            if (row.decision !== 'delete')
                return;
            if (this.ledger.stopped)
                return this.defer(row);
            try {
                await f(row);
            }
            catch (err) {
                if ((0,lock_budget/* isRateLimited */.Jz)(err)) {
                    this.ledger.stopped = true;
                    return this.defer(row);
                }
                const message = err instanceof Error ? err.message : String(err);
                row.decision = 'failed';
                row.reason += `; kept: ${message}`;
                this.x.failures.push(`"${row.branch.name}": ${message}`);
                core/* warning */.$e(`Branch "${row.branch.name}" (${row.branch.id}) was not deleted: ${message}`);
            }
        })));
    }
    /** True when `n` more GitHub requests fit above the reserve (ledger.ts); else the sweep stops taking branches. */
    reserve(n) {
        return this.ledger.reserve(n);
    }
    defer(row) {
        this.ledger.defer(row);
    }
    /** GitHub requests the row's writes cost (direct.ts, writesCost). */
    costOf(row) {
        return writesCost(Boolean(this.commentOf.get(row)), row.pr && this.x.settings.deployment ? this.deletes.envs : undefined, row.pr ? environmentOf(row.pr, row.preview ?? '') : '', row.recorded?.deploymentId);
    }
    /** Keeps back the row's writes until it is handled. */
    promise(row) {
        this.ledger.promise(row, this.costOf(row));
    }
    deferAll(rows) {
        this.ledger.deferAll(rows);
    }
    /** Reads the PR's preview comments (once per PR) and finds the row's preview and its comment. */
    async read(row) {
        const pr = row.pr;
        const recorded = row.recorded?.commentId;
        if (recorded && this.recent && !this.recent.failed) {
            // Written lately (a claim shows there), else as the run that made the branch recorded it.
            row.preview ??= '';
            this.commentOf.set(row, this.recent.of(pr, row.preview) ?? { id: recorded, preview: row.preview, record: { mode: 'branch' }, age: Infinity });
            return this.promise(row);
        }
        if (!this.comments.has(pr) && !this.reserve(2))
            return this.defer(row);
        let listing = this.comments.get(pr);
        if (!listing)
            this.comments.set(pr, (listing = previewComments(this.x.octokit, pr, this.login)));
        this.ledger.reading++;
        const found = await listing.finally(() => this.ledger.reading--);
        row.preview ??= found.find((c) => c.record.branchId === row.branch.id)?.preview ?? '';
        const comment = found.find((c) => c.preview === row.preview) ?? null;
        this.commentOf.set(row, comment);
        this.promise(row);
    }
    /** Deletes one row's branch: under its PR's lock when it is open or its comment shows a claim, else directly. */
    async one(row) {
        const comment = this.commentOf.get(row) ?? null;
        const state = row.pr ? (await this.x.pulls(row.pr)).state : null;
        const open = Boolean(row.pr) && state !== 'closed' && state !== 'merged';
        const locked = Boolean(row.pr && this.x.settings.comment && (open || this.x.alwaysLock || comment?.record.reaction !== undefined));
        this.ledger.settle(row);
        const cost = this.costOf(row) + (locked ? LOCKED_COST : 0);
        if (!this.reserve(cost))
            return this.defer(row);
        this.ledger.underWay += cost;
        try {
            if (locked)
                return await this.underLock(row);
            if (!(await (open ? this.stillDoomed(row, '') : this.unusedSinceListed(row))))
                return;
            const markdown = await deleteSwept(this.deletes, row);
            if (markdown && comment)
                await writeComment(this.x.octokit, row.pr, row.preview ?? '', comment.id, markdown, this.login).catch((err) => core/* warning */.$e(`Could not update the preview comment of PR #${row.pr} after deleting its branch: ${(0,comment_comment/* describeGitHubError */.dZ)(err)}.`));
        }
        finally {
            this.ledger.underWay -= cost;
        }
    }
    /**
     * Reads the branch and its PR again and decides again just before the
     * delete (a PR reopened, or a branch used, meanwhile is kept): updates
     * `row` and returns false when it is no longer to be deleted.
     */
    async stillDoomed(row, how) {
        const again = await decide(this.x.client, row.branch, this.x.settings, (n) => pullState(this.x.octokit, n), Date.now());
        if (again.reason === 'gone before it could be read') {
            row.decision = 'already gone';
            return false;
        }
        if (again.decision !== 'delete') {
            Object.assign(row, { decision: 'keep', reason: `${again.reason} (read again before the delete${how})` });
            return false;
        }
        row.branch = again.branch;
        return true;
    }
    /**
     * Reads the branch again from Neon (no GitHub request) just before a
     * delete without the PR's lock: a branch whose `updated_at` moved since
     * the sweep listed it was used meanwhile (every reuse records its use,
     * expiry.ts; a run of a PR reopened since the pulls list was read) and is
     * kept for the next sweep. Updates `row` and returns false when it is not
     * to be deleted.
     */
    async unusedSinceListed(row) {
        const found = await this.x.client.branchWithAnnotations(row.branch.id);
        if (!found) {
            row.decision = 'already gone';
            return false;
        }
        const listed = row.branch.updated_at ?? row.branch.created_at;
        if ((found.branch.updated_at ?? found.branch.created_at) !== listed) {
            Object.assign(row, {
                decision: 'keep',
                reason: `${row.reason}, but the branch was used since the sweep listed it (read again before the delete)`
            });
            return false;
        }
        row.branch = found.branch;
        return true;
    }
    /**
     * Deletes `row`'s branch under its PR's comment lock, after reading it
     * again and deciding again (a branch used meanwhile is kept).
     */
    async underLock(row) {
        const lock = await sweepLock(this.x.octokit, this.x.settings, row.pr, row.branch, row.reason);
        let markdown = null;
        try {
            // Under the lock the PR is read again: it may have been reopened, and a run of it have used the branch, since the sweep began.
            if (await this.stillDoomed(row, ", under the PR's lock"))
                markdown = await deleteSwept(this.deletes, row);
        }
        finally {
            // Kept: only the claim goes, the PR's comment stays as its last run wrote it. Deleted: the comment says swept.
            await lock.finish(markdown, markdown ? { mode: 'branch' } : (lock.home?.record ?? { mode: 'branch' }));
        }
    }
}

// EXTERNAL MODULE: ./src/publish/usage-report.ts
var usage_report = __webpack_require__(5283);
;// CONCATENATED MODULE: ./src/sweep/usage.ts



/** Rows of this repository's previews: the ones `decide` read annotations of ours on (it records their GitHub ids, if any). */
const isPreview = (r) => r.recorded !== undefined;
const compute = (u) => u?.computeTimeSeconds === undefined ? '' : `${(0,usage_report/* cuHours */.GI)(u.computeTimeSeconds)} CU-hours`;
const size = (u) => (u?.logicalSizeBytes === undefined ? '' : (0,usage_report/* binarySize */.dQ)(u.logicalSizeBytes));
/**
 * The summary's usage section (Markdown lines): nothing when the sweep looked
 * at no preview of this repository.
 * @param now milliseconds since the epoch, for the oldest preview's age
 */
function renderSweepUsage(rows, dryRun, now = Date.now()) {
    const previews = rows.filter(isPreview);
    if (!previews.length)
        return [];
    const swept = previews.filter((r) => r.decision === (dryRun ? 'would delete' : 'deleted'));
    const kept = previews.filter((r) => !['deleted', 'already gone', 'would delete'].includes(r.decision));
    const cell = (s) => s.replace(/\|/g, '\\|').replace(/`/g, "'");
    const lines = ['', '#### What the previews used', ''];
    if (swept.length) {
        const usages = swept.map((r) => usageOf(r.branch));
        const total = totalUsage(usages);
        const unknown = usages.filter((u) => u?.computeTimeSeconds === undefined).length;
        lines.push(`${dryRun ? 'Would sweep' : 'Swept'} ${swept.length} preview${swept.length === 1 ? '' : 's'}:`, '', `| Branch | Pull request | Compute | Data size${dryRun ? '' : ' when deleted'} |`, '| --- | --- | --- | --- |', ...swept.map((r, i) => `| \`${cell(r.branch.name)}\` | ${r.pr ? `#${r.pr}` : ''} | ${compute(usages[i])} | ${size(usages[i])} |`), `| **Total**${unknown ? ` (${unknown} without a compute figure)` : ''} | | ${total?.computeTimeSeconds === undefined ? '' : `**${compute(total)}**`} | ${total?.logicalSizeBytes === undefined ? '' : `**${size(total)}**`} |`, '');
    }
    else
        lines.push(`${dryRun ? 'Would sweep' : 'Swept'} no preview.`, '');
    if (kept.length) {
        const total = totalUsage(kept.map((r) => usageOf(r.branch)));
        const oldest = kept.reduce((a, b) => (Date.parse(b.branch.created_at) < Date.parse(a.branch.created_at) ? b : a));
        const days = Math.floor((now - Date.parse(oldest.branch.created_at)) / 86_400_000);
        const used = total?.computeTimeSeconds === undefined ? 'no compute figure from Neon' : `${compute(total)} of compute this billing period`;
        lines.push(`Kept ${kept.length} preview${kept.length === 1 ? '' : 's'}: ${used}${total?.logicalSizeBytes === undefined ? '' : `, ${size(total)} of data`}. ` +
            `The oldest: \`${cell(oldest.branch.name)}\`${oldest.pr ? ` (#${oldest.pr})` : ''}, made ${(0,publish_report/* utc */.n$)(oldest.branch.created_at)}${Number.isFinite(days) && days > 0 ? ` (${days} d ago)` : ''}.`, '');
    }
    else
        lines.push('Kept no preview.', '');
    lines.push(`<sub>Neon's counters on each branch, this billing period; a CU-hour and a GB-month are priced on [Neon's pricing page](${usage_report/* PRICING_URL */.nC}).</sub>`);
    return lines;
}

;// CONCATENATED MODULE: ./src/sweep/cleanup.ts
/**
 * `command: cleanup`, for a scheduled workflow: looks at every branch of the
 * project, recognises the ones this action made by their annotations alone
 * (platform annotations, see annotations.ts), and deletes those whose pull
 * request is closed or merged (GitHub's pulls API), or, with `max-age`, those
 * not used for longer than that: the branch's `updated_at`, which every run
 * that reuses it moves (expiry.ts, recordUse). It never touches the default
 * branch or a protected branch.
 *
 * Before it deletes a PR's branch it takes that PR's comment lock
 * (comment/lock/lock.ts), so it waits for a run of the PR that holds it, and then
 * reads the branch again and decides again under the lock: a branch used
 * meanwhile is kept. A branch with child branches is kept (the platform does
 * not delete it) unless its children are deleted first in the same sweep.
 * A branch or PR that cannot be read is reported and counted, and the sweep
 * goes on. Deletes retry 423 and wait for their operations
 * (deleteBranchAndWait). The job summary tables every branch looked at with
 * the decision and the true reason; each swept PR's comment says so.
 * `dry-run: true` decides the same and deletes nothing.
 */










/** The job summary: every branch looked at, with the decision and the reason; then what the previews used (usage.ts). */
function renderSweep(rows, settings) {
    const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    const deleted = rows.filter((r) => r.decision === 'deleted' || r.decision === 'already gone').length;
    const lines = [
        `### 🐘 Preview Postgres: cleanup of project \`${settings.projectId}\`${settings.dryRun ? ' (dry run: nothing deleted)' : ''}`,
        '',
        `Looked at ${rows.length} branch${rows.length === 1 ? '' : 'es'}; ${settings.dryRun ? `would delete ${rows.filter((r) => r.decision === 'would delete').length}` : `deleted ${deleted}`}.` +
            (settings.maxAgeSeconds ? ` max-age: ${humanDuration(settings.maxAgeSeconds)}.` : ''),
        '',
        '| Branch | Pull request | Decision | Reason |',
        '| --- | --- | --- | --- |',
        ...rows.map((r) => `| \`${cell(r.branch.name)}\` (\`${r.branch.id}\`) | ${r.pr ? `#${r.pr}` : ''} | ${r.decision} | ${cell(r.reason)} |`),
        ...renderSweepUsage(rows, settings.dryRun)
    ];
    return lines.join('\n');
}
/** Children before their parents: deepest first, so a parent the sweep deletes has no child of ours left. */
function depthOf(b, byId) {
    let depth = 0;
    for (let p = b.parent_id; p && byId.has(p) && depth < 1000; p = byId.get(p).parent_id)
        depth++;
    return depth;
}
/**
 * Runs the sweep. In instant mode a notice and nothing else (the instant
 * service has no delete; its databases lapse by themselves). The branches
 * and their annotations come from the branch list; the PRs' states from the
 * pulls list (github.ts); the deletes and the PRs' comments and
 * deployments are run.ts's. When GitHub's rate limit runs low the
 * sweep stops before the next branch and says how many are left for the
 * next run: a success.
 * @throws Error after every branch was looked at and the summary written, when some branch could not be read or deleted;
 *   SweepPermissionError before anything is deleted when the token may not write to pull requests.
 */
async function runCleanup(settings, client) {
    if (settings.mode === 'instant') {
        core/* notice */.lm('`command: cleanup` does nothing in instant mode: the instant service has no delete, and its unclaimed databases lapse by themselves.');
        return;
    }
    if (!settings.githubToken)
        throw new Error('`command: cleanup` needs `github-token` to read the state of pull requests (the default `${{ github.token }}` with `pull-requests: write`).');
    const budget = new lock_budget/* GitHubBudget */.Nl();
    const octokit = budget.watch((0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000));
    readGitBranchesWith(octokit);
    const now = Date.now();
    const annotations = new Map();
    const branches = await client.listBranches(annotations);
    const repository = `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
    const numbers = new Set();
    for (const b of branches) {
        const owner = (0,platform_annotations/* ownerOf */.bf)(annotations.get(b.id));
        if (owner?.pr && owner.repository === repository && !b.default && !b.protected)
            numbers.add(owner.pr);
    }
    await budget.read(octokit);
    if (!budget.allows(budget.reserve() + Math.ceil(numbers.size / 100) + 1)) {
        core/* notice */.lm(`The cleanup did not start: it leaves the last ${budget.reserve()} GitHub requests of the hour to the repository's pull requests (${budget.describe()}), ` +
            `and reading the state of ${numbers.size} pull request${numbers.size === 1 ? '' : 's'} would go below that. The next run sweeps them.`);
        return;
    }
    const states = await pullStates(octokit, numbers);
    const pulls = async (n) => states.get(n) ?? pullState(octokit, n);
    const rows = [];
    const failures = [];
    await core/* group */.Os(`Look at the project's ${branches.length} branches`, async () => {
        for (const b of branches) {
            let row;
            try {
                row = await decide(client, b, settings, pulls, now, annotations.get(b.id));
            }
            catch (err) {
                row = { branch: b, decision: 'failed', reason: `kept: it could not be read (${err.message})` };
                failures.push(`"${b.name}" could not be read: ${err.message}`);
            }
            core/* info */.pq(`${b.name} (${b.id}): ${row.decision}, ${row.reason}.`);
            rows.push(row);
        }
    });
    const byId = new Map(branches.map((b) => [b.id, b]));
    const doomed = rows.filter((r) => r.decision === 'delete');
    for (const r of doomed)
        r.depth = depthOf(r.branch, byId);
    if (settings.dryRun)
        for (const row of doomed)
            row.decision = 'would delete';
    else
        await new SweepRun({ client, octokit, settings, pulls, branches, budget, failures }).run(doomed);
    const markdown = renderSweep(rows, settings);
    if (process.env.GITHUB_STEP_SUMMARY)
        await core/* summary */.z.addRaw(markdown, true).write();
    const left = rows.filter((r) => r.decision === 'left for the next run').length;
    if (left)
        core/* notice */.lm(`The cleanup stopped at the ${budget.reserve()} GitHub requests it leaves to the repository's pull requests this hour (${budget.describe()}): ` +
            `${left} branch${left === 1 ? '' : 'es'} left for the next run, which goes on where this one stopped.`);
    core/* info */.pq(`GitHub requests: ${budget.sent}; ${budget.describe()}.`);
    if (failures.length) {
        const shown = failures.slice(0, 3).join('; ');
        throw new Error(`The cleanup could not handle ${failures.length} branch(es): ${shown}${failures.length > 3 ? `; and ${failures.length - 3} more (see the job summary)` : ''}. The other branches were handled (see the job summary); re-run to retry.`);
    }
}

// EXTERNAL MODULE: ./src/publish/env-file.ts
var env_file = __webpack_require__(3015);
// EXTERNAL MODULE: ./src/connection.ts
var src_connection = __webpack_require__(7199);
;// CONCATENATED MODULE: ./src/publish/outputs.ts
/**
 * Masking and step outputs.
 */


/**
 * Registers every secret form of a connection with the runner
 * (`::add-mask::`). Call before anything about the connection is logged or
 * written. Empty strings are skipped: the runner refuses to mask them.
 */
function maskConnection(c) {
    for (const secret of (0,src_connection/* secretsOf */.Fj)(c))
        core/* setSecret */.Pq(secret);
}
/**
 * Sets every output declared in action.yml. The connection must have been
 * masked with {@link maskConnection} first.
 */
function setOutputs(o) {
    const c = o.connection;
    const values = {
        'database-url': c?.pooledUrl ?? '',
        'database-url-direct': c?.directUrl ?? '',
        'database-host': c?.pooledHost ?? '',
        'database-host-direct': c?.directHost ?? '',
        'database-name': c?.database ?? '',
        'database-user': c?.user ?? '',
        'database-password': c?.password ?? '',
        'claim-url': o.claimUrl ?? '',
        'expires-at': o.expiresAt ?? '',
        'database-id': o.databaseId ?? '',
        'project-id': o.projectId ?? '',
        'branch-id': o.branchId ?? '',
        'branch-name': o.branchName ?? '',
        created: String(o.created),
        mode: o.mode,
        'schema-changed': String(o.schema?.changed ?? false),
        'schema-diff': o.schema?.file ?? '',
        'schema-destructive': String(o.schema?.destructive ?? false),
        'migration-report': o.migrationReport ?? '',
        anonymized: String(o.anonymized ?? false),
        reseeded: String(o.reseeded ?? false),
        ...usageOutputs(o.usage)
    };
    for (const [name, value] of Object.entries(values))
        core/* setOutput */.uH(name, value);
}
/**
 * The usage outputs (action.yml) of a branch's counters: each a decimal
 * integer as Neon gave it, '' for a counter Neon did not give (never "0").
 */
function usageOutputs(u) {
    const out = (n) => (n === undefined ? '' : String(n));
    return {
        'compute-time-seconds': out(u?.computeTimeSeconds),
        'active-time-seconds': out(u?.activeTimeSeconds),
        'logical-size': out(u?.logicalSizeBytes),
        'written-data-bytes': out(u?.writtenDataBytes),
        'data-transfer-bytes': out(u?.dataTransferBytes)
    };
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
var external_node_os_default = /*#__PURE__*/__webpack_require__.n(external_node_os_);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/schema/catalog.ts
var catalog = __webpack_require__(3204);
;// CONCATENATED MODULE: ./src/schema/track.ts
/**
 * The schema diff through one run's seeding. commands/seed-step.ts calls
 * {@link SchemaTracker.atStart} before the SQL seed, {@link
 * SchemaTracker.afterSeedFiles} between the seed and the user's commands
 * (`migrate-command`, then `seed-command`), {@link
 * SchemaTracker.commandStarted} once the first of them runs, and {@link
 * SchemaTracker.finish} after the last:
 * - branch mode snapshots at the start (the new branch is its parent's copy)
 *   and shows the platform's compare_schema diff against the parent;
 * - instant mode snapshots after the SQL seed, so the diff is what the
 *   commands (the PR's migrations, then its data seed) changed.
 * Instant mode without either command inspects nothing: nothing can have
 * changed the schema after the seed.
 * Never fatal: a snapshot, comparison or rendering that fails is a
 * warning and "schema diff unavailable"; the database is kept. With
 * `fail-on-destructive`, destructive changes, or a change that could not be
 * checked, throw {@link DestructiveSchemaError}, which the caller treats like
 * a failed seed (fails closed).
 */





/**
 * The inspector, differ and grammar are loaded on first use (a separate
 * chunk of the bundle), so runs that compare nothing, and everything a run
 * does before its seed, do not pay for loading them.
 */
let loading;
const schemaTools = () => (loading ??= Promise.all(/* import() */[__webpack_require__.e(193), __webpack_require__.e(156)]).then(__webpack_require__.bind(__webpack_require__, 9156)));
/**
 * Starts loading the schema tools (once; later calls return the same
 * promise) in branch mode with `compare-schema` on. Loading the chunk
 * compiles and runs it synchronously (about 80 ms of CPU, more on a loaded
 * runner), holding the event loop: the caller starts it before the comment
 * lock is taken (its HTTP requests overlap the load) and awaits it before
 * provisioning, so the load never delays a timer that matters (a 423 retry,
 * an operation poll, the lock's heartbeat). Instant mode loads nothing here:
 * its first snapshot is only read (catalog.ts, in the main bundle) before
 * the first user command, and the tracker loads the chunk once the command's process
 * runs, where the load is hidden behind the command. Never rejects: tools
 * that fail to load fail at first use.
 * @returns settles once the tools are loaded (at once where nothing is loaded)
 */
function preloadSchemaTools(mode, settings) {
    if (!settings.compareSchema || mode === 'instant')
        return Promise.resolve();
    preloading ??= new Promise((resolve) => setImmediate(resolve)).then(() => schemaTools().then(() => undefined, () => undefined));
    return preloading;
}
let preloading;
/** `fail-on-destructive` is true and the schema change is destructive. */
class DestructiveSchemaError extends Error {
}
/** Where the full diff is written (the `schema-diff` output). */
function schemaDiffPath() {
    const dir = process.env.RUNNER_TEMP || external_node_os_default().tmpdir();
    (0,external_node_fs_.mkdirSync)(dir, { recursive: true });
    return external_node_path_default().join(dir, 'preview-postgres-schema.diff');
}
class SchemaTracker {
    mode;
    enabled;
    failOnDestructive;
    seedCommand;
    before;
    failure;
    tools;
    session;
    /** Warming the differ up while the first user command runs (instant mode); settles, never rejects. */
    warming = Promise.resolve();
    /** {@link finish} has begun: nothing is warmed up any more (it would be on the critical path). */
    finishing = false;
    /**
     * @param enabled the `compare-schema` input
     * @param failOnDestructive the `fail-on-destructive` input
     * @param seedCommand whether a user command (`migrate-command`, `seed-command`) runs: without one, instant mode has nothing to compare (the answer is empty by construction)
     */
    constructor(mode, connection, enabled, failOnDestructive, seedCommand = true) {
        this.mode = mode;
        this.enabled = enabled;
        this.failOnDestructive = failOnDestructive;
        this.seedCommand = seedCommand;
        this.session = new catalog/* CatalogSession */.uC(connection);
    }
    /** Whether this run inspects anything: off, or instant mode without a user command, does not. */
    get inspects() {
        return this.enabled && (this.mode === 'branch' || this.seedCommand);
    }
    /** Loads the inspector and differ chunk once, in the background from the first call. */
    loadTools() {
        this.tools ??= schemaTools();
        this.tools.catch(() => undefined); // awaited later
        return this.tools;
    }
    /** Holds no connection of its own (the run's session is leased for each read; main.ts ends the sessions). Never throws. */
    async close() { }
    /** The catalog's rows now; a connection lost since the last use (or during this one) is opened again, once. */
    async readRows() {
        try {
            return await this.session.read();
        }
        catch (err) {
            if (!/terminat|Connection (?:terminated|ended)|ECONNRESET|EPIPE/i.test(err.message))
                throw err;
            return this.session.read();
        }
    }
    /**
     * Reads the catalog now (awaited: the database must not change meanwhile)
     * and builds the snapshot from its rows in the background (CPU only), so
     * building "before" overlaps the seed or the first user command.
     * @param buildAfter building (and loading the schema tools, where they are
     *   not loaded yet) waits for it: both hold the event loop, so they must
     *   not start before the work they are meant to overlap has started (the
     *   seed's first query, the first user command's process)
     * @returns the snapshot being built; it resolves to undefined on failure (recorded in `failure`)
     */
    async snapshot(when, buildAfter = Promise.resolve()) {
        const started = Date.now();
        let rows;
        try {
            rows = await this.readRows();
        }
        catch (err) {
            this.failure ??= `could not inspect the schema ${when}: ${err.message}`;
            return { built: Promise.resolve(undefined) };
        }
        const read = (Date.now() - started) / 1000;
        const built = buildAfter
            .then(() => this.loadTools())
            .then(({ buildSnapshot }) => buildSnapshot(rows))
            .then((s) => {
            core/* info */.pq(`Inspected the schema ${when} in ${((Date.now() - started) / 1000).toFixed(2)} s (${read.toFixed(2)} s reading the catalog).`);
            return s;
        }, (err) => {
            this.failure ??= `could not inspect the schema ${when}: ${err.message}`;
            return undefined;
        });
        return { built, rows };
    }
    /** Before the SQL seed (branch mode: the parent's schema as copied). */
    async atStart() {
        if (!this.inspects)
            return;
        // Building waits a turn of the event loop, so the seed sends its first statement first.
        if (this.mode === 'branch')
            this.before = (await this.snapshot('of the new branch before seeding', new Promise((r) => setImmediate(r)))).built;
    }
    startedSignal;
    /**
     * Between the SQL seed and the user's commands (instant mode; `when` names the moment in the log): reads the catalog
     * now; once {@link commandStarted} says the first command's process runs
     * (its CPU time is otherwise idle), or at {@link finish}, loads the schema
     * tools, builds the snapshot and warms the differ up (see
     * diff.ts `warmUpDiffer`; not at {@link finish}, where it
     * would only add time).
     */
    async afterSeedFiles(when = 'after the SQL seed') {
        if (!this.inspects || this.mode !== 'instant')
            return;
        const started = new Promise((resolve) => (this.startedSignal = resolve));
        const { built, rows } = await this.snapshot(when, started);
        this.before = built;
        this.warming = built
            .then(async (before) => {
            if (!before || this.finishing)
                return;
            const { warmUpDiffer } = await this.loadTools();
            await warmUpDiffer(before, rows);
        })
            .catch(() => undefined);
    }
    /** The first user command's process has been spawned: the "before" snapshot is built while it runs. Later calls do nothing. */
    commandStarted() {
        this.startedSignal?.();
    }
    /**
     * After the last user command: compares, logs, writes the diff file. Never fatal:
     * a failure to inspect, compare or render is a warning and
     * "schema diff unavailable", except under `fail-on-destructive`, which
     * fails closed.
     * @param platformDiff fetches the platform's compare_schema text (branch mode); a failure is a warning
     * @returns null when the diff is off; {@link SchemaUnavailable} when it could not be made
     * @throws DestructiveSchemaError when `fail-on-destructive` and the change is destructive, or could not be checked
     */
    async finish(platformDiff) {
        if (!this.enabled)
            return null;
        if (!this.inspects) {
            core/* info */.pq('No migrate-command or seed-command ran after the SQL seed, so nothing changed the schema; nothing was inspected.');
            return { changed: false, objects: [], summary: 'no schema change', diff: '', source: 'migra', destructive: [] };
        }
        this.finishing = true;
        this.commandStarted(); // no command ran (or it did not say): build "before" now
        let diff;
        const comparing = Date.now();
        // The platform's compare_schema runs while we take our own snapshot (both read the seeded database).
        const platformText = this.failure === undefined && platformDiff ? platformDiff() : undefined;
        platformText?.catch(() => undefined); // awaited below
        const after = this.failure === undefined ? await (await this.snapshot('after seeding')).built : undefined;
        const before = await this.before;
        await this.warming;
        if (before && after && this.failure === undefined) {
            let platform;
            if (platformText) {
                try {
                    platform = await platformText;
                }
                catch (err) {
                    core/* warning */.$e(`Neon's compare_schema failed, so the diff shown is the action's own: ${err.message}`);
                }
            }
            try {
                const { diffSchemas } = await this.loadTools();
                diff = await diffSchemas(before, after, (tables) => this.session.tablesWithRows(tables), platform);
            }
            catch (err) {
                this.failure = `could not compare the schemas: ${err.message}`;
            }
        }
        await this.close();
        if (!diff) {
            const reason = this.failure ?? 'no snapshot';
            (0,external_node_fs_.writeFileSync)(schemaDiffPath(), '');
            if (this.failOnDestructive) {
                throw new DestructiveSchemaError(`The schema change could not be checked for destructive changes (${reason}). \`fail-on-destructive\` is true, so the step fails closed; set \`fail-on-destructive: false\` to let such a run pass with a warning.`);
            }
            core/* warning */.$e(`Schema diff unavailable: ${reason}. The database is seeded and kept; only the diff is missing.`);
            return { unavailable: reason };
        }
        if (diff.note)
            core/* warning */.$e(`The schema diff shown is a listing of the changed objects: ${diff.note}.`);
        (0,external_node_fs_.writeFileSync)(schemaDiffPath(), diff.diff ? `${diff.diff}\n` : '');
        core/* info */.pq(`Schema change: ${diff.summary} (compared in ${((Date.now() - comparing) / 1000).toFixed(2)} s after the commands).`);
        for (const d of diff.destructive)
            core/* warning */.$e(`Destructive schema change: ${d}`);
        if (diff.destructive.length > 0 && this.failOnDestructive) {
            throw new DestructiveSchemaError(`The schema change is destructive (${diff.destructive.length}): ${diff.destructive.join('; ')}. ` +
                '`fail-on-destructive` is true, so the step fails; make the migration non-destructive or set `fail-on-destructive: false`.');
        }
        return diff;
    }
}
/**
 * The schema part of the report and the outputs, from this run's diff (null:
 * not compared). A reused database ran nothing: "no schema change in this
 * run", with an empty diff file.
 */
function schemaResult(settings, diff, created) {
    if (!settings.compareSchema)
        return {};
    if (!created) {
        (0,external_node_fs_.writeFileSync)(schemaDiffPath(), '');
        return {
            report: { summary: 'no schema change in this run (the database was reused; nothing ran)', diff: '', source: 'none', destructive: [] },
            outputs: { changed: false, file: schemaDiffPath(), destructive: false }
        };
    }
    if (!diff)
        return {};
    if ('unavailable' in diff) {
        return {
            report: { summary: 'schema diff unavailable', unavailable: diff.unavailable, diff: '', source: 'none', destructive: [] },
            outputs: { changed: false, file: schemaDiffPath(), destructive: false }
        };
    }
    return {
        report: {
            summary: diff.summary,
            diff: diff.diff,
            source: diff.source,
            note: diff.note,
            destructive: diff.destructive,
            failOnDestructive: settings.failOnDestructive
        },
        outputs: { changed: diff.changed, file: schemaDiffPath(), destructive: diff.destructive.length > 0 }
    };
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./src/seed/command-env.ts
/**
 * The variables a user command gets, added to {@link runStepEnvironment}.
 * Values are secrets (the runner masks them in the log; they are never logged by us).
 */
function commandEnvironment(c) {
    return {
        DATABASE_URL: c.directUrl,
        DIRECT_URL: c.directUrl,
        DATABASE_URL_DIRECT: c.directUrl,
        DATABASE_URL_POOLED: c.pooledUrl,
        PGHOST: c.directHost,
        PGPORT: c.port || '5432',
        PGUSER: c.user,
        PGPASSWORD: c.password,
        PGDATABASE: c.database,
        PGSSLMODE: c.sslmode || 'require',
        ...(c.channelBinding ? { PGCHANNELBINDING: 'require' } : {})
    };
}
/**
 * Variables the runner gives a JavaScript action's process and not a `run:`
 * step's (actions/runner, src/Runner.Worker/Handlers/NodeScriptActionHandler.cs
 * against ScriptHandler.cs): the Actions runtime's token and service URLs,
 * which reach the run's cache, artifacts and results. `ACTIONS_ID_TOKEN_REQUEST_URL`
 * and `ACTIONS_ID_TOKEN_REQUEST_TOKEN` (set only with `id-token: write`) and
 * `ACTIONS_ORCHESTRATION_ID` are given to `run:` steps too, so they stay.
 */
const ACTION_ONLY_VARIABLES = [
    'ACTIONS_RUNTIME_URL',
    'ACTIONS_RUNTIME_TOKEN',
    'ACTIONS_CACHE_URL',
    'ACTIONS_RESULTS_URL',
    'ACTIONS_CACHE_SERVICE_V2',
    'ACTIONS_CACHE_MODE'
];
/**
 * Prefixes of the variables that belong to this action's own step:
 * `INPUT_` (its inputs, among them `api-key` and `github-token`: Handler.cs,
 * AddInputsToEnvironment) and `STATE_` (what the main step saved for the post
 * step: ActionRunner.cs, IntraActionState).
 */
const ACTION_ONLY_PREFIXES = ['INPUT_', 'STATE_'];
/**
 * The action's own file commands: a write there would set this action's
 * outputs (`GITHUB_OUTPUT`) or the state its post step acts on
 * (`GITHUB_STATE`). A `run:` step gets files of its own; the command gets none.
 * `GITHUB_ENV`, `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` stay: a `run:` step may
 * write those for the job.
 */
const ACTION_FILE_COMMANDS = ['GITHUB_OUTPUT', 'GITHUB_STATE'];
/**
 * What a `run:` step of the same job would see of `env` (the action's
 * environment): everything but {@link ACTION_ONLY_VARIABLES},
 * {@link ACTION_ONLY_PREFIXES} and {@link ACTION_FILE_COMMANDS}. Names are
 * compared in upper case (Windows' environment ignores case).
 */
function runStepEnvironment(env = process.env) {
    const kept = {};
    for (const [name, value] of Object.entries(env)) {
        if (value === undefined)
            continue;
        const upper = name.toUpperCase();
        if (ACTION_ONLY_VARIABLES.includes(upper) || ACTION_FILE_COMMANDS.includes(upper))
            continue;
        if (ACTION_ONLY_PREFIXES.some((p) => upper.startsWith(p)))
            continue;
        kept[name] = value;
    }
    return kept;
}

// EXTERNAL MODULE: ./src/pg-sessions.ts
var pg_sessions = __webpack_require__(8174);
;// CONCATENATED MODULE: ./src/migration-cost/holds.ts
/**
 * From lock samples to hold times: per relation (OID) and lock mode, the
 * longest run of consecutive samples in which a lock was seen held, in
 * milliseconds from the first of them to the last (so a lock seen in one
 * sample only was held 0 ms, as far as the samples tell).
 */
/**
 * Folds the watcher's reports into holds. The watcher reports a sample when
 * its set of locks differs from the last report's, and otherwise now and
 * then (a heartbeat); every sample between two reports saw the earlier
 * report's set, so a lock gone at a report was last seen at its `p`.
 */
class HoldTracker {
    open = new Map();
    longest = new Map();
    /** Adds one report. Reports arrive in the order the watcher took them. */
    add(s) {
        const now = new Set(s.l.map(([oid, mode]) => `${oid} ${mode}`));
        for (const [key, run] of this.open) {
            if (now.has(key))
                continue;
            this.close(key, Math.max(run.last, s.p) - run.first);
        }
        for (const key of now) {
            const run = this.open.get(key);
            if (run)
                run.last = s.t;
            else
                this.open.set(key, { first: s.t, last: s.t });
        }
    }
    /** Whether some lock is still seen held (its end not yet reported). */
    holding() {
        return this.open.size > 0;
    }
    /** Every relation and mode seen, with its longest hold; runs still open end at their last sample. */
    holds() {
        const longest = new Map(this.longest);
        for (const [key, run] of this.open)
            longest.set(key, Math.max(longest.get(key) ?? 0, run.last - run.first));
        return [...longest].map(([key, ms]) => {
            const [oid, mode] = key.split(' ');
            return { oid: Number(oid), mode, heldMs: Math.round(ms) };
        });
    }
    close(key, ms) {
        this.open.delete(key);
        this.longest.set(key, Math.max(this.longest.get(key) ?? 0, ms));
    }
}

;// CONCATENATED MODULE: ./src/migration-cost/storage.ts
/**
 * A table of at most this many bytes (main fork) whose row count the
 * statistics do not know (never vacuumed or analyzed, and no cumulative
 * statistics) is counted with `count(*)`; a larger one is estimated from its
 * size and its columns' widths, as the planner does for such a table.
 */
const EXACT_COUNT_MAX_BYTES = 32 * 1024 * 1024;
/**
 * The one catalog query of a snapshot; `$1` is {@link EXACT_COUNT_MAX_BYTES}.
 * Rows, in order of preference:
 * 1. `pg_class.reltuples` when it is known (≥ 0; PostgreSQL 14+ says -1 for
 *    a table never vacuumed or analyzed): the planner's estimate, kept by
 *    VACUUM, ANALYZE and CREATE INDEX; what autovacuum keeps current on a
 *    production table.
 * 2. `pg_stat_user_tables.n_live_tup` when positive (cumulative statistics).
 * 3. 0 when the main fork is empty.
 * 4. `count(*)` (through `query_to_xml`, so the snapshot stays one query)
 *    when the table is small and readable to the role.
 * 5. Else pages × rows per page, rows per page from the column widths plus
 *    the tuple header and line pointer (28 bytes), 32 bytes for a
 *    variable-width column: the planner's own fallback (plancat.c,
 *    `estimate_rel_size`).
 */
const SNAPSHOT_SQL = `SELECT c.oid::int8 AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind,
  c.relfilenode::int8 AS filenode, pg_total_relation_size(c.oid) AS bytes, pg_relation_size(c.oid) AS main_bytes,
  CASE
    WHEN c.reltuples >= 0 THEN round(c.reltuples)::int8
    WHEN coalesce(s.n_live_tup, 0) > 0 THEN s.n_live_tup
    WHEN pg_relation_size(c.oid) = 0 THEN 0
    WHEN pg_relation_size(c.oid) <= $1 AND has_table_privilege(c.oid, 'SELECT') THEN
      (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', n.nspname, c.relname), false, true, '')))[1]::text::int8
    ELSE (pg_relation_size(c.oid) / current_setting('block_size')::int8) * floor((current_setting('block_size')::int8 - 24) / (28 +
      coalesce((SELECT sum(CASE WHEN a.attlen > 0 THEN a.attlen ELSE 32 END) FROM pg_attribute a
                WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), 0)))::int8
  END AS rows
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
WHERE c.relkind IN ('r', 'p', 'm') AND c.relpersistence <> 't'
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp_)'`;
/** `schema.name`, each part double-quoted when SQL would need it (as `regclass` prints names). */
function qualifiedName(schema, name) {
    const q = (s) => (/^[a-z_][a-z0-9_$]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);
    return `${q(schema)}.${q(name)}`;
}
/** {@link SNAPSHOT_SQL} with its parameter in the text, for the simple query protocol (several statements in one message). */
const SNAPSHOT_SQL_INLINE = SNAPSHOT_SQL.replace('$1', String(EXACT_COUNT_MAX_BYTES));
/** Tries of {@link takeSnapshot} that a statement timeout ends before it is lifted. */
const SNAPSHOT_TRIES = 3;
/**
 * Reads every user table's storage in one round trip on `client` (a session
 * others use too): in a read-only transaction of its own with no statement
 * timeout (`SET LOCAL`, so the session keeps its settings), because the
 * command may have set one on the database or role. The `BEGIN` and the
 * `SET LOCAL` still run under that timeout (PostgreSQL applies it to each
 * statement of a simple query, PostgreSQL docs, statement_timeout), so one
 * of a millisecond can end them on a busy server: a cancel by the timeout
 * (SQLSTATE 57014) is tried again, {@link SNAPSHOT_TRIES} times in all.
 * @throws the driver's error when the query fails (the transaction is rolled back)
 */
async function takeSnapshot(client) {
    for (let attempt = 1;; attempt++) {
        try {
            const results = (await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = 0; ${SNAPSHOT_SQL_INLINE}; COMMIT`));
            return snapshotOf(results[2].rows);
        }
        catch (err) {
            await client.query('ROLLBACK').catch(() => undefined);
            if (err.code !== '57014' || attempt >= SNAPSHOT_TRIES)
                throw err;
        }
    }
}
/** The snapshot of {@link SNAPSHOT_SQL}'s rows (int8 columns arrive as strings). */
function snapshotOf(rows) {
    const tables = new Map();
    for (const r of rows) {
        const t = {
            oid: Number(r.oid),
            schema: r.schema,
            name: r.name,
            kind: r.kind,
            filenode: Number(r.filenode),
            rows: Math.max(0, Number(r.rows)),
            bytes: Number(r.bytes),
            mainBytes: Number(r.main_bytes)
        };
        tables.set(t.oid, t);
    }
    return tables;
}
/**
 * The tables present before and after whose filenode changed. A table whose
 * main fork is empty after, but was not before, was truncated; every other
 * one was rewritten. Sorted by bytes before, largest first.
 */
function replacedTables(before, after) {
    const rewrites = [];
    const truncations = [];
    for (const [oid, b] of before) {
        const a = after.get(oid);
        if (!a || a.filenode === b.filenode || b.filenode === 0)
            continue;
        const entry = { table: qualifiedName(b.schema, b.name), rows: b.rows, bytes: b.bytes };
        if (a.mainBytes === 0 && b.mainBytes > 0)
            truncations.push(entry);
        else
            rewrites.push(entry);
    }
    const order = (x, y) => y.bytes - x.bytes || x.table.localeCompare(y.table);
    return { rewrites: rewrites.sort(order), truncations: truncations.sort(order) };
}

;// CONCATENATED MODULE: ./src/migration-cost/watcher.ts



/**
 * `application_name` of the user command's sessions: `PGAPPNAME` in its
 * environment, which libpq (psql, psycopg, Rails, …), node-postgres (Prisma's
 * driver adapters, Drizzle, Knex) and pgx read. A client that sets its own
 * name (JDBC: Flyway, Liquibase; some ORMs) is attributed by role and time
 * window instead (see the module's comment).
 */
const COMMAND_APPLICATION_NAME = 'preview-postgres-command';
/** The watcher's own `application_name`. */
const WATCHER_APPLICATION_NAME = 'preview-postgres-lock-watcher';
/** Sleep between two samples, in milliseconds (a sample takes about 1 ms more). */
const SAMPLE_SLEEP_MS = 10;
/** A report at least this often (ms) while nothing changes: the last time a lock was seen. */
const HEARTBEAT_MS = 500;
/** After the command exited, how long to wait for the report that its locks are gone (ms). */
const FINAL_REPORT_WAIT_MS = 300;
/** The loop's own end, in hours, should the connection's end go unnoticed (a GitHub job's limit is 6 hours). */
const MAX_WATCH_HOURS = 6;
const NOTICE_PREFIX = 'preview-postgres-locks ';
/** The sampling loop; one statement, sent with the simple query protocol (a `DO` that commits must be). */
const WATCH_SQL = `DO $watch$
DECLARE
  me int := pg_backend_pid();
  role oid := (SELECT oid FROM pg_roles WHERE rolname = current_user);
  since timestamptz := (SELECT backend_start FROM pg_stat_get_activity(pg_backend_pid()));
  db oid := (SELECT oid FROM pg_database WHERE datname = current_database());
  deadline timestamptz := clock_timestamp() + interval '${MAX_WATCH_HOURS} hours';
  seen text;
  cur text;
  t numeric;
  p numeric := 0;
  said numeric := 0;
BEGIN
  LOOP
    SELECT coalesce(json_agg(json_build_array(k.relation, k.mode) ORDER BY k.relation, k.mode), '[]')::text INTO cur
      FROM (SELECT DISTINCT l.relation::int8 AS relation, l.mode
              FROM pg_lock_status() l JOIN pg_stat_get_activity(NULL) a ON a.pid = l.pid
             WHERE l.locktype = 'relation' AND l.granted AND l.database = db AND l.relation >= 16384 AND l.pid <> me
               AND (a.application_name = '${COMMAND_APPLICATION_NAME}'
                    OR (a.usesysid = role AND a.backend_type = 'client backend' AND a.backend_start > since
                        AND a.application_name NOT LIKE 'preview-postgres%'))) k;
    t := round(extract(epoch FROM clock_timestamp()) * 1000, 1);
    IF cur IS DISTINCT FROM seen OR t - said >= ${HEARTBEAT_MS} THEN
      RAISE NOTICE '${NOTICE_PREFIX}{"t":%,"p":%,"l":%}', t, p, cur;
      seen := cur;
      said := t;
    END IF;
    p := t;
    COMMIT;
    EXIT WHEN clock_timestamp() > deadline;
    PERFORM pg_sleep(${SAMPLE_SLEEP_MS / 1000});
  END LOOP;
END
$watch$`;
/**
 * Session settings, then the "before" snapshot, in one round trip (simple
 * query protocol): no statement or lock timeout of the role's ends the
 * loop, and the server checks for a closed connection every 100 ms while it
 * runs (PostgreSQL 14+; older servers skip it).
 */
const START_SQL = [
    'SET statement_timeout = 0',
    'SET lock_timeout = 0',
    "SELECT set_config('client_connection_check_interval', '100', false) WHERE current_setting('server_version_num')::int >= 140000",
    SNAPSHOT_SQL_INLINE
].join(';\n');
/** One connection to the database, watching the command's locks. */
class LockWatcher {
    client;
    tracker = new HoldTracker();
    loop;
    stopping = false;
    /** Why the watching stopped early, when it did. */
    failure;
    reported;
    constructor(client) {
        this.client = client;
    }
    /**
     * Connects to `c`'s direct connection string and takes the "before"
     * snapshot of the tables' storage (storage.ts) on it.
     * @throws the driver's error when the connection or the query fails (the connection is closed)
     */
    static async open(c) {
        const client = await (0,pg_sessions/* connectDirect */.IH)(c, WATCHER_APPLICATION_NAME);
        const watcher = new LockWatcher(client);
        client.on('error', (err) => (watcher.failure ??= err.message)); // a socket error between queries
        client.on('notice', (msg) => watcher.noticed(msg.message ?? ''));
        try {
            const results = (await client.query(START_SQL));
            return { watcher, before: snapshotOf(results[results.length - 1].rows) };
        }
        catch (err) {
            await client.end().catch(() => undefined);
            throw err;
        }
    }
    /** Starts the sampling loop; returns at once (the loop's first sample comes within a round trip). */
    start() {
        this.loop = this.client.query(WATCH_SQL).then(() => {
            if (!this.stopping)
                this.failure ??= `it stopped after ${MAX_WATCH_HOURS} hours`;
        }, (err) => {
            if (!this.stopping)
                this.failure ??= err.message;
        });
    }
    /**
     * Ends the watching (call once the command exited): waits up to
     * {@link FINAL_REPORT_WAIT_MS} for the report that the command's locks
     * are gone, then closes the connection. Never throws.
     * @returns the holds per relation OID and mode, and why the watching stopped early, if it did
     */
    async stop() {
        if (this.loop && !this.failure && this.tracker.holding()) {
            await new Promise((resolve) => {
                const timer = setTimeout(resolve, FINAL_REPORT_WAIT_MS);
                this.reported = () => {
                    if (this.tracker.holding())
                        return;
                    clearTimeout(timer);
                    resolve();
                };
            });
        }
        this.stopping = true;
        this.reported = undefined;
        await this.client.end().catch(() => undefined);
        await this.loop;
        return { holds: this.tracker.holds(), failure: this.failure };
    }
    noticed(message) {
        if (!message.startsWith(NOTICE_PREFIX))
            return;
        try {
            this.tracker.add(JSON.parse(message.slice(NOTICE_PREFIX.length)));
        }
        catch {
            return; // not ours after all
        }
        this.reported?.();
    }
}

;// CONCATENATED MODULE: ./src/migration-cost/findings.ts
/**
 * What a user command cost on the data it ran on: the `migration-report`
 * JSON file, and the warnings for the PR comment and the job summary.
 * Names, counts, sizes and durations only: never a row's values.
 */




/** A table counts as large above this many rows. */
const LARGE_TABLE_ROWS = 10_000;
/** A lock that blocks others counts as long from this many milliseconds. */
const LONG_HOLD_MS = 100;
/** The lock modes that block a table's writes (SHARE and stronger; PostgreSQL docs, Table-Level Lock Modes). */
const BLOCKS_WRITES = new Set(['ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock']);
/**
 * The report of one command: tables replaced (storage.ts) and holds
 * (holds.ts) named from the snapshots (a relation in neither, such as an
 * index, a sequence or a table created and dropped by the command, is left
 * out).
 */
function migrationCost(replaced, holds, before, after, locksUnavailable) {
    const locks = [];
    for (const h of holds) {
        const t = before.get(h.oid) ?? after?.get(h.oid);
        if (t)
            locks.push({ relation: qualifiedName(t.schema, t.name), mode: h.mode, heldMs: h.heldMs });
    }
    locks.sort((a, b) => b.heldMs - a.heldMs || a.relation.localeCompare(b.relation) || a.mode.localeCompare(b.mode));
    return { rewrites: replaced.rewrites, locks, truncations: replaced.truncations, ...(locksUnavailable ? { locksUnavailable } : {}) };
}
/** Where the report is written (the `migration-report` output). */
function migrationReportPath() {
    const dir = process.env.RUNNER_TEMP || external_node_os_default().tmpdir();
    (0,external_node_fs_.mkdirSync)(dir, { recursive: true });
    return external_node_path_default().join(dir, 'preview-postgres-migration-report.json');
}
/** Writes `cost` as JSON to {@link migrationReportPath}. @returns the path */
function writeMigrationReport(cost) {
    const file = migrationReportPath();
    (0,external_node_fs_.writeFileSync)(file, JSON.stringify(cost, null, 2) + '\n');
    return file;
}
/** A table name as Markdown code (a backtick in the name would end the span). */
const code = (name) => `\`${name.replace(/`/g, "'")}\``;
/** "300,000". */
const count = (n) => Math.round(n).toLocaleString('en-US');
/** Bytes as `pg_size_pretty` prints them (1024-based): "8192 bytes", "12 MB". */
function prettySize(bytes) {
    const units = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'];
    let v = bytes;
    let u = 0;
    while (Math.abs(v) >= 10 * 1024 - 0.5 && u < units.length - 1) {
        v /= 1024;
        u++;
    }
    return `${Math.round(v)} ${units[u]}`;
}
/** "240 ms", "1.3 s", "2 min 5 s". */
function prettyDuration(ms) {
    if (ms < 1000)
        return `${Math.round(ms)} ms`;
    if (ms < 60_000)
        return `${(ms / 1000).toFixed(1)} s`;
    return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
const LOCK_NAMES = {
    AccessExclusiveLock: 'ACCESS EXCLUSIVE',
    ExclusiveLock: 'EXCLUSIVE',
    ShareRowExclusiveLock: 'SHARE ROW EXCLUSIVE',
    ShareLock: 'SHARE'
};
/** What to do instead, from PostgreSQL's documentation, by what was seen. */
const INSTEAD = {
    rewrite: 'a table rewrite (`ALTER COLUMN … TYPE`, `ADD COLUMN` with a volatile `DEFAULT`, `SET LOGGED`, `VACUUM FULL`, `CLUSTER`) holds ACCESS EXCLUSIVE throughout: ' +
        'add a new column, backfill it in batches, then switch to it; a type change needs no rewrite when the old type is binary coercible to the new one (`varchar(n)` → `text`) (PostgreSQL docs, ALTER TABLE, Notes)',
    matview: 'use `REFRESH MATERIALIZED VIEW CONCURRENTLY` (needs a unique index; reads go on) (PostgreSQL docs, REFRESH MATERIALIZED VIEW)',
    accessExclusive: 'no rewrite, so most likely a scan that validates every row: add the constraint `NOT VALID`, then `VALIDATE CONSTRAINT` in a later transaction (SHARE UPDATE EXCLUSIVE: reads and writes go on); ' +
        'for `SET NOT NULL`, a validated `CHECK (col IS NOT NULL)` lets it skip the scan (PostgreSQL docs, ALTER TABLE)',
    share: 'most likely `CREATE INDEX`: use `CREATE INDEX CONCURRENTLY` (writes go on) (PostgreSQL docs, CREATE INDEX, Building Indexes Concurrently)',
    shareRowExclusive: 'most likely `ADD FOREIGN KEY` or `CREATE TRIGGER`: add a foreign key `NOT VALID`, then `VALIDATE CONSTRAINT` (PostgreSQL docs, ALTER TABLE)',
    exclusive: 'writes wait while it is held'
};
/**
 * One Markdown line per finding, for the comment and the job summary; []
 * when the command rewrote nothing and held no blocking lock for long:
 * - each rewrite of a table over {@link LARGE_TABLE_ROWS} rows (table,
 *   rows and size before, how long ACCESS EXCLUSIVE was seen held), then
 *   one line counting the rewrites of smaller tables;
 * - each table over {@link LARGE_TABLE_ROWS} rows, not rewritten, whose
 *   ACCESS EXCLUSIVE or other write-blocking lock (SHARE and stronger) was
 *   held over {@link LONG_HOLD_MS} ms: the strongest such lock;
 * - each table that TRUNCATE emptied of rows.
 * Each says what to do instead where PostgreSQL's documentation names it.
 * @param before the "before" snapshot: rows, sizes and kinds of the tables
 */
function costLines(cost, before) {
    const byName = new Map([...before.values()].map((t) => [qualifiedName(t.schema, t.name), t]));
    const rowsOf = (table) => byName.get(table);
    const lines = [];
    const strongest = new Map();
    const rank = ['ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'];
    for (const l of cost.locks) {
        if (!BLOCKS_WRITES.has(l.mode))
            continue;
        const had = strongest.get(l.relation);
        if (!had || rank.indexOf(l.mode) > rank.indexOf(had.mode))
            strongest.set(l.relation, l);
    }
    const held = (table) => {
        const ae = cost.locks.find((l) => l.relation === table && l.mode === 'AccessExclusiveLock');
        return ae ? `, under an ACCESS EXCLUSIVE lock seen held ${prettyDuration(ae.heldMs)} (reads and writes wait)` : '';
    };
    let small = 0;
    const rewritten = new Set();
    for (const r of cost.rewrites) {
        rewritten.add(r.table);
        if (r.rows <= LARGE_TABLE_ROWS) {
            small++;
            continue;
        }
        const matview = rowsOf(r.table)?.kind === 'm';
        lines.push(`- ${code(r.table)} (${count(r.rows)} rows, ${prettySize(r.bytes)}): **rewritten**${held(r.table)}. Instead: ${matview ? INSTEAD.matview : INSTEAD.rewrite}.`);
    }
    for (const [table, l] of strongest) {
        const t = rowsOf(table);
        if (rewritten.has(table) || !t || t.rows <= LARGE_TABLE_ROWS || l.heldMs <= LONG_HOLD_MS)
            continue;
        const instead = l.mode === 'AccessExclusiveLock'
            ? INSTEAD.accessExclusive
            : l.mode === 'ShareLock'
                ? INSTEAD.share
                : l.mode === 'ShareRowExclusiveLock'
                    ? INSTEAD.shareRowExclusive
                    : INSTEAD.exclusive;
        const waits = l.mode === 'AccessExclusiveLock' ? 'reads and writes wait' : 'writes wait';
        lines.push(`- ${code(table)} (${count(t.rows)} rows, ${prettySize(t.bytes)}): **${LOCK_NAMES[l.mode]} lock** seen held ${prettyDuration(l.heldMs)} (${waits}). Instead: ${instead}.`);
    }
    for (const r of cost.truncations) {
        if (r.rows === 0)
            continue;
        lines.push(`- ${code(r.table)} (${count(r.rows)} rows, ${prettySize(r.bytes)}): **emptied by TRUNCATE** (new empty storage, not a rewrite: its rows are gone).`);
    }
    if (small > 0)
        lines.push(`- ${small} more rewrite${small === 1 ? '' : 's'} of table${small === 1 ? '' : 's'} of ${count(LARGE_TABLE_ROWS)} rows or fewer (listed in the \`migration-report\` file).`);
    return lines;
}

;// CONCATENATED MODULE: ./src/migration-cost/measure.ts
/**
 * A user command (`seed-command`, `migrate-command`) run against a database,
 * measured: what it rewrote (storage.ts) and which locks its sessions held
 * for how long (watcher.ts), on the data the database holds.
 *
 * Measuring costs one connection (the watcher) and one catalog query before
 * the command, and one catalog query after it on the run's own session;
 * nothing at all when `measure` is false (a database without data: the
 * caller decides). Never fatal: a watcher that cannot connect, a snapshot
 * that fails or a watcher that stops early is a warning, and the command
 * runs and ends as it would unmeasured.
 */





/**
 * What the command's environment gets on top of the connection's variables:
 * `PGAPPNAME`, by which the watcher tells the command's sessions (watcher.ts).
 * Set on every run, measured or not, so the command sees the same
 * environment; a `PGAPPNAME` of the step's own is replaced.
 */
function attributionEnvironment() {
    return { PGAPPNAME: COMMAND_APPLICATION_NAME };
}
/**
 * Runs `run` with {@link attributionEnvironment}, measured when `measure`:
 * the watcher connects and snapshots the tables' storage before `run`
 * starts, samples locks while it runs, and once it returned the storage is
 * read again on the run's session (pg-sessions.ts) and the report is written.
 * @param run starts the user command with `env` added to its environment; resolves when it exited
 * @returns what `run` returned, and the cost when it was measured
 * @throws what `run` throws (the watcher is closed first; no report then)
 */
async function measureCommand(connection, measure, run) {
    if (!measure)
        return { result: await run(attributionEnvironment()) };
    let opened;
    try {
        opened = await LockWatcher.open(connection);
    }
    catch (err) {
        core/* warning */.$e(`Could not watch the command's locks (${err.message}): its migration cost is not measured. The run goes on.`);
    }
    if (!opened)
        return { result: await run(attributionEnvironment()) };
    const { watcher, before } = opened;
    watcher.start();
    let result;
    try {
        result = await run(attributionEnvironment());
    }
    catch (err) {
        await watcher.stop();
        throw err;
    }
    const watched = await watcher.stop();
    if (watched.failure)
        core/* warning */.$e(`The lock watcher stopped early (${watched.failure}): lock times may be missing. The run goes on.`);
    let after;
    try {
        const lease = await (0,pg_sessions/* leaseSession */.fY)(connection);
        try {
            after = await takeSnapshot(lease.client);
        }
        finally {
            lease.release();
        }
    }
    catch (err) {
        core/* warning */.$e(`Could not read the tables' storage after the command (${err.message}): rewrites are not reported.`);
    }
    const replaced = after ? replacedTables(before, after) : { rewrites: [], truncations: [] };
    const cost = migrationCost(replaced, watched.holds, before, after, watched.failure);
    const file = writeMigrationReport(cost);
    const lines = costLines(cost, before);
    core/* info */.pq(`Migration cost: ${cost.rewrites.length} table(s) rewritten, ${cost.truncations.length} truncated, ` +
        `${cost.locks.length} relation lock(s) seen held by the command's sessions; ${lines.length} warning line(s). Report: ${file}`);
    return { result, measured: { cost, lines, file } };
}

;// CONCATENATED MODULE: ./src/seed/command.ts
/**
 * `seed-command`: the workflow author's own command, run after the SQL seed
 * with the connection in the environment, so psql, `prisma migrate deploy`,
 * `drizzle-kit migrate` and the like work unchanged.
 */




/** A seed command that exited non-zero. */
class SeedCommandError extends Error {
    exitCode;
    constructor(exitCode) {
        super(`seed-command exited with code ${exitCode}. Its output is above.`);
        this.exitCode = exitCode;
        this.name = 'SeedCommandError';
    }
}
/** How long `seed-command`'s process group has after SIGTERM before SIGKILL, in milliseconds (within the cancel's budget, cancel.ts). */
const SEED_COMMAND_KILL_GRACE_MS = 2000;
/**
 * Runs a user command (`seed-command`, `migrate-command`; `command`, with
 * `bash -eo pipefail -c`) against the database `c`, in the environment a
 * `run:` step of the job would have ({@link runStepEnvironment}: no input, no
 * Actions runtime token) with the connection added ({@link commandEnvironment})
 * and `PGAPPNAME`
 * (migration-cost/measure.ts). When `measure` (the database holds data), what
 * it rewrote and which locks it held are measured (migration-cost/); a
 * failure to measure is a warning. The command text is passed as one
 * argument, never interpolated with input values; secrets reach it only
 * through the environment. Its output goes straight to the log (masked by the
 * runner). It runs in a process group of its own, so that `signal` (a cancel)
 * stops all of it: SIGTERM to the group, then SIGKILL after
 * {@link SEED_COMMAND_KILL_GRACE_MS}; no process of it goes on writing to the
 * database after the run stopped.
 * @returns the command's cost when it was measured
 * @throws SeedCommandError with the exit code (128 + the signal's number when a signal ended it).
 */
async function runSeedCommand(command, c, signal, measure = false) {
    if (signal?.aborted)
        throw signal.reason;
    const { measured } = await measureCommand(c, measure, (extra) => runCommand(command, { ...commandEnvironment(c), ...extra }, signal));
    return measured;
}
/** Runs `command` with `variables` added to a `run:` step's environment (see {@link runSeedCommand}). */
async function runCommand(command, variables, signal) {
    if (signal?.aborted)
        throw signal.reason;
    const child = (0,external_node_child_process_.spawn)('bash', ['-eo', 'pipefail', '-c', command], {
        env: { ...runStepEnvironment(), ...variables },
        stdio: ['ignore', 'inherit', 'inherit'],
        detached: GROUPS
    });
    const group = (sig) => {
        try {
            if (!GROUPS)
                child.kill(sig);
            else if (child.pid)
                process.kill(-child.pid, sig);
        }
        catch {
            // the group has already exited
        }
    };
    let killer;
    const stop = () => {
        group('SIGTERM');
        killer = setTimeout(() => group('SIGKILL'), SEED_COMMAND_KILL_GRACE_MS);
    };
    signal?.addEventListener('abort', stop, { once: true });
    try {
        const code = await new Promise((resolve, reject) => {
            child.on('error', reject);
            child.on('exit', (status, sig) => resolve(status ?? 128 + (sig ? (osSignals[sig] ?? 0) : 0)));
        });
        if (code !== 0)
            throw new SeedCommandError(code);
    }
    finally {
        signal?.removeEventListener('abort', stop);
        if (killer)
            killer.unref();
    }
}
const osSignals = (external_node_os_default()).constants.signals;
/** Process groups (POSIX): the command runs in one of its own, which a cancel signals as a whole. On Windows only the shell is signalled. */
const GROUPS = process.platform !== 'win32';

;// CONCATENATED MODULE: ./src/commands/migrate-step.ts
/**
 * `migrate-command`: the PR's migrations, run on every run that hands out a
 * database. On a new (or rebuilt) database it runs after the seed files and
 * before `seed-command` (schema before data), inside the seed's undo
 * (seed-step.ts); on a reused one {@link migrateReused} runs it
 * before anything is handed out and compares the schema around it: this
 * push's change, and in branch mode the PR's total change against the parent.
 * Both go through the one function that runs a user command (seed/command.ts).
 */






/** `migrate-command` exited non-zero (128 + the signal's number when a signal ended it). */
class MigrateCommandError extends Error {
    exitCode;
    constructor(exitCode) {
        super(`migrate-command exited with code ${exitCode}. Its output is above.`);
        this.exitCode = exitCode;
        this.name = 'MigrateCommandError';
    }
}
/**
 * Runs `migrate-command` once, with the connection in its environment
 * (seed/command-env.ts). Our own sessions are ended first: a migration tool may
 * need the database to itself. A cancel stops its process group.
 * @param started called once its process has been spawned (the schema tracker builds "before" meanwhile)
 * @param measure the database holds data: measure what the command rewrote and the locks it held (migration-cost/)
 * @returns the command's cost when it was measured
 * @throws MigrateCommandError with the exit code; CancelledError when the run is cancelled
 */
async function runMigrateCommand(command, connection, started, measure = false) {
    await (0,pg_sessions/* endSessions */.vG)();
    const running = core/* group */.Os('Run migrate-command', () => (0,cancel/* unlessCancelled */.MS)(runSeedCommand(command, connection, (0,cancel/* cancelSignal */.Bj)(), measure).catch((err) => {
        throw err instanceof SeedCommandError ? new MigrateCommandError(err.exitCode) : err;
    })));
    started?.(); // its process runs (spawned synchronously unless measured)
    return await running;
}
/**
 * Runs `migrate-command` on a reused database and compares the schema
 * around it (the "before" snapshot is read before the command starts).
 * @param total branch mode: fetches the PR's total change against the parent (compare_schema); a failure is a warning
 * @throws MigrateCommandError; DestructiveSchemaError when `fail-on-destructive` and this push's change is destructive (or could not be checked)
 */
async function migrateReused(settings, connection, total) {
    // Snapshot right before the command, as instant mode does after its SQL seed.
    const tracker = new SchemaTracker('instant', connection, settings.compareSchema, settings.failOnDestructive, true);
    try {
        await tracker.atStart();
        await tracker.afterSeedFiles('before migrate-command');
        // A reused database holds data: the command's cost is measured.
        const measured = await runMigrateCommand(settings.migrateCommand, connection, () => tracker.commandStarted(), true);
        if (!settings.compareSchema)
            return { diff: null, measured };
        const diff = await core/* group */.Os('Compare the schema', () => (0,cancel/* unlessCancelled */.MS)(tracker.finish()));
        let text;
        if (total) {
            try {
                text = await (0,cancel/* unlessCancelled */.MS)(total());
            }
            catch (err) {
                core/* warning */.$e(`Could not read the pull request's total change against the parent (compare_schema): ${err.message}`);
            }
        }
        return { diff, total: text, measured };
    }
    finally {
        await tracker.close();
    }
}
/**
 * Runs `migrate-command` on a reused database ({@link migrateReused}). When
 * it fails (or its change is destructive under `fail-on-destructive`),
 * `report` says so at this commit (the comment keeps recording the database,
 * which keeps its data: the next run runs the command again) and the error
 * is rethrown: nothing is handed out.
 * @param report publishes the failure (PR comment and job summary)
 */
async function migrateOrKeep(settings, connection, total, report) {
    try {
        return await migrateReused(settings, connection, total);
    }
    catch (err) {
        if ((0,cancel/* isCancelled */.mm)() || !(err instanceof MigrateCommandError || err instanceof DestructiveSchemaError))
            throw err;
        await report(err instanceof MigrateCommandError
            ? { commit: headCommit(), exitCode: err.exitCode }
            : { commit: headCommit(), reason: "this push's schema change is destructive and `fail-on-destructive` is true" });
        throw err;
    }
}
/** The commit this run is for: the PR's head, else the workflow's commit. */
function headCommit() {
    const head = github/* context */._.payload.pull_request?.head?.sha;
    return head || github/* context */._.sha || '';
}
/**
 * The schema report with what made the change named when `migrate-command`
 * ran (the action's own comparison), and the PR's total change against the
 * parent (branch mode, a reused branch).
 */
function withMadeBy(settings, report, fresh, total) {
    if (!report || !settings.migrateCommand)
        return report;
    const madeBy = fresh
        ? settings.seedCommand
            ? '`migrate-command` and `seed-command`'
            : '`migrate-command`'
        : '`migrate-command` in this run';
    return { ...report, madeBy: report.source === 'platform' ? undefined : madeBy, total };
}

;// CONCATENATED MODULE: ./src/psql/psqlscan.ts
/**
 * psql's lexer, over bytes: where a statement ends and where a meta-command
 * starts, by the rules of psql's psqlscan.l (PostgreSQL 17), so the loader
 * splits a file exactly where psql does:
 * - `;` ends a statement only outside quotes, comments and parentheses, and
 *   outside the `BEGIN … END` of a `CREATE [OR REPLACE] FUNCTION|PROCEDURE`
 *   (an SQL-standard body, `BEGIN ATOMIC`; `CASE … END` nests in it);
 * - quotes: `'…'` (backslash escapes only when standard_conforming_strings is
 *   off), `E'…'`, `B'…'`, `X'…'`, `N'…'`, `U&'…'`, `"…"`, `U&"…"`, `$tag$…$tag$`;
 *   comments `-- …` and nested `/* … *\/`;
 * - a backslash outside quotes and comments starts a meta-command, anywhere in
 *   a line (`\;` and `\:` put the character into the statement instead);
 * - `:name`, `:'name'` and `:"name"` are psql variables, not quotes (noted,
 *   so the check pass can refuse what psql would fill in).
 *
 * Every byte below 0x80 is ASCII in the encodings the loader accepts (UTF-8
 * and the server encodings), so bytes can be lexed without decoding them.
 */
var State;
(function (State) {
    State[State["Normal"] = 0] = "Normal";
    /** `'…'` with standard_conforming_strings on, and `B'`, `X'`, `U&'` strings. */
    State[State["Quote"] = 1] = "Quote";
    /** `E'…'`, or `'…'` with standard_conforming_strings off: a backslash escapes the next byte. */
    State[State["Escape"] = 2] = "Escape";
    /** `"…"` */
    State[State["Ident"] = 3] = "Ident";
    /** `$tag$…$tag$` */
    State[State["Dollar"] = 4] = "Dollar";
    /** `/* … *\/`, nested. */
    State[State["Comment"] = 5] = "Comment";
    /** `-- …` to the end of the line. */
    State[State["LineComment"] = 6] = "LineComment";
})(State || (State = {}));
const SEMICOLON = 0x3b;
const BACKSLASH = 0x5c;
const QUOTE = 0x27;
const DQUOTE = 0x22;
const DOLLAR = 0x24;
const DASH = 0x2d;
const SLASH = 0x2f;
const STAR = 0x2a;
const COLON = 0x3a;
const LPAREN = 0x28;
const RPAREN = 0x29;
const AMP = 0x26;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const QUESTION = 0x3f;
const isSpace = (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
/** psql's ident_start: letters, `_`, and any byte >= 0x80. */
const isIdentStart = (c) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0x80;
const isIdentCont = (c) => isIdentStart(c) || (c >= 0x30 && c <= 0x39) || c === DOLLAR;
const isDigit = (c) => c >= 0x30 && c <= 0x39;
const lower = (c) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);
/** What {@link PsqlLexer.scan} stopped at. */
var Stop;
(function (Stop) {
    /** A `;` that ends the statement. */
    Stop[Stop["Semicolon"] = 0] = "Semicolon";
    /** A backslash that starts a meta-command. */
    Stop[Stop["Backslash"] = 1] = "Backslash";
})(Stop || (Stop = {}));
/** psql's lexer state, carried from line to line. */
class PsqlLexer {
    /** standard_conforming_strings as the server has it (psql follows the server's ParameterStatus). */
    standardConformingStrings = true;
    state = State.Normal;
    commentDepth = 0;
    dollarTag = null;
    parenDepth = 0;
    beginDepth = 0;
    /** First letters of the statement's first identifiers among create/or/replace/function/procedure (psql's `identifiers`). */
    idents = '';
    identCount = 0;
    /** The statement's first keyword, lower-cased (at most 24 bytes). */
    firstWord = '';
    /** The statement has a token that is not whitespace or a comment. */
    hasContent = false;
    /** psql variable references in the statement, as written (`:name`, `:'name'`, `:"name"`). */
    variables = [];
    /** Indexes of backslashes that psql leaves out of the statement (those of `\;` and `\:`), until the scanner takes them. */
    dropped = [];
    /** Where scan() stopped: the index of the `;` or backslash. */
    at = -1;
    /** When set, each variable reference's [start, end) byte indexes are appended (for filling variables in). */
    variableSpans = null;
    /** Back to the start of a statement (psql_scan_reset), keeping standard_conforming_strings. */
    reset() {
        this.state = State.Normal;
        this.commentDepth = 0;
        this.dollarTag = null;
        this.parenDepth = 0;
        this.beginDepth = 0;
        this.idents = '';
        this.identCount = 0;
        this.firstWord = '';
        this.hasContent = false;
        this.variables = [];
    }
    /**
     * Lexes bytes [start, end) of `b` (one line, with its newline if it has one).
     * @returns a {@link Stop} with its index in {@link at}, or undefined when the bytes are all statement text.
     */
    scan(b, start, end) {
        let i = start;
        while (i < end) {
            const c = b[i];
            switch (this.state) {
                case State.LineComment:
                    if (c === 0x0a || c === 0x0d)
                        this.state = State.Normal;
                    i++;
                    continue;
                case State.Comment:
                    if (c === SLASH && b[i + 1] === STAR && i + 1 < end) {
                        this.commentDepth++;
                        i += 2;
                    }
                    else if (c === STAR && b[i + 1] === SLASH && i + 1 < end) {
                        if (--this.commentDepth === 0)
                            this.state = State.Normal;
                        i += 2;
                    }
                    else
                        i++;
                    continue;
                case State.Quote:
                case State.Ident: {
                    const q = this.state === State.Quote ? QUOTE : DQUOTE;
                    const k = b.subarray(i, end).indexOf(q);
                    if (k < 0)
                        return undefined;
                    // a doubled quote stays inside
                    if (i + k + 1 < end && b[i + k + 1] === q)
                        i += k + 2;
                    else {
                        this.state = State.Normal;
                        i += k + 1;
                    }
                    continue;
                }
                case State.Escape:
                    if (c === BACKSLASH)
                        i += 2;
                    else if (c === QUOTE) {
                        if (b[i + 1] === QUOTE && i + 1 < end)
                            i += 2;
                        else {
                            this.state = State.Normal;
                            i++;
                        }
                    }
                    else
                        i++;
                    continue;
                case State.Dollar: {
                    const tag = this.dollarTag;
                    const k = b.subarray(i, end).indexOf(tag);
                    if (k < 0)
                        return undefined;
                    this.state = State.Normal;
                    this.dollarTag = null;
                    i += k + tag.length;
                    continue;
                }
                case State.Normal:
                    break;
            }
            // State.Normal
            if (isSpace(c)) {
                i++;
                continue;
            }
            if (c === DASH && b[i + 1] === DASH && i + 1 < end) {
                this.state = State.LineComment;
                i += 2;
                continue;
            }
            if (c === SLASH && b[i + 1] === STAR && i + 1 < end) {
                this.state = State.Comment;
                this.commentDepth = 1;
                i += 2;
                continue;
            }
            if (c === BACKSLASH) {
                const n = b[i + 1];
                if ((n === SEMICOLON || n === COLON) && i + 1 < end) {
                    // psql: "\;" and "\:" put the character, without its backslash, into the query buffer
                    this.dropped.push(i);
                    this.hasContent = true;
                    if (n === SEMICOLON)
                        this.identCount = 0;
                    i += 2;
                    continue;
                }
                this.at = i;
                return Stop.Backslash;
            }
            if (c === SEMICOLON && this.parenDepth === 0 && this.beginDepth === 0) {
                this.at = i;
                return Stop.Semicolon;
            }
            this.hasContent = true;
            if (c === SEMICOLON) {
                i++;
                continue;
            }
            if (c === LPAREN) {
                this.parenDepth++;
                i++;
                continue;
            }
            if (c === RPAREN) {
                if (this.parenDepth > 0)
                    this.parenDepth--;
                i++;
                continue;
            }
            if (c === QUOTE) {
                this.state = this.standardConformingStrings ? State.Quote : State.Escape;
                i++;
                continue;
            }
            if (c === DQUOTE) {
                this.state = State.Ident;
                i++;
                continue;
            }
            if (c === DOLLAR) {
                const tagEnd = this.dollarTagEnd(b, i, end);
                if (tagEnd > 0) {
                    this.dollarTag = Buffer.from(b.subarray(i, tagEnd));
                    this.state = State.Dollar;
                    i = tagEnd;
                }
                else
                    i++;
                continue;
            }
            if (c === COLON) {
                i = this.colon(b, i, end);
                continue;
            }
            if (isDigit(c)) {
                // a number, with any identifier bytes glued to it (psql's integer_junk and the like)
                i++;
                while (i < end && (isIdentCont(b[i]) || b[i] === 0x2e) && b[i] !== DOLLAR)
                    i++;
                continue;
            }
            if (isIdentStart(c)) {
                i = this.identifier(b, i, end);
                continue;
            }
            i++;
        }
        return undefined;
    }
    /** An identifier or keyword at `i`, or the prefix of a quoted form (`E'`, `B'`, `X'`, `N'`, `U&'`, `U&"`). @returns the index after it. */
    identifier(b, i, end) {
        let j = i + 1;
        while (j < end && isIdentCont(b[j]))
            j++;
        const len = j - i;
        if (len === 1) {
            const c = lower(b[i]);
            if (b[j] === QUOTE && j < end) {
                if (c === 0x65) {
                    this.state = State.Escape; // E'…'
                    return j + 1;
                }
                if (c === 0x62 || c === 0x78) {
                    this.state = State.Quote; // B'…', X'…': no escapes
                    return j + 1;
                }
                if (c === 0x6e) {
                    this.state = this.standardConformingStrings ? State.Quote : State.Escape; // N'…' is a plain string
                    return j + 1;
                }
            }
            if (c === 0x75 && b[j] === AMP && (b[j + 1] === QUOTE || b[j + 1] === DQUOTE) && j + 1 < end) {
                this.state = b[j + 1] === QUOTE ? State.Quote : State.Ident; // U&'…', U&"…"
                return j + 2;
            }
        }
        this.word(b, i, j);
        return j;
    }
    /** psql's BEGIN … END tracking inside CREATE [OR REPLACE] FUNCTION|PROCEDURE, on one identifier [i, j). */
    word(b, i, j) {
        const len = j - i;
        const is = (w) => {
            if (len !== w.length)
                return false;
            for (let k = 0; k < len; k++)
                if (lower(b[i + k]) !== w.charCodeAt(k))
                    return false;
            return true;
        };
        if (this.identCount === 0) {
            this.idents = '';
            this.firstWord = b.toString('latin1', i, Math.min(j, i + 24)).toLowerCase();
        }
        if (this.identCount < 4 && (is('create') || is('function') || is('procedure') || is('or') || is('replace'))) {
            this.idents = this.idents.padEnd(this.identCount, ' ') + String.fromCharCode(lower(b[i]));
        }
        this.identCount++;
        const id = this.idents;
        if (id[0] === 'c' &&
            (id[1] === 'f' || id[1] === 'p' || (id[1] === 'o' && id[2] === 'r' && (id[3] === 'f' || id[3] === 'p'))) &&
            this.parenDepth === 0) {
            if (is('begin'))
                this.beginDepth++;
            else if (is('case')) {
                if (this.beginDepth >= 1)
                    this.beginDepth++;
            }
            else if (is('end')) {
                if (this.beginDepth > 0)
                    this.beginDepth--;
            }
        }
    }
    /** The end of a dollar-quote delimiter `$tag$` starting at `i`, or -1 (a lone `$`, or `$1`). */
    dollarTagEnd(b, i, end) {
        let j = i + 1;
        if (j < end && b[j] === DOLLAR)
            return j + 1;
        if (j >= end || !isIdentStart(b[j]))
            return -1;
        j++;
        while (j < end && isIdentCont(b[j]) && b[j] !== DOLLAR)
            j++;
        return j < end && b[j] === DOLLAR ? j + 1 : -1;
    }
    /** `::`, or a psql variable `:name`, `:'name'`, `:"name"`, `:{?name}` (whose quotes are not string quotes; noted in {@link variables}), or a lone `:`. */
    colon(b, i, end) {
        const n = b[i + 1];
        if (n === COLON)
            return i + 2;
        if (n === LBRACE && b[i + 2] === QUESTION) {
            // `:{?name}`: whether the variable is set (psqlscan.l, psqlscan_test_variable)
            let j = i + 3;
            while (j < end && isIdentCont(b[j]) && b[j] !== DOLLAR)
                j++;
            if (j > i + 3 && b[j] === RBRACE) {
                this.variables.push(b.toString('latin1', i, j + 1));
                this.variableSpans?.push(i, j + 1);
                return j + 1;
            }
            return i + 1;
        }
        const quoted = n === QUOTE || n === DQUOTE;
        let j = quoted ? i + 2 : i + 1;
        while (j < end && isIdentCont(b[j]) && b[j] !== DOLLAR)
            j++;
        if (quoted ? j > i + 2 && b[j] === n : j > i + 1) {
            const stop = quoted ? j + 1 : j;
            this.variables.push(b.toString('latin1', i, stop));
            this.variableSpans?.push(i, stop);
            return stop;
        }
        return i + 1;
    }
}

;// CONCATENATED MODULE: ./src/psql/psqlslash.ts
/**
 * psql's backslash commands as text: where one ends, how its arguments are
 * read, how variables are filled in, and psql's boolean values. The rules
 * are psql 17's (src/bin/psql: psqlscanslash.l for the arguments,
 * psqlscan.l for variables in SQL, variables.c for booleans, copy.c for
 * `\copy`), written here from their documented behaviour.
 */

/**
 * psql reads a meta-command's text and keeps its variables as bytes, in the
 * client encoding, whatever that is (psqlscanslash.l is 8-bit clean; a value
 * interpolated into SQL goes out as the same bytes). Here such text is a
 * string of one character per byte (`latin1`), so every encoding's bytes come
 * back out as they went in; {@link readable} shows it as UTF-8.
 */
const byteText = (b, start, end) => b.toString('latin1', start, end);
/** The bytes of a {@link byteText} string. */
const textBytes = (text) => Buffer.from(text, 'latin1');
/** A {@link byteText} string as UTF-8 (for messages, paths, and output). */
const readable = (text) => Buffer.from(text, 'latin1').toString('utf8');
/** A JavaScript string (a server's answer, a name) as {@link byteText}: its UTF-8 bytes. */
const asByteText = (value) => Buffer.from(value, 'utf8').toString('latin1');
/** psql's whitespace in a backslash command (psqlscanslash.l: space). */
const psqlslash_isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
/** `text` without psql's whitespace at either end (String#trim would also take bytes such as 0xA0, part of a UTF-8 letter here). */
const trimSpace = (text) => text.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '');
/** A variable's value is not known before the database exists (set by `\gset`). */
const UNKNOWN = Symbol('unknown');
/** Commands whose argument is the rest of the line, unparsed (psql's OT_WHOLE_LINE). */
const WHOLE_LINE = new Set(['copy', '!', 'h', 'help', 'sf', 'sf+', 'sv', 'sv+', 'ef', 'ev']);
const isVarChar = (c) => /[A-Za-z0-9_\u0080-\uffff]/.test(c);
/** The end of `:'name'` or `:"name"` at `i` (psql variable syntax, not a quote), or -1. */
function quotedVariableEnd(text, i) {
    const q = text[i + 1];
    if (text[i] !== ':' || (q !== "'" && q !== '"'))
        return -1;
    let j = i + 2;
    while (j < text.length && isVarChar(text[j]))
        j++;
    return j > i + 2 && text[j] === q ? j + 1 : -1;
}
/**
 * Reads the backslash command at the start of `text` (one line, without its
 * newline): the name ends at whitespace or a backslash; the arguments end at
 * an unquoted backslash (`\\` is eaten, any other starts the next command),
 * or at the end of the line (psqlscanslash.l: xslashcmd, xslasharg, xslashend).
 */
function slashCommand(text) {
    let i = 1;
    while (i < text.length && !psqlslash_isSpace(text[i]) && text[i] !== '\\')
        i++;
    // psql matches `copy` in any letter case (command.c: pg_strcasecmp), every other name exactly
    const name = text.slice(1, i);
    const command = name.toLowerCase() === 'copy' ? 'copy' : name;
    if (WHOLE_LINE.has(command))
        return { command, args: trimSpace(text.slice(i)), resume: -1 };
    const start = i;
    while (i < text.length) {
        const c = text[i];
        if (c === '\\') {
            const resume = text[i + 1] === '\\' ? i + 2 : i;
            return { command, args: trimSpace(text.slice(start, i)), resume };
        }
        const v = quotedVariableEnd(text, i);
        if (v > 0) {
            i = v;
            continue;
        }
        if (c === "'" || c === '"' || c === '`') {
            i++;
            while (i < text.length && text[i] !== c)
                i += c === "'" && text[i] === '\\' ? 2 : 1;
        }
        i++;
    }
    return { command, args: trimSpace(text.slice(start)), resume: -1 };
}
/** PQescapeLiteral's form: `'…'` with quotes doubled; with backslashes, ` E'…'` and backslashes doubled. */
function quoteLiteral(value) {
    const body = value.replace(/'/g, "''");
    return value.includes('\\') ? ` E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}
/** PQescapeIdentifier's form: `"…"` with double quotes doubled. */
const quoteIdentifier = (value) => `"${value.replace(/"/g, '""')}"`;
/**
 * Splits a command's argument text into options as psql does (psqlscanslash.l,
 * xslasharg): unquoted whitespace separates; `'…'` loses its quotes, `''` is a
 * quote and `\n \t \b \r \f`, octal `\ooo`, hex `\xHH` and `\c` are escapes;
 * `"…"` keeps its quotes; `:name` is the variable's value (as written when
 * unset), `:'name'` and `:"name"` its quoted forms, `:{?name}` TRUE or FALSE.
 */
function slashOptions(args, lookup) {
    const out = { options: [], unquotedTail: [], backtick: false, unknown: false };
    let i = 0;
    const n = args.length;
    while (i < n) {
        while (i < n && psqlslash_isSpace(args[i]))
            i++;
        if (i >= n)
            break;
        let opt = '';
        let tail = 0;
        let quoted = false;
        while (i < n && !psqlslash_isSpace(args[i])) {
            const c = args[i];
            if (c === ':') {
                const m = /^:(?:([A-Za-z0-9_\u0080-\uffff]+)|'([A-Za-z0-9_\u0080-\uffff]+)'|"([A-Za-z0-9_\u0080-\uffff]+)"|\{\?([A-Za-z0-9_\u0080-\uffff]+)\})/.exec(args.slice(i));
                if (m) {
                    const name = m[1] ?? m[2] ?? m[3] ?? m[4];
                    const value = lookup(name);
                    if (value === UNKNOWN)
                        out.unknown = true;
                    if (m[4] !== undefined)
                        opt += value !== undefined ? 'TRUE' : 'FALSE';
                    else if (value === undefined || value === UNKNOWN)
                        opt += m[0];
                    else
                        opt += m[1] !== undefined ? value : m[2] !== undefined ? quoteLiteral(value) : quoteIdentifier(value);
                    quoted = true;
                    tail = 0;
                    i += m[0].length;
                    continue;
                }
            }
            if (c === "'") {
                quoted = true;
                tail = 0;
                i++;
                while (i < n && args[i] !== "'") {
                    if (args[i] === '\\' && i + 1 < n) {
                        const e = args[i + 1];
                        const simple = { n: '\n', t: '\t', b: '\b', r: '\r', f: '\f' };
                        const oct = /^[0-7]{1,3}/.exec(args.slice(i + 1));
                        const hex = /^x([0-9A-Fa-f]{1,2})/.exec(args.slice(i + 1));
                        if (simple[e]) {
                            opt += simple[e];
                            i += 2;
                        }
                        else if (oct) {
                            opt += String.fromCharCode(parseInt(oct[0], 8) & 0xff);
                            i += 1 + oct[0].length;
                        }
                        else if (hex) {
                            opt += String.fromCharCode(parseInt(hex[1], 16));
                            i += 1 + hex[0].length;
                        }
                        else {
                            opt += e;
                            i += 2;
                        }
                        continue;
                    }
                    opt += args[i++];
                }
                i++;
                if (args[i] === "'")
                    opt += "'"; // '' inside: the closing quote and a reopening one
                continue;
            }
            if (c === '"' || c === '`') {
                const close = args.indexOf(c, i + 1);
                const end = close < 0 ? n : close + 1;
                if (c === '`')
                    out.backtick = true;
                opt += args.slice(i, end);
                quoted = true;
                tail = 0;
                i = end;
                continue;
            }
            opt += c;
            tail++;
            i++;
        }
        if (opt.length || quoted) {
            out.options.push(opt);
            out.unquotedTail.push(tail);
        }
    }
    return out;
}
/** Removes unquoted trailing semicolons from option `k` (psql does it for file names: `\i a.sql;`). */
function withoutSemicolons(o, k) {
    let s = o.options[k];
    let tail = o.unquotedTail[k];
    while (tail-- > 0 && s.endsWith(';'))
        s = s.slice(0, -1);
    return s;
}
/**
 * psql's ParseVariableBool (variables.c): case-insensitive prefixes of
 * `true`, `false`, `yes`, `no`; `on` and `off` (at least two letters); `1`, `0`.
 * @returns undefined when the value is none of them
 */
function parseBool(value) {
    const v = value.toLowerCase();
    const prefixOf = (word, min = 1) => v.length >= min && word.startsWith(v);
    if (prefixOf('true'))
        return true;
    if (prefixOf('false'))
        return false;
    if (prefixOf('yes'))
        return true;
    if (prefixOf('no'))
        return false;
    if (prefixOf('on', 2))
        return true;
    if (prefixOf('off', 2))
        return false;
    if (v === '1')
        return true;
    if (v === '0')
        return false;
    return undefined;
}
/** A valid psql variable name (variables.c, valid_variable_name): letters, digits, underscores, non-ASCII. */
const validVariableName = (name) => /^[A-Za-z0-9_\u0080-\uffff]+$/.test(name);
/**
 * Fills psql variables into one statement's bytes, as psql's SQL lexer does
 * (psqlscan.l): `:name` becomes the value, `:'name'` and `:"name"` its quoted
 * forms, `:{?name}` TRUE or FALSE (whether it is set); an unset variable (or one not known yet) stays as written. Quotes,
 * comments and dollar quotes are left alone.
 * @param standardConformingStrings the setting when the statement started
 * @returns the same buffer when nothing was filled in
 */
function interpolate(raw, standardConformingStrings, lookup) {
    const lexer = new PsqlLexer();
    lexer.standardConformingStrings = standardConformingStrings;
    lexer.variableSpans = [];
    let pos = 0;
    while (pos < raw.length) {
        const stop = lexer.scan(raw, pos, raw.length);
        if (stop === undefined)
            break;
        pos = lexer.at + (stop === Stop.Backslash ? 2 : 1);
    }
    const parts = [];
    let last = 0;
    const spans = lexer.variableSpans;
    for (let k = 0; k < spans.length; k += 2) {
        const text = byteText(raw, spans[k], spans[k + 1]);
        if (text.startsWith(':{?')) {
            // psqlscan.l: TRUE or FALSE, whether the variable is set
            const set = lookup(text.slice(3, -1));
            if (set === UNKNOWN)
                continue;
            parts.push(raw.subarray(last, spans[k]), Buffer.from(set === undefined ? 'FALSE' : 'TRUE'));
            last = spans[k + 1];
            continue;
        }
        const quote = text[1] === "'" || text[1] === '"' ? text[1] : '';
        const value = lookup(quote ? text.slice(2, -1) : text.slice(1));
        if (value === undefined || value === UNKNOWN)
            continue;
        parts.push(raw.subarray(last, spans[k]), textBytes(quote === "'" ? quoteLiteral(value) : quote ? quoteIdentifier(value) : value));
        last = spans[k + 1];
    }
    if (!parts.length)
        return raw;
    parts.push(raw.subarray(last));
    return Buffer.concat(parts);
}
/**
 * Reads `\copy`'s argument text: the table (with columns) or query, `from` or
 * `to`, the file (`'…'` or a bare word) or `stdin`/`pstdin`/`stdout`/`pstdout`/
 * `program`, then the options, passed on as written.
 * @returns undefined when there is no `from` or `to`
 */
function parseSlashCopy(args) {
    let depth = 0;
    let i = 0;
    let keyword = -1;
    while (i < args.length) {
        const c = args[i];
        if (c === '"' || c === "'") {
            const close = args.indexOf(c, i + 1);
            i = close < 0 ? args.length : close + 1;
            continue;
        }
        if (c === '(')
            depth++;
        else if (c === ')')
            depth--;
        else if (depth === 0 && i > 0 && psqlslash_isSpace(args[i - 1])) {
            const m = /^(from|to)(?=[ \t\n\r\f]|$)/i.exec(args.slice(i));
            if (m) {
                keyword = i;
                break;
            }
        }
        i++;
    }
    if (keyword < 0)
        return undefined;
    const before = trimSpace(args.slice(0, keyword));
    const direction = args
        .slice(keyword, keyword + 4)
        .toLowerCase()
        .startsWith('from')
        ? 'from'
        : 'to';
    let rest = args.slice(keyword + direction.length).replace(/^[ \t\n\r\f]+/, '');
    let token;
    let quoted = false;
    if (rest.startsWith("'")) {
        let j = 1;
        token = '';
        while (j < rest.length) {
            if (rest[j] === "'" && rest[j + 1] === "'") {
                token += "'";
                j += 2;
                continue;
            }
            if (rest[j] === "'")
                break;
            token += rest[j++];
        }
        rest = rest.slice(j + 1);
        quoted = true;
    }
    else {
        const m = /^[^ \t\n\r\f;]*/.exec(rest);
        token = m[0];
        rest = rest.slice(token.length);
    }
    const word = token.toLowerCase();
    const target = !quoted && ['stdin', 'pstdin', 'stdout', 'pstdout', 'program'].includes(word) ? word : 'file';
    const sql = `COPY ${before} ${direction === 'from' ? 'FROM STDIN' : 'TO STDOUT'} ${trimSpace(rest)}`.replace(/[ \t\n\r\f]+$/, '');
    return { direction, target, file: target === 'file' ? token : undefined, sql };
}

;// CONCATENATED MODULE: ./src/psql/variables.ts
/**
 * The variables psql sets itself, and the ones it treats specially. psql's
 * own rules: startup.c (EstablishVariableSpace: each special variable's
 * default, and its hooks), command.c (SyncVariables after a connection:
 * DBNAME, USER, HOST, PORT, ENCODING, SERVER_VERSION_*), common.c
 * (SetResultVariables after each query: ERROR, SQLSTATE, ROW_COUNT; ENCODING
 * follows the client encoding), variables.c (a boolean hook's substitutes).
 */
/** Variables whose hook reads them as a boolean: `\set NAME` with no value makes them `on` (bool_substitute_hook). */
const BOOLEAN_VARIABLES = new Set([
    'AUTOCOMMIT',
    'ON_ERROR_STOP',
    'QUIET',
    'SINGLELINE',
    'SINGLESTEP',
    'HIDE_TOAST_COMPRESSION',
    'HIDE_TABLEAM',
    'SHOW_ALL_RESULTS'
]);
/** Variables with a hook (psql's "specially treated variables"): `\gset` leaves them alone, with a warning. */
const HOOKED_VARIABLES = new Set([
    ...BOOLEAN_VARIABLES,
    'FETCH_COUNT',
    'HISTCONTROL',
    'HISTSIZE',
    'IGNOREEOF',
    'ECHO',
    'ECHO_HIDDEN',
    'ON_ERROR_ROLLBACK',
    'COMP_KEYWORD_CASE',
    'PROMPT1',
    'PROMPT2',
    'PROMPT3',
    'VERBOSITY',
    'SHOW_CONTEXT'
]);
/** psql's defaults for its special variables, as `psql -X -v ON_ERROR_STOP=1` starts (the seed's rules). */
const DEFAULTS = {
    AUTOCOMMIT: 'on',
    ON_ERROR_ROLLBACK: 'off',
    ON_ERROR_STOP: 'on',
    QUIET: 'off',
    SINGLELINE: 'off',
    SINGLESTEP: 'off',
    FETCH_COUNT: '0',
    HISTCONTROL: 'none',
    HISTSIZE: '500',
    IGNOREEOF: '0',
    ECHO: 'none',
    ECHO_HIDDEN: 'off',
    COMP_KEYWORD_CASE: 'preserve-upper',
    PROMPT1: '%/%R%x%# ',
    PROMPT2: '%/%R%x%# ',
    PROMPT3: '>> ',
    VERBOSITY: 'default',
    SHOW_CONTEXT: 'errors',
    SHOW_ALL_RESULTS: 'on',
    HIDE_TOAST_COMPRESSION: 'off',
    HIDE_TABLEAM: 'off',
    LAST_ERROR_MESSAGE: '',
    LAST_ERROR_SQLSTATE: '00000'
};
/**
 * The variables a psql session has before its first query: the special
 * variables' defaults, the connection's, and psql's own version. The loader
 * plays a psql of the server's version (VERSION, VERSION_NAME and
 * VERSION_NUM are the server's).
 */
function startupVariables(c) {
    return {
        ...DEFAULTS,
        VERSION: c.version,
        VERSION_NAME: c.versionName,
        VERSION_NUM: c.versionNum,
        DBNAME: c.dbname,
        USER: c.user,
        HOST: c.host,
        PORT: c.port,
        ENCODING: 'UTF8',
        SERVER_VERSION_NAME: c.versionName,
        SERVER_VERSION_NUM: c.versionNum
    };
}
/** Variables only a connection knows (the check pass has none: a value there is not known yet). */
const CONNECTION_VARIABLES = [
    'VERSION',
    'VERSION_NAME',
    'VERSION_NUM',
    'DBNAME',
    'USER',
    'HOST',
    'PORT',
    'SERVER_VERSION_NAME',
    'SERVER_VERSION_NUM'
];
/** The check pass's variables: the defaults; the connection's are not known yet. */
const checkVariables = () => ({ ...DEFAULTS, ENCODING: 'UTF8' });
/** Variables each query changes (SetResultVariables), and ENCODING, which `SET client_encoding` changes: read when used. */
const RESULT_VARIABLES = new Set(['ERROR', 'SQLSTATE', 'ROW_COUNT', 'ENCODING']);
/**
 * ROW_COUNT from a command tag, as PQcmdTuples reads it: the count of
 * INSERT, SELECT, UPDATE, DELETE, MERGE, MOVE, FETCH and COPY; 0 for others.
 */
function rowCount(tag) {
    return /^(?:INSERT \d+ |SELECT |UPDATE |DELETE |MERGE |MOVE |FETCH |COPY )(\d+)$/.exec(tag ?? '')?.[1] ?? '0';
}
/** psql variable names a meta-command's text or a statement's references use (`:name`, `:'name'`, `:"name"`, `:{?name}`). */
function referencedNames(text) {
    return [...text.matchAll(/:(?:\{\?|['"])?([A-Za-z0-9_\u0080-\uffff]+)/g)].map((m) => m[1]);
}

// EXTERNAL MODULE: ./src/sql-parser.ts
var sql_parser = __webpack_require__(2687);
;// CONCATENATED MODULE: ./src/seed/grammar.ts

/** Loads the parser (about 20 ms, once per process; sql-parser.ts). Call before {@link classify}. */
const loadGrammar = sql_parser/* loadParser */.q;
/** First words of statements whose kind can matter. Others (INSERT, COPY, SELECT, UPDATE, …) are not parsed: 30 µs each adds up over a dump of INSERTs. */
const WORTH_PARSING = new Set([
    'abort',
    'alter',
    'analyze',
    'begin',
    'cluster',
    'comment',
    'commit',
    'create',
    'drop',
    'end',
    'grant',
    'prepare',
    'reindex',
    'release',
    'reset',
    'revoke',
    'rollback',
    'savepoint',
    'set',
    'start',
    'vacuum'
]);
/** Settings that change how the server reads statement text (and, for the second, how psql lexes it); `SET NAMES` is found by parsing. */
const LEXING = /client_encoding|standard_conforming_strings/i;
const roleNames = (specs) => (specs ?? [])
    .map((s) => (s.RoleSpec ?? s))
    .filter((r) => r.roletype === 'ROLESPEC_CSTRING' && r.rolename !== undefined)
    .map((r) => r.rolename);
const TRANSACTION = {
    TRANS_STMT_BEGIN: 'begin',
    TRANS_STMT_START: 'begin',
    TRANS_STMT_COMMIT: 'commit'
};
/** `on`/`off` of a `SET standard_conforming_strings …` (RESET and DEFAULT: on, the server default since 9.1). */
function booleanSetting(set) {
    if (set.kind === 'VAR_RESET' || set.kind === 'VAR_SET_DEFAULT')
        return true;
    const arg = (set.args?.[0]?.A_Const ?? {});
    const value = String(arg.sval?.sval ?? arg.ival?.ival ?? arg.boolval?.boolval ?? '').toLowerCase();
    if (['on', 'true', 'yes', '1', 't'].includes(value))
        return true;
    if (['off', 'false', 'no', '0', 'f'].includes(value))
        return false;
    return undefined;
}
/**
 * Classifies one statement (its text as split by the scanner; `firstWord`
 * is its first keyword, lower-cased, from the lexer). Needs {@link loadGrammar}.
 */
function classify(sql, firstWord) {
    const result = { kind: 'other', roles: [], changesLexing: LEXING.test(sql) };
    if (!WORTH_PARSING.has(firstWord))
        return result;
    let stmt;
    try {
        const tree = (0,sql_parser/* parseSql */.e)(sql);
        if (tree.stmts?.length !== 1)
            return result;
        stmt = tree.stmts[0].stmt;
    }
    catch {
        return result; // not PostgreSQL 17 syntax (a newer server's, or an error): the server decides
    }
    const [type, node] = Object.entries(stmt)[0];
    switch (type) {
        case 'CreatedbStmt':
        case 'DropdbStmt':
        case 'AlterDatabaseStmt':
        case 'AlterDatabaseSetStmt':
        case 'AlterDatabaseRefreshCollStmt':
            result.kind = 'database';
            break;
        case 'TransactionStmt':
            result.kind = TRANSACTION[node.kind] ?? 'transaction';
            break;
        case 'IndexStmt':
        case 'DropStmt':
            if (node.concurrent)
                result.kind = 'no-transaction';
            break;
        case 'ReindexStmt':
            if (['REINDEX_OBJECT_SYSTEM', 'REINDEX_OBJECT_DATABASE'].includes(node.kind) ||
                (node.params ?? []).some((p) => p.DefElem?.defname === 'concurrently')) {
                result.kind = 'no-transaction';
            }
            break;
        case 'VacuumStmt':
            if (node.is_vacuumcmd)
                result.kind = 'no-transaction'; // ANALYZE alone runs in a transaction
            break;
        case 'ClusterStmt':
            if (!node.relation)
                result.kind = 'no-transaction';
            break;
        case 'AlterSystemStmt':
        case 'CreateTableSpaceStmt':
        case 'DropTableSpaceStmt':
        case 'CreateSubscriptionStmt':
        case 'DropSubscriptionStmt':
            result.kind = 'no-transaction';
            break;
        case 'AlterOwnerStmt':
            if (node.objectType === 'OBJECT_DATABASE')
                result.kind = 'database';
            else
                result.roles = roleNames([node.newowner]);
            break;
        case 'RenameStmt':
            if (node.renameType === 'OBJECT_DATABASE')
                result.kind = 'database';
            break;
        case 'AlterTableStmt':
            result.roles = (node.cmds ?? [])
                .map((c) => c.AlterTableCmd)
                .filter((c) => c?.subtype === 'AT_ChangeOwner')
                .flatMap((c) => roleNames([c.newowner]));
            break;
        case 'GrantStmt':
            result.roles = roleNames(node.grantees);
            break;
        case 'GrantRoleStmt':
            result.roles = [
                ...(node.granted_roles ?? []).map((p) => p.AccessPriv?.priv_name).filter(Boolean),
                ...roleNames(node.grantee_roles)
            ];
            break;
        case 'AlterDefaultPrivilegesStmt': {
            const forRoles = (node.options ?? [])
                .map((o) => o.DefElem)
                .filter((d) => d?.defname === 'roles')
                .flatMap((d) => roleNames(d.arg?.List?.items));
            result.roles = [...forRoles, ...roleNames(node.action?.grantees ?? [])];
            break;
        }
        case 'CreateRoleStmt':
            result.createdRole = node.role;
            break;
        case 'CommentStmt':
            if (node.objtype === 'OBJECT_EXTENSION')
                result.extensionComment = node.object.String?.sval;
            break;
        case 'VariableSetStmt':
            if (node.name === 'standard_conforming_strings')
                result.standardConformingStrings = booleanSetting(node);
            if (node.name === 'client_encoding') {
                result.changesLexing = true;
                const arg = (node.args?.[0]?.A_Const ?? {});
                result.clientEncoding = node.kind === 'VAR_SET_VALUE' ? String(arg.sval?.sval ?? '') : 'UTF8';
            }
            if (node.kind === 'VAR_RESET_ALL') {
                result.standardConformingStrings = true;
                result.changesLexing = true;
            }
            break;
    }
    return result;
}
/**
 * Client encodings in which a byte below 0x80 can be the second byte of a
 * character (SJIS, BIG5, GBK, UHC, GB18030, JOHAB and their aliases): psql
 * lexes those with encoding tables the loader does not have, so a quote or
 * backslash byte could be misread. Normalized: lower case, letters and digits only.
 * Source: PostgreSQL docs, "Character Set Support", client-only encodings.
 */
const NOT_ASCII_SAFE = new Set([
    'sjis',
    'shiftjis',
    'mskanji',
    'win932',
    'windows932',
    'shiftjis2004',
    'big5',
    'win950',
    'windows950',
    'gbk',
    'win936',
    'windows936',
    'cp936',
    'uhc',
    'win949',
    'windows949',
    'cp949',
    'gb18030',
    'johab'
]);
/** True for a client encoding whose bytes below 0x80 are always ASCII (every server encoding, UTF8 and LATIN1 among them). */
function asciiSafeEncoding(name) {
    return !NOT_ASCII_SAFE.has(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
;// CONCATENATED MODULE: ./src/psql/scanner.ts
/**
 * Streams a SQL file into what psql would act on: statements split where
 * psql splits them (its lexer's rules, {@link PsqlLexer}), each statement's
 * bytes as the file has them, `COPY … FROM stdin` data up to `\.`, and
 * backslash meta-commands wherever they stand outside quotes. A file's last
 * statement may lack its `;`: it ends at the end of the file, as in psql.
 * Memory holds two read chunks (one read ahead), one pending statement and
 * one chunk of COPY data, whatever the file's size.
 */



/** Backslash commands that send the query buffer (psql: \\g and its kin). */
const SENDS_BUFFER = new Set(['g', 'gx', 'gset', 'gexec']);
/** Bytes read from the file at a time: events of `lines` and `bytes` mode hold slices of each read. */
const READ_CHUNK_BYTES = 1 << 20;
/** The same in `skip` mode, which keeps nothing of a read, so two buffers serve every read. */
const SKIP_READ_CHUNK_BYTES = 4 << 20;
/** Bytes of a read the scanner is given at a time (the events of a whole read at once outlive V8's young collections). */
const PUSH_BYTES = 1 << 16;
/** COPY data handed on per event, at most (bytes; a longer single row is handed on whole). */
const COPY_CHUNK_BYTES = 1 << 18;
/** The first keyword-bearing text of a statement: leading whitespace and comments removed. */
function statementHead(sql) {
    let s = sql;
    for (;;) {
        const t = s.replace(/^\s+/, '');
        if (t.startsWith('--')) {
            const nl = t.indexOf('\n');
            s = nl < 0 ? '' : t.slice(nl + 1);
        }
        else if (t.startsWith('/*')) {
            let depth = 0;
            let i = 0;
            for (; i < t.length; i++) {
                if (t.startsWith('/*', i)) {
                    depth++;
                    i++;
                }
                else if (t.startsWith('*/', i)) {
                    depth--;
                    i++;
                    if (depth === 0)
                        break;
                }
            }
            s = t.slice(i + 1);
        }
        else {
            return t;
        }
    }
}
/** A statement's first keyword, lower-cased (what the lexer reports as its first word). */
const firstWordOf = (sql) => statementHead(sql)
    .split(/[\s;(]/)[0]
    .toLowerCase();
const COPY_FROM_STDIN = /^COPY\b[\s\S]*\bFROM\s+STDIN\b/i;
/**
 * Reads `file` and yields its events in order. COPY data is handed on as the
 * file's own bytes (CR, tabs, backslashes and `\N` untouched, as psql sends
 * them), never split into per-line strings; only statement lines are decoded.
 */
async function* scanFile(file, options = {}) {
    const mode = options.copyData ?? 'lines';
    const scanner = new Scanner(options, mode);
    const size = options.readChunkBytes ?? (mode === 'skip' ? SKIP_READ_CHUNK_BYTES : READ_CHUNK_BYTES);
    // Events of `lines` and `bytes` mode hand on slices of what was read, so each read gets a new buffer;
    // `skip` mode keeps no slice past push() (the scanner copies its carry), so two buffers take turns.
    const pair = mode === 'skip' ? [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)] : undefined;
    const handle = await (0,promises_.open)(file);
    // One read ahead: the next chunk is copied in (by libuv's thread pool) while this one is scanned.
    let turn = 0;
    let position = 0;
    const readNext = () => handle.read(pair?.[turn++ % 2] ?? Buffer.allocUnsafe(size), 0, size, position);
    let next = readNext();
    try {
        for (;;) {
            const { bytesRead, buffer } = await next;
            if (bytesRead === 0)
                break;
            position += bytesRead;
            next = readNext();
            // in pieces, each piece's events taken before the next, so few events are alive at a time (peak RSS)
            for (let at = 0; at < bytesRead; at += PUSH_BYTES) {
                scanner.push(buffer.subarray(at, Math.min(bytesRead, at + PUSH_BYTES)));
                yield* scanner.take();
            }
        }
    }
    finally {
        await next.catch(() => undefined);
        await handle.close();
    }
    scanner.end();
    yield* scanner.take();
}
/**
 * Scans `text` as psql re-scans a variable's value it interpolated into SQL
 * (psqlscan.l pushes the value as new input): its statements, meta-commands
 * and COPY data, in order; lines count from 1.
 */
function scanText(text, options = {}) {
    const scanner = new Scanner(options, 'lines');
    scanner.push(text);
    scanner.end();
    return scanner.take();
}
const NL = 0x0a;
const CR = 0x0d;
const scanner_BACKSLASH = 0x5c;
const DOT = 0x2e;
/** True when bytes [start, end) are the COPY terminator line `\.` (a CR before the newline allowed, as psql allows it). */
function isCopyEnd(b, start, end) {
    const n = end - start;
    return b[start] === scanner_BACKSLASH && b[start + 1] === DOT && (n === 2 || (n === 3 && b[start + 2] === CR));
}
const COPY_END = Buffer.from('\\.');
/** Start of the first `\.` line at or after `pos` (a line start) in `b`, or -1 if this chunk holds none whole. */
function copyEndFrom(b, pos) {
    for (let k = b.indexOf(COPY_END, pos); k >= 0; k = b.indexOf(COPY_END, k + 1)) {
        if ((k === pos || b[k - 1] === NL) && (b[k + 2] === NL || (b[k + 2] === CR && b[k + 3] === NL)))
            return k;
    }
    return -1;
}
/** The state machine behind scanFile: bytes in (push), events out (take). */
class Scanner {
    options;
    copyData;
    out = [];
    /** Pieces of a line that began in an earlier chunk and has not ended yet. */
    carry = [];
    lineNo = 0;
    /** Bytes of the statement being read (copies: read buffers are reused). */
    pending = [];
    pendingLine = 1;
    /** Where meta-commands stood inside the pending statement (see StatementEvent.cuts). */
    cuts = [];
    pendingCol = 1;
    /** An open COPY block: data bytes gathered but not handed on yet. */
    copy = null;
    statements = 0;
    metas = 0;
    lexer = new PsqlLexer();
    lexing;
    constructor(options, copyData) {
        this.options = options;
        this.copyData = copyData;
        this.lexing = options.lexing ?? { standardConformingStrings: true };
        this.lexer.standardConformingStrings = this.lexing.standardConformingStrings;
    }
    take() {
        const out = this.out;
        this.out = [];
        return out;
    }
    push(data) {
        let pos = 0;
        /** Start of a run of COPY data lines inside `data` not yet added to copy.parts. */
        let run = -1;
        for (;;) {
            if (this.copy && this.copyData !== 'lines' && !this.carry.length) {
                // Jump to the `\.` line, or past the last whole line of this chunk
                // (lineNo then lags: see CopyDataMode), handing on what it jumped over.
                const end = copyEndFrom(data, pos);
                const stop = end < 0 ? Math.max(pos, data.lastIndexOf(NL) + 1) : end;
                if (this.copyData === 'bytes')
                    this.passCopyBytes(data, pos, stop);
                pos = stop;
                if (end < 0)
                    break;
            }
            const nl = data.indexOf(NL, pos);
            if (nl < 0)
                break;
            if (this.carry.length) {
                const line = Buffer.concat([...this.carry, data.subarray(pos, nl + 1)]);
                this.carry = [];
                this.line(line, 0, line.length - 1);
            }
            else if (this.copy) {
                // Fast path: COPY data lines stay bytes of this chunk, gathered as one run.
                this.lineNo++;
                if (isCopyEnd(data, pos, nl)) {
                    if (run >= 0)
                        this.addCopy(data.subarray(run, pos), 0);
                    run = -1;
                    this.endCopy();
                }
                else {
                    if (run < 0)
                        run = pos;
                    if (this.copy.lines === 0)
                        this.copy.first = this.lineNo;
                    this.copy.lines++;
                    if (this.copy.bytes + (nl + 1 - run) >= COPY_CHUNK_BYTES) {
                        this.addCopy(data.subarray(run, nl + 1), 0);
                        run = -1;
                        this.emitCopy();
                    }
                }
            }
            else {
                this.line(data, pos, nl);
            }
            pos = nl + 1;
        }
        if (run >= 0)
            this.addCopy(data.subarray(run, pos), 0);
        if (pos < data.length)
            this.carry.push(this.copyData === 'skip' ? Buffer.from(data.subarray(pos)) : data.subarray(pos));
    }
    /** At end of file: the last line (if it has no newline), then an unterminated COPY is an error. */
    end() {
        if (this.carry.length) {
            const line = Buffer.concat(this.carry);
            this.carry = [];
            this.line(line, 0, line.length);
        }
        // COPY data that runs to the end of the file ends there, as psql ends it (copy.c, handleCopyIn: EOF ends the data)
        if (this.copy)
            this.endCopy();
        // psql runs what is left at the end of a file as its last statement
        if (this.lexer.hasContent)
            this.emitStatement(false);
    }
    addCopy(bytes, lines) {
        const c = this.copy;
        c.parts.push(bytes);
        c.bytes += bytes.length;
        c.lines += lines;
    }
    /** `bytes` mode: hands on bytes [start, end) of `b` as they are, in slices of at most COPY_CHUNK_BYTES. */
    passCopyBytes(b, start, end) {
        for (let i = start; i < end; i += COPY_CHUNK_BYTES) {
            this.out.push({ kind: 'copy-data', data: b.subarray(i, Math.min(end, i + COPY_CHUNK_BYTES)), firstLine: 0, lines: 0 });
        }
    }
    emitCopy() {
        const c = this.copy;
        if (c.lines > 0) {
            const data = c.parts.length === 1 ? c.parts[0] : Buffer.concat(c.parts, c.bytes);
            this.out.push({ kind: 'copy-data', data, firstLine: c.first, lines: c.lines });
        }
        c.parts = [];
        c.bytes = 0;
        c.lines = 0;
    }
    endCopy() {
        this.emitCopy();
        this.out.push({ kind: 'copy-end', line: this.lineNo });
        this.copy = null;
    }
    /** One whole line, bytes [start, end) of `b` without its newline (a line that began in an earlier chunk). */
    line(b, start, end) {
        this.lineNo++;
        if (this.copy) {
            if (isCopyEnd(b, start, end))
                return this.endCopy();
            if (this.copyData === 'skip')
                return;
            if (this.copyData === 'bytes')
                return this.passCopyBytes(b, start, Math.min(end + 1, b.length));
            if (this.copy.lines === 0)
                this.copy.first = this.lineNo;
            // keep the newline, if the line had one
            this.addCopy(b.subarray(start, Math.min(end + 1, b.length)), 1);
            if (this.copy.bytes >= COPY_CHUNK_BYTES)
                this.emitCopy();
            return;
        }
        this.statementLine(b, start, end < b.length ? end + 1 : end);
    }
    /**
     * Statement text: bytes [start, end) of one line, its newline included if
     * it has one, lexed as psql lexes it. Every byte is kept (a CR too: it may
     * sit inside a quoted string, as user data).
     */
    statementLine(b, start, end) {
        let pos = start;
        while (pos < end) {
            if (!this.pending.length) {
                this.pendingLine = this.lineNo;
                this.pendingCol = codePoints(b, start, pos) + 1;
            }
            const stop = this.lexer.scan(b, pos, end);
            if (stop === undefined) {
                this.pending.push(this.statementBytes(b, pos, end));
                return;
            }
            const at = this.lexer.at;
            if (stop === Stop.Semicolon) {
                this.pending.push(this.statementBytes(b, pos, at + 1));
                pos = at + 1;
                if (this.emitStatement(true))
                    return; // COPY data starts on the next line
                continue;
            }
            // A meta-command: to the end of the line, or to where psql's lexer goes on after it.
            if (at > pos)
                this.pending.push(this.statementBytes(b, pos, at));
            const text = byteText(b, at, end).replace(/\r?\n$/, '');
            const cmd = slashCommand(text);
            // \g, \gx, \gset and \gexec send what the buffer holds, as `;` does
            const copyData = SENDS_BUFFER.has(cmd.command) && this.lexer.hasContent && this.emitStatement(true, cmd.command);
            const meta = { kind: 'meta', command: cmd.command, args: cmd.args, line: this.lineNo, index: this.metas++ };
            if (this.lexer.hasContent) {
                // inside a statement: psql may drop the text on either side of it (an \if branch)
                meta.inStatement = true;
                this.cuts.push({ offset: this.pending.reduce((n, p) => n + p.length, 0), meta: meta.index });
            }
            else
                this.pending = [];
            this.out.push(meta);
            if (copyData)
                return;
            if (cmd.command === 'copy') {
                const copy = parseSlashCopy(cmd.args);
                // `\copy … from stdin` reads the lines that follow, up to `\.`, as a COPY block does
                if (copy?.direction === 'from' && (copy.target === 'stdin' || copy.target === 'pstdin')) {
                    this.copy = { parts: [], bytes: 0, first: this.lineNo + 1, lines: 0 };
                }
            }
            if (cmd.resume < 0)
                return;
            pos = at + cmd.resume;
        }
    }
    /** A copy of bytes [start, end) of `b`, without the backslashes of `\;` and `\:` (psql sends the character alone). */
    statementBytes(b, start, end) {
        const dropped = this.lexer.dropped;
        if (!dropped.length)
            return Buffer.from(b.subarray(start, end));
        const parts = [];
        let from = start;
        for (const at of dropped) {
            parts.push(b.subarray(from, at));
            from = at + 1;
        }
        parts.push(b.subarray(from, end));
        this.lexer.dropped = [];
        return Buffer.concat(parts);
    }
    /** Hands on the pending statement. @returns true when it is a `COPY … FROM stdin` (its data follows). */
    emitStatement(terminated, endedBy) {
        const raw = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
        const sql = raw.toString('utf8');
        const firstWord = this.lexer.firstWord;
        const variables = this.lexer.variables;
        this.pending = [];
        this.lexer.reset();
        // (an unterminated one at the end of a file has no data: it goes to the server as a plain statement)
        const isCopy = terminated && firstWord === 'copy' && COPY_FROM_STDIN.test(statementHead(sql));
        const ev = {
            kind: 'statement',
            sql,
            raw,
            terminated,
            firstWord,
            line: this.pendingLine,
            column: this.pendingCol,
            copyFromStdin: isCopy,
            index: this.statements++
        };
        if (variables.length) {
            ev.psqlVariables = variables;
            ev.standardConformingStrings = this.lexer.standardConformingStrings;
        }
        if (endedBy)
            ev.endedBy = endedBy;
        if (this.cuts.length) {
            ev.cuts = this.cuts;
            this.cuts = [];
        }
        if (this.options.classify) {
            ev.classified = this.options.classify(sql, firstWord);
            const std = ev.classified.standardConformingStrings;
            if (std !== undefined)
                this.lexer.standardConformingStrings = this.lexing.standardConformingStrings = std;
        }
        this.out.push(ev);
        if (isCopy)
            this.copy = { parts: [], bytes: 0, first: this.lineNo + 1, lines: 0 };
        return isCopy;
    }
}
/** Characters in bytes [start, end) of UTF-8 text (bytes that do not continue a character). */
function codePoints(b, start, end) {
    let n = 0;
    for (let i = start; i < end; i++)
        if ((b[i] & 0xc0) !== 0x80)
            n++;
    return n;
}

;// CONCATENATED MODULE: ./src/psql/commands.ts
/**
 * The psql meta-commands a seed may hold, and what the loader does with
 * each: runs it as psql runs it, ignores it (it only changes how psql shows
 * results, and a seed shows none), or refuses it before any database exists
 * (it reaches outside the database). One table: the session's rules
 * (session.ts) and README's list (scripts/docs.ts) are both read from it.
 */
/** Every meta-command the loader knows, in README's order. */
const META_COMMANDS = [
    { names: ['echo', 'qecho', 'warn'], treatment: 'runs', note: 'prints its text in the log' },
    {
        names: ['set', 'unset'],
        treatment: 'runs',
        note: 'sets or removes a variable; `\\set NAME` alone sets it empty (`on` for a boolean such as ON_ERROR_STOP); ON_ERROR_STOP stays on'
    },
    {
        names: ['i', 'include', 'ir', 'include_relative'],
        treatment: 'runs',
        note: 'reads a file of the workspace where it stands; a path out of it (absolute, `..`, a symlink) is refused before any database exists'
    },
    {
        names: ['copy'],
        treatment: 'runs',
        note: '`\\copy … from` a file of the workspace (a path out of it is refused before any database exists), or from the lines that follow (up to `\\.` or the end of the file)'
    },
    {
        names: ['if', 'elif', 'else', 'endif'],
        treatment: 'runs',
        note: "conditional blocks, also inside a statement's text; a value that is not a boolean (an unset variable) is false, with a warning"
    },
    { names: ['g', 'gx'], treatment: 'runs', note: 'sends the statement (without an argument)' },
    { names: ['gset'], treatment: 'runs', note: "sets variables from the statement's one row" },
    { names: ['gexec'], treatment: 'runs', note: "runs each value of the statement's result as a statement" },
    { names: ['restrict', 'unrestrict'], treatment: 'runs', note: "pg_dump's guard: the keys must match" },
    { names: ['q', 'quit'], treatment: 'runs', note: 'ends the file it stands in' },
    {
        names: ['timing', 'pset', 'x', 't', 'a', 'f', 'C', 'H', 'T'],
        treatment: 'ignored',
        note: 'changes only how psql shows results'
    },
    { names: ['c', 'connect'], treatment: 'refused', note: 'connects to another database; the seed runs in the database the action made' },
    { names: ['!'], treatment: 'refused', note: 'runs a shell command on the runner' },
    { names: ['setenv'], treatment: 'refused', note: 'sets an environment variable on the runner' },
    { names: ['o', 'out'], treatment: 'refused', note: 'writes query output to a file on the runner' },
    { names: ['w', 'write'], treatment: 'refused', note: 'writes the query buffer to a file on the runner' },
    {
        names: ['lo_import', 'lo_export', 'lo_list', 'lo_unlink'],
        treatment: 'refused',
        note: 'moves a large object between a file on the runner and the server'
    }
];
const byName = new Map(META_COMMANDS.flatMap((rule) => rule.names.map((name) => [name, rule])));
/** The rule for a meta-command's name (`\copy` in any letter case), or undefined for one the loader does not know. */
function ruleOf(name) {
    return byName.get(name) ?? (name.startsWith('lo_') ? byName.get('lo_import') : undefined);
}
/** The names of one treatment, as `\a, \b and \c` (for messages). */
function listOf(treatment) {
    const names = META_COMMANDS.filter((r) => r.treatment === treatment).flatMap((r) => r.names.map((n) => `\\${n}`));
    return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

;// CONCATENATED MODULE: ./src/psql/workspace.ts
/**
 * The workspace rule for the files a seed reads: `seed` files, `\i`, `\ir`,
 * `\include`, `\include_relative` and `\copy … from`. docs/seeding.md promises
 * "a file of the repository": a database's claim URL is public, so a runner
 * file (a credential, another job's output) must never land in it.
 */


/** The job's workspace (`GITHUB_WORKSPACE`; `fallback` outside a runner), its symlinks resolved. */
function workspaceRoot(fallback = process.cwd()) {
    const root = process.env.GITHUB_WORKSPACE || fallback;
    try {
        return (0,external_node_fs_.realpathSync)(root);
    }
    catch {
        return external_node_path_default().resolve(root);
    }
}
/**
 * Whether the absolute path `file` lies inside `root` (a {@link workspaceRoot}).
 * An existing file is judged by its real path (every symlink on the way
 * resolved); a missing one by its real parent folder, or else by its path as
 * written (`..` resolved), so a link pointing out is caught either way.
 */
function insideWorkspace(file, root) {
    const real = realPath(file);
    const rel = external_node_path_default().relative(root, real);
    return rel === '' || (!rel.startsWith(`..${(external_node_path_default()).sep}`) && rel !== '..' && !external_node_path_default().isAbsolute(rel));
}
/** `file` with its symlinks resolved, as far as the path exists. */
function realPath(file) {
    const resolved = external_node_path_default().resolve(file);
    try {
        return (0,external_node_fs_.realpathSync)(resolved);
    }
    catch {
        const parent = external_node_path_default().dirname(resolved);
        return parent === resolved ? resolved : external_node_path_default().join(realPath(parent), external_node_path_default().basename(resolved));
    }
}
/** The refusal's text for `file` (as the seed wrote it) outside `root`. */
function outsideWorkspaceReason(shown, root) {
    return `${shown} is outside the workspace (${root}), or a symlink that points out of it: a seed reads only files of the repository, since the database's claim URL is public. Move the file into the repository.`;
}

;// CONCATENATED MODULE: ./src/psql/session.ts
/**
 * One psql session over the seed's files: its variables, its `\if` blocks
 * and its includes, shared by the check pass (no database: values a `\gset`
 * will set are unknown, so blocks that depend on them are "maybe") and the
 * load (every value known). psql 17's rules (psql reference: meta-commands,
 * variables, conditionals; src/bin/psql/command.c): `\if` blocks belong to
 * one file and must close in it; variables live for the whole session.
 */







/** `file:line[:column]`, with ` (included from a.sql:12)` for an included file. */
const place = (src, line, column) => `${src.shown}:${line}${column ? `:${column}` : ''}${src.includedFrom ? ` (included from ${src.includedFrom})` : ''}`;
/** A meta-command the session will not run; `why` completes "psql meta-command …". */
class MetaRefusal extends Error {
    why;
    constructor(why) {
        super(why);
        this.why = why;
        this.name = 'MetaRefusal';
    }
}
const ALTERNATIVE = 'Run it from `seed-command`, which runs after the SQL seed with the connection in the environment (psql works there).';
/** The session state that the check pass and the load each keep. */
class PsqlSession {
    checking;
    cwd;
    workspace;
    variables = new Map();
    /** Check pass: variables whose value only the load knows (set from a `\gset` value). */
    unknown = new Set();
    gsetSeen = false;
    /** One stack of `\if` branches per open file, innermost file last. */
    branches = [];
    /**
     * Per open file: whether statements ran before and after each meta-command
     * that stood inside a statement's text (by its ordinal), until that
     * statement is read ({@link activeText}).
     */
    cutActivity = [];
    /** Files being read, outermost first (for include cycles). */
    reading = [];
    /** The file the last `\i`/`\ir` asked for: the walker reads it next. */
    include = null;
    /** A `\q` ended the current file: the walker reads on after it. */
    quit = false;
    restrictKey = null;
    /** psql's warning for the meta-command just run, if any. */
    warning;
    /**
     * @param checking true in the check pass (no database: `\gset` values unknown)
     * @param cwd where `\i` and `\copy` files are found, as psql finds them from the workspace
     * @param workspace the folder every file read must lie in, symlinks resolved (psql/workspace.ts)
     */
    constructor(checking, cwd = process.cwd(), workspace = workspaceRoot(cwd)) {
        this.checking = checking;
        this.cwd = cwd;
        this.workspace = workspace;
        // the load sets psql's own connection variables (startupVariables); the check pass has no connection yet
        if (checking) {
            for (const [name, value] of Object.entries(checkVariables()))
                this.variables.set(name, value);
            for (const name of [...CONNECTION_VARIABLES, ...RESULT_VARIABLES])
                this.unknown.add(name);
            this.variables.delete('ENCODING');
        }
    }
    /** A variable's value: undefined when unset; {@link UNKNOWN} in the check pass for what a `\gset` may set. */
    lookup = (name) => {
        const v = this.variables.get(name);
        if (v !== undefined)
            return v;
        return this.checking && (this.gsetSeen || this.unknown.has(name)) ? UNKNOWN : undefined;
    };
    /** Whether statements and meta-commands here run. */
    get activity() {
        let maybe = false;
        for (const stack of this.branches) {
            for (const b of stack) {
                if (b.state === 'false' || b.state === 'ignored' || b.state === 'else-false')
                    return 'no';
                if (b.state === 'maybe' || b.state === 'else-maybe')
                    maybe = true;
            }
        }
        return maybe ? 'maybe' : 'yes';
    }
    /** A file starts (the walker calls it). */
    enterFile(src) {
        this.reading.push(src);
        this.branches.push([]);
        this.cutActivity.push(new Map());
    }
    /** A file ended. @returns the line of an `\if` left open in it, or undefined */
    leaveFile() {
        this.reading.pop();
        this.cutActivity.pop();
        const open = this.branches.pop();
        return open.length ? open[0].line : undefined;
    }
    /**
     * The value of an `\if`/`\elif` expression: true, false, or undefined when
     * it depends on a `\gset` value (check pass). A value that is not a boolean
     * (an unset variable stays `:name`) is false, with psql's warning
     * (command.c, is_true_boolean_expression; variables.c, ParseVariableBool).
     * @throws MetaRefusal
     */
    condition(ev) {
        const o = slashOptions(ev.args, this.lookup);
        if (o.backtick)
            throw new MetaRefusal(`\\${ev.command} with a backtick expression runs a shell command on the runner. ${ALTERNATIVE}`);
        if (o.unknown)
            return undefined;
        const expr = o.options.join(' ');
        const value = parseBool(expr);
        if (value === undefined) {
            this.warning = `unrecognized value "${readable(expr)}" for "\\${ev.command} expression": Boolean expected (psql takes it as false and goes on).`;
            return false;
        }
        return value;
    }
    /** `\if`, `\elif`, `\else`, `\endif`, by psql's rules (command.c, exec_command_if and its kin). @throws MetaRefusal */
    conditional(ev) {
        const stack = this.branches.at(-1);
        const top = stack.at(-1);
        const refuse = (what) => {
            throw new MetaRefusal(`\\${ev.command}: ${what} (as psql refuses it). Balance every \\if with \\endif in the same file.`);
        };
        if (ev.command === 'if') {
            if (this.activity === 'no')
                stack.push({ state: 'ignored', line: ev.line });
            else {
                const v = this.condition(ev);
                stack.push({ state: v === undefined ? 'maybe' : v ? 'true' : 'false', line: ev.line });
            }
            return;
        }
        if (!top)
            refuse('no matching \\if');
        if (ev.command === 'endif') {
            stack.pop();
            return;
        }
        if (top.state.startsWith('else-'))
            refuse(`cannot occur after \\else`);
        if (ev.command === 'else') {
            top.state = top.state === 'false' ? 'else-true' : top.state === 'maybe' ? 'else-maybe' : 'else-false';
            return;
        }
        // elif
        if (top.state === 'false') {
            const v = this.condition(ev);
            top.state = v === undefined ? 'maybe' : v ? 'true' : 'false';
        }
        else if (top.state === 'true')
            top.state = 'ignored';
        else if (top.state === 'maybe')
            this.condition(ev);
    }
    /**
     * Acts on one meta-command as psql would, as far as the session goes; the
     * rest (output, COPY, queries) is the returned {@link Directive}.
     * @throws MetaRefusal for what the loader does not run, and for psql's own errors
     */
    meta(src, ev) {
        if (!ev.inStatement)
            return this.run(src, ev);
        const before = this.activity;
        const directive = this.run(src, ev);
        this.cutActivity.at(-1).set(ev.index, [before, this.activity]);
        return directive;
    }
    /**
     * A statement's text as psql sends it: without what an inactive `\if`
     * branch added to it (command.c: `\elif`, `\else` and `\endif` discard
     * the query text a skipped branch added; mainloop.c resets the buffer at a
     * `;` in one). Text whose branch the check pass cannot decide stays.
     * @returns `ev.raw` itself when nothing is dropped
     */
    activeText(ev) {
        if (!ev.cuts)
            return ev.raw;
        const log = this.cutActivity.at(-1);
        const parts = [];
        let start = 0;
        let dropped = false;
        ev.cuts.forEach((cut, k) => {
            const [before, after] = log.get(cut.meta) ?? ['yes', 'yes'];
            log.delete(cut.meta);
            if (before === 'no')
                dropped = true;
            else
                parts.push(ev.raw.subarray(start, cut.offset));
            start = cut.offset;
            if (k === ev.cuts.length - 1) {
                if (after === 'no')
                    dropped = true;
                else
                    parts.push(ev.raw.subarray(start));
            }
        });
        return dropped ? Buffer.concat(parts) : ev.raw;
    }
    run(src, ev) {
        const c = ev.command;
        if (c === 'if' || c === 'elif' || c === 'else' || c === 'endif') {
            this.warning = undefined;
            this.conditional(ev);
            return this.warning && !this.checking ? { kind: 'warning', text: `\\${c}: ${this.warning}` } : { kind: 'none' };
        }
        const activity = this.activity;
        if (activity === 'no')
            return { kind: 'none' };
        const rule = ruleOf(c);
        if (rule?.treatment === 'refused')
            throw new MetaRefusal(`psql meta-command \\${c} is not supported: it ${rule.note}. ${ALTERNATIVE}`);
        if (c === 'q' || c === 'quit') {
            // psql: \q in a script ends that script (mainloop.c, PSQL_CMD_TERMINATE); an open \if there is not an error.
            // In a block the check pass cannot decide, only the load knows whether it ends the file.
            if (activity === 'maybe')
                return { kind: 'none' };
            this.quit = true;
            this.branches.at(-1).length = 0;
            return { kind: 'none' };
        }
        if (c === 'restrict' || c === 'unrestrict') {
            if (c === 'restrict')
                this.restrictKey = ev.args;
            else if (ev.args !== this.restrictKey)
                throw new MetaRefusal('\\unrestrict key does not match the \\restrict key (as psql would refuse it).');
            else
                this.restrictKey = null;
            return { kind: 'none' };
        }
        if (rule?.treatment === 'ignored')
            return {
                kind: 'print',
                text: `Ignored \\${c}${ev.args ? ` ${readable(ev.args)}` : ''}: it only changes how psql shows results, and a seed shows none.`
            };
        if (c === 'copy')
            return this.copy(ev, activity);
        const o = slashOptions(ev.args, this.lookup);
        if (o.backtick)
            throw new MetaRefusal(`psql meta-command \\${c} with a backtick argument runs a shell command on the runner. ${ALTERNATIVE}`);
        switch (c) {
            case 'echo':
            case 'qecho':
            case 'warn': {
                const words = o.options[0] === '-n' ? o.options.slice(1) : o.options;
                return { kind: 'print', text: readable(words.join(' ')) };
            }
            case 'set':
                // in a block the check pass cannot decide, the value afterwards is only known when the seed runs
                return this.set(o.options, o.unknown || activity === 'maybe');
            case 'unset':
                if (o.options[0] === 'ON_ERROR_STOP')
                    throw new MetaRefusal(ON_ERROR_STOP_OFF);
                // a boolean's hook makes \unset NAME `off` (variables.c, bool_substitute_hook)
                if (o.options[0] !== undefined && BOOLEAN_VARIABLES.has(o.options[0]))
                    this.variables.set(o.options[0], 'off');
                else if (o.options[0] !== undefined)
                    this.variables.delete(o.options[0]);
                if (o.options[0] !== undefined && activity === 'maybe')
                    this.unknown.add(o.options[0]);
                return { kind: 'none' };
            case 'i':
            case 'include':
            case 'ir':
            case 'include_relative':
                return this.includeFile(src, ev, o.options.length ? withoutSemicolons(o, 0) : undefined, o.unknown, activity);
            case 'g':
            case 'gx':
                if (o.options.length)
                    throw new MetaRefusal(`psql meta-command \\${c} with an argument sends query output to a file or a command on the runner. ${ALTERNATIVE}`);
                return { kind: 'none' };
            case 'gset':
                this.gsetSeen = true;
                return { kind: 'gset', prefix: o.options[0] ?? '' };
            case 'gexec':
                return { kind: 'gexec' };
        }
        throw new MetaRefusal(`psql meta-command \\${c} is not supported: the loader runs ${listOf('runs')}, and ignores ${listOf('ignored')}. ${ALTERNATIVE}`);
    }
    set(options, unknown) {
        const [name, ...values] = options;
        if (name === undefined)
            return { kind: 'none' }; // psql lists the variables
        if (!validVariableName(name))
            throw new MetaRefusal(`\\set: invalid variable name: "${readable(name)}" (psql's error; it stops the seed).`);
        // a boolean's hook makes \set NAME with no value `on` (variables.c, bool_substitute_hook)
        const value = values.length === 0 && BOOLEAN_VARIABLES.has(name) ? 'on' : values.join('');
        if (name === 'ON_ERROR_STOP' && parseBool(value) === false)
            throw new MetaRefusal(ON_ERROR_STOP_OFF);
        if (unknown) {
            this.variables.delete(name);
            this.unknown.add(name);
            return { kind: 'none' };
        }
        if (name === 'ON_ERROR_STOP') {
            const on = parseBool(value);
            if (on === undefined)
                throw new MetaRefusal(`\\set: unrecognized value "${value}" for "ON_ERROR_STOP": Boolean expected (psql's error; it stops the seed).`);
            if (!on)
                throw new MetaRefusal(ON_ERROR_STOP_OFF);
        }
        this.unknown.delete(name);
        this.variables.set(name, value);
        return { kind: 'none' };
    }
    includeFile(src, ev, name, unknown, activity) {
        if (name === undefined)
            throw new MetaRefusal(`\\${ev.command}: missing required argument (psql's error; it stops the seed).`);
        if (unknown)
            return { kind: 'none' }; // the check pass cannot know the name; the load reads it
        const relative = ev.command === 'ir' || ev.command === 'include_relative';
        const file = external_node_path_default().resolve(relative ? external_node_path_default().dirname(src.file) : this.cwd, expandTilde(readable(name)));
        if (!insideWorkspace(file, this.workspace))
            throw new MetaRefusal(`\\${ev.command} ${outsideWorkspaceReason(readable(name), this.workspace)}`);
        if (!(0,external_node_fs_.existsSync)(file) || !(0,external_node_fs_.statSync)(file).isFile()) {
            // in a block that may not run, only the load knows whether psql would read it
            if (activity === 'maybe')
                return { kind: 'none' };
            throw new MetaRefusal(`\\${ev.command} ${readable(name)}: no such file (${file}; \\i is relative to the working directory, \\ir to the including file). Add it to the repository, or fix the name.`);
        }
        const cycle = this.reading.findIndex((s) => s.file === file);
        if (cycle >= 0) {
            const chain = [...this.reading.slice(cycle).map((s) => s.shown), external_node_path_default().relative(this.cwd, file) || file].join(' → ');
            throw new MetaRefusal(`include cycle: ${chain}. psql would read these files again and again until it runs out of file handles. Remove the include that closes the loop.`);
        }
        this.include = { file, shown: external_node_path_default().relative(this.cwd, file) || file, includedFrom: place(src, ev.line) };
        return { kind: 'none' };
    }
    copy(ev, activity) {
        const copy = parseSlashCopy(ev.args);
        if (!copy)
            throw new MetaRefusal(`\\copy: parse error at "${readable(ev.args)}" (psql's error: \\copy needs "from" or "to").`);
        if (copy.direction === 'to')
            throw new MetaRefusal(`psql meta-command \\copy … to is not supported: it writes to the runner, and a seed writes nothing there. ${ALTERNATIVE}`);
        if (copy.target === 'program')
            throw new MetaRefusal(`psql meta-command \\copy … from program is not supported: it runs a shell command on the runner. ${ALTERNATIVE}`);
        if (copy.target === 'stdin' || copy.target === 'pstdin')
            return { kind: 'copy', sql: copy.sql };
        if (copy.target !== 'file')
            throw new MetaRefusal(`\\copy … from ${copy.target}: psql reads nothing from ${copy.target}. Use stdin, or a file.`);
        const file = external_node_path_default().resolve(this.cwd, expandTilde(readable(copy.file)));
        if (!insideWorkspace(file, this.workspace))
            throw new MetaRefusal(`\\copy … from ${outsideWorkspaceReason(`'${readable(copy.file)}'`, this.workspace)}`);
        if (activity === 'yes' && (!(0,external_node_fs_.existsSync)(file) || !(0,external_node_fs_.statSync)(file).isFile())) {
            throw new MetaRefusal(`\\copy … from '${readable(copy.file)}': no such file (${file}; relative to the working directory, as psql reads it). Add it to the repository, or fix the name.`);
        }
        return { kind: 'copy', sql: copy.sql, file };
    }
}
const ON_ERROR_STOP_OFF = 'ON_ERROR_STOP is always on: the seed runs in one transaction and stops at its first error, so nothing is half loaded. ' +
    'Remove `\\set ON_ERROR_STOP off` (or `\\unset ON_ERROR_STOP`); to go on past errors, run psql from `seed-command`.';
/** psql's expand_tilde: a leading `~/` is the home directory. */
const expandTilde = (name) => (name === '~' || name.startsWith('~/') ? external_node_path_default().join(external_node_os_default().homedir(), name.slice(1)) : name);

;// CONCATENATED MODULE: ./src/seed/check.ts
/**
 * The seed's check pass: reads every file (COPY data skipped unread) and
 * refuses what cannot run, before any database is touched. Needs no
 * connection, so the action runs it before it creates a database: a refused
 * seed creates nothing. Statement kinds come from PostgreSQL's grammar
 * (grammar.ts); splitting follows psql's lexer (psql/psqlscan.ts); included
 * files are read where `\i`/`\ir` stand (walkSeed), and meta-commands are
 * judged by the same PsqlSession the load keeps (psql/session.ts).
 */






/** A seed that failed; the database is as it was before seeding (rolled back, or never started). */
class SeedError extends Error {
    file;
    line;
    column;
    constructor(message, file, line, column) {
        super(message);
        this.file = file;
        this.line = line;
        this.column = column;
        this.name = 'SeedError';
    }
}
/** 1-based line and column of 1-based character `position` in `text`, which starts at `line`:`column` of its file. */
function locate(text, position, line = 1, column = 1) {
    const before = text.slice(0, Math.max(0, position - 1)).split('\n');
    return before.length === 1
        ? { line, column: column + before[0].length }
        : { line: line + before.length - 1, column: before.at(-1).length + 1 };
}
/** A statement's first line, for messages (at most 120 characters). */
const firstLine = (sql) => {
    const head = statementHead(sql).split('\n')[0].replace(/\r$/, '');
    return head.length > 120 ? `${head.slice(0, 117)}...` : head;
};
/** File line and column of a statement's first keyword (its raw text may start with blank lines and comments). */
function startOf(ev) {
    return locate(ev.sql, ev.sql.length - statementHead(ev.sql).length + 1, ev.line, ev.column);
}
/** Scan options for `src` alone, lexed as it was in the whole seed (for exact rescans). */
const rescanOptions = (src) => ({
    classify: classify,
    lexing: { standardConformingStrings: src.startStandardConformingStrings ?? true }
});
/**
 * Streams every event of every file, with the file it came from, as one psql
 * session reads them: standard_conforming_strings carries from file to file;
 * each file's statements and `\if` blocks are its own (a last statement
 * without `;` ends with its file); after a `\i`/`\ir` meta event that
 * `session` accepted (its {@link PsqlSession.include}), the included file's
 * events come next. Needs {@link loadGrammar}.
 * @throws UnclosedIf for an `\if` left open at the end of a file
 */
async function* walkSeed(sources, options, session) {
    const lexing = { standardConformingStrings: true };
    // One generator over a stack of open files (not one generator per file: each level of
    // `yield*` would add a hop to every event of a dump of INSERTs).
    const open = [];
    const start = (src) => {
        session.enterFile(src);
        src.startStandardConformingStrings = lexing.standardConformingStrings;
        open.push({ src, events: scanFile(src.file, { ...options, classify: classify, lexing }) });
    };
    try {
        for (const first of sources) {
            start(first);
            while (open.length) {
                const top = open[open.length - 1];
                const next = await top.events.next();
                if (next.done) {
                    open.pop();
                    const unclosed = session.leaveFile();
                    if (unclosed !== undefined)
                        throw new UnclosedIf(top.src, unclosed);
                    continue;
                }
                yield [top.src, next.value];
                if (session.quit) {
                    // \q: the rest of this file is not read (psql ends that script)
                    session.quit = false;
                    open.pop();
                    await top.events.return(undefined);
                    session.leaveFile();
                    continue;
                }
                const include = session.include;
                if (include) {
                    session.include = null;
                    start(include);
                }
            }
        }
    }
    finally {
        // a refusal or error ends the walk: close the files still open
        for (const f of open.reverse())
            await f.events.return(undefined);
    }
}
/** An `\if` with no `\endif` before its file ended. */
class UnclosedIf extends MetaRefusal {
    src;
    ifLine;
    constructor(src, ifLine) {
        super(`the \\if at line ${ifLine} has no \\endif before the end of ${src.shown} (psql: "reached EOF without finding closing \\endif(s)"). Balance every \\if with \\endif in the same file.`);
        this.src = src;
        this.ifLine = ifLine;
    }
}
/**
 * Why a statement of this kind cannot run in the seed, or undefined: the
 * same rules for a file's statements (check pass and load) and for those
 * `\gexec` generates (at load time).
 */
function statementRefusal(c) {
    if (c.kind === 'database')
        return 'cannot work on a provisioned database (it already exists, and you are connected to it).';
    if (c.kind === 'transaction') {
        return ('would change the outcome of the seed, which runs in one transaction, all or nothing (BEGIN, START TRANSACTION, COMMIT and END are ignored; ' +
            'ROLLBACK, SAVEPOINT, RELEASE and PREPARE TRANSACTION are not). Remove it.');
    }
    if (c.kind === 'no-transaction')
        return 'cannot run inside a transaction block, and the whole seed runs in one. Drop CONCURRENTLY, or run it from `seed-command`.';
    if (c.clientEncoding !== undefined && !asciiSafeEncoding(c.clientEncoding)) {
        return (`sets client encoding ${c.clientEncoding}, in which a quote or backslash byte can be part of a character; the loader reads files byte by byte ` +
            'and supports UTF8 and the single-byte and EUC encodings. Convert the file to UTF-8 (iconv) and set client_encoding to UTF8.');
    }
    return undefined;
}
/**
 * A statement as psql sends it: without the text an inactive `\if` branch
 * added to it (PsqlSession.activeText), with psql variables filled in from
 * the session (as psql fills them in when it reads the statement), and
 * classified again if its text changed; the same event when neither applies.
 */
function asSent(ev, session) {
    const active = session.activeText(ev);
    const raw = ev.psqlVariables ? interpolate(active, ev.standardConformingStrings ?? true, session.lookup) : active;
    if (raw === ev.raw)
        return ev;
    const sql = raw.toString('utf8');
    const firstWord = active === ev.raw ? ev.firstWord : firstWordOf(sql);
    return { ...ev, raw, sql, firstWord, classified: classify(sql, firstWord) };
}
/**
 * Pass 1: refuses, before any database is touched, what cannot run: psql
 * meta-commands the loader does not run (`\connect`, `\!`, `\o`, `\copy … to`,
 * …; psql/session.ts), an `\unrestrict` whose key does not match, unbalanced `\if`
 * blocks, include cycles, a missing `\i` or `\copy` file; `CREATE/DROP/ALTER
 * DATABASE`; transaction control that would change the outcome (ROLLBACK,
 * SAVEPOINT, PREPARE TRANSACTION, …; BEGIN/START TRANSACTION/COMMIT/END pass:
 * the load drops them); statements that cannot run inside a transaction
 * block; a client encoding psql would lex with multibyte tables (SJIS, BIG5,
 * …). Included files are read and checked where they are included. What
 * depends on a `\gset` value (an `\if` on it, `\gexec`'s statements) is
 * checked by the load, with the same rules.
 * @param files paths in load order; `cwd` makes the names errors show, and is where `\i` and `\copy` files are found
 * @throws SeedError "Seed refused at file:line[:column]: …" (exact line, found
 *   by a rescan that counts COPY data lines); Error if a file cannot be read
 *   or has a COPY block without its `\.` line
 */
async function checkSeed(files, cwd = process.cwd()) {
    const started = Date.now();
    await loadGrammar();
    const sources = files.map((file) => ({ file, shown: external_node_path_default().relative(cwd, file) || file }));
    let found;
    try {
        found = await checkEvents(sources, { copyData: 'skip' }, cwd);
    }
    catch (err) {
        // COPY data was skipped unread, so lines after a COPY block lag: find the refusal's exact line
        if (!(err instanceof SeedError))
            throw err;
        found = await checkEvents(sources, {}, cwd);
    }
    return { sources, ...found, checkMs: Date.now() - started };
}
async function checkEvents(sources, options, cwd) {
    let included = 0;
    const readFiles = new Set();
    const needed = new Set();
    const created = new Set();
    const session = new PsqlSession(true, cwd);
    try {
        for await (const [from, ev] of walkSeed(sources, options, session)) {
            if (ev.kind === 'meta') {
                const refuse = (why) => {
                    throw new SeedError(`Seed refused at ${place(from, ev.line)}: ${why} Nothing was run.`, from.shown, ev.line);
                };
                try {
                    const directive = session.meta(from, ev);
                    if (session.include) {
                        included++;
                        readFiles.add(session.include.file);
                    }
                    if (directive.kind === 'copy' && directive.file)
                        readFiles.add(directive.file);
                }
                catch (err) {
                    if (err instanceof MetaRefusal)
                        refuse(err.message);
                    throw err;
                }
                continue;
            }
            if (ev.kind !== 'statement' || session.activity !== 'yes')
                continue;
            const stmt = asSent(ev, session);
            const c = stmt.classified;
            const why = statementRefusal(c);
            if (why) {
                const start = startOf(ev);
                throw new SeedError(`Seed refused at ${place(from, start.line, start.column)}: "${firstLine(stmt.sql)}" ${why} Nothing was run.`, from.shown, start.line, start.column);
            }
            for (const r of c.roles)
                needed.add(r);
            if (c.createdRole)
                created.add(c.createdRole);
        }
    }
    catch (err) {
        if (err instanceof UnclosedIf)
            throw new SeedError(`Seed refused at ${place(err.src, err.ifLine)}: ${err.message} Nothing was run.`, err.src.shown, err.ifLine);
        throw err;
    }
    return { needed, created, included, readFiles: [...readFiles] };
}

;// CONCATENATED MODULE: ./src/seed/batch.ts
/** A batch ends once it holds this many bytes (1 MiB). */
const MAX_BATCH_BYTES = 1 << 20;
/**
 * Each batch moves the savepoint to its start, in the same round trip, so a
 * failed batch can be rolled back to its start and replayed one statement at
 * a time. A batch the server rejects whole (bytes invalid in the client
 * encoding: it converts the text before parsing) leaves the previous one.
 */
const NEXT_SAVEPOINT = Buffer.from('RELEASE SAVEPOINT preview_postgres_seed; SAVEPOINT preview_postgres_seed;\n');
/**
 * The seed's end, sent behind its last messages without waiting for them:
 * after a failure, RELEASE fails too (the transaction is aborted) and the
 * rest of the Query is skipped, so COMMIT never turns a failed seed into a
 * rollback the failure's replay could not use.
 */
const END = Buffer.from('RELEASE SAVEPOINT preview_postgres_seed; COMMIT');
/** Bytes a batch's buffer starts with; it doubles as statements are added. */
const FIRST_CAPACITY = 1 << 14;
/**
 * A batch of plain statements sent in one round trip, as the files' bytes.
 * The statements' bytes are copied into one buffer as they are added, and
 * each keeps only numbers (where it starts, its ordinal) and its file: a
 * batch stays alive until the server has answered it (for a failure's
 * replay), and thousands of statement objects per batch (a dump of INSERTs)
 * would outlive V8's young collections and fill its old generation.
 */
class Batch {
    prefix;
    /** Characters so far (the server's error positions count characters), and bytes. */
    chars = 0;
    bytes = 0;
    buffer;
    /** Per statement: its file, its ordinal in that file, its byte and character offsets in the text. */
    sources = [];
    indexes = [];
    starts = [];
    offsets = [];
    /** @param prefix bytes the text starts with, before the statements (NEXT_SAVEPOINT), or none */
    constructor(prefix = Buffer.alloc(0)) {
        this.prefix = prefix;
        this.buffer = Buffer.allocUnsafe(Math.max(FIRST_CAPACITY, prefix.length * 2));
        prefix.copy(this.buffer);
    }
    /** Statements added. */
    get size() {
        return this.indexes.length;
    }
    /** Adds a statement, and a newline after it if it has none (the next one starts on a line of its own). */
    add(src, ev) {
        const newline = ev.raw[ev.raw.length - 1] !== 0x0a;
        const at = this.prefix.length + this.bytes;
        this.reserve(at + ev.raw.length + 1);
        this.sources.push(src);
        this.indexes.push(ev.index);
        this.starts.push(this.bytes);
        this.offsets.push(this.chars);
        ev.raw.copy(this.buffer, at);
        this.bytes += ev.raw.length;
        this.chars += ev.sql.length;
        if (newline) {
            this.buffer[at + ev.raw.length] = 0x0a;
            this.bytes++;
            this.chars++;
        }
    }
    /** The batch's text as sent: the prefix, then every statement (a view of the batch's buffer). */
    text() {
        return this.buffer.subarray(0, this.prefix.length + this.bytes);
    }
    /** Its statements, each rebuilt from the text (for locating a failure). */
    statements() {
        const base = this.prefix.length;
        return this.indexes.map((index, k) => {
            const raw = this.buffer.subarray(base + this.starts[k], base + (this.starts[k + 1] ?? this.bytes));
            return { src: this.sources[k], raw, sql: raw.toString('utf8'), index, offset: this.offsets[k] };
        });
    }
    /**
     * Makes room for `bytes` bytes: the buffer doubles, up to a full batch and
     * a statement more (so a batch holds at most twice its text), or grows to
     * fit one longer statement.
     */
    reserve(bytes) {
        if (bytes <= this.buffer.length)
            return;
        const full = this.prefix.length + MAX_BATCH_BYTES + FIRST_CAPACITY * 4;
        let size = this.buffer.length;
        while (size < bytes)
            size = Math.min(size * 2, Math.max(full, bytes));
        const grown = Buffer.allocUnsafe(size);
        this.buffer.copy(grown, 0, 0, this.prefix.length + this.bytes);
        this.buffer = grown;
    }
}

;// CONCATENATED MODULE: ./src/seed/rescan.ts
/**
 * Exact places after a fast pass: the load and the check pass do not count
 * COPY data lines (scanFile's `bytes` and `skip` modes), so lines after a
 * COPY block lag; these rescans of one file in `lines` mode find a
 * statement's or meta-command's exact line by its ordinal, when an error
 * needs it.
 */

/**
 * Rescans `file` in `lines` mode for the statement with ordinal `index` (as
 * yielded in any mode), to report its exact line and column after a pass that
 * did not count COPY data lines. Reads the file up to that statement.
 * @throws Error if the file has fewer statements (it changed since).
 */
async function exactStatement(file, index, options = {}) {
    let found;
    for await (const ev of scanFile(file, { ...options, copyData: 'lines' })) {
        if (found) {
            // the event after a COPY statement: its first data line, or the `\.` line that follows it directly
            return { statement: found, copyDataLine: ev.kind === 'copy-data' ? ev.firstLine : ev.kind === 'copy-end' ? ev.line : undefined };
        }
        if (ev.kind !== 'statement' || ev.index !== index)
            continue;
        if (!ev.copyFromStdin)
            return { statement: ev };
        found = ev;
    }
    if (found)
        return { statement: found };
    throw new Error(`${file}: statement ${index + 1} not found on rescan (did the file change while seeding?)`);
}
/**
 * Rescans `file` in `lines` mode for the meta-command with ordinal `index`,
 * for its exact line after a pass that did not count COPY data lines.
 * @returns its line, or `fallback` if the file has fewer (it changed since)
 */
async function exactMetaLine(file, index, fallback, options = {}) {
    for await (const ev of scanFile(file, { ...options, copyData: 'lines' }))
        if (ev.kind === 'meta' && ev.index === index)
            return ev.line;
    return fallback;
}

;// CONCATENATED MODULE: ./src/seed/raw-query.ts
/** A Query message holding `text` as it is. */
function queryMessage(text) {
    const m = Buffer.allocUnsafe(text.length + 6);
    m[0] = 0x51; // 'Q'
    m.writeInt32BE(text.length + 5, 1);
    text.copy(m, 5);
    m[m.length - 1] = 0;
    return m;
}
/**
 * One simple-protocol query of raw bytes (any number of statements). Rows
 * are discarded, unless {@link collect} is set (then the last result set is kept). `done` resolves at ReadyForQuery, or rejects with the
 * server's error (the first: the server skips the rest of the query) (a pg.DatabaseError, with its position in `text`).
 */
class RawQuery {
    text;
    done;
    settle;
    /** The command tag of the last statement completed (`SELECT 1`). */
    tag;
    /** When set, the last result set's columns and rows (`\\gset`, `\\gexec`). */
    collect = null;
    constructor(text) {
        this.text = text;
        this.done = new Promise((resolve, reject) => {
            this.settle = (err) => (err ? reject(err) : resolve());
        });
    }
    submit(connection) {
        connection._send(queryMessage(this.text));
    }
    handleRowDescription(msg) {
        if (this.collect)
            this.collect = { fields: msg.fields.map((f) => f.name), rows: [] };
    }
    handleDataRow(msg) {
        this.collect?.rows.push(msg.fields);
    }
    handleCommandComplete(msg) {
        this.tag = msg?.text;
    }
    handleEmptyQuery() { }
    handlePortalSuspended() { }
    handleCopyData() { }
    /** A `COPY … FROM STDIN` reached here has no data to send: the loader sends those with {@link rawCopy}. */
    handleCopyInResponse(connection) {
        connection.sendCopyFail('COPY FROM STDIN is not expected in this statement batch');
    }
    /** node-postgres drops the query on an error (ReadyForQuery then goes to no query), so it settles here. */
    handleError(err) {
        this.settle(err);
    }
    handleReadyForQuery() {
        this.settle();
    }
}
/** Runs `text` (bytes) on `client`. @returns the last statement's command tag @throws pg.DatabaseError as the server reported it. */
async function rawQuery(client, text) {
    const q = new RawQuery(text);
    client.query(q);
    await q.done;
    return q.tag;
}
/** Runs `text` (bytes) on `client` and keeps its last result set (empty when it returns none). @throws pg.DatabaseError */
async function rawRows(client, text) {
    const q = new RawQuery(text);
    q.collect = { fields: [], rows: [] };
    client.query(q);
    await q.done;
    return { ...q.collect, tag: q.tag };
}
/** A pg-copy-streams COPY FROM STDIN whose statement text is sent as the file's bytes. */
function rawCopy(stream, text) {
    const s = stream;
    s.submit = (connection) => {
        s.connection = connection;
        connection._send(queryMessage(text));
    };
    return stream;
}

;// CONCATENATED MODULE: ./src/seed/failure.ts



/** Keeps PostgreSQL's message but hides quoted values (COPY data must not reach the log). */
function redactValues(text) {
    return text?.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/=\([^)]*\)/g, '=(…)');
}
/** The server's message, detail and hint in one line; `redact` hides quoted values (for COPY data). */
function describe(err, redact) {
    const message = redact ? redactValues(err.message) : err.message;
    const detail = redact ? redactValues(err.detail) : err.detail;
    return [message, detail && `detail: ${detail}`, err.hint && `hint: ${err.hint}`].filter(Boolean).join('; ');
}
/** Throws the SeedError of a failed COPY: the file line of the bad row (from the server's "COPY t, line N"), values hidden. */
async function failCopy(src, ev, err) {
    const exact = await exactStatement(src.file, ev.index, rescanOptions(src));
    const rowLine = /line (\d+)/.exec(err.where ?? '')?.[1];
    const line = rowLine && exact.copyDataLine ? exact.copyDataLine + Number(rowLine) - 1 : startOf(exact.statement).line;
    throw new SeedError(`Seed failed at ${place(src, line)}: ${describe(err, true)} (in the data of "${firstLine(ev.sql)}"). Nothing was kept: the whole seed was rolled back.`, src.shown, line);
}
/** Finds which statement of a failed batch failed, and throws its SeedError. */
async function failBatch(client, batch, prefixLength, err) {
    const items = batch.statements();
    let culprit;
    let error = err;
    let position = err.position ? Number(err.position) - prefixLength : undefined;
    if (position !== undefined && position > 0) {
        culprit = [...items].reverse().find((it) => it.offset < position);
        if (culprit)
            position -= culprit.offset;
    }
    else {
        // No position (a runtime error): replay the batch one statement at a time to find it.
        await client.query('ROLLBACK TO SAVEPOINT preview_postgres_seed');
        for (const it of items) {
            try {
                await rawQuery(client, it.raw);
            }
            catch (e) {
                culprit = it;
                error = e;
                position = error.position ? Number(error.position) : undefined;
                break;
            }
        }
    }
    if (!culprit)
        throw new SeedError(`Seeding failed: ${describe(err, false)}. Nothing was kept: the whole seed was rolled back.`);
    const { statement } = await exactStatement(culprit.src.file, culprit.index, rescanOptions(culprit.src));
    const where = position ? locate(statement.sql, position, statement.line, statement.column) : startOf(statement);
    throw new SeedError(`Seed failed at ${place(culprit.src, where.line, where.column)}: ${describe(error, false)}. Statement: "${firstLine(culprit.sql)}". ` +
        'Nothing was kept: the whole seed was rolled back.', culprit.src.shown, where.line, where.column);
}
/**
 * Throws the SeedError of a meta-command that failed, at its exact line (a
 * rescan: lines after a COPY block lag in the load), or `below` lines under
 * it (a row of its inline data).
 */
async function failMeta(src, ev, why, below = 0) {
    const line = (await exactMetaLine(src.file, ev.index, ev.line, rescanOptions(src))) + below;
    throw new SeedError(`Seed failed at ${place(src, line)}: ${why} Nothing was kept: the whole seed was rolled back.`, src.shown, line);
}

// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(6466);
// EXTERNAL MODULE: ./node_modules/pg-copy-streams/index.js
var pg_copy_streams = __webpack_require__(6901);
;// CONCATENATED MODULE: ./src/seed/meta-run.ts
/**
 * The load's side of psql's meta-commands that need the database: `\copy …
 * from 'file'` (streamed), `\gset` (variables from a row) and the cells
 * `\gexec` runs. psql 17's rules (psql reference; src/bin/psql/common.c:
 * StoreQueryTuple, ExecQueryTuples; copy.c).
 */








/**
 * Streams `file` to the server as `sql` (`COPY … FROM STDIN …`, the `\copy`
 * command's own options, as psql's bytes: psqlslash.ts byteText), through pg-copy-streams with backpressure: memory
 * holds one read chunk (64 KiB), whatever the file's size.
 * @returns the rows the server copied
 * @throws pg.DatabaseError from the server (its `where` names the data line); Error if the file cannot be read
 */
async function copyFromFile(client, sql, file) {
    const stream = client.query(rawCopy((0,pg_copy_streams/* from */.H)(readable(sql)), textBytes(sql)));
    await (0,external_node_stream_promises_.pipeline)((0,external_node_fs_.createReadStream)(file), stream);
    return stream.rowCount;
}
/**
 * `\gset [prefix]`: sets prefix + column name to each value of the one row
 * `result` holds; a NULL unsets it; a variable psql treats specially is left
 * alone, with psql's warning (psql: StoreQueryTuple).
 * @throws MetaRefusal when there is not exactly one row, or a column's name is not a valid variable name (psql's errors, which stop the seed)
 */
function gset(session, result, prefix) {
    if (result.rows.length === 0)
        throw new MetaRefusal("no rows returned for \\gset (psql's error; it stops the seed).");
    if (result.rows.length > 1)
        throw new MetaRefusal("more than one row returned for \\gset (psql's error; it stops the seed).");
    for (const [k, field] of result.fields.entries()) {
        const name = prefix + asByteText(field);
        if (HOOKED_VARIABLES.has(name)) {
            core/* warning */.$e(`attempt to \\gset into specially treated variable "${readable(name)}" ignored (psql's warning).`);
            continue;
        }
        // a column without a usable name (`?column?`) is not a variable name: psql stops there (variables.c, SetVariable)
        if (!validVariableName(name))
            throw new MetaRefusal(`\\gset: invalid variable name: "${readable(name)}" (psql's error; it stops the seed). Name the column: SELECT … AS name.`);
        const value = result.rows[0][k];
        if (value === null)
            session.variables.delete(name);
        else
            session.variables.set(name, asByteText(value));
    }
}
/** `\gexec`'s statements: each non-null cell, row by row, then column by column (psql: ExecQueryTuples). */
function* gexecCells(result) {
    for (const row of result.rows)
        for (const cell of row)
            if (cell !== null)
                yield cell;
}

;// CONCATENATED MODULE: ./src/seed/load.ts
/**
 * The load pass's walk over a seed: each event of each file, as one psql
 * session acts on it. Statements go through the seed's rules (rules.ts) to
 * the server (send.ts); meta-commands through psql's rules (psql/session.ts)
 * and, where they need the database (`\gset`, `\gexec`, `\g`, `\copy`),
 * through meta-run.ts.
 */











/** How deep values that hold values are re-scanned (psql stops a variable from holding itself; this stops any loop). */
const MAX_RESCAN_DEPTH = 10;
/** One load of a seed's files, in order, on the client `send` uses. */
class SeedLoad {
    send;
    rules;
    client;
    session = new PsqlSession(false);
    /** A statement sent by `\gset` or `\gexec`: its meta event comes next. */
    query = null;
    /** Each file's last statement, which `\gset` or `\gexec` on a line of its own sends again. */
    previous = new Map();
    /** The statement just before was sent by `\g` or `\gx` itself. */
    sentByG = false;
    /**
     * @param variables psql's variables for the connection (`DBNAME`, `SERVER_VERSION_NUM`, …)
     * @param client the client `send` uses, for a failed statement's replay
     */
    constructor(send, rules, variables, client) {
        this.send = send;
        this.rules = rules;
        this.client = client;
        for (const [name, value] of Object.entries(variables))
            this.session.variables.set(name, value);
    }
    /** Loads every event of `sources`, then sends COMMIT. @throws SeedError naming file:line of the first failure */
    async run(sources) {
        for await (const [src, ev] of walkSeed(sources, { copyData: 'bytes' }, this.session))
            await this.event(src, ev);
        await this.send.commit();
    }
    async event(src, ev, depth = 0) {
        if (ev.kind === 'meta')
            await this.meta(src, ev);
        else if (ev.kind === 'statement')
            await this.statement(src, ev, depth);
        else if (ev.kind === 'copy-data')
            await this.send.copyData(ev.data);
        else
            await this.send.copyEnd();
    }
    async statement(src, ev, depth) {
        if (this.session.activity !== 'yes')
            return;
        if (ev.psqlVariables) {
            await this.readResults(ev.psqlVariables.flatMap(referencedNames));
            if (depth < MAX_RESCAN_DEPTH && this.needsRescan(ev))
                return this.rescan(src, ev, depth);
        }
        const st = asSent(ev, this.session);
        this.previous.set(src, { src, ev: st });
        this.sentByG = st.endedBy === 'g' || st.endedBy === 'gx';
        if (st.endedBy === 'gset' || st.endedBy === 'gexec') {
            this.rules.refuse(src, st);
            this.query = { src, ev: st };
            return;
        }
        if (!this.rules.admit(src, st))
            return;
        if (st.copyFromStdin)
            return this.send.startCopy(src, st, st.raw);
        // The server parses a whole batch before running it: end it where the way text is read changes, or where a file ends without `;`.
        await this.send.statement(src, st, st.classified.changesLexing || !st.terminated || st.endedBy !== undefined);
    }
    /** A statement with a `:name` whose value holds a backslash or a `;`: psql reads that value as input (meta-commands, statement ends). */
    needsRescan(ev) {
        return ev.psqlVariables.some((ref) => {
            if (!/^:[^'"{]/.test(ref))
                return false;
            const value = this.session.lookup(ref.slice(1));
            return typeof value === 'string' && /[\\;]/.test(value);
        });
    }
    /**
     * Runs a statement's text with its variables filled in as new input, as
     * psql re-scans an interpolated value (psqlscan.l: psqlscan_push_new_buffer):
     * a value may hold meta-commands or several statements. Lines count from
     * the statement's first line.
     */
    async rescan(src, ev, depth) {
        const text = asSent(ev, this.session).raw;
        const lexing = { standardConformingStrings: ev.standardConformingStrings ?? true };
        const events = scanText(text, { classify: classify, lexing });
        const last = events.findLastIndex((e) => e.kind === 'statement');
        for (const [k, e] of events.entries()) {
            // an error is placed at the statement the value was used in (its ordinal, for the rescan that finds its line)
            const line = ev.line + ('line' in e ? e.line - 1 : 0);
            if (e.kind === 'meta')
                await this.event(src, { ...e, line, index: -1 }, depth + 1);
            else if (e.kind !== 'statement')
                await this.event(src, e, depth + 1);
            else {
                // the last one ends as the statement did (with `;`, or sent by \g, \gset, \gexec)
                const end = k === last ? { terminated: ev.terminated, endedBy: ev.endedBy } : {};
                await this.event(src, { ...e, line, index: ev.index, ...end }, depth + 1);
            }
        }
    }
    /**
     * psql's ERROR, SQLSTATE and ROW_COUNT (set after each query) and ENCODING
     * (the client encoding), when `names` use one: read from the answers to
     * what was sent so far, which are waited for first.
     */
    async readResults(names) {
        if (!names.some((n) => RESULT_VARIABLES.has(n)))
            return;
        await this.send.flushAll();
        const v = this.session.variables;
        if (this.send.lastTag !== undefined) {
            // a seed stops at its first error, so ERROR is false whenever the seed goes on
            v.set('ERROR', 'false');
            v.set('SQLSTATE', '00000');
            v.set('ROW_COUNT', rowCount(this.send.lastTag));
        }
        if (names.includes('ENCODING'))
            v.set('ENCODING', await this.send.clientEncoding());
    }
    async meta(src, ev) {
        if (this.session.activity === 'yes')
            await this.readResults(referencedNames(ev.args));
        let directive;
        try {
            directive = this.session.meta(src, ev);
            if (directive.kind === 'gset' || directive.kind === 'gexec') {
                // without a query of its own, psql sends the file's previous one again (mainloop.c: previous_buf)
                const q = this.query ?? this.previous.get(src);
                this.query = null;
                if (!q) {
                    core/* info */.pq(`\\${ev.command} at ${place(src, ev.line)} has no query before it in its file: nothing sent (psql sends an empty query).`);
                    return;
                }
                await this.send.flushAll();
                return await this.runQuery(src, ev, q, directive);
            }
        }
        catch (err) {
            if (err instanceof MetaRefusal)
                await failMeta(src, ev, err.message);
            throw err;
        }
        if ((ev.command === 'g' || ev.command === 'gx') && this.session.activity === 'yes')
            return this.resend(src, ev);
        if (directive.kind === 'print')
            core/* info */.pq(directive.text);
        if (directive.kind === 'warning')
            core/* warning */.$e(`${place(src, ev.line)}: ${directive.text}`);
        if (directive.kind !== 'copy')
            return;
        if (directive.file)
            return this.send.copyFile(src, ev, directive.sql, directive.file);
        await this.send.startCopy(src, ev, textBytes(directive.sql));
    }
    /** `\g` with a query of its own sent it as `;` does; alone, psql sends the file's previous query again. */
    async resend(src, ev) {
        const again = this.sentByG ? undefined : this.previous.get(src);
        this.sentByG = false;
        if (!again)
            return;
        await this.send.flushAll();
        await this.send.query(again.ev.raw).catch(async (err) => {
            await failMeta(src, ev, `${describe(err, false)} (the query \\${ev.command} sent again: "${firstLine(again.ev.sql)}").`);
        });
    }
    /** `\gset` or `\gexec`: runs `q` and uses its rows. */
    async runQuery(src, ev, q, directive) {
        let rows;
        try {
            rows = await this.send.rows(q.ev.raw);
        }
        catch (err) {
            const one = new Batch();
            one.add(q.src, q.ev);
            return failBatch(this.client, one, 0, err);
        }
        if (directive.kind === 'gset')
            return gset(this.session, rows, directive.prefix);
        let line;
        for (const cell of gexecCells(rows)) {
            const generated = { ...q.ev, sql: cell, raw: Buffer.from(cell), classified: classify(cell, firstWordOf(cell)) };
            // the \gexec line, found once (a rescan of its file) for all the statements it generates
            line ??= await exactMetaLine(src.file, ev.index, ev.line, rescanOptions(src));
            if (!this.rules.admit(src, generated, line))
                continue;
            try {
                await this.send.query(generated.raw);
            }
            catch (err) {
                throw new SeedError(`Seed failed at ${place(src, line)}: ${describe(err, false)}. Statement generated by \\gexec: "${firstLine(cell)}". Nothing was kept: the whole seed was rolled back.`, src.shown, line);
            }
        }
    }
}

;// CONCATENATED MODULE: ./src/seed/rules.ts
/**
 * The seed's rules for each statement at load time, beyond the check pass's
 * refusals (which apply again here, to statements psql variables or `\gexec`
 * made): what is skipped, counted and logged rather than sent.
 */


/** Role names that always exist. */
const BUILTIN_ROLES = new Set(['public', 'current_user', 'session_user', 'current_role']);
/**
 * Decides, statement by statement, what the load sends. Skipped, counted and
 * logged: statements naming a role the database lacks (OWNER TO, GRANT,
 * REVOKE, ALTER DEFAULT PRIVILEGES FOR ROLE, from a dump made without
 * `--no-owner --no-privileges`); BEGIN, START TRANSACTION, COMMIT and END
 * (the seed is one transaction already); COMMENT ON EXTENSION for an
 * extension another role owns (plpgsql on a managed database: psql stops
 * there with "must be owner of extension").
 */
class SeedRules {
    foreignExtensions;
    /** Statements skipped because they name a role the database does not have. */
    skippedForRoles = 0;
    /** BEGIN, START TRANSACTION, COMMIT and END statements dropped. */
    skippedTransactionControl = 0;
    /** `COMMENT ON EXTENSION` for an extension another role owns. */
    skippedExtensionComments = 0;
    existing;
    missing = new Set();
    /** The first transaction-control statement dropped: its place and first line. */
    firstTransactionControl;
    /**
     * @param roles the database's roles and those the seed creates
     * @param foreignExtensions extensions owned by a role the loading user is not a member of (a managed database's built-ins)
     */
    constructor(roles, foreignExtensions) {
        this.foreignExtensions = foreignExtensions;
        this.existing = new Set(roles);
    }
    /**
     * Applies the rules to a statement; false when it is skipped.
     * `generatedAt`: the `\gexec` line of a statement it generated (else the statement's own line).
     * Its line and text are worked out only for a message (once per statement would cost the --inserts load).
     * @throws SeedError for one that cannot run
     */
    admit(src, ev, generatedAt) {
        const c = ev.classified;
        const line = () => generatedAt ?? startOf(ev).line;
        const text = () => `"${firstLine(ev.sql)}"${generatedAt === undefined ? '' : ' (generated by \\gexec)'}`;
        const why = statementRefusal(c);
        if (why)
            throw new SeedError(`Seed failed at ${place(src, line())}: ${text()} ${why} Nothing was kept: the whole seed was rolled back.`, src.shown, line());
        const missing = c.roles.filter((r) => !this.existing.has(r) && !BUILTIN_ROLES.has(r));
        if (missing.length) {
            for (const r of missing)
                this.missing.add(r);
            this.skippedForRoles++;
            return false;
        }
        if (c.kind === 'begin' || c.kind === 'commit') {
            if (this.skippedTransactionControl++ === 0)
                this.firstTransactionControl = [place(src, line()), firstLine(ev.sql)];
            return false;
        }
        if (c.extensionComment !== undefined && this.foreignExtensions.has(c.extensionComment)) {
            this.skippedExtensionComments++;
            core/* info */.pq(`Skipped ${place(src, line())} ${text()}: extension ${c.extensionComment} belongs to the database's platform role, not to this seed's.`);
            return false;
        }
        return true;
    }
    /**
     * The refusals alone, for a statement `\gset` or `\gexec` sends (one that
     * would be skipped leaves nothing for them to use, so it is not skipped).
     * @throws SeedError for one that cannot run
     */
    refuse(src, st) {
        const why = statementRefusal(st.classified);
        if (why)
            throw new SeedError(`Seed failed at ${place(src, startOf(st).line)}: "${firstLine(st.sql)}" ${why} Nothing was kept: the whole seed was rolled back.`, src.shown);
    }
    /** Logs what was skipped, once the seed committed. */
    report() {
        if (this.skippedForRoles) {
            core/* info */.pq(`Skipped ${this.skippedForRoles} statement(s) that name roles this database does not have (${[...this.missing].join(', ')}): ` +
                'OWNER TO, GRANT, REVOKE and ALTER DEFAULT PRIVILEGES from a dump made without --no-owner --no-privileges. Everything else ran as written.');
        }
        if (this.skippedExtensionComments) {
            core/* info */.pq(`Skipped ${this.skippedExtensionComments} COMMENT ON EXTENSION statement(s) for extensions this managed database provides and its platform role owns.`);
        }
        if (this.skippedTransactionControl) {
            const [at, text] = this.firstTransactionControl;
            core/* notice */.lm(`Ignored ${this.skippedTransactionControl} transaction-control statement(s) (BEGIN, START TRANSACTION, COMMIT, END; the first at ` +
                `${at}: "${text}"): the whole seed runs in one transaction and is kept all or nothing.`);
        }
    }
}

;// CONCATENATED MODULE: ./src/seed/pipeline.ts

/** A batch the server answered with CopyInResponse while more messages were sent behind it (the session was ended). */
class UnexpectedCopyIn extends Error {
}
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]); // 'c', Int32 4 (PostgreSQL docs, "Message Formats": CopyDone)
/** Bytes of statements sent but not yet answered above which {@link Pipeline.room} waits (about two full batches). */
const MAX_UNANSWERED_BYTES = 2 << 20;
/**
 * Queries and COPY blocks written without waiting, answered in order.
 * Open with {@link Pipeline.open}; close with {@link Pipeline.settle} before
 * the client runs any other query. `T`: what the caller needs to locate a
 * failure (the failed message's tag).
 */
class Pipeline {
    client;
    /** COPY rows the server counted ("COPY n") so far. */
    copyRows = 0;
    /** The command tag of the last statement the server completed (`INSERT 0 3`), for psql's ROW_COUNT. */
    lastTag;
    /** Set by the first error; nothing sent after it takes effect. */
    failure = null;
    sent = [];
    unansweredBytes = 0;
    connection = null;
    closing = false;
    ended = false;
    wake = null;
    ready;
    onReady;
    done;
    onDone;
    constructor(client) {
        this.client = client;
        this.ready = new Promise((resolve) => (this.onReady = resolve));
        this.done = new Promise((resolve) => (this.onDone = resolve));
    }
    /** Takes over `client` (connected, with no query running) for pipelined messages. */
    static async open(client) {
        const p = new Pipeline(client);
        client.query(p);
        await Promise.race([p.ready, p.done]); // done: the client could not run it (closed): every send is then a no-op
        return p;
    }
    /** Sends `text` (bytes, any number of statements) as one Query message. */
    query(text, tag) {
        this.send(text, tag, false);
    }
    /** Sends a `COPY … FROM STDIN` statement; its data follows with {@link copyData} and {@link copyDone}. */
    copy(text, tag) {
        this.send(text, tag, true);
    }
    /** Sends COPY data as written (CopyData messages); resolves when the socket can take more. */
    async copyData(data) {
        const c = this.connection;
        if (!c || this.failure)
            return;
        const head = Buffer.allocUnsafe(5);
        head[0] = 0x64; // 'd'
        head.writeInt32BE(data.length + 4, 1);
        c._send(head);
        if (!c._send(data) && c.stream.writable)
            await this.waitFor(() => !c.stream.writableNeedDrain, 'drain');
    }
    /** Ends the current COPY's data (CopyDone). */
    copyDone() {
        if (this.connection && !this.failure)
            this.connection._send(COPY_DONE);
    }
    /** Waits until few enough statements are unanswered (the bytes held for a failure's replay stay bounded). */
    async room() {
        await this.waitFor(() => this.unansweredBytes <= MAX_UNANSWERED_BYTES || this.failure !== null);
    }
    /**
     * Waits until every message sent is answered and gives `client` back.
     * @returns the first failure, or null
     */
    async settle() {
        this.closing = true;
        if (!this.sent.length && !this.ended) {
            // nothing unanswered: no ReadyForQuery will hand the client back, so do what it would
            const c = this.client;
            if (c._activeQuery === this) {
                c._activeQuery = null;
                c.readyForQuery = true;
            }
            this.release();
            c._pulseQueryQueue();
        }
        await this.done;
        return this.failure;
    }
    send(text, tag, copy) {
        if (!this.connection || this.failure)
            return;
        this.sent.push({ tag, copy, bytes: text.length });
        this.unansweredBytes += text.length;
        this.connection._send(queryMessage(text));
    }
    /** Resolves once `ok()` holds, checked after each answer (and at the socket's `event`). */
    async waitFor(ok, event) {
        const stream = this.connection?.stream;
        while (!ok() && !this.ended) {
            await new Promise((resolve) => {
                const go = () => {
                    this.wake = null;
                    if (event)
                        stream?.off(event, go);
                    resolve();
                };
                this.wake = go;
                if (event)
                    stream?.once(event, go);
            });
        }
    }
    /** Lets node-postgres run its own queries again (it made this query inactive at the last ReadyForQuery). */
    release() {
        if (this.ended)
            return;
        this.ended = true;
        this.wake?.();
        this.onDone();
    }
    /** Keeps node-postgres routing the server's answers here after an ErrorResponse or a ReadyForQuery. */
    stayActive() {
        const c = this.client;
        c._activeQuery = this;
        c.readyForQuery = false;
    }
    submit(connection) {
        this.connection = connection;
        this.onReady();
    }
    handleRowDescription() { }
    handleDataRow() { }
    handleEmptyQuery() { }
    handlePortalSuspended() { }
    handleCopyData() { }
    handleCommandComplete(msg) {
        this.lastTag = msg?.text;
        const m = /^COPY (\d+)/.exec(msg?.text ?? '');
        if (m && this.sent[0]?.copy)
            this.copyRows += Number(m[1]);
    }
    /**
     * A batch never holds `COPY … FROM STDIN` (the scanner sends those as COPY
     * blocks); refused if one does. When messages were sent behind that batch,
     * the server would read them as COPY data and lose count of the answers:
     * the session is then ended (the server rolls back) rather than left to hang.
     */
    handleCopyInResponse(connection) {
        if (this.sent[0]?.copy)
            return;
        const why = 'COPY FROM STDIN is not expected in this statement batch';
        connection.sendCopyFail(why);
        if (this.sent.length > 1) {
            // (the server's own words when the CopyFail reaches it: "COPY from stdin failed: …")
            this.failure ??= { tag: this.sent[0]?.tag, err: new UnexpectedCopyIn(`COPY from stdin failed: ${why}`) };
            connection.stream.destroy();
        }
    }
    handleError(err) {
        this.failure ??= { tag: this.sent[0]?.tag, err };
        if (err.severity === undefined) {
            // the connection ended (a cancel, a lost link): no ReadyForQuery will come
            this.sent.length = 0;
            this.release();
            return;
        }
        this.stayActive(); // its ReadyForQuery follows
        this.wake?.();
    }
    handleReadyForQuery() {
        const answered = this.sent.shift();
        if (answered)
            this.unansweredBytes -= answered.bytes;
        if (this.sent.length || !this.closing)
            this.stayActive();
        else
            this.release();
        this.wake?.();
    }
}

;// CONCATENATED MODULE: ./src/seed/send.ts
/**
 * The load's one way to the server. Plain statements go out in batches and
 * COPY blocks as their bytes, pipelined (pipeline.ts): nothing waits for the
 * server until the seed's end, or until a meta-command needs an answer
 * ({@link Sender.flushAll}, then a query of the client's own). A failure the
 * server reports is turned into the SeedError that names its file and line.
 */








/** Sends a seed's statements and COPY data on one client, inside the transaction the loader opened. */
class Sender {
    client;
    /** Statements the server ran (a COPY block counts as one). */
    statements = 0;
    /** Rows COPY blocks and `\copy` loaded, as the server counted them. */
    copyRows = 0;
    batch = new Batch(NEXT_SAVEPOINT);
    pipe = null;
    /** The command tag of the last statement the server completed, once one has (psql's ROW_COUNT comes from it). */
    lastTag;
    /** A COPY block is open: `copy-data` events go to it. */
    copying = false;
    constructor(client) {
        this.client = client;
    }
    /**
     * Adds a plain statement to the batch; sends the batch when it is full or
     * when `endBatch` (the server parses a whole batch before running it, so a
     * batch ends where the way text is read changes).
     */
    async statement(src, ev, endBatch) {
        this.batch.add(src, ev);
        if (this.batch.bytes >= MAX_BATCH_BYTES || endBatch)
            await this.flush();
    }
    /** Opens a COPY block: `sql` is its `COPY … FROM STDIN` text; {@link copyData} and {@link copyEnd} follow. */
    async startCopy(src, ev, sql) {
        await this.flush();
        (await this.pipeline()).copy(sql, { src, ev });
        this.copying = true;
    }
    /** COPY data, exactly as the file has it (not split into rows: the server counts them). */
    async copyData(data) {
        if (!this.copying || !this.pipe)
            return;
        await this.pipe.copyData(data);
        await this.check();
    }
    /** The COPY block's `\.`: its answer is read with the others. */
    async copyEnd() {
        if (!this.copying || !this.pipe)
            return;
        this.pipe.copyDone();
        this.copying = false;
        this.statements++;
        await this.check();
    }
    /** Sends the batch and waits for every answer: before the client runs a query of its own. */
    async flushAll() {
        await this.flush();
        await this.settle();
    }
    /** Runs `raw` on its own (call {@link flushAll} first). @throws pg.DatabaseError from the server */
    async query(raw) {
        this.lastTag = (await rawQuery(this.client, raw)) ?? '';
        this.statements++;
    }
    /** Runs `raw` on its own and returns its rows (call {@link flushAll} first). @throws pg.DatabaseError from the server */
    async rows(raw) {
        const rows = await rawRows(this.client, raw);
        this.lastTag = rows.tag ?? '';
        this.statements++;
        return rows;
    }
    /**
     * `\copy … from 'file'`: streams `file` as `sql` after the answers to what was sent before.
     * @throws SeedError at the meta-command's line (the server's message, COPY values hidden)
     */
    async copyFile(src, ev, sql, file) {
        await this.flushAll();
        try {
            const rows = await copyFromFile(this.client, sql, file);
            this.copyRows += rows;
            this.lastTag = `COPY ${rows}`;
            this.statements++;
        }
        catch (err) {
            const e = err;
            const row = /line (\d+)/.exec(e.where ?? '')?.[1];
            await failMeta(src, ev, `${describe(e, true)} (\\copy from ${external_node_path_default().relative(process.cwd(), file)}${row ? `, line ${row}` : ''}).`);
        }
    }
    /** Sends the rest and COMMIT, and waits. @throws SeedError of the first failure; COMMIT's own error (a deferred constraint) */
    async commit() {
        await this.flush();
        (await this.pipeline()).query(END, { commit: true });
        await this.settle();
    }
    /** The client encoding now (`SHOW client_encoding`, after what was sent before): psql's ENCODING. Not a statement of the seed. */
    async clientEncoding() {
        await this.flushAll();
        return (await rawRows(this.client, Buffer.from('SHOW client_encoding'))).rows[0][0] ?? 'UTF8';
    }
    /** After a failure: waits until the client is free again (to roll back). Never throws. */
    async abandon() {
        await this.pipe?.settle();
    }
    async pipeline() {
        return (this.pipe ??= await Pipeline.open(this.client));
    }
    async flush() {
        if (!this.batch.size)
            return;
        const current = this.batch;
        this.batch = new Batch(NEXT_SAVEPOINT);
        const p = await this.pipeline();
        p.query(current.text(), { batch: current }); // the batch stays until answered, for a replay
        this.statements += current.size;
        await p.room();
        await this.check();
    }
    /** Waits for every answer. @throws SeedError of the first failure */
    async settle() {
        if (!this.pipe)
            return;
        const p = this.pipe;
        this.pipe = null;
        const failure = await p.settle();
        this.copyRows += p.copyRows;
        if (p.lastTag !== undefined)
            this.lastTag = p.lastTag;
        if (failure)
            await this.locate(failure);
    }
    /** Settles as soon as the server has failed a message (the messages after it take no effect). */
    async check() {
        if (this.pipe?.failure)
            await this.settle();
    }
    /** Throws the SeedError of a pipelined message the server failed: its statement, or its COPY row. */
    async locate({ tag, err }) {
        if (!tag || 'commit' in tag)
            throw err; // COMMIT's own failure (a deferred constraint): the server rolled back
        if ('batch' in tag) {
            if (err instanceof UnexpectedCopyIn) {
                // the statement that became `COPY … FROM stdin` (by a psql variable): located as a server error at its first character
                const it = tag.batch.statements().find((i) => /^COPY\b[\s\S]*\bFROM\s+P?STDIN\b/i.test(statementHead(i.sql)));
                if (it)
                    return failBatch(this.client, tag.batch, 0, Object.assign(new Error(err.message), { position: String(it.offset + 1) }));
            }
            // not the server's error (the session ended): there is nothing to replay on
            if (err.severity === undefined)
                throw err;
            return failBatch(this.client, tag.batch, NEXT_SAVEPOINT.length, err);
        }
        if (tag.ev.kind === 'meta') {
            const e = err;
            const row = /line (\d+)/.exec(e.where ?? '')?.[1];
            // the data starts on the line after the \copy: the server's "line N" is N lines below it
            return failMeta(tag.src, tag.ev, `${describe(e, true)} (in the data of \\copy ${readable(tag.ev.args)}).`, row ? Number(row) : 0);
        }
        return failCopy(tag.src, tag.ev, err);
    }
}

;// CONCATENATED MODULE: ./src/seed/loader.ts








/** The variables psql sets itself for the connection (startupVariables), which `:DBNAME` and the like fill in. */
function psqlVariables(client, target) {
    const p = client;
    const vars = startupVariables({
        dbname: p.database ?? '',
        user: p.user ?? '',
        host: p.host ?? '',
        port: String(p.port ?? ''),
        versionNum: target.version[0],
        versionName: target.version[1],
        version: target.version[2]
    });
    for (const name of Object.keys(vars))
        vars[name] = asByteText(vars[name]);
    return vars;
}
/**
 * Pass 2: loads a seed that {@link checkSeed} accepted into the database of
 * `connection` (its direct URL) in one session and one transaction. What is
 * skipped, counted and logged: see SeedRules (rules.ts).
 * @param signal a cancel of the run: ends the session, so the server rolls the transaction back and it is never committed
 * @returns counts, and `durationMs`: from this call to COMMIT (the check pass not included)
 * @throws SeedError naming file:line:column, the server's message, detail and
 *   hint, and the statement's first line; the database is left as it was.
 */
async function loadSeed(connection, plan, signal) {
    const started = Date.now();
    // the run's one session (session.ts), shared with the schema snapshots: a connection costs 5-6 round trips
    const lease = await (0,pg_sessions/* leaseSession */.fY)(connection).catch((err) => Promise.reject(new SeedError(`Seeding could not connect to the new database: ${err.message}`)));
    const { client } = lease;
    const stop = () => void client.end().catch(() => undefined); // a cancel: COMMIT is never sent
    if (signal?.aborted)
        stop();
    else
        signal?.addEventListener('abort', stop, { once: true });
    let target;
    try {
        target = await openTransaction(client);
    }
    catch (err) {
        lease.release(true);
        throw err;
    }
    const send = new Sender(client);
    try {
        const rules = new SeedRules([...target.roles, ...plan.created], target.foreignExtensions);
        await new SeedLoad(send, rules, psqlVariables(client, target), client).run(plan.sources);
        rules.report();
        return {
            files: plan.sources.length,
            statements: send.statements,
            copyRows: send.copyRows,
            skippedForRoles: rules.skippedForRoles,
            skippedTransactionControl: rules.skippedTransactionControl,
            skippedExtensionComments: rules.skippedExtensionComments,
            durationMs: Date.now() - started
        };
    }
    catch (err) {
        await send.abandon(); // the client must be ours again to roll back
        await client.query('ROLLBACK').catch(() => undefined);
        if (err instanceof SeedError)
            throw err;
        throw new SeedError(`Seeding failed: ${err.message}. Nothing was kept: the whole seed was rolled back.`);
    }
    finally {
        lease.release(true);
    }
}
/**
 * Opens the seed's transaction and its savepoint, and reads the database's roles and
 * the extensions the loading user does not own (no membership in their
 * owner), in one round trip after the connection's own.
 * @throws SeedError if the database cannot be reached
 */
async function openTransaction(client) {
    try {
        // A simple-protocol query with several statements answers with one result per statement.
        const results = (await client.query("BEGIN; SAVEPOINT preview_postgres_seed; SELECT rolname FROM pg_roles; SELECT extname FROM pg_extension WHERE NOT pg_has_role(extowner, 'USAGE'); " +
            "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS name, version() AS full"));
        const v = results[4].rows[0];
        return {
            roles: results[2].rows.map((r) => r.rolname),
            foreignExtensions: new Set(results[3].rows.map((r) => r.extname)),
            version: [v.num, v.name, v.full]
        };
    }
    catch (err) {
        throw new SeedError(`Seeding could not connect to the new database: ${err.message}`);
    }
}

;// CONCATENATED MODULE: ./src/commands/seed-step.ts
/**
 * The seeding step of every command that makes a database usable (create,
 * reset): the seed files' check before anything is created, then, schema
 * before data, the load of the checked files (a dump: schema and data as of
 * some point), `migrate-command` (the schema brought to the PR's head) and
 * `seed-command` (data that may need the head's schema), with the schema
 * compared around them, undone when any of them fails.
 */








/**
 * Starts the seed's check pass (no database needed). Awaited before the PR
 * comment's lock is claimed and before anything is created: a refused seed
 * creates no database and posts no comment.
 * @returns null when there is nothing to seed from files
 */
function startSeedCheck(files) {
    if (files.length === 0)
        return Promise.resolve(null);
    const checking = checkSeed(files).catch((err) => {
        throw err instanceof SeedError
            ? new SeedError(`${err.message} No database was created or changed.`, err.file, err.line, err.column)
            : err;
    });
    checking.catch(() => undefined); // awaited later; not an unhandled rejection meanwhile
    return checking;
}
/**
 * Awaits the check {@link startSeedCheck} started and logs what it checked.
 * @returns the checked plan; null when there are no seed files
 * @throws SeedError when a file is refused
 */
async function checkedSeed(files, checking) {
    if (files.length === 0)
        return null;
    return core/* group */.Os('Check the seed files', async () => {
        const plan = (await checking);
        (0,phases/* overlapped */.RO)('check pass', plan.checkMs);
        core/* info */.pq(`Checked ${plan.sources.length} seed file(s)${plan.included ? ` and ${plan.included} included one(s)` : ''} in ${(plan.checkMs / 1000).toFixed(1)} s: ` +
            'only the psql meta-commands the loader runs (\\echo, \\i, \\ir, \\set, \\if, \\copy … from, \\gset, \\gexec, …), ' +
            'no statement that needs another database or its own transaction.');
        return plan;
    });
}
/**
 * Whether a user command runs on a database that holds data, so that its
 * migration cost is measured (migration-cost/): a reused database; a branch
 * (its parent's data), unless it is `schema-only` and no seed files were
 * loaded into it. A new instant database starts empty.
 */
function holdsData(report, seeded) {
    return report.state === 'reused' || (report.mode === 'branch' && (!report.schemaOnly || seeded));
}
/**
 * Seeds a database whose seed has not committed (unseeded), schema before
 * data: the checked SQL files in one transaction, then `migrate-command`,
 * then `seed-command`, with the schema compared around the commands
 * ({@link SchemaTracker}). On failure (a destructive change under
 * `fail-on-destructive` included) runs `undo` (so nothing unseeded is left
 * for reuse) and rethrows. Sets `report.seedFiles`, and `report.migrationCost`
 * when `migrate-command` ran on a database that {@link holdsData} (or, with no
 * `migrate-command`, `seed-command` did).
 * @param platformDiff branch mode: fetches the Neon API's compare_schema diff against the parent
 * @throws CancelledError at once when the run is cancelled: the seed's database session is ended (its
 *   transaction rolled back, never committed) and the running command's process group is killed.
 */
async function seedOrUndo(settings, seed, connection, report, undo, platformDiff) {
    const commands = !!(settings.seedCommand || settings.migrateCommand);
    const tracker = new SchemaTracker(report.mode, connection, settings.compareSchema, settings.failOnDestructive, commands);
    try {
        (0,phases/* mark */.Gy)('schema diff');
        await tracker.atStart();
        (0,phases/* mark */.Gy)('seed');
        if (seed) {
            const n = seed.sources.length;
            const result = await core/* group */.Os(`Seed the database (${n} file${n === 1 ? '' : 's'})`, () => (0,cancel/* unlessCancelled */.MS)(loadSeed(connection, seed, (0,cancel/* cancelSignal */.Bj)())));
            core/* info */.pq(`Seeded ${result.files} file(s): ${result.statements} statement(s), ${result.copyRows} COPY row(s) in ${(result.durationMs / 1000).toFixed(2)} s.`);
            report.seedFiles = result.files;
        }
        await tracker.afterSeedFiles();
        if (settings.migrateCommand) {
            // Schema first: the PR's migrations bring the seed's schema to the PR's head.
            (0,phases/* mark */.Gy)('migrate-command');
            const measure = holdsData(report, seed !== null);
            const measured = await runMigrateCommand(settings.migrateCommand, connection, () => tracker.commandStarted(), measure);
            if (measured)
                report.migrationCost = { command: 'migrate-command', lines: measured.lines, file: measured.file };
        }
        if (settings.seedCommand) {
            // Then data, which may need the head's schema.
            (0,phases/* mark */.Gy)('seed-command');
            await (0,pg_sessions/* endSessions */.vG)(); // a migration tool may need the database to itself
            // One report a run: migrate-command's cost when it ran; else seed-command's.
            const measure = !settings.migrateCommand && holdsData(report, seed !== null);
            const running = core/* group */.Os('Run seed-command', () => (0,cancel/* unlessCancelled */.MS)(runSeedCommand(settings.seedCommand, connection, (0,cancel/* cancelSignal */.Bj)(), measure)));
            tracker.commandStarted(); // its process runs (spawned synchronously unless measured): build "before" meanwhile
            const measured = await running;
            if (measured)
                report.migrationCost = { command: 'seed-command', lines: measured.lines, file: measured.file };
        }
        if (!settings.compareSchema)
            return null;
        (0,phases/* mark */.Gy)('schema diff');
        return await core/* group */.Os('Compare the schema', () => (0,cancel/* unlessCancelled */.MS)(tracker.finish(platformDiff)));
    }
    catch (err) {
        await tracker.close();
        // A cancel leaves the undo to the cancel's own steps (cancel.ts), which run after this flow stopped.
        if (!(0,cancel/* isCancelled */.mm)()) {
            await (0,pg_sessions/* endSessions */.vG)(); // nothing of ours stays connected to what the undo deletes
            await undo();
        }
        throw err;
    }
}

// EXTERNAL MODULE: ./src/platform/masking-rules.ts
var masking_rules = __webpack_require__(4077);
;// CONCATENATED MODULE: ./src/seed/fingerprint.ts
/**
 * The seed's fingerprint: what a reused database was seeded from, recorded
 * in the PR comment's marker, so a run can tell that the seed changed and
 * rebuild (`reseed: on-change`).
 *
 * It is a sha256 over, in this order:
 * - the bytes of every seed file, in load order: the files resolved from
 *   `seed`, then the files the seed's check pass found it reads besides
 *   (`\i`/`\ir` includes and `\copy … from` files, in the order met, each
 *   once). A file whose name depends on a `\gset` value is not known before
 *   the load, so it is not part of it;
 * - the `seed-command` text;
 * - `schema-only`;
 * - the masking rules (their fields in a fixed order).
 * Every part is framed by its kind and length, so no two different inputs
 * hash the same bytes. File names are not part of it: moving or renaming a
 * file without changing its bytes or order does not rebuild.
 *
 * A new or rebuilt database runs the seed files, then `migrate-command`, then
 * `seed-command` (schema before data). `migrate-command` is not part of the
 * fingerprint: it runs on every push, so a reused database gets the PR's new
 * migrations without a rebuild; a rebuild (a changed seed file or
 * `seed-command`) runs the migrations again before `seed-command`.
 */


/** The fingerprint's format: `sha256:` and 64 lowercase hex digits. */
const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;
/** Adds one framed part: its kind, its length in bytes, its bytes. */
function part(hash, kind, bytes) {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    hash.update(`${kind}\0${data.length}\0`);
    hash.update(data);
}
/** Adds a file's bytes, streamed (a seed may be a dump of hundreds of MB), framed like {@link part}. */
async function filePart(hash, file) {
    // The frame's length comes first, so the bytes go through a hash of their own, and that is framed.
    const inner = (0,external_node_crypto_.createHash)('sha256');
    let length = 0;
    try {
        for await (const chunk of (0,external_node_fs_.createReadStream)(file)) {
            inner.update(chunk);
            length += chunk.length;
        }
    }
    catch (err) {
        // a `\copy` file in an `\if` branch that does not run may not exist; what is not there is part of the seed too
        if (err.code !== 'ENOENT')
            throw err;
        return part(hash, 'no-file', '');
    }
    part(hash, 'file', Buffer.concat([Buffer.from(`${length}\0`), inner.digest()]));
}
/** A masking rule's fields in one fixed order (the input's key order does not matter). */
const ruleText = (r) => JSON.stringify([r.database ?? null, r.schema, r.table, r.column, r.function ?? null, r.value ?? null]);
/**
 * The fingerprint of `inputs`.
 * @returns `sha256:<64 hex digits>` ({@link FINGERPRINT})
 * @throws Error when a file cannot be read (EACCES, EISDIR; a missing file counts as one with no bytes, framed apart)
 */
async function seedFingerprint(inputs) {
    const hash = (0,external_node_crypto_.createHash)('sha256');
    hash.update('preview-postgres seed fingerprint 1\0');
    for (const file of [...new Set(inputs.files)])
        await filePart(hash, file);
    part(hash, 'seed-command', inputs.seedCommand);
    part(hash, 'schema-only', String(inputs.schemaOnly));
    for (const rule of inputs.maskingRules)
        part(hash, 'masking-rule', ruleText(rule));
    return `sha256:${hash.digest('hex')}`;
}

;// CONCATENATED MODULE: ./src/commands/reseed.ts


/**
 * The fingerprint of this run's seed, started once the seed's check is
 * (create and reset; '' for other commands): the files resolved from `seed`
 * and those the check pass found they read, `seed-command`, `schema-only`,
 * `masking-rules` (not `migrate-command`, which runs on every push; a rebuild
 * runs it again between the seed files and `seed-command`). Reading the files
 * needs no network, so it runs while the PR comment's lock is taken.
 * @returns a promise that rejects like the check, or when a seed file cannot be read
 */
function seedFingerprintOf(settings, files, checking) {
    if (settings.command !== 'create' && settings.command !== 'reset')
        return Promise.resolve('');
    const hashing = checking.then((plan) => seedFingerprint({
        files: [...files, ...(plan?.readFiles ?? [])],
        seedCommand: settings.seedCommand,
        schemaOnly: settings.schemaOnly,
        maskingRules: settings.maskingRules
    }));
    hashing.catch(() => undefined); // awaited later; not an unhandled rejection meanwhile
    return hashing;
}
/**
 * Why the reused database must be rebuilt, or null: only with `reseed:
 * on-change`, and only when the record of that database holds a fingerprint
 * and it differs (a record of a version without fingerprints rebuilds nothing).
 * @param record what the comment records for the database being reused
 */
function rebuildReason(settings, record, fingerprint) {
    if (settings.reseed === 'never' || !record?.fingerprint || record.fingerprint === fingerprint)
        return null;
    return 'the seed changed since this database was seeded (a seed file, `seed-command`, `schema-only` or `masking-rules`; `reseed: on-change`)';
}
/**
 * The fingerprint to record for a database this run reused without rebuilding:
 * what it was seeded from (the recorded one, which `reseed: never` keeps), or
 * this run's when none was recorded.
 */
function keptFingerprint(record, fingerprint) {
    return record?.fingerprint ?? fingerprint;
}
/**
 * The fingerprint of this run's seed under the masking rules a reused
 * anonymized branch was made with (`rules`, Neon's), for a run that gave
 * none: what the record is compared with, and what a rebuild under those
 * rules records. Neon gives each rule its database, which the input may have
 * left out, so both forms are hashed; the one the record holds wins, else
 * the form with the database.
 */
async function fingerprintUnderRules(fingerprintWith, rules, record) {
    const prints = await Promise.all([true, false].map((withDatabase) => fingerprintWith((0,masking_rules/* fromPlatformRules */.J6)(rules, withDatabase))));
    return prints.find((p) => p === record?.fingerprint) ?? prints[0];
}

;// CONCATENATED MODULE: ./src/commands/create.ts
/**
 * `command: create`, in both modes: provision (or reuse) through the mode's
 * driver; rebuild a reused database whose seed changed (`reseed`); seed what
 * was created or rebuilt and run `migrate-command` (undoing it when either
 * fails), or run `migrate-command` on a reused database; then publish:
 * masked outputs, the env file, the PR comment and the job summary.
 */











/**
 * Runs `command: create` with `driver`. Nothing is handed out (outputs, env
 * file, comment record) before the seed committed and `migrate-command` succeeded.
 * @param fingerprint this run's seed (commands/reseed.ts), recorded in the comment's marker
 * @param fingerprintWith this run's seed under other masking rules: a reused anonymized branch that this run gave no
 *   `masking-rules` is judged (and recorded) under the rules it was made with
 * @returns what was published: the report and the comment's record
 * @throws what the driver, the seed, `migrate-command` or publishing throws; CancelledError when the run is cancelled
 */
async function create(settings, seed, pub, driver, fingerprint, fingerprintWith) {
    // started by main.ts; loaded before any 423 retry or poll can be due (branch mode; instant mode loads nothing here)
    if (settings.mode === 'branch' && settings.compareSchema)
        (0,phases/* mark */.Gy)('schema tools (the rest)');
    await preloadSchemaTools(settings.mode, { ...settings, seedCommand: settings.seedCommand || settings.migrateCommand });
    (0,phases/* mark */.Gy)('provisioning');
    let db = await driver.provision();
    if (db.madeWithRules && fingerprintWith)
        fingerprint = await fingerprintUnderRules(fingerprintWith, db.madeWithRules, db.previous);
    const rebuiltBecause = db.created ? null : rebuildReason(settings, db.previous, fingerprint);
    if (rebuiltBecause) {
        core/* info */.pq(`Rebuilding: ${rebuiltBecause}.`);
        db = await db.rebuild();
        db.report.rebuiltBecause = rebuiltBecause;
    }
    const fresh = db.created || !!db.rebuilt;
    if (fresh)
        forgetReusable(pub, settings.mode);
    maskConnection(db.connection);
    const { connection, report } = db;
    const recorded = { fingerprint: fresh ? fingerprint : keptFingerprint(db.previous, fingerprint) };
    let diff = null;
    let total;
    if (fresh) {
        const undo = async () => {
            await db.undoUnseeded();
            await publish(pub, { ...report, state: 'seed-failed' }, { mode: settings.mode });
        };
        diff = await seedOrUndo(settings, seed, connection, report, undo, db.platformDiff);
        await db.markSeeded();
    }
    else if (settings.migrateCommand) {
        const migrated = await migrateOrKeep(settings, connection, db.platformDiff, async (failure) => publish(pub, { ...report, state: 'migrate-failed', migrateFailure: failure }, { ...db.record(), ...recorded }));
        ({ diff, total } = migrated);
        if (migrated.measured)
            report.migrationCost = { command: 'migrate-command', lines: migrated.measured.lines, file: migrated.measured.file };
    }
    (0,cancel/* throwIfCancelled */.dZ)();
    const schema = schemaResult(settings, diff, fresh || !!settings.migrateCommand);
    report.schema = withMadeBy(settings, schema.report, fresh, total);
    (0,phases/* mark */.Gy)('outputs');
    setOutputs({
        ...db.outputs(),
        created: db.created,
        connection,
        schema: schema.outputs,
        reseeded: !!rebuiltBecause,
        migrationReport: report.migrationCost?.file
    });
    if (settings.envFile) {
        await (0,env_file/* writeEnvFile */.Jk)(settings.envFile, { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl, ...db.env }, settings.envNames);
        const v = (0,env_file/* envVariables */.tU)(settings.envNames);
        const names = db.envVariables === 'with-claim' ? `${v.url}, ${v.direct} and ${v.claim}` : `${v.url} and ${v.direct}`;
        core/* info */.pq(`Wrote ${names} to ${settings.envFile}.`);
    }
    const wired = await wirePreview(settings, pub.pr, connection); // beside the database's links in the comment
    if (wired)
        report.vercel = wired.report;
    const record = { ...db.record(), ...recorded };
    await publish(pub, report, record);
    failWiring(wired); // the database is kept: the step fails after publishing it
    return { report, record };
}

;// CONCATENATED MODULE: ./src/commands/delete.ts
/**
 * `command: delete`, in both modes: the mode's driver deletes the PR's
 * database (or, for an instant database, reports when it lapses), and the
 * PR comment and job summary say so.
 */



/**
 * Runs `command: delete` with `driver`; once published, sets the usage outputs of the deleted branch (action.yml).
 * @throws what the driver or publishing throws
 */
async function deletePreview(pub, driver) {
    const deleted = await driver.delete();
    if (deleted && (pub.existing || !deleted.onlyOverEarlierComment))
        await publish(pub, deleted.report, deleted.record);
    // what the deleted branch used, as its last read showed it (branch mode); none when Neon gave no counter
    if (deleted?.report.usage)
        for (const [name, value] of Object.entries(usageOutputs(deleted.report.usage)))
            core/* setOutput */.uH(name, value);
}

// EXTERNAL MODULE: ./src/platform/preview-branch.ts
var preview_branch = __webpack_require__(5272);
;// CONCATENATED MODULE: ./src/platform/branch-connection.ts
/**
 * The connection strings of a branch (Neon API spec: connection_uris of a
 * create-branch answer; `GET …/connection_uri` with `pooled` for an existing
 * branch): pooled and direct, for the `database`/`role` inputs.
 */


/** The pooled form of a direct URL: the pooler host when given, else `-pooler` added to the first label. */
function pooledOf(directUrl, poolerHost) {
    return (0,src_connection/* replaceHost */.Lt)(directUrl, (host) => poolerHost || host.replace(/^([^.]+)/, '$1-pooler'));
}
/** Chooses the connection URI of the `database`/`role` inputs, or the only one. */
function chooseUri(uris, database, role) {
    const matching = uris.filter((u) => (!database || u.connection_parameters.database === database) && (!role || u.connection_parameters.role === role));
    return matching.length === 1 || (matching.length > 1 && (database || role)) ? matching[0] : undefined;
}
/** Connection strings of an existing branch, from the connection-URI endpoint (pooled and direct). */
async function connectionOf(client, branch, o) {
    const endpoints = await client.listEndpoints(branch.id);
    if (!endpoints.some((e) => e.type === 'read_write')) {
        throw new preview_branch/* BranchRefusedError */.PK(`Branch "${branch.name}" has no read-write compute; delete it or set \`reuse: false\`.`);
    }
    let { database, role } = o;
    if (!database || !role) {
        const dbs = await client.listDatabases(branch.id);
        const db = database ? dbs.find((d) => d.name === database) : dbs.length === 1 ? dbs[0] : undefined;
        if (!db) {
            throw new preview_branch/* BranchRefusedError */.PK(database
                ? `Branch "${branch.name}" has no database "${database}" (input \`database\`); it has: ${dbs.map((d) => d.name).join(', ') || 'none'}.`
                : `Branch "${branch.name}" has ${dbs.length} databases (${dbs.map((d) => d.name).join(', ')}); set \`database\` to choose one.`);
        }
        database = db.name;
        role ||= db.owner_name;
    }
    const [pooledUrl, directUrl] = await Promise.all([
        client.connectionUri(branch.id, database, role, true),
        client.connectionUri(branch.id, database, role, false)
    ]);
    return { pooledUrl, directUrl };
}

// EXTERNAL MODULE: ./src/platform/api-errors.ts
var api_errors = __webpack_require__(7243);
// EXTERNAL MODULE: ./src/platform/poll-schedule.ts
var poll_schedule = __webpack_require__(5758);
;// CONCATENATED MODULE: ./src/platform/compute-wait.ts
/**
 * Waiting out Neon's limit on active computes of a project (20 on most
 * plans; "active endpoints limit exceeded"), which passes by itself as
 * computes suspend after `suspend-timeout`.
 */


/** The first wait's ceiling before sending a refused create again, in milliseconds: a create is a costlier request than a poll. */
const FIRST_RETRY_MS = 1000;
/**
 * At Neon's limit on active computes ("active endpoints limit exceeded"),
 * which passes as computes suspend: sends the create again on the schedule
 * of every operation wait (poll-schedule.ts), its first wait at most 1 s and
 * at least half that, the waits growing to the poll interval (at least 1 s),
 * until it is accepted or `wait-timeout` has passed.
 * Nothing was made while it is refused.
 * @throws the limit's error, saying how long it waited, at the timeout; any other error at once.
 */
async function waitForComputeSlot(first, create, o) {
    const started = Date.now();
    const schedule = (0,poll_schedule/* pollSchedule */.dI)(Math.max(o.pollIntervalSeconds, 1), { firstMs: FIRST_RETRY_MS });
    core/* info */.pq(`Neon's limit on active computes of the project is reached ("${first.serviceMessage ?? ''}"): waiting up to ${o.waitTimeoutSeconds} s (wait-timeout) for a compute to suspend.`);
    for (;;) {
        const left = started + o.waitTimeoutSeconds * 1000 - Date.now();
        if (left <= 0)
            throw first.withFigures(`Waited ${Math.round((Date.now() - started) / 1000)} s (\`wait-timeout\`) for a compute to suspend; none did.`);
        await (0,poll_schedule/* sleepNext */.r3)(schedule, left);
        try {
            const made = await create();
            core/* info */.pq(`A compute slot came free after ${Math.round((Date.now() - started) / 1000)} s.`);
            return made;
        }
        catch (err) {
            if (err.limit !== 'computes')
                throw err;
        }
    }
}

;// CONCATENATED MODULE: ./src/platform/create-unseeded.ts
/**
 * The create of a preview's unseeded branch, and what a run does when the create's answer is lost: the
 * lookup by name that tells whether Neon made it anyway (platform/lifecycle.ts uses it).
 */






/**
 * A create whose answer does not say what happened: a timeout, a reset, a
 * 5xx (after the 503 retries), or a 2xx we could not read. The platform may
 * have made the branch.
 */
function unanswered(err) {
    return (err instanceof platform_client/* PlatformResponseError */.Jy ||
        (err instanceof http/* HttpError */.j$ && (err.status === 0 || err.status >= 500 || (err.status >= 200 && err.status < 300))));
}
/**
 * Creates the unseeded branch. After an unanswered create (its answer
 * lost to a timeout or a reset, or a 5xx) looks the name up: a branch the
 * platform made anyway is adopted with the operations still pending on it,
 * so this run finishes the job (wait, seed, rename) or deletes it; one that carries another run's claim
 * (annotations.ts, `RUN_CLAIM`) is that run's, reported as Neon's HTTP 409 for a taken name.
 * @returns the branch, its pending operations, its connection URIs and when the answered create was sent
 *   (milliseconds since the epoch; the operations' wait counts from it) if the create answered.
 */
async function createUnseeded(client, parent, name, extras, anonymized) {
    const since = new Date(Date.now() - 60_000).toISOString();
    try {
        let sentAt = Date.now();
        const create = () => {
            sentAt = Date.now();
            return anonymized ? anonymized.create(parent, name, extras) : client.createBranch(parent.id, name, extras);
        };
        const created = await (0,retry_423/* retryLocked */.rU)(`Create branch "${name}"`, create);
        return { branch: created.branch, operations: created.operations, uris: created.connection_uris, sentAt };
    }
    catch (err) {
        if (!unanswered(err))
            throw err;
        core/* warning */.$e(`${err.message} Looking the branch up by name, in case Neon made it.`);
        let made;
        try {
            made = (await (0,preview_branch/* findPreviewBranches */.wE)(client, name.slice(0, -preview_branch/* UNSEEDED_SUFFIX */.Q2.length))).unseeded;
        }
        catch (e) {
            throw new Error(`${err.message} The lookup that would tell whether the branch was made failed too (${e.message}); if branch "${name}" exists, the next run deletes it.`, { cause: e });
        }
        if (!made) {
            if (err instanceof platform_client/* PlatformResponseError */.Jy)
                throw new platform_client/* PlatformResponseError */.Jy(`${err.message} No branch "${name}" was made.`);
            throw new http/* HttpError */.j$(`${err.message} No branch "${name}" was made.`, err.status, err.serviceMessage, err.hint, err.timedOut, undefined, err.requestId);
        }
        const claim = extras?.annotation_value?.[platform_annotations/* ANNOTATION */.YX.claim];
        const found = claim ? await client.branchWithAnnotations(made.id) : null;
        if (found && found.annotations[platform_annotations/* ANNOTATION */.YX.claim] !== claim)
            // another run holds the name (runs without a PR share it, shared-preview.ts): the caller handles it as Neon's 409
            throw new http/* HttpError */.j$(`Branch "${name}" (${made.id}) was made by another run, not by this run's lost create.`, 409);
        core/* info */.pq(`Neon made branch "${name}" (${made.id}) although its answer was lost: finishing the job on it.`);
        return { branch: made, operations: await client.pendingOperationsOf(made.id, since), uris: [] };
    }
}

// EXTERNAL MODULE: ./src/platform/branch-wait.ts
var branch_wait = __webpack_require__(1441);
;// CONCATENATED MODULE: ./src/platform/shared-preview.ts
/**
 * Previews that runs without a pull request share (a git branch's: two pushes a few seconds apart start two
 * runs, and no PR comment lock serialises them; docs/lifecycle.md, "Where runs come from").
 *
 * The lock is the unseeded name itself. Neon refuses a second branch under a name a branch of the project
 * already has (HTTP 409: platform spec, createProjectBranch and updateProjectBranch), so one run at a time holds
 * `<name>~seeding`, from its create until its rename to `<name>` after the seed committed. Another run that
 * finds it, or meets the 409, waits here until the name is free again: renamed (the seeded preview, reused) or
 * deleted (the holder failed; its undo steps or post step delete it), then goes on. Safe under lost answers: after
 * a lost create answer the lookup by name finds the branch, this run's only when it carries this run's claim
 * (create-unseeded.ts, annotations.ts), else another run's, met as a 409; a lost rename answer is settled by the
 * next lookup; a waiting run changes nothing until the name is free. Safe under kills: a cancelled or failed holder's post step
 * deletes its branch; one whose runner died leaves it, and it is deleted as abandoned once
 * {@link ABANDONED_AFTER_SECONDS} passed since it last changed (no job of GitHub's runs longer).
 *
 * The git branch a preview was made for is recorded in its annotations (annotations.ts); reuse and delete check
 * it, so a preview is never handed to, or deleted for, another git branch whose name maps to the same one.
 */




/** Seconds after its last change when an unseeded branch is abandoned: GitHub's default job limit, `timeout-minutes: 360`. */
const ABANDONED_AFTER_SECONDS = 6 * 3600;
/** Milliseconds since the epoch when `branch` last changed (its rename to the unseeded name, else its create). */
const changedAt = (branch) => Math.max(Date.parse(branch.created_at) || 0, Date.parse(branch.updated_at ?? '') || 0);
/**
 * Waits while another run holds `<name>~seeding` (see the module comment), polling the lookup every
 * `pollIntervalSeconds`, at most `waitTimeoutSeconds`.
 * @returns the preview's branches once the unseeded name is free, or held by a branch abandoned
 *   ({@link ABANDONED_AFTER_SECONDS}), which the caller deletes.
 * @throws BranchRefusedError when the other run still holds it at the deadline; HttpError.
 */
async function awaitOtherSeed(client, name, found, o) {
    const deadline = Date.now() + o.waitTimeoutSeconds * 1000;
    let logged = false;
    while (found.unseeded && Date.now() - changedAt(found.unseeded) < ABANDONED_AFTER_SECONDS * 1000) {
        const held = found.unseeded;
        if (Date.now() >= deadline)
            throw new preview_branch/* BranchRefusedError */.PK(`Branch "${held.name}" (${held.id}) is still being seeded by another run of this preview after ${o.waitTimeoutSeconds} s (\`wait-timeout\`). ` +
                `Re-run this job once that run has finished. A branch whose run was killed is deleted by the next run ${ABANDONED_AFTER_SECONDS / 3600} h after it last changed, or delete it by hand.`);
        if (!logged)
            core/* info */.pq(`Branch "${held.name}" (${held.id}) is being seeded by another run of this preview: waiting until it is seeded (then reused) or removed, polling every ${o.pollIntervalSeconds} s.`);
        logged = true;
        await (0,http/* sleep */.yy)(Math.min(o.pollIntervalSeconds * 1000, Math.max(0, deadline - Date.now())));
        found = await (0,preview_branch/* findPreviewBranches */.wE)(client, name);
    }
    return found;
}
/**
 * The check of a git branch's preview before a run reuses or deletes it: why `branch` must not be taken as
 * git branch `gitBranch`'s, or null when it may (its annotations record that git branch).
 * @throws HttpError from the read of its annotations.
 */
function recordedGitBranchCheck(client, gitBranch) {
    return async (branch) => {
        const found = await client.branchWithAnnotations(branch.id);
        if (!found)
            return null; // gone: nothing to reuse or delete
        const owner = (0,platform_annotations/* ownerOf */.bf)(found.annotations);
        if (owner?.kind === 'git-branch' && owner.gitBranch === gitBranch)
            return null;
        const whose = !owner
            ? 'it was not made by this action'
            : owner.kind === 'git-branch'
                ? `it is the preview of git branch "${owner.gitBranch ?? ''}"`
                : owner.pr
                    ? `it is the preview of pull request #${owner.pr}`
                    : "it is not a git branch's preview";
        return (`Branch "${branch.name}" (${branch.id}) has the name of git branch "${gitBranch}"'s preview, but ${whose}: it is left as it is. ` +
            'Set `branch-name` to give this git branch a preview of its own name.');
    };
}

// EXTERNAL MODULE: ./src/post-state.ts
var post_state = __webpack_require__(8653);
;// CONCATENATED MODULE: ./src/platform/lifecycle.ts
/**
 * Branch mode's lifecycle: find or create the PR's branch, wait for the
 * operations each request started, pick its connection strings, and delete
 * it again (on `reuse: false`, or after a failed seed; the delete and the waits
 * it shares with the other commands are in branch-delete.ts and branch-wait.ts).
 *
 * Proof of a completed seed lives on the branch itself, in its name: a run
 * creates the branch under an unseeded name (`<name>~seeding`) and renames
 * it to `<name>` (platform spec, updateProjectBranch) only once it is seeded.
 * So a branch found under the PR's name was seeded, and one found under the
 * unseeded name (a run that was cancelled, crashed, or lost the create's
 * answer) is never reused: it is deleted and made again, after waiting for
 * the operations still running on it. Annotations would not do: the spec
 * sets them only on create.
 *
 * The rule holds for every command that changes a branch under the
 * PR's name. `command: reset` first takes the branch back to the unseeded
 * name ({@link markUnseeded}) and gives it the PR's name again only after
 * its seed ({@link markSeeded}); the post step deletes a branch only while it
 * still has the id and unseeded name this run left it with.
 */















/**
 * Reuses `branch` after waiting for any operation still running on it (for
 * example another run's create); an archived branch's unarchive is waited out
 * as its own phase of the run's trace ('unarchive').
 */
async function reuse(client, branch, o) {
    (0,branch_wait/* logArchived */.Jl)(branch);
    const back = branch.current_state === 'archived' ? (0,phases/* mark */.Gy)('unarchive') : () => undefined;
    const operations = await (0,branch_wait/* waitForPendingOf */.fS)(client, branch, o).finally(back);
    core/* info */.pq(`Reusing branch "${branch.name}" (${branch.id}).`);
    return { branch, created: false, operations, ...(await connectionOf(client, branch, o)) };
}
/** How long a failed run waits for its new branch's operations before deleting the branch, seconds. */
const CLEANUP_WAIT_SECONDS = 30;
/** Time kept for the DELETE (with its 423 retries) after waiting for the operations, when undoing a cancel, in milliseconds. */
const CANCEL_DELETE_RESERVE_MS = 1000;
/**
 * Registers the cancel's undo step for `branch`, which this run holds under
 * its unseeded name: wait for `pending` (its operations hold the project,
 * a DELETE meets 423 until they end) until shortly before the cancel's
 * deadline (cancel.ts), polling every 0.2 s, then delete it with the 423
 * retry, and clear the post step's state.
 */
function undoOnCancel(client, branch, pending, o) {
    (0,cancel/* onCancel */.Ao)(cancel/* UNSEEDED_BRANCH */.dV, async (deadline) => {
        const waitSeconds = Math.max(0.1, (deadline - CANCEL_DELETE_RESERVE_MS - Date.now()) / 1000);
        await (0,platform_operations/* waitForOperations */.ft)(pending, {
            ...(0,branch_wait/* waitOptions */.Sn)(client, o),
            pollIntervalSeconds: 0.2,
            waitTimeoutSeconds: waitSeconds
        }).catch(() => undefined);
        await (0,retry_423/* retryLocked */.rU)(`Delete branch "${branch.name}"`, () => client.deleteBranch(branch.id));
        (0,post_state/* clearUnseeded */.nH)();
    });
}
/** Throws the reason a found branch is not this preview's ({@link BranchOptions.foreignBecause}), before anything changes it. */
async function refuseForeign(found, o) {
    for (const branch of [found.seeded, found.unseeded]) {
        const why = branch && o.foreignBecause ? await o.foreignBecause(branch) : null;
        if (why)
            throw new preview_branch/* BranchRefusedError */.PK(why);
    }
}
/**
 * Finds the PR's seeded branch and reuses it, or creates it under its
 * unseeded name from the parent with a read-write compute and waits for
 * the operations the create started. An unseeded branch found (a run whose
 * seed did not complete) is deleted first, unless `sharedName` says another run may
 * still be seeding it (then it is waited out); `reuse: false` deletes the seeded
 * one too. A newly created branch must be passed to {@link markSeeded} once seeded.
 * @param attempt 1, or the count of looks after creates refused with 409 under `sharedName`
 * @throws BranchRefusedError, ProjectBusyError, OperationError, HttpError.
 */
async function provisionBranch(client, o, attempt = 1) {
    const first = await (0,preview_branch/* findPreviewAndParent */.Nj)(client, o.branchName, o.parentBranch);
    const parent = first.parent;
    const found = o.sharedName ? await awaitOtherSeed(client, o.branchName, first.found, o) : first.found;
    await refuseForeign(found, o);
    if (found.unseeded) {
        core/* warning */.$e(`Branch "${found.unseeded.name}" (${found.unseeded.id}) was left by a run whose seed did not complete: deleting it and starting again.`);
        // A cancelled run's compute start may still run on it; a DELETE before it ends meets 423.
        await (0,branch_wait/* waitForPendingOf */.fS)(client, found.unseeded, o);
        await (0,branch_delete/* deleteBranchAndWait */.C)(client, found.unseeded, o);
    }
    const existing = found.seeded;
    if (existing) {
        (0,preview_branch/* refuseProtected */.fZ)(existing, o.reuse ? 'reuse' : 'delete and recreate');
        // An anonymized branch is reused only when masked, under the same rules
        const unreusable = o.reuse && o.anonymized ? await o.anonymized.unreusable(existing, parent) : null;
        if (o.reuse && !unreusable)
            return { ...(await reuse(client, existing, o)), parent };
        if (unreusable)
            core/* warning */.$e(`Not reusing branch "${existing.name}" (${existing.id}): ${unreusable}. Deleting it to create it again.`);
        else
            core/* info */.pq(`reuse is false: deleting branch "${existing.name}" (${existing.id}) to recreate it.`);
        await (0,branch_delete/* deleteBranchAndWait */.C)(client, existing, o);
    }
    const unseeded = (0,preview_branch/* unseededName */.lu)(o.branchName);
    let created;
    try {
        const extras = o.completeExtras ? await o.completeExtras(o.branchCreateExtras) : o.branchCreateExtras;
        const create = () => createUnseeded(client, parent, unseeded, extras, o.anonymized);
        created = await create().catch(async (err) => {
            if (err instanceof api_errors/* NeonLimitError */.w && err.limit === 'computes')
                return await waitForComputeSlot(err, create, o);
            if (!(err instanceof api_errors/* NeonLimitError */.w && err.limit === 'branches' && o.atBranchLimit))
                throw err;
            // Room made (or the hook throws the limit with its figures): create again, once.
            await o.atBranchLimit(err);
            return await create();
        });
    }
    catch (err) {
        if (err instanceof http/* HttpError */.j$ && err.status === 409) {
            // another run holds the unseeded name: wait until it is free, then look again (at most three times)
            if (o.sharedName && attempt < 3) {
                await awaitOtherSeed(client, o.branchName, await (0,preview_branch/* findPreviewBranches */.wE)(client, o.branchName), o);
                return await provisionBranch(client, o, attempt + 1);
            }
            const now = await (0,preview_branch/* findPreviewBranches */.wE)(client, o.branchName);
            if (now.seeded && o.reuse && !(o.anonymized && (await o.anonymized.unreusable(now.seeded, parent)))) {
                core/* info */.pq(`Branch "${o.branchName}" was created and seeded by another run first (HTTP 409); reusing it.`);
                return { ...(await reuse(client, now.seeded, o)), parent };
            }
            throw new preview_branch/* BranchRefusedError */.PK(`Branch "${unseeded}" already exists: another run of this PR is creating and seeding "${o.branchName}" right now. ` +
                'Re-run this job once it has finished; a branch it leaves unseeded is deleted then.');
        }
        if (err instanceof http/* HttpError */.j$ && err.status === 404) {
            throw new http/* HttpError */.j$(`${err.message} Check \`project-id\` and \`parent-branch\` ("${parent.name}", ${parent.id}).`, 404, err.serviceMessage);
        }
        throw err;
    }
    // From here until it is seeded, a cancelled run deletes the branch (the create flow keeps this step through seeding).
    const { branch } = created;
    const pending = created.operations;
    (0,post_state/* saveUnseeded */.Tu)(branch); // the post step deletes it if this run ends before it is seeded
    undoOnCancel(client, branch, pending, o);
    core/* info */.pq(`Created branch "${branch.name}" (${branch.id}) from "${parent.name}"; waiting for ${pending.length} operation(s).`);
    try {
        const waitStart = Date.now();
        const operations = await (0,platform_operations/* waitForOperations */.ft)(pending, { ...(0,branch_wait/* waitOptions */.Sn)(client, o), since: created.sentAt });
        // Nothing is handed out before masking finished; `wait-timeout` covers both waits
        if (o.anonymized)
            await o.anonymized.waitUntilMasked(branch, waitStart + o.waitTimeoutSeconds * 1000);
        const uri = chooseUri(created.uris, o.database, o.role);
        const connection = uri
            ? { directUrl: uri.connection_uri, pooledUrl: pooledOf(uri.connection_uri, uri.connection_parameters.pooler_host) }
            : await connectionOf(client, branch, o);
        return { branch, parent, created: true, operations, ...connection };
    }
    catch (err) {
        if ((0,cancel/* isCancelled */.mm)())
            throw err; // the cancel's undo step deletes the branch, after this flow stopped
        (0,cancel/* offCancel */.qC)(cancel/* UNSEEDED_BRANCH */.dV);
        // A branch whose creation did not finish (or whose connection could not be read) must not be left behind.
        core/* warning */.$e(`Deleting branch "${branch.name}" again: ${err.message}`);
        // Its own operations hold the project (a DELETE meets 423 until they end, Neon operations guide): give them a bounded while more.
        await (0,platform_operations/* waitForOperations */.ft)(pending, {
            ...(0,branch_wait/* waitOptions */.Sn)(client, o),
            pollIntervalSeconds: Math.min(o.pollIntervalSeconds, 1),
            waitTimeoutSeconds: CLEANUP_WAIT_SECONDS
        }).catch(() => undefined);
        await (0,branch_delete/* deleteBranchAndWait */.C)(client, branch, o).then(post_state/* clearUnseeded */.nH, (e) => core/* warning */.$e(`Could not delete branch "${branch.name}" (${branch.id}): ${e.message} The next run deletes it (its name says its seed did not complete), or delete it by hand.`));
        throw err;
    }
}
/**
 * Takes the seeded branch `branch` out of reuse before a command changes it
 * (`command: reset`): saves the post step's state first (so a kill
 * or a lost answer from here on is undone by the post step, which deletes
 * the branch only while it still has the unseeded name), then renames it
 * to `<name>~seeding` (PATCH, 423 retried, its operations waited on), and
 * registers the cancel's undo step. From then on no run reuses it, and the
 * next run deletes it if this one does not finish; {@link markSeeded} gives
 * the name back after the seed.
 * @returns the branch under its unseeded name.
 * @throws HttpError, ProjectBusyError, OperationError (the branch may then carry either name; both cases are handled as above).
 */
async function markUnseeded(client, branch, o) {
    const unseeded = (0,preview_branch/* unseededName */.lu)(branch.name);
    (0,post_state/* saveUnseeded */.Tu)({ id: branch.id, name: unseeded });
    const renamed = await (0,retry_423/* retryLocked */.rU)(`Rename branch "${branch.name}"`, () => client.renameBranch(branch.id, unseeded));
    undoOnCancel(client, renamed.branch, renamed.operations, o);
    await (0,platform_operations/* waitForOperations */.ft)(renamed.operations, (0,branch_wait/* waitOptions */.Sn)(client, o));
    core/* info */.pq(`Renamed branch "${branch.name}" to "${unseeded}" until it is seeded again: no run reuses it meanwhile.`);
    return renamed.branch;
}
/**
 * Records on the branch that its seed completed: renames the unseeded
 * branch to `name` (PATCH, 423 retried) and waits for any operation the
 * update started. On failure deletes the branch (a later run would delete it
 * anyway) and rethrows.
 * @returns the renamed branch.
 */
async function markSeeded(client, branch, name, o) {
    try {
        const renamed = await (0,retry_423/* retryLocked */.rU)(`Rename branch "${branch.name}"`, () => client.renameBranch(branch.id, name));
        await (0,platform_operations/* waitForOperations */.ft)(renamed.operations, (0,branch_wait/* waitOptions */.Sn)(client, o));
        core/* info */.pq(`Seed complete: renamed branch "${branch.name}" to "${name}", so later runs reuse it.`);
        return renamed.branch;
    }
    catch (err) {
        core/* warning */.$e(`Deleting branch "${branch.name}": it could not be renamed to "${name}" after its seed (${err.message}).`);
        await (0,branch_delete/* deleteBranchAndWait */.C)(client, branch, o).catch((e) => core/* warning */.$e(`Could not delete branch "${branch.name}" (${branch.id}): ${e.message} The next run deletes it.`));
        throw err;
    }
}

// EXTERNAL MODULE: ./src/platform/expiry.ts
var platform_expiry = __webpack_require__(1288);
;// CONCATENATED MODULE: ./src/commands/reset.ts
/**
 * `command: reset`: restores the PR's branch in place from its parent's
 * latest state (platform spec, `POST /projects/{project_id}/branches/{branch_id}/restore`
 * with `source_branch_id` the parent), so the branch id, its compute and the
 * connection strings stay the same; the restore's 423 is retried and its
 * operations waited on. Then `seed`, `migrate-command` and `seed-command` run again (schema before data).
 *
 * A branch under the PR's name is a seeded one (platform/lifecycle.ts),
 * so before the restore the branch leaves that name: it is renamed to
 * `<name>~seeding` (markUnseeded, with the post step's state saved first
 * and the cancel's undo step registered), and renamed back only after the
 * seed (markSeeded). A lost restore answer, a cancel or a kill at any point
 * leaves an unseeded branch, which no run reuses and which the post step,
 * the cancel's undo step or the next run deletes. A failed seed deletes it.
 */




















/** The refusal of a reset of a branch with children (platform spec, BranchRestoreRequest.preserve_under_name). */
function childrenRefusal(name, detail) {
    return new preview_branch/* BranchRefusedError */.PK(`Cannot reset branch "${name}": Neon requires \`preserve_under_name\` to restore it (${detail}), because it has child branches. ` +
        `A reset keeps the branch's id and connection strings, so the action does not move the children aside: delete the child branches of "${name}" ` +
        '(or restore it by hand in the console, keeping its old state under a new name), then run the reset again.');
}
/** The restore refused because the branch has children (a child made after the check). */
function explainRestoreRefusal(err, name) {
    if (!(err instanceof http/* HttpError */.j$) || err.status !== 400 || !/preserve_under_name/i.test(err.serviceMessage ?? ''))
        return err;
    return childrenRefusal(name, `"${err.serviceMessage}"`);
}
/** An answer that says the restore did not happen: a 4xx, or 423 Locked to the last retry (not a lost answer, a timeout or a 5xx). */
const reset_refused = (err) => (err instanceof http/* HttpError */.j$ && err.status >= 400 && err.status < 500) || err instanceof retry_423/* ProjectBusyError */.P;
/**
 * The platform lists `restore` among an anonymized branch's
 * `restricted_actions` (platform spec, Branch.restricted_actions): a reset
 * would bring back the parent's unmasked rows. Refused before any change.
 * @throws BranchRefusedError
 */
function refuseRestricted(branch) {
    const restore = branch.restricted_actions?.find((a) => a.name === 'restore');
    if (!restore)
        return;
    throw new preview_branch/* BranchRefusedError */.PK(`Cannot reset branch "${branch.name}" (${branch.id}): Neon does not allow restoring it ("${restore.reason}"); an anonymized branch cannot be reset. ` +
        'Nothing was changed. Delete it with `command: delete` and create it again with `command: create`, which copies the parent afresh and masks it again.');
}
/**
 * Resets the branch named `name` (or, with `branch-id`, the branch with that id) and seeds it again.
 * @throws BranchRefusedError (no such branch, default or protected, no parent, children), ProjectBusyError, OperationError, HttpError, SeedError.
 */
async function resetBranch(client, settings, name, seed, pub, fingerprint) {
    const branches = await client.listBranches();
    const branch = branches.find((b) => (settings.branchId ? b.id === settings.branchId : b.name === name));
    if (!branch) {
        throw new preview_branch/* BranchRefusedError */.PK(settings.branchId
            ? `Branch ${settings.branchId} (input \`branch-id\`) does not exist in the project, so there is nothing to reset.`
            : `Branch "${name}" does not exist, so there is nothing to reset. Run the action with \`command: create\` first.`);
    }
    (0,preview_branch/* refuseProtected */.fZ)(branch, 'reset', settings.branchId ? 'branch-id' : 'branch-name');
    if (branch.name.endsWith(preview_branch/* UNSEEDED_SUFFIX */.Q2)) {
        throw new preview_branch/* BranchRefusedError */.PK(`Cannot reset branch "${branch.name}" (${branch.id}): its seed never completed. Delete it with \`command: delete\` and create it again.`);
    }
    const branchName = branch.name;
    refuseRestricted(branch);
    const parent = branch.parent_id ? await client.getBranch(branch.parent_id) : null;
    if (!parent) {
        throw new preview_branch/* BranchRefusedError */.PK(`Branch "${branch.name}" has no parent to reset from (${branch.init_source === 'schema-only' ? 'a schema-only branch is a root branch' : 'its parent was deleted'}). ` +
            'Delete it with `command: delete` and create it again instead.');
    }
    const children = branches.filter((b) => b.parent_id === branch.id);
    if (children.length)
        throw childrenRefusal(branch.name, `children: ${children.map((c) => `"${c.name}"`).join(', ')}`);
    (0,branch_wait/* logArchived */.Jl)(branch);
    const { restored, connection, undoUnseeded, markSeededAgain } = await restoreUnseeded(client, settings, branch, parent, branchName);
    maskConnection(connection);
    // The restore moved the branch's updated_at (its last use for max-age); with expires-in the expiry moves too.
    const expiresAt = settings.expiresInSeconds > 0 ? await (0,platform_expiry/* recordUse */.zk)(client, restored.branch, settings) : restored.branch.expires_at;
    const report = {
        mode: 'branch',
        state: 'reset',
        projectId: settings.projectId,
        branchId: branch.id,
        branchName: branch.name,
        parentBranch: parent.name,
        host: connection.directHost,
        operations: restored.operations.map(platform_operations/* summarise */.fS),
        resetAt: restored.branch.last_reset_at ?? new Date().toISOString(),
        expiresAt,
        usage: usageOf(branch) // as the lookup read it, before the restore
    };
    const undo = async () => {
        await undoUnseeded();
        await publish(pub, { ...report, state: 'seed-failed' }, { mode: 'branch' });
    };
    // After the restore the branch is its parent's copy again: the diff is what the seed and the commands change.
    report.schema = schemaResult(settings, await seedOrUndo(settings, seed, connection, report, undo), true).report;
    await markSeededAgain();
    (0,cancel/* throwIfCancelled */.dZ)();
    setOutputs({
        mode: 'branch',
        created: false,
        connection,
        projectId: settings.projectId,
        branchId: branch.id,
        branchName: branch.name,
        expiresAt,
        migrationReport: report.migrationCost?.file,
        usage: report.usage
    });
    if (settings.envFile)
        await (0,env_file/* writeEnvFile */.Jk)(settings.envFile, { databaseUrl: connection.pooledUrl, databaseUrlDirect: connection.directUrl }, settings.envNames);
    core/* info */.pq(`Reset branch "${branch.name}" (${branch.id}): same id and connection strings, seeded again.`);
    const wired = await wirePreview(settings, pub.pr, connection); // the same strings: normally nothing to write or deploy
    if (wired)
        report.vercel = wired.report;
    await publish(pub, report, { mode: 'branch', branchId: branch.id, branchName: branch.name, fingerprint });
    failWiring(wired);
}
/**
 * Restores `branch` in place from `parent`'s latest state, never leaving it
 * reusable unseeded: it leaves the PR's name first (`<name>~seeding`,
 * markUnseeded: the post step's state saved and the cancel's undo step
 * registered), is restored (423 retried, operations waited on; a restore the
 * Neon API refuses gives the name back), and its connection is read. Shared by
 * `command: reset` and the rebuild of a reused branch whose seed changed.
 * @throws HttpError, ProjectBusyError, OperationError, BranchRefusedError (an anonymized branch, whose restore Neon restricts; a restore refused because of child branches)
 */
async function restoreUnseeded(client, settings, branch, parent, branchName) {
    refuseRestricted(branch); // an anonymized branch is never restored from its unmasked parent, whoever asks
    const wait = { ...settings, get: (id) => client.getOperation(id) };
    const unseeded = await core/* group */.Os(`Take branch "${branch.name}" out of reuse until it is seeded again`, () => markUnseeded(client, branch, settings));
    const restored = await core/* group */.Os(`Reset branch "${branch.name}" to the latest state of "${parent.name}"`, async () => {
        let res;
        let since = Date.now();
        try {
            res = await (0,retry_423/* retryLocked */.rU)(`Restore branch "${unseeded.name}"`, () => {
                since = Date.now();
                return client.restoreBranch(branch.id, { source_branch_id: parent.id });
            });
        }
        catch (err) {
            if (reset_refused(err) && !(0,cancel/* isCancelled */.mm)())
                await giveNameBack(client, unseeded, branchName);
            throw explainRestoreRefusal(err, branch.name);
        }
        core/* info */.pq(`Restoring branch "${unseeded.name}" (${branch.id}) from "${parent.name}"; waiting for ${res.operations.length} operation(s).`);
        return { ...res, operations: await (0,platform_operations/* waitForOperations */.ft)(res.operations, { ...wait, since }) };
    });
    const { pooledUrl, directUrl } = await connectionOf(client, branch, settings);
    return {
        unseeded,
        restored,
        connection: (0,src_connection/* describeConnection */.If)(pooledUrl, directUrl),
        async undoUnseeded() {
            (0,cancel/* offCancel */.qC)(cancel/* UNSEEDED_BRANCH */.dV);
            await core/* group */.Os(`Delete the reset branch "${unseeded.name}", whose seed failed`, async () => {
                try {
                    await (0,branch_delete/* deleteBranchAndWait */.C)(client, unseeded, settings);
                    (0,post_state/* clearUnseeded */.nH)();
                    core/* info */.pq(`Deleted branch "${unseeded.name}" so the next run creates "${branch.name}" fresh.`);
                }
                catch (err) {
                    core/* warning */.$e(`Could not delete branch "${unseeded.name}" (${branch.id}): ${err.message} Its name marks it unseeded, so no run reuses it: the next run deletes it.`);
                }
            });
        },
        async markSeededAgain() {
            // Only now does the branch carry the PR's name again, which is what later runs reuse.
            const named = await core/* group */.Os(`Mark branch "${branch.name}" seeded`, () => markSeeded(client, unseeded, branchName, settings));
            (0,cancel/* offCancel */.qC)(cancel/* UNSEEDED_BRANCH */.dV);
            (0,post_state/* clearUnseeded */.nH)();
            return named;
        }
    };
}
/** After a restore the platform refused (it changed nothing), the branch gets the PR's name back; on failure the post step deletes it. */
async function giveNameBack(client, unseeded, name) {
    try {
        await (0,retry_423/* retryLocked */.rU)(`Rename branch "${unseeded.name}"`, () => client.renameBranch(unseeded.id, name));
        (0,cancel/* offCancel */.qC)(cancel/* UNSEEDED_BRANCH */.dV);
        (0,post_state/* clearUnseeded */.nH)();
        core/* info */.pq(`The restore was refused, so branch "${unseeded.name}" is unchanged: renamed it back to "${name}".`);
    }
    catch (err) {
        core/* warning */.$e(`Could not rename branch "${unseeded.name}" back to "${name}" (${err.message}); the post step deletes it, and the next run creates it fresh.`);
    }
}

;// CONCATENATED MODULE: ./src/platform/recorded-ids.ts
/**
 * What a run records in the branch it creates for the sweep (annotations.ts:
 * `preview-postgres/comment-id`, `preview-postgres/deployment-id`): the id
 * of the PR's comment (the lock names it before anything is provisioned)
 * and the id of the run's GitHub deployment (created beside provisioning).
 * Annotations are set on create only (platform spec: AnnotationCreateValueRequest
 * on `POST /projects/{project_id}/branches`; no update), so the create waits
 * for the deployment's id, at most {@link ID_WAIT_MS}; an id not known by
 * then is not recorded and the sweep lists for it instead.
 */

/** Longest wait of a create for the deployment's id, in milliseconds. */
const ID_WAIT_MS = 5000;
let source = () => ({});
/** Sets where the ids this run records come from (main.ts, once the lock is held and the deployment started). */
function recordIdsFrom(from) {
    source = from;
}
/** The ids to record now: the comment's, and the deployment's when known within `waitMs` milliseconds. */
async function recordedIds(waitMs = ID_WAIT_MS) {
    const { commentId, deploymentId } = source();
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
    const deployment = deploymentId ? await Promise.race([deploymentId.catch(() => undefined), late]) : undefined;
    clearTimeout(timer);
    return { ...(commentId ? { commentId } : {}), ...(deployment ? { deploymentId: deployment } : {}) };
}
/**
 * `extras` (branch-create-extras.ts, made for `owner`) with this run's ids
 * added to its annotations, as the create is about to be sent.
 */
async function withRecordedIds(extras, owner) {
    return { ...extras, annotation_value: (0,platform_annotations/* annotationsOf */.Ih)({ ...owner, ...(await recordedIds()) }) };
}

// EXTERNAL MODULE: ./src/platform/shapes.ts
var shapes = __webpack_require__(4773);
;// CONCATENATED MODULE: ./src/platform/anonymized.ts
/**
 * Anonymized preview branches, per the platform's published spec
 * (public-v2-for-users.gen.yaml in `@neondatabase/api-client`, Beta):
 *
 * - create: `POST /projects/{project_id}/branch_anonymized`
 *   (BranchAnonymizedCreateRequest: `branch_create`, `masking_rules`,
 *   `start_anonymization: true`, `annotation_value`), answered 201 CreatedBranch;
 * - wait: `GET …/branches/{branch_id}/anonymized_status`
 *   (AnonymizedBranchStatusResponse.state: created, initialized,
 *   initialization_error, anonymizing, anonymized, error), polled on the
 *   schedule of every operation wait (poll-schedule.ts: soon, then less often
 *   up to `poll-interval`) until `anonymized`, within the one `wait-timeout`;
 * - reuse: `GET …/branches/{branch_id}/masking_rules` (MaskingRulesResponse).
 *
 * The lifecycle (platform/lifecycle.ts) calls these through {@link AnonymizedHooks}
 * and hands nothing out before the wait ended in `anonymized`.
 */





/** Masking ended in `initialization_error` or `error` (the platform's `status_message` quoted), or did not end in time. */
class AnonymizationError extends Error {
}
/** A rule as the report shows it. */
function maskedColumn(r) {
    return { database: r.database_name, schema: r.schema_name, table: r.table_name, column: r.column_name, masking: (0,masking_rules/* maskingLabel */.XQ)(r) };
}
/**
 * The anonymized branch for these settings. Rules without `database` take
 * `database`, else the parent's only database (its copy has the same name).
 */
function anonymizedBranch(client, settings, rules) {
    let resolved = null;
    // The platform's status_message may quote a rule's value (a PostgreSQL error such as `invalid input syntax`): never repeat it.
    const secrets = (0,masking_rules/* ruleSecrets */.cf)(rules).sort((a, b) => b.length - a.length);
    const scrub = (text) => secrets.reduce((t, v) => t.split(v).join('***'), text);
    async function platformRules(parent) {
        if (resolved)
            return resolved;
        let database = settings.database;
        if (!database && rules.some((r) => r.database === undefined)) {
            const dbs = await client.listDatabases(parent.id);
            if (dbs.length !== 1) {
                throw new AnonymizationError(`Parent branch "${parent.name}" has ${dbs.length} databases (${dbs.map((d) => d.name).join(', ')}): set \`database\`, or \`database\` in each rule of \`masking-rules\`.`);
            }
            database = dbs[0].name;
        }
        resolved = (0,masking_rules/* toPlatformRules */.Qy)(rules, database);
        return resolved;
    }
    async function waitUntilMasked(branch, deadline) {
        let last = '';
        const schedule = (0,poll_schedule/* pollSchedule */.dI)(settings.pollIntervalSeconds);
        for (;;) {
            (0,cancel/* throwIfCancelled */.dZ)(); // a cancelled run stops polling; its undo step deletes the branch (cancel.ts)
            const status = await client.anonymizedStatus(branch.id);
            if (!status)
                throw new AnonymizationError(`Branch "${branch.name}" (${branch.id}) has no anonymization status: Neon does not treat it as an anonymized branch.`);
            const message = status.status_message ? scrub(status.status_message) : '';
            const seen = `${status.state}${message ? `: ${message}` : ''}`;
            if (seen !== last)
                core/* info */.pq(`Anonymization of branch "${branch.name}": ${seen}`);
            last = seen;
            if (status.state === 'anonymized')
                return;
            if (status.state === 'initialization_error' || status.state === 'error') {
                throw new AnonymizationError(`Branch "${branch.name}" could not be anonymized: Neon reports state \`${status.state}\`` +
                    `${message ? `: "${message}"` : ' without a message'}. Check \`masking-rules\` (see ${shapes/* ANONYMIZATION_DOCS */.bq}).`);
            }
            const left = deadline - Date.now();
            if (left <= 0) {
                throw new AnonymizationError(`Branch "${branch.name}" was still \`${status.state}\` when \`wait-timeout\` (${settings.waitTimeoutSeconds} s, covering its operations and its masking) ran out; ` +
                    'nothing was handed out. Raise `wait-timeout` for large tables.');
            }
            await (0,poll_schedule/* sleepNext */.r3)(schedule, left);
        }
    }
    return {
        async create(parent, name, extras) {
            return client.createAnonymizedBranch(parent.id, name, await platformRules(parent), extras);
        },
        waitUntilMasked,
        async unreusable(branch, parent) {
            const status = await client.anonymizedStatus(branch.id);
            if (!status)
                return 'it is not an anonymized branch';
            if (status.state !== 'anonymized')
                return `its masking is \`${status.state}\`, not \`anonymized\``;
            const current = await client.maskingRules(branch.id);
            if (!current || !(0,masking_rules/* sameRules */.Gb)(current, await platformRules(parent)))
                return 'its masking rules differ from `masking-rules` (masking the copy again would not undo what was readable before)';
            return null;
        },
        columns() {
            return (resolved ?? (0,masking_rules/* toPlatformRules */.Qy)(rules, settings.database)).map(maskedColumn);
        }
    };
}
/**
 * The masking rules a reused branch was made with, when this run gave no
 * `masking-rules`: what the branch IS, so output `anonymized`, the report and
 * a rebuild keep it masked. Asks Neon only when the branch lists `restore`
 * among its `restricted_actions` (Neon API spec, Branch: an anonymized branch
 * restricts restore), then reads its `anonymized_status` and `masking_rules`.
 * @returns Neon's rules when the branch's state is `anonymized`, else undefined.
 * @throws HttpError, PlatformResponseError from the reads.
 */
async function recordedRulesOf(client, branch) {
    if (!isAnonymized(branch))
        return undefined;
    if ((await client.anonymizedStatus(branch.id))?.state !== 'anonymized')
        return undefined;
    return (await client.maskingRules(branch.id)) ?? undefined;
}
/** Whether Neon restricts `restore` on `branch` (Neon API spec, Branch.restricted_actions): an anonymized branch. */
const isAnonymized = (branch) => !!branch.restricted_actions?.some((a) => a.name === 'restore');
/** The masked columns of `rules` as the report shows them (names and function names, never a value). */
const maskedColumns = (rules) => rules.map(maskedColumn);
/** One line for the log naming `rules` by column and function (never a value or an argument). */
function describeRules(rules) {
    return rules.map((r) => `${r.schema_name}.${r.table_name}.${r.column_name} (${(0,masking_rules/* maskingLabel */.XQ)(r)})`).join(', ');
}

// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(7194);
// EXTERNAL MODULE: ./src/platform/branch-point.ts
var branch_point = __webpack_require__(8888);
;// CONCATENATED MODULE: ./src/platform/branch-create-extras.ts
/**
 * The optional parts of a create-branch request that the lifecycle inputs
 * add (platform spec, `POST /projects/{project_id}/branches`:
 * BranchCreateRequest + AnnotationCreateValueRequest): the branch's
 * `expires_at`, `init_source` and `parent_lsn` or `parent_timestamp`, the new read-write endpoint's
 * `suspend_timeout_seconds` and autoscaling limits, and the annotations that
 * mark the branch as this action's. A field whose input is empty is not sent,
 * so the project's defaults apply.
 */




/**
 * The extras of a create request for these settings, made at `now`
 * (milliseconds since the epoch) for `owner`.
 */
function branchCreateExtras(s, owner, now = Date.now()) {
    const branch = {};
    if (s.expiresInSeconds > 0)
        branch.expires_at = (0,platform_expiry/* expiresAtFrom */.aP)(s.expiresInSeconds, now);
    if (s.schemaOnly)
        branch.init_source = 'schema-only';
    Object.assign(branch, (0,branch_point/* pointFields */.sj)(s.parentPoint));
    const endpoint = {};
    if (s.suspendTimeoutSeconds !== undefined)
        endpoint.suspend_timeout_seconds = s.suspendTimeoutSeconds;
    if (s.minCu !== undefined)
        endpoint.autoscaling_limit_min_cu = s.minCu;
    if (s.maxCu !== undefined)
        endpoint.autoscaling_limit_max_cu = s.maxCu;
    return {
        ...(Object.keys(branch).length ? { branch } : {}),
        ...(Object.keys(endpoint).length ? { endpoint } : {}),
        annotation_value: (0,platform_annotations/* annotationsOf */.Ih)(owner)
    };
}
/**
 * A create refused (400 or 422) over a field an input asked for becomes an
 * error that names the input: `expires-in` (see explainExpiryRefusal),
 * `schema-only`, `suspend-timeout`, `min-cu`/`max-cu`. Others are returned as they are.
 */
function explainCreateRefusal(err, s) {
    const expiry = (0,platform_expiry/* explainExpiryRefusal */.zZ)(err, s.expiresInSeconds);
    if (expiry !== err || !(err instanceof http/* HttpError */.j$) || ![400, 422].includes(err.status))
        return expiry;
    const message = err.serviceMessage ?? '';
    const inputs = [
        [s.schemaOnly, /init_source|schema/i, '`schema-only` (sent as `branch.init_source: schema-only`)'],
        [
            s.parentPoint !== undefined,
            /lsn|timestamp|point|history|retention/i,
            `\`parent-lsn\`/\`parent-timestamp\` (${s.parentPoint ? (0,branch_point/* describePoint */.yR)(s.parentPoint) : ''}; it must lie within the parent's history retention)`
        ],
        [s.suspendTimeoutSeconds !== undefined, /suspend/i, "`suspend-timeout` (sent as the endpoint's `suspend_timeout_seconds`)"],
        [
            s.minCu !== undefined || s.maxCu !== undefined,
            /autoscaling|compute unit|\bcu\b/i,
            "`min-cu`/`max-cu` (sent as the endpoint's `autoscaling_limit_min_cu`/`autoscaling_limit_max_cu`)"
        ]
    ];
    const hit = inputs.find(([given, pattern]) => given && pattern.test(message));
    if (!hit)
        return err;
    return new http/* HttpError */.j$(`Neon refused what input ${hit[2]} asks for (HTTP ${err.status}: "${message}"). Change or remove that input.`, err.status, err.serviceMessage);
}

;// CONCATENATED MODULE: ./src/sweep/make-room.ts
/**
 * At Neon's branch limit (HTTP 422 `BRANCHES_LIMIT_EXCEEDED`): counts the
 * project's branches, this action's previews among them and those of closed
 * or merged pull requests, and with `make-room` deletes one of the latter,
 * the least recently used (the branch's `updated_at`, which every reuse
 * moves), by the sweep's own rules (decide.ts) and under its PR's lock (run.ts),
 * so that the create can be sent again. Never an open PR's preview, a branch
 * this action did not create (no annotations of ours), another repository's,
 * the default or a protected branch.
 */








/**
 * The provision's `atBranchLimit` hook (platform/lifecycle.ts): makes room
 * and resolves (the log says which branch was deleted), or throws `err`
 * with the project's figures and, when no room could be made, why.
 * @param currentPr this run's PR, never a candidate
 */
function branchLimitHandler(settings, client, currentPr) {
    return async (err) => {
        const annotations = new Map();
        const branches = await client.listBranches(annotations);
        const repository = `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
        const ours = branches.flatMap((b) => {
            const owner = (0,platform_annotations/* ownerOf */.bf)(annotations.get(b.id));
            return owner && owner.repository === repository && !b.default && !b.protected ? [{ branch: b, owner }] : [];
        });
        const budget = new lock_budget/* GitHubBudget */.Nl();
        const octokit = settings.githubToken ? budget.watch((0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000)) : null;
        const prs = new Set(ours.flatMap((o) => (o.owner.pr && o.owner.pr !== currentPr ? [o.owner.pr] : [])));
        if (octokit)
            await budget.read(octokit);
        // The same reserve as the sweep's (budget.ts): the repository's other pull requests keep their share of the hour.
        if (octokit && !budget.allows(budget.reserve() + Math.ceil(prs.size / 100) + 1 + LOCKED_COST))
            throw err.withFigures(`The project has ${branches.length} branch${branches.length === 1 ? '' : 'es'}; ${ours.length} of them are this action's previews for this repository. ` +
                `GitHub's rate limit: ${budget.describe()}, and \`make-room\` leaves the last ${budget.reserve()} requests of the hour to the repository's pull requests, so it deleted nothing.`);
        const states = octokit ? await pullStates(octokit, prs) : new Map();
        const closed = ours
            .filter((o) => o.owner.pr && o.owner.pr !== currentPr && ['closed', 'merged'].includes(String(states.get(o.owner.pr)?.state)))
            .sort((a, b) => Date.parse(a.branch.updated_at ?? a.branch.created_at) - Date.parse(b.branch.updated_at ?? b.branch.created_at));
        const figures = `The project has ${branches.length} branch${branches.length === 1 ? '' : 'es'}; ${ours.length} of them are this action's previews for this repository, ` +
            `${closed.length} of those of closed or merged pull requests${octokit ? '' : ' (not known without `github-token`)'}.`;
        if (!settings.makeRoom || !octokit || !closed.length) {
            const why = !settings.makeRoom
                ? ' `make-room` is off.'
                : closed.length
                    ? ''
                    : " No preview of a closed or merged pull request to delete (`make-room` never deletes an open PR's preview or a branch this action did not create).";
            throw err.withFigures(`${figures}${why}`);
        }
        for (const candidate of closed) {
            const pulls = (n) => Promise.resolve(states.get(n) ?? pullState(octokit, n));
            const row = await decide(client, candidate.branch, settings, pulls, Date.now(), annotations.get(candidate.branch.id));
            if (row.decision !== 'delete')
                continue;
            row.reason = `${row.reason}; deleted to make room at Neon's branch limit`;
            const failures = [];
            await new SweepRun({ client, octokit, settings, pulls, branches, budget, failures, alwaysLock: true }).run([row]);
            const outcome = row.decision;
            if (outcome === 'deleted' || outcome === 'already gone') {
                core/* warning */.$e(`Neon's branch limit of the project is reached (HTTP 422 "${err.serviceMessage ?? ''}"). ${figures} ` +
                    `Deleted branch "${row.branch.name}" (${row.branch.id}), the least recently used preview of pull request #${row.pr} (${states.get(row.pr)?.state}), to make room (\`make-room\`); creating again.`);
                return;
            }
            core/* info */.pq(`Could not delete branch "${row.branch.name}" to make room: ${row.reason}.`);
        }
        throw err.withFigures(`${figures} None of those could be deleted to make room (see the log).`);
    };
}

;// CONCATENATED MODULE: ./src/platform/pr-branches.ts
/**
 * A pull request's branches found by the PR's identity, not by a name that
 * can change: GitHub lets a PR's head branch be renamed (the PR follows), and
 * the default branch name (`preview/pr-<number>-<head ref>`) changes with it.
 * What identifies the PR's branch: the id the PR comment's record names, and
 * the annotations the action set on the branch when it created it
 * (annotations.ts: repository, PR number, `preview-name`), which stay through
 * a rename.
 */







/** True when a branch's annotation values say it was made for `run`'s repository, PR and preview. */
function madeFor(annotations, run) {
    const owner = (0,platform_annotations/* ownerOf */.bf)(annotations);
    return !!owner && !!run.pr && owner.repository === run.repository && owner.pr === run.pr && (owner.preview ?? '') === (run.preview ?? '');
}
/**
 * The PR's branch the comment recorded, under an earlier name than `name`,
 * given that name: the head branch was renamed. Renames it to `name` (PATCH,
 * 423 retried, after the operations still running on it), so the create that
 * follows finds and reuses it under the PR's name. Nothing changes when the
 * record names no other branch, the branch is gone, no longer carries the
 * recorded name (renamed since, or taken out of reuse under `~seeding`), is not
 * annotated as this PR's preview, or a branch `name` exists already (that one
 * is used; `command: delete` removes both).
 * Costs one GET of the branch, and one search and one PATCH when it renames.
 * @returns the renamed branch, or null when nothing was renamed
 * @throws HttpError, OperationError from the requests
 */
async function followRenamedHead(client, earlier, name, run, o) {
    if (earlier?.mode !== 'branch' || !earlier.branchId || !earlier.branchName || earlier.branchName === name || !run.pr)
        return null;
    const found = await client.branchWithAnnotations(earlier.branchId);
    if (!found || found.branch.name !== earlier.branchName || found.branch.default || found.branch.protected)
        return null;
    if (!madeFor(found.annotations, run))
        return null;
    const there = await (0,preview_branch/* findPreviewBranches */.wE)(client, name);
    if (there.seeded) {
        core/* info */.pq(`Branch "${name}" exists beside "${found.branch.name}" (${found.branch.id}), this PR's branch under its head branch's earlier name: using "${name}"; \`command: delete\` removes both.`);
        return null;
    }
    const branch = found.branch;
    await (0,branch_wait/* waitForPendingOf */.fS)(client, branch, o);
    const renamed = await (0,retry_423/* retryLocked */.rU)(`Rename branch "${branch.name}"`, () => client.renameBranch(branch.id, name));
    await (0,platform_operations/* waitForOperations */.ft)(renamed.operations, { ...o, get: (id) => client.getOperation(id) });
    core/* info */.pq(`The pull request's head branch was renamed: renamed branch "${branch.name}" (${branch.id}) to "${name}", so it is reused as the PR's preview.`);
    return renamed.branch;
}
/**
 * Every branch of the run's PR and preview other than those named `name` and
 * `<name>~seeding` (which the caller handles): the branch the record names
 * when annotated as this PR's, and the branches a search for
 * `preview/pr-<number>` finds whose annotations name this repository, PR and
 * preview (earlier head branch names). One search (a page per 100 matches)
 * and, when the record names a branch outside it, one GET.
 */
async function otherBranchesOfPr(client, run, name, earlier) {
    if (!run.pr)
        return [];
    const skip = new Set([name, (0,preview_branch/* unseededName */.lu)(name)]);
    const annotations = new Map();
    const listed = await client.listBranches(annotations, `preview/pr-${run.pr}`);
    const prefix = `preview/pr-${run.pr}`;
    const ours = listed.filter((b) => !skip.has(b.name) &&
        (b.name === prefix || b.name.startsWith(`${prefix}-`) || b.name === (0,preview_branch/* unseededName */.lu)(prefix)) &&
        !b.default &&
        !b.protected &&
        madeFor(annotations.get(b.id), run));
    const recorded = earlier?.mode === 'branch' ? earlier.branchId : undefined;
    if (recorded && !ours.some((b) => b.id === recorded) && !listed.some((b) => b.id === recorded && skip.has(b.name))) {
        const found = await client.branchWithAnnotations(recorded);
        if (found && !skip.has(found.branch.name) && !found.branch.default && !found.branch.protected && madeFor(found.annotations, run))
            ours.push(found.branch);
    }
    return ours;
}
/**
 * Deletes `branches` (other branches of the PR, {@link otherBranchesOfPr})
 * one by one, each after the operations still running on it.
 * @returns the ids of those deleted (or already gone)
 * @throws what a delete throws (BranchRefusedError, HttpError, OperationError)
 */
async function deleteBranches(client, branches, o) {
    const done = [];
    for (const branch of branches) {
        await (0,branch_wait/* waitForPendingOf */.fS)(client, branch, o);
        await (0,branch_delete/* deleteBranchAndWait */.C)(client, branch, o);
        core/* info */.pq(`Deleted branch "${branch.name}" (${branch.id}), this pull request's preview under an earlier head branch name.`);
        done.push(branch.id);
    }
    return done;
}

;// CONCATENATED MODULE: ./src/commands/branch-driver.ts
/**
 * The branch mode's driver (Neon API): create the PR's branch under its
 * unseeded name (or reuse the seeded one), delete it after a failed seed,
 * give it the PR's name once seeded; and delete the PR's branch.
 */

























/** The preview's branch name: `branch-name`, else the default one for the PR (or, outside one, the git branch, the merge group or the commit) and `preview-name`. */
function branchNameOf(settings, pr) {
    return settings.branchName || (0,preview_branch/* defaultBranchName */.pe)(pr, github/* context */._.sha ?? '', settings.previewName, (0,run_source/* runSource */.Rh)());
}
/** The branch driver for this run's settings, the run's one Neon API client, the PR's branch name and what the comment recorded. */
function branchDriver(settings, client, branchName, earlier) {
    return {
        provision: () => provision(settings, client, branchName, earlier),
        delete: () => deleteBranch(settings, client, branchName, earlier)
    };
}
async function provision(settings, client, branchName, earlier, reuse = settings.reuse) {
    // `reuse: false` without `masking-rules` would delete an anonymized preview and copy the unmasked parent in its place
    const kept = reuse || settings.maskingRules.length ? undefined : await rulesOfAnonymizedPreview(client, branchName);
    if (kept)
        return provision({ ...settings, maskingRules: kept }, client, branchName, earlier, reuse);
    // a merge group's branch carries an expiry without `expires-in` (run-source.ts)
    const lifetime = { ...settings, expiresInSeconds: (0,run_source/* expiryFor */.n7)(settings.expiresInSeconds) };
    const extras = branchCreateExtras(lifetime, (0,platform_annotations/* ownerOfRun */.iz)());
    const anonymized = settings.maskingRules.length ? anonymizedBranch(client, settings, settings.maskingRules) : undefined;
    const outcome = await core/* group */.Os(`Provision branch "${branchName}"`, async () => {
        // a renamed head branch changes the default name: the PR's branch is found by the id its comment recorded
        if (!settings.branchName)
            await followRenamedHead(client, earlier, branchName, (0,platform_annotations/* ownerOfRun */.iz)(), settings);
        return provisionBranch(client, {
            ...settings,
            reuse,
            branchName,
            branchCreateExtras: extras,
            completeExtras: (made) => withRecordedIds(made ?? extras, (0,platform_annotations/* ownerOfRun */.iz)()),
            anonymized,
            atBranchLimit: branchLimitHandler(settings, client, (0,platform_annotations/* ownerOfRun */.iz)().pr),
            ...sharing(settings, client)
        });
    })
        .catch((err) => Promise.reject(explainCreateRefusal(err, lifetime)));
    if ((0,run_source/* runSource */.Rh)().kind === 'merge-group')
        (0,post_state/* saveJobBranch */.dP)(outcome.branch); // the post step deletes it when the job ends
    // A reused branch's expiry moves to `expires-in` from now, and every reuse is recorded as the branch's last use (max-age).
    const expiresAt = outcome.created
        ? (outcome.branch.expires_at ?? extras.branch?.expires_at)
        : await (0,platform_expiry/* recordUse */.zk)(client, outcome.branch, lifetime);
    const connection = (0,src_connection/* describeConnection */.If)(outcome.pooledUrl, outcome.directUrl);
    // A reused branch is reported as what it is, anonymized or not, whatever this run's `masking-rules`.
    const madeWith = anonymized || outcome.created ? undefined : await recordedRulesOf(client, outcome.branch);
    if (madeWith)
        maskRuleValues(madeWith);
    if (madeWith)
        core/* info */.pq(`Branch "${branchName}" is anonymized, made with the masking rules ${describeRules(madeWith)}. ` +
            'This run gives no `masking-rules`: it is reused as it is, still masked; a rebuild creates it anonymized again under those rules.');
    const masked = anonymized?.columns() ?? (madeWith && maskedColumns(madeWith));
    const report = {
        mode: 'branch',
        state: outcome.created ? 'created' : 'reused',
        projectId: settings.projectId,
        branchId: outcome.branch.id,
        branchName,
        parentBranch: outcome.parent?.name,
        parentPoint: settings.parentPoint && (0,branch_point/* describePoint */.yR)(settings.parentPoint),
        host: connection.directHost,
        operations: outcome.operations.map(platform_operations/* summarise */.fS),
        projectWait: (0,project_wait/* projectWaitSummary */.rH)(),
        expiresAt,
        schemaOnly: outcome.created && settings.schemaOnly,
        anonymized: masked,
        usage: usageOf(outcome.branch)
    };
    const parent = outcome.parent;
    const provisioned = {
        created: outcome.created,
        previous: earlier?.mode === 'branch' && earlier.branchId === outcome.branch.id ? earlier : undefined,
        madeWithRules: madeWith,
        connection,
        report,
        async rebuild() {
            // An anonymized branch is never restored from its parent (that would hand out the parent's unmasked rows):
            // it is made again, anonymized under this run's rules or, when it gives none, the ones it was made with.
            const masking = anonymized || madeWith || isAnonymized(outcome.branch);
            if (masking || settings.schemaOnly || !parent) {
                core/* info */.pq(`The Neon API cannot restore branch "${branchName}" from its parent (${masking ? 'anonymized' : 'schema-only'}): deleting it and creating it again.`);
                // without `masking-rules`, an anonymized one is made again under the rules Neon holds for it (rulesOfAnonymizedPreview)
                return provision(settings, client, branchName, earlier, false);
            }
            return rebuildInPlace(settings, client, branchName, provisioned, outcome.branch, parent);
        },
        platformDiff: parent ? () => client.compareSchema(outcome.branch.id, parent.id, connection.database) : undefined,
        // provisionBranch registered the UNSEEDED_BRANCH undo step when it created the branch; it stays until seeded.
        async undoUnseeded() {
            (0,cancel/* offCancel */.qC)(cancel/* UNSEEDED_BRANCH */.dV);
            await core/* group */.Os(`Delete the unseeded branch "${outcome.branch.name}"`, async () => {
                try {
                    await (0,branch_delete/* deleteBranchAndWait */.C)(client, outcome.branch, settings);
                    (0,post_state/* clearUnseeded */.nH)();
                    core/* info */.pq(`Deleted branch "${outcome.branch.name}" so the next run starts clean.`);
                }
                catch (err) {
                    core/* warning */.$e(`Could not delete the unseeded branch "${outcome.branch.name}" (${outcome.branch.id}): ${err.message} Its name marks it unseeded, so no run reuses it: the next run deletes it.`);
                }
            });
        },
        async markSeeded() {
            // Only now does the branch carry the PR's name, which is what later runs reuse (platform/lifecycle.ts).
            outcome.branch = await core/* group */.Os(`Mark branch "${branchName}" seeded`, () => markSeeded(client, outcome.branch, branchName, settings));
            (0,cancel/* offCancel */.qC)(cancel/* UNSEEDED_BRANCH */.dV);
            (0,post_state/* clearUnseeded */.nH)();
        },
        outputs: () => ({
            mode: 'branch',
            projectId: settings.projectId,
            branchId: outcome.branch.id,
            branchName: outcome.branch.name,
            expiresAt,
            anonymized: !!masked,
            usage: report.usage
        }),
        record: () => ({ mode: 'branch', branchId: outcome.branch.id, branchName: outcome.branch.name }),
        env: {},
        envVariables: 'connection-only'
    };
    return provisioned;
}
/**
 * How a run without a PR meets other runs of its preview (platform/shared-preview.ts): no comment lock
 * serialises them, so they wait for each other's seeds; a git branch's default name is reused and deleted
 * only for the git branch its annotations record.
 */
function sharing(settings, client, source = (0,run_source/* runSource */.Rh)()) {
    if (source.kind === 'pull-request')
        return {};
    const recorded = source.kind === 'git-branch' && !settings.branchName;
    return { sharedName: true, ...(recorded ? { foreignBecause: recordedGitBranchCheck(client, source.branch) } : {}) };
}
/**
 * The masking rules (input shape) of the PR's seeded branch when it is
 * anonymized, for a run that will replace it without `masking-rules`: it is
 * made again under them.
 * @throws AnonymizationError when it is anonymized but its rules cannot be read (nothing changed)
 */
async function rulesOfAnonymizedPreview(client, branchName) {
    const { seeded } = await (0,preview_branch/* findPreviewBranches */.wE)(client, branchName);
    if (!seeded || !isAnonymized(seeded))
        return undefined;
    const rules = await client.maskingRules(seeded.id);
    if (!rules?.length)
        throw new AnonymizationError(`Branch "${branchName}" is anonymized but its masking rules could not be read, so it cannot be made again masked. Nothing was changed. ` +
            'Run with `masking-rules`, or delete it with `command: delete`.');
    core/* info */.pq(`Branch "${branchName}" is anonymized, made with the masking rules ${describeRules(rules)}: it is made again under them.`);
    maskRuleValues(rules);
    return (0,masking_rules/* fromPlatformRules */.J6)(rules, true);
}
/** Masks in the log the values and arguments of rules read from Neon, as the input's are (inputs.ts). */
function maskRuleValues(rules) {
    for (const secret of (0,masking_rules/* ruleSecrets */.cf)((0,masking_rules/* fromPlatformRules */.J6)(rules, true)))
        (0,secrets/* maskSecret */.$l)(secret);
}
/**
 * Rebuilds the reused branch in place (commands/reset.ts, restoreUnseeded):
 * under `<name>~seeding` until seeded, restored from `parent`; same name, id
 * and connection strings.
 */
async function rebuildInPlace(settings, client, branchName, reused, branch, parent) {
    const r = await restoreUnseeded(client, settings, branch, parent, branchName);
    let named = branch;
    const report = {
        ...reused.report,
        state: 'reset',
        operations: [...(reused.report.operations ?? []), ...r.restored.operations.map(platform_operations/* summarise */.fS)],
        resetAt: r.restored.branch.last_reset_at ?? new Date().toISOString()
    };
    return {
        ...reused,
        rebuilt: true,
        connection: r.connection,
        report,
        platformDiff: () => client.compareSchema(branch.id, parent.id, r.connection.database),
        undoUnseeded: r.undoUnseeded,
        async markSeeded() {
            named = await r.markSeededAgain();
        },
        outputs: () => ({ ...reused.outputs(), branchName: named.name }),
        record: () => ({ mode: 'branch', branchId: named.id, branchName: named.name })
    };
}
/**
 * Deletes the PR's branch (and an unseeded one a failed run left), and every
 * other branch of the PR and preview (its head branch's earlier names,
 * platform/pr-branches.ts), and waits for the operations.
 */
async function deleteBranch(settings, client, name, earlier) {
    if (settings.branchId)
        return deleteBranchById(settings, client, settings.branchId);
    const branchName = name;
    const others = await otherBranchesOfPr(client, (0,platform_annotations/* ownerOfRun */.iz)(), branchName, earlier);
    const renamedAway = others.length ? await deleteBranches(client, others, settings) : [];
    const found = await (0,preview_branch/* findPreviewBranches */.wE)(client, branchName);
    const foreign = sharing(settings, client).foreignBecause;
    for (const b of [found.seeded, found.unseeded]) {
        const why = b && foreign ? await foreign(b) : null;
        if (why)
            throw new preview_branch/* BranchRefusedError */.PK(why);
    }
    if (found.unseeded) {
        core/* info */.pq(`Deleting branch "${found.unseeded.name}", left by a run whose seed did not complete.`);
        await (0,branch_wait/* waitForPendingOf */.fS)(client, found.unseeded, settings); // a cancelled run's compute start may still run on it
        await (0,branch_delete/* deleteBranchAndWait */.C)(client, found.unseeded, settings);
    }
    const branch = found.seeded;
    if (!branch && renamedAway.length) {
        return {
            report: { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchId: others[0].id, branchName: others[0].name },
            record: { mode: 'branch' }
        };
    }
    if (!branch) {
        core/* notice */.lm(`Branch "${branchName}" does not exist (already deleted): nothing to do.`);
        return {
            report: { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchName },
            record: { mode: 'branch' },
            onlyOverEarlierComment: true
        };
    }
    const ops = await core/* group */.Os(`Delete branch "${branchName}"`, () => (0,branch_delete/* deleteBranchAndWait */.C)(client, branch, settings));
    (0,cancel/* throwIfCancelled */.dZ)();
    if (ops === null)
        core/* notice */.lm(`Branch "${branchName}" was already gone.`);
    else
        core/* info */.pq(`Deleted branch "${branchName}" (${branch.id}).`);
    return {
        report: {
            mode: 'branch',
            state: 'deleted',
            projectId: settings.projectId,
            branchId: branch.id,
            branchName,
            operations: (ops ?? []).map(platform_operations/* summarise */.fS),
            usage: usageOf(branch)
        },
        record: { mode: 'branch' }
    };
}
/** `branch-id`: deletes the branch with that id, whatever its name, refusing the default and protected branches. */
async function deleteBranchById(settings, client, id) {
    const branch = await client.getBranch(id);
    if (!branch) {
        core/* notice */.lm(`Branch ${id} (input \`branch-id\`) does not exist (already deleted): nothing to do.`);
        return {
            report: { mode: 'branch', state: 'deleted', projectId: settings.projectId, branchId: id },
            record: { mode: 'branch' },
            onlyOverEarlierComment: true
        };
    }
    (0,preview_branch/* refuseProtected */.fZ)(branch, 'delete', 'branch-id');
    await (0,branch_wait/* waitForPendingOf */.fS)(client, branch, settings);
    const ops = await core/* group */.Os(`Delete branch "${branch.name}" (${id})`, () => (0,branch_delete/* deleteBranchAndWait */.C)(client, branch, settings));
    (0,cancel/* throwIfCancelled */.dZ)();
    core/* info */.pq(ops === null ? `Branch "${branch.name}" was already gone.` : `Deleted branch "${branch.name}" (${id}).`);
    return {
        report: {
            mode: 'branch',
            state: 'deleted',
            projectId: settings.projectId,
            branchId: id,
            branchName: branch.name,
            operations: (ops ?? []).map(platform_operations/* summarise */.fS),
            usage: usageOf(branch)
        },
        record: { mode: 'branch' }
    };
}

;// CONCATENATED MODULE: ./src/instant/client.ts
/**
 * Client of the instant database service (instant service API): create a database with
 * one unauthenticated call, and fetch it again by id. The service has no
 * delete: an unclaimed database lapses 72 hours after creation.
 */

/** Region every instant database is provisioned in (instant service API). */
const INSTANT_REGION = 'us-east-2';
/** PostgreSQL major version of every instant database (instant service API). */
const INSTANT_PG_VERSION = 17;
/** A response that is not the Database object the seed describes. */
class InstantResponseError extends Error {
    constructor(message) {
        super(message);
        this.name = 'InstantResponseError';
    }
}
const STATUSES = ['UNCLAIMED', 'CLAIMING', 'CLAIMED'];
/**
 * Checks the shape of a Database object. Names the first bad field; never
 * quotes the body, which may hold a connection string. Accepts the project id
 * under either name (`neon_project_id`, live service; `svc_project_id`, seed
 * 001) or neither, and `expires_at: null` (a claimed database).
 * @throws InstantResponseError
 */
function parseDatabase(label, body) {
    if (!body || typeof body !== 'object') {
        throw new InstantResponseError(`${label}: the instant service returned ${body === null ? 'null' : typeof body}, not a database object.`);
    }
    const b = body;
    const str = (field) => {
        const v = b[field];
        if (typeof v !== 'string' || v === '') {
            throw new InstantResponseError(`${label}: the instant service's response has no valid \`${field}\` (expected a non-empty string).`);
        }
        return v;
    };
    const status = str('status');
    if (!STATUSES.includes(status)) {
        throw new InstantResponseError(`${label}: the instant service returned an unknown \`status\` "${status}" (expected ${STATUSES.join(', ')}).`);
    }
    const cs = b.connection_string;
    if (cs !== null && (typeof cs !== 'string' || !/^postgres(ql)?:\/\//.test(cs))) {
        throw new InstantResponseError(`${label}: the instant service's \`connection_string\` is neither null nor a postgresql:// URL.`);
    }
    const expiresAt = b.expires_at === null ? null : str('expires_at');
    if (expiresAt !== null && !Number.isFinite(Date.parse(expiresAt))) {
        throw new InstantResponseError(`${label}: the instant service's \`expires_at\` "${expiresAt}" is not an ISO 8601 timestamp.`);
    }
    const projectId = [b.neon_project_id, b.svc_project_id].find((v) => typeof v === 'string' && v !== '');
    return {
        id: str('id'),
        status: status,
        projectId,
        connectionString: cs,
        claimUrl: str('claim_url'),
        expiresAt,
        createdAt: str('created_at'),
        updatedAt: str('updated_at')
    };
}
/**
 * `POST {base}/api/v1/database` with `{ref, enable_logical_replication}`.
 * Sent once: a retry after an unclear failure could create a second database.
 * @throws HttpError (quoting `Missing referrer` and its hint, `Failed to create
 *   the database.`, timeouts) or InstantResponseError.
 */
async function createDatabase(endpoint, options) {
    const res = await (0,http/* requestJson */.SS)({
        label: 'Create database (instant service)',
        method: 'POST',
        url: `${endpoint.baseUrl}/api/v1/database`,
        body: { ref: options.referrer, enable_logical_replication: options.logicalReplication },
        timeoutMs: endpoint.timeoutMs,
        idempotent: false
    });
    const db = parseDatabase('Create database', res.body);
    if (db.connectionString === null) {
        throw new InstantResponseError('Create database: the instant service returned no `connection_string` for a new database.');
    }
    return db;
}
/**
 * `GET {base}/api/v1/database/{id}`.
 * @returns the database, or null when the service says `Database not found`
 *   (HTTP 400 per the instant service API; 404 is treated the same).
 * @throws HttpError for any other failure, InstantResponseError for a bad body.
 */
async function getDatabase(endpoint, id) {
    try {
        const res = await (0,http/* requestJson */.SS)({
            label: `Get database ${id} (instant service)`,
            method: 'GET',
            url: `${endpoint.baseUrl}/api/v1/database/${encodeURIComponent(id)}`,
            timeoutMs: endpoint.timeoutMs,
            idempotent: true
        });
        return parseDatabase(`Get database ${id}`, res.body);
    }
    catch (err) {
        if (err instanceof http/* HttpError */.j$ && (err.status === 404 || (err.status === 400 && /not found/i.test(err.serviceMessage ?? '')))) {
            return null;
        }
        throw err;
    }
}

;// CONCATENATED MODULE: ./src/instant/lifecycle.ts
/**
 * Instant mode's lifecycle: reuse the database an earlier run of this PR
 * recorded, or create a new one.
 */


/** Margin before `expires_at` within which a database is not worth reusing, in milliseconds. */
const EXPIRY_MARGIN_MS = 10 * 60_000;
/**
 * Why the earlier database cannot be reused, or null when it can.
 * Rules: reuse only an `UNCLAIMED` database that has a connection
 * string and does not expire within the next 10 minutes. A claimed database
 * (instant service API: `connection_string` null, expiration removed, so `expires_at`
 * may be null) and a lapsed one (400 `Database not found`) are replaced.
 */
function whyNotReusable(id, db, now = Date.now()) {
    if (!db)
        return `the earlier database ${id} no longer exists (the instant service answered "Database not found")`;
    if (db.status !== 'UNCLAIMED' || db.connectionString === null) {
        return `the earlier database ${id} was claimed into an account (status ${db.status}) and is no longer the PR's to use`;
    }
    if (db.expiresAt !== null && Date.parse(db.expiresAt) - now <= EXPIRY_MARGIN_MS)
        return `the earlier database ${id} expired (or expires within minutes) at ${db.expiresAt}`;
    return null;
}
/**
 * Reuses `previousId` when allowed and still usable, else creates a database.
 * @throws HttpError / InstantResponseError from the instant client.
 */
async function provisionInstant(endpoint, options) {
    let replacedBecause;
    if (options.reuse && options.previousId) {
        const earlier = await getDatabase(endpoint, options.previousId);
        replacedBecause = whyNotReusable(options.previousId, earlier) ?? undefined;
        if (!replacedBecause && earlier?.connectionString) {
            core/* info */.pq(`Reusing instant database ${earlier.id} from an earlier run (expires ${earlier.expiresAt ?? 'never'}).`);
            return { database: { ...earlier, connectionString: earlier.connectionString }, created: false };
        }
        core/* info */.pq(`Creating a new database: ${replacedBecause}.`);
    }
    else if (options.previousId) {
        core/* info */.pq(`reuse is false: creating a new database instead of reusing ${options.previousId}.`);
        replacedBecause = '`reuse` is false';
    }
    const db = await createDatabase(endpoint, options);
    core/* info */.pq(`Created instant database ${db.id} (expires ${db.expiresAt ?? 'never'}).`);
    return { database: { ...db, connectionString: db.connectionString }, created: true, replacedBecause };
}

;// CONCATENATED MODULE: ./src/commands/instant-driver.ts
/**
 * The instant mode's driver (instant service API): provision or reuse the
 * PR's database, and "delete", which the service has no request for: the
 * comment says that the PR closed and when the database lapses unless claimed.
 */




/** The instant driver for this run's settings and publication (whose record names an earlier database). */
function instantDriver(settings, pub) {
    const endpoint = { baseUrl: settings.instantUrl, timeoutMs: settings.requestTimeoutSeconds * 1000 };
    return {
        provision: () => instant_driver_provision(settings, pub, endpoint),
        delete: () => deleteInstant(pub, endpoint)
    };
}
async function instant_driver_provision(settings, pub, endpoint, fresh = false) {
    const earlier = pub.existing?.record.mode === 'instant' ? pub.existing.record : undefined;
    const outcome = fresh
        ? await core/* group */.Os('Create a new instant database (the seed changed)', () => provisionInstant(endpoint, { ...settings, reuse: false }))
        : await core/* group */.Os('Provision the instant database', () => provisionInstant(endpoint, { ...settings, previousId: earlier?.databaseId }));
    const db = { ...outcome.database, expiresAt: outcome.database.expiresAt ?? undefined };
    const report = {
        mode: 'instant',
        state: outcome.created ? 'created' : 'reused',
        databaseId: db.id,
        claimUrl: db.claimUrl,
        expiresAt: db.expiresAt,
        region: INSTANT_REGION,
        pgVersion: INSTANT_PG_VERSION,
        projectId: db.projectId,
        replacedBecause: outcome.replacedBecause
    };
    return {
        created: outcome.created,
        previous: earlier?.databaseId === db.id ? earlier : undefined,
        connection: (0,src_connection/* describeConnection */.If)(db.connectionString),
        report,
        // A new database; the old one lapses at its expiry unless claimed (the service has no delete).
        rebuild: () => instant_driver_provision(settings, pub, endpoint, true),
        // The instant service has no delete: the flow records nothing reusable instead.
        undoUnseeded: async () => undefined,
        markSeeded: async () => undefined,
        outputs: () => ({ mode: 'instant', claimUrl: db.claimUrl, expiresAt: db.expiresAt, databaseId: db.id, projectId: db.projectId }),
        record: () => ({ mode: 'instant', databaseId: db.id, expiresAt: db.expiresAt }),
        env: { claimUrl: db.claimUrl, expiresAt: db.expiresAt },
        envVariables: 'with-claim'
    };
}
/**
 * `command: delete` of an instant database. The service has no delete
 * (instant service API): reports when the recorded database lapses, from its
 * current state when the service answers.
 */
async function deleteInstant(pub, endpoint) {
    const record = pub.existing?.record;
    if (!record?.databaseId) {
        core/* notice */.lm('No preview database of this pull request was found: nothing to close.');
        return null;
    }
    let expiresAt = record.expiresAt;
    let claimUrl;
    try {
        const db = await getDatabase(endpoint, record.databaseId);
        if (db) {
            expiresAt = db.status === 'CLAIMED' ? undefined : (db.expiresAt ?? undefined);
            claimUrl = db.status === 'UNCLAIMED' ? db.claimUrl : undefined;
        }
    }
    catch (err) {
        core/* warning */.$e(`Could not fetch database ${record.databaseId}: ${err.message} The comment uses the expiry recorded earlier.`);
    }
    core/* info */.pq(`The instant service has no delete: database ${record.databaseId} lapses ${expiresAt ? `at ${expiresAt}` : 'never (it was claimed)'}.`);
    return {
        report: { mode: 'instant', state: 'closed', databaseId: record.databaseId, expiresAt, claimUrl },
        record: { mode: 'instant', expiresAt }
    };
}

// EXTERNAL MODULE: ./node_modules/@actions/glob/lib/glob.js + 17 modules
var glob = __webpack_require__(2377);
// EXTERNAL MODULE: ./src/settings.ts
var settings = __webpack_require__(8750);
;// CONCATENATED MODULE: ./src/seed/files.ts
/**
 * Resolving the `seed` input to files, before anything is provisioned.
 */



/**
 * Expands each line of `seed` with `@actions/glob`: matches of one line are
 * sorted, lines keep their given order, a file named twice runs once (at its
 * first place). Every file must lie in the workspace, symlinks resolved
 * (psql/workspace.ts).
 * @returns absolute paths.
 * @throws InputError naming the first line that matches no file, or a file outside the workspace.
 */
async function resolveSeedFiles(patterns) {
    const root = workspaceRoot();
    const files = [];
    for (const pattern of patterns) {
        const globber = await glob/* create */.v(pattern, { matchDirectories: false, implicitDescendants: false });
        const matches = (await globber.glob()).sort();
        if (matches.length === 0) {
            throw new settings/* InputError */.d(`Input \`seed\`: "${pattern}" matches no file (paths are relative to ${process.cwd()}).`);
        }
        const outside = matches.find((file) => !insideWorkspace(file, root));
        if (outside)
            throw new settings/* InputError */.d(`Input \`seed\`: "${pattern}" matches ${outsideWorkspaceReason(outside, root)}`);
        for (const file of matches)
            if (!files.includes(file))
                files.push(file);
    }
    return files;
}

;// CONCATENATED MODULE: ./src/publish/report-file.ts
/**
 * The `report-file`: what the PR comment of an instant-mode run says, as
 * JSON, for a fork PR's `workflow_run` job (`command: publish`), which
 * posts the comment with a write token. It never holds a password or a
 * connection string: only the report's public facts (claim URL, expiry,
 * database id, schema diff) and the PR and repository it is for.
 *
 * The file comes from a run of the fork's code, so `command: publish`
 * trusts nothing in it: {@link readReportFile} keeps only the known fields,
 * of the right types and sizes, and refuses a database id of another shape,
 * a claim URL other than the instant service's for that id, and a time that
 * is not one. The text it keeps is still the fork's: report.ts renders it
 * inert (inert.ts).
 */



/** The file's `format`. */
const REPORT_FORMAT = 'preview-postgres-report/v1';
/** A report file `command: publish` must not post. */
class ReportFileError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ReportFileError';
    }
}
/**
 * The report file's name: `preview-postgres-report.json` for the PR's one
 * preview, `preview-postgres-report-<preview-name>.json` for a named one, so
 * two previews of one job (`preview-name: api` and `web`) write two files.
 * @param previewName the `preview-name` input, as inputs.ts checked it (letters, digits, `-`, `_`, `.`); '' for none
 */
function reportFileName(previewName) {
    return previewName ? `preview-postgres-report-${previewName}.json` : 'preview-postgres-report.json';
}
/**
 * Writes the report of a finished instant-mode run to `<dir>/`{@link
 * reportFileName} and returns its path.
 * @param previewName the `preview-name` input ('' for the PR's one preview)
 * @throws the file system's error
 */
async function writeReportFile(dir, pr, report, record, previewName = '') {
    const file = external_node_path_default().join(dir, reportFileName(previewName));
    const content = {
        format: REPORT_FORMAT,
        repository: `${pr.owner}/${pr.repo}`,
        pullRequest: { number: pr.number, headRef: pr.headRef },
        report: instantReport(report, null),
        record: instantRecord(record)
    };
    await (0,promises_.writeFile)(file, `${JSON.stringify(content, null, 2)}\n`);
    return file;
}
/** Longest text field kept, in characters (the schema diff: GitHub's comment limit). */
const MAX_TEXT = 1_000;
const MAX_DIFF = 65_536;
const str = (v, max = MAX_TEXT) => (typeof v === 'string' && v.length <= max ? v : undefined);
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** An instant database id as the service writes it (a UUID): letters, digits, `-` and `_`, at most 100. */
const DATABASE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
/** An ISO 8601 UTC time as the service and this action write it (`2026-11-25T10:17:00.000Z`). */
const UTC_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z$/;
/**
 * The instant service's claim URL of database `id` (instant service API:
 * `claim_url` is `{instant_base_url}/claim/<id>`) on `origin`, serialized
 * as a WHATWG URL.
 */
const claimUrlOf = (origin, id) => new URL(`/claim/${id}`, origin).href;
/**
 * Checks the fields a reader of the file acts on: `databaseId` of the
 * service's shape, `expiresAt` a time.
 * @throws ReportFileError naming the field (`what` says where it is)
 */
function checkIdAndTime(fields, what) {
    const { databaseId, expiresAt } = fields;
    if (databaseId !== undefined && (typeof databaseId !== 'string' || !DATABASE_ID.test(databaseId)))
        throw new ReportFileError(`its ${what} database id is not one of the instant service (letters, digits, \`-\` and \`_\`)`);
    if (expiresAt !== undefined && (typeof expiresAt !== 'string' || !UTC_TIME.test(expiresAt) || !Number.isFinite(Date.parse(expiresAt))))
        throw new ReportFileError(`its ${what} \`expiresAt\` is not an ISO 8601 UTC time`);
}
/** The schema part of a report, fields checked. */
function schemaOf(v) {
    if (!v || typeof v !== 'object')
        return undefined;
    const s = v;
    const source = ['migra', 'platform', 'listing', 'none'].includes(String(s.source)) ? s.source : 'none';
    const destructive = Array.isArray(s.destructive) ? s.destructive.filter((d) => typeof d === 'string').slice(0, 100) : [];
    return {
        summary: str(s.summary) ?? '',
        diff: str(s.diff, MAX_DIFF) ?? '',
        source,
        note: str(s.note),
        unavailable: str(s.unavailable),
        destructive: destructive.map((d) => d.slice(0, MAX_TEXT)),
        failOnDestructive: s.failOnDestructive === true ? true : undefined
    };
}
/**
 * An instant-mode report with only its known fields. With `claimOrigin`
 * (reading a file): its database id and expiry are checked, and its claim
 * URL, when it has one, must be exactly {@link claimUrlOf} that origin and id.
 * @throws ReportFileError for a refused field
 */
function instantReport(r, claimOrigin) {
    const claimUrl = str(r.claimUrl);
    if (claimOrigin !== null) {
        checkIdAndTime(r, "report's");
        if (r.claimUrl !== undefined && (claimUrl === undefined || !r.databaseId || claimUrl !== claimUrlOf(claimOrigin, r.databaseId)))
            throw new ReportFileError(`its claim URL is not one of the instant service: it must be ${claimOrigin}/claim/<database id> for its database id, as the service writes it`);
    }
    return {
        mode: 'instant',
        state: r.state === 'reused' ? 'reused' : 'created',
        databaseId: str(r.databaseId, 100),
        claimUrl,
        expiresAt: str(r.expiresAt, 40),
        region: str(r.region, 100),
        pgVersion: num(r.pgVersion),
        projectId: str(r.projectId, 100),
        replacedBecause: str(r.replacedBecause),
        seedFiles: num(r.seedFiles),
        schema: schemaOf(r.schema)
    };
}
/** An instant-mode record with only its reuse fields: the database, its expiry and the seed's fingerprint. */
function instantRecord(r) {
    const fingerprint = typeof r.fingerprint === 'string' && FINGERPRINT.test(r.fingerprint) ? r.fingerprint : undefined;
    return { mode: 'instant', databaseId: str(r.databaseId, 100), expiresAt: str(r.expiresAt, 40), ...(fingerprint && { fingerprint }) };
}
/**
 * Reads and checks a report file for `command: publish`.
 * @param instantUrl the `instant-url` input: a claim URL must be of its origin
 * @throws ReportFileError when the file cannot be read, is not a report of
 *   this format, or is not of instant mode
 */
async function readReportFile(file, instantUrl) {
    let data;
    try {
        data = JSON.parse(await (0,promises_.readFile)(file, 'utf8'));
    }
    catch (err) {
        throw new ReportFileError(`\`report-file\` ${file} could not be read as JSON (${err.message})`);
    }
    if (!data || data.format !== REPORT_FORMAT)
        throw new ReportFileError(`\`report-file\` ${file} is not a Preview Postgres report (its \`format\` is not ${REPORT_FORMAT})`);
    const pr = (data.pullRequest ?? {});
    const report = (data.report ?? {});
    const number = num(pr.number);
    if (!str(data.repository) || !number || !Number.isInteger(number))
        throw new ReportFileError(`\`report-file\` ${file} does not name its repository and pull request`);
    if (report.mode !== 'instant')
        throw new ReportFileError(`\`report-file\` ${file} is not of instant mode (only instant mode serves fork PRs)`);
    let checked;
    const record = (data.record ?? {});
    try {
        checked = instantReport(report, new URL(instantUrl).origin);
        checkIdAndTime(record, "record's");
        if (record.databaseId !== undefined && record.databaseId !== checked.databaseId)
            throw new ReportFileError('its record names another database than its report');
    }
    catch (err) {
        throw new ReportFileError(`\`report-file\` ${file}: ${err.message}`);
    }
    return {
        format: REPORT_FORMAT,
        repository: data.repository,
        pullRequest: { number, headRef: str(pr.headRef) ?? '' },
        report: checked,
        record: instantRecord(record)
    };
}

// EXTERNAL MODULE: ./src/publish/inert.ts
var inert = __webpack_require__(3703);
// EXTERNAL MODULE: external "node:perf_hooks"
var external_node_perf_hooks_ = __webpack_require__(643);
;// CONCATENATED MODULE: ./src/deployment/run-deployment.ts
/**
 * Where the create, delete and publish flows and the sweep meet the PR's
 * GitHub deployment (deployment.ts): when a run makes one, which commit and
 * environment it is for, and the address a finished report gives it.
 */







/**
 * The preview's name within its PR (`preview-name`; '' for the PR's one
 * preview), for the environment's name: each name gets its own environment
 * `preview-postgres/pr-<N>-<name>`.
 */
function previewNameOf(settings) {
    return settings.previewName;
}
/** The PR's environment for this run's settings. */
const environmentOfRun = (settings, prNumber) => environmentOf(prNumber, previewNameOf(settings));
/** The address a finished report's deployment shows: instant mode's claim URL, branch mode's Console page. */
function environmentUrlOf(report) {
    if (report.mode === 'instant')
        return report.claimUrl;
    return report.projectId && report.branchId ? branchConsoleUrl(report.projectId, report.branchId) : undefined;
}
/**
 * Creates the run's deployment, `in_progress`, for `command: create` with
 * `deployment` on, a token and a PR whose token may write (a fork's run
 * leaves it to `command: publish`). Meant to run beside provisioning: it
 * never rejects (an error is a warning), and its wall time is recorded as
 * the overlapped phase "deployment" (its HTTP requests count in the phase
 * they ran in).
 * @param sha the PR's head commit; default the event's `pull_request.head.sha`
 * @returns null when no deployment is made or GitHub refused it
 */
async function startDeployment(settings, pub, sha) {
    if (!settings.deployment || !settings.githubToken || !pub.pr || pub.readOnly)
        return null;
    const started = external_node_perf_hooks_.performance.now();
    try {
        const head = sha ?? github/* context */._.payload.pull_request?.head?.sha ?? github/* context */._.sha;
        const octokit = (0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
        const target = { owner: pub.pr.owner, repo: pub.pr.repo, number: pub.pr.number, sha: head };
        return await PreviewDeployment.start(octokit, target, environmentOfRun(settings, pub.pr.number), runUrl() ?? '');
    }
    catch (err) {
        core/* warning */.$e(`Could not create the deployment: ${err instanceof Error ? err.message : String(err)}. The run goes on without it.`);
        return null;
    }
    finally {
        (0,phases/* overlapped */.RO)('deployment', external_node_perf_hooks_.performance.now() - started);
    }
}
/** Sets `inactive` on the PR's deployments once its preview is gone (`command: delete`, the sweep). */
async function deactivateDeployments(settings, pr) {
    if (!settings.deployment || !settings.githubToken || !pr)
        return;
    const octokit = (0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
    await deactivateEnvironment(octokit, { owner: pr.owner, repo: pr.repo }, environmentOfRun(settings, pr.number), runUrl() ?? '');
}

;// CONCATENATED MODULE: ./src/commands/publish.ts
/**
 * `command: publish`, run by a `workflow_run` workflow with a write token
 * after a fork PR's run: posts or updates the PR's one comment from the
 * fork run's `report-file`, under the PR's comment lock, and makes the PR's
 * deployment. The report is for this repository and for the pull request
 * of the triggering run, or it is refused.
 */








/**
 * The PR of the triggering run: `workflow_run.pull_requests` when it names
 * one; else (GitHub leaves it empty for a fork's PR) the open PR of this
 * repository whose head is `head_repository`'s `head_branch` at `head_sha`.
 * @throws ReportFileError when the event is not `workflow_run` or no PR matches
 */
async function triggeringPullRequest(settings) {
    const run = github/* context */._.payload.workflow_run;
    if (github/* context */._.eventName !== 'workflow_run' || !run)
        throw new ReportFileError(`\`command: publish\` runs from a \`workflow_run\` workflow (this event is \`${github/* context */._.eventName}\`): the triggering run says which PR the report is for`);
    const { owner, repo } = github/* context */._.repo;
    const sha = run.head_sha ?? '';
    const listed = run.pull_requests?.[0];
    if (listed)
        return { pr: { owner, repo, number: listed.number, headRef: listed.head?.ref ?? run.head_branch ?? '' }, sha };
    const headOwner = run.head_repository?.owner?.login ?? run.head_repository?.full_name?.split('/')[0];
    if (headOwner && run.head_branch && settings.githubToken) {
        const octokit = (0,comment_comment/* githubClient */.$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
        const { data } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${headOwner}:${run.head_branch}`, per_page: 100 });
        const match = data.find((p) => p.head.sha === sha);
        if (match)
            return { pr: { owner, repo, number: match.number, headRef: match.head.ref }, sha };
    }
    throw new ReportFileError(`the triggering run (${run.head_branch ?? '?'} at ${sha || '?'}) belongs to no open pull request of ${owner}/${repo}`);
}
/**
 * Runs `command: publish`. Everything is checked before the first write
 * (lock, comment, deployment); a failure after the deployment was created
 * sets it `failure`.
 * @throws ReportFileError (the step fails, nothing is posted) when the report
 *   is unreadable or refused (report-file.ts), for another repository, for
 *   another PR than the triggering run's, or would not fit in a comment; what
 *   taking the lock or posting throws
 */
async function publishReport(settings) {
    const file = await readReportFile(settings.reportFile, settings.instantUrl);
    const repository = `${github/* context */._.repo.owner}/${github/* context */._.repo.repo}`;
    if (file.repository !== repository)
        throw new ReportFileError(`The report is for ${file.repository}, not for this repository (${repository}): nothing is posted`);
    const { pr, sha } = await triggeringPullRequest(settings);
    if (file.pullRequest.number !== pr.number)
        throw new ReportFileError(`The report is for pull request #${file.pullRequest.number}, but the triggering run is of pull request #${pr.number}: nothing is posted`);
    // The comment as publish() renders it (the run's URL only adds a line) must fit GitHub's limit with its marker.
    const longest = (0,publish_report/* renderReport */.B1)({ ...file.report, runUrl: '' }, Date.now(), publish_report/* COMMENT_LIMIT */.W$).length + (0,comment_comment/* markerOf */.we)(file.record).length + 200;
    if (longest > publish_report/* COMMENT_LIMIT */.W$)
        throw new ReportFileError(`the report would not fit in a comment (${longest} of GitHub's ${publish_report/* COMMENT_LIMIT */.W$} characters): nothing is posted`);
    const own = { ...settings, mode: file.report.mode };
    let pub;
    let deployment = null;
    let failed = true;
    try {
        pub = await openPublication(own, Promise.resolve(), pr);
        deployment = await startDeployment(own, pub, sha);
        await publish(pub, file.report, file.record);
        await deployment?.succeed(environmentUrlOf(file.report));
        core/* info */.pq(`Published the report of pull request #${pr.number} (database ${(0,inert/* logLine */.BP)(file.report.databaseId ?? '?', 100)}).`);
        failed = false;
    }
    finally {
        if (failed)
            await deployment?.fail().catch(() => undefined);
        await releaseLock(pub, own.mode, failed);
    }
}

;// CONCATENATED MODULE: ./src/publish/run-report.ts
/**
 * The `report-file` output of `command: create` in instant mode
 * (report-file.ts): written for every run of a PR, so a fork PR's workflow
 * can upload it for the `workflow_run` job that posts the comment.
 */



/** Writes the report file into `RUNNER_TEMP` (its name carries `preview-name`) and sets the `report-file` output (instant mode, with a PR). */
async function writeRunReport(settings, pub, done) {
    if (settings.mode !== 'instant' || !pub.pr)
        return;
    const file = await writeReportFile(process.env.RUNNER_TEMP || external_node_os_default().tmpdir(), pub.pr, done.report, done.record, settings.previewName);
    core/* setOutput */.uH('report-file', file);
    if (pub.readOnly)
        core/* info */.pq(`Wrote the report for the \`workflow_run\` job to ${file} (upload it with actions/upload-artifact).`);
}

;// CONCATENATED MODULE: ./src/main.ts
/**
 * The action's story: read and check the inputs, check the seed files while
 * taking the PR comment's lock (which finds what an earlier run of this PR
 * left), run the command, and release the lock whatever happened.
 */

























/**
 * Runs the action. Every failure ends in `core.setFailed` with a message
 * that says what to fix; nothing secret is ever part of it. Whatever
 * happens, a comment lock this run holds is released before it ends (a
 * cancelled run releases it in its undo steps, cancel.ts).
 * @param checked the inputs, when the caller has read them already (index.ts does, before loading this module)
 */
async function run(checked) {
    let settings;
    let pub;
    let deploying = Promise.resolve(null);
    let failed = false;
    let failedBecause;
    try {
        settings = checked ?? (0,inputs/* readSettings */.s)();
        const refused = (0,run_source/* commandRefusedBecause */.yd)(settings.command);
        if (refused)
            return core/* notice */.lm(refused); // before any request: nothing provisioned, nothing written
        const client = (0,platform_client/* neonClientOf */.ZF)(settings); // the run's one Neon API client (branch mode; no request until used)
        (0,project_wait/* waitForBusyProject */.vo)(client, settings); // a request that meets 423 twice (or five times) waits for the project's running operations
        if (settings.command === 'cleanup')
            return await runCleanup(settings, client);
        if (settings.command === 'publish')
            return await publishReport(settings);
        (0,phases/* mark */.Gy)('seed files');
        const seedFiles = settings.command === 'create' || settings.command === 'reset' ? await resolveSeedFiles(settings.seed) : [];
        const seedCheck = startSeedCheck(seedFiles);
        const fingerprinting = seedFingerprintOf(settings, seedFiles, seedCheck); // hashed while the lock is taken
        if (settings.command === 'create') {
            // overlaps the comment lock's requests
            void preloadSchemaTools(settings.mode, { ...settings, seedCommand: settings.seedCommand || settings.migrateCommand });
        }
        (0,phases/* mark */.Gy)('comment lock');
        pub = await openPublication(settings, seedCheck);
        (0,phases/* mark */.Gy)('check pass (the rest)');
        const seed = await checkedSeed(seedFiles, seedCheck);
        const fingerprint = await fingerprinting;
        const branchName = branchNameOf(settings, pub.pr);
        const driver = settings.mode === 'instant' ? instantDriver(settings, pub) : branchDriver(settings, client, branchName, pub.existing?.record);
        if (settings.command === 'create') {
            deploying = startDeployment(settings, pub); // beside provisioning: it needs nothing of the database
            const { lock } = pub;
            const started = deploying;
            // A branch this run creates records both ids, so the sweep writes to them without listing.
            recordIdsFrom(() => ({ commentId: lock?.claim.id || undefined, deploymentId: started.then((d) => d?.id) }));
            const { command, seedCommand, schemaOnly } = settings;
            const under = (maskingRules) => seedFingerprintOf({ command, seedCommand, schemaOnly, maskingRules }, seedFiles, seedCheck);
            const done = await create(settings, seed, pub, driver, fingerprint, under);
            await (await deploying)?.succeed(environmentUrlOf(done.report));
            await writeRunReport(settings, pub, done);
        }
        else if (settings.command === 'delete') {
            await deletePreview(pub, driver);
            await deactivateDeployments(settings, pub.pr);
            await removeVercelVariables(settings, pub.pr);
        }
        else
            await resetBranch(client, settings, branchName, seed, pub, fingerprint);
    }
    catch (err) {
        if ((0,cancel/* isCancelled */.mm)())
            return; // the cancel handler reports and undoes
        failed = true;
        // A plan limit of Neon's is named in the PR comment too, with its way out.
        if (err instanceof api_errors/* NeonLimitError */.w)
            failedBecause = err.message;
        await (await deploying)?.fail();
        core/* setFailed */.C1(err instanceof Error ? err.message : String(err));
    }
    finally {
        (0,phases/* mark */.Gy)('finish');
        await (0,pg_sessions/* endSessions */.vG)(); // an open connection would keep the process running
        if (settings)
            await releaseLock(pub, settings.mode, failed, failedBecause);
        core/* info */.pq(`Where the time went:\n${(0,phases/* phaseLog */.yr)()}`);
    }
}


/***/ }),

/***/ 8174:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   IH: () => (/* binding */ connectDirect),
/* harmony export */   fY: () => (/* binding */ leaseSession),
/* harmony export */   vG: () => (/* binding */ endSessions)
/* harmony export */ });
/* harmony import */ var pg__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3849);
/* harmony import */ var _connection_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7199);
/* harmony import */ var _phases_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(119);
/**
 * One PostgreSQL session per database for a run's own work (the seed loader,
 * the schema snapshots), instead of a connection each: every connection
 * costs a TCP, TLS and SCRAM handshake: 5 round trips (TCP, TLS at once, then
 * startup and SCRAM; one more where TLS needs the SSLRequest first).
 *
 * Each user takes the session with {@link leaseSession} and gives it back
 * with `release`; users wait for each other, so their statements never
 * interleave. A user that may have changed the session's state (the seed's
 * `SET search_path`, `SET ROLE`, client_encoding, temporary tables, …) gives
 * it back `dirty`, and the next user first gets `DISCARD ALL` (PostgreSQL
 * docs, DISCARD: "resets a session to its original state"), so every user
 * sees what a new connection would. A session that failed or was closed by
 * the server is replaced by a new connection at the next lease.
 *
 * The caller ends sessions with {@link endSessions} whenever nothing of ours
 * may stay connected: before `seed-command` (a migration tool may need the
 * database to itself), before undoing a failed seed (a branch is deleted),
 * and at the end of the run (an open socket would keep Node running).
 */



/** Open sessions by direct connection string. */
const sessions = new Map();
/** What `application_name` says for the run's own session. */
const APPLICATION_NAME = 'preview-postgres';
/**
 * Lends the run's session to `connection`'s database (its direct URL),
 * connecting on first use or after the last session failed, once the
 * previous user has released it.
 * @throws the driver's error when the database cannot be reached
 */
async function leaseSession(connection) {
    const key = connection.directUrl;
    for (;;) {
        const current = sessions.get(key);
        if (!current)
            break;
        if (current.leased) {
            await current.idle;
            continue;
        }
        if (!current.broken) {
            const lease = await lend(current);
            if (lease)
                return lease;
            continue; // its reset failed: replace it
        }
        sessions.delete(key);
        await current.client?.end().catch(() => undefined);
    }
    const session = { client: undefined, leased: false, broken: false, dirty: false, idle: Promise.resolve() };
    sessions.set(key, session);
    const lease = (await lend(session));
    const back = (0,_phases_js__WEBPACK_IMPORTED_MODULE_2__/* .mark */ .Gy)('connect');
    try {
        session.client = await connectDirect(connection, APPLICATION_NAME, (client) => {
            session.client = client;
            session.broken = false; // the last attempt's client, if any, failed to connect and was ended
            // An idle client's socket error would otherwise be an uncaught 'error' event.
            const broken = () => {
                if (session.client === client)
                    session.broken = true; // not a failed direct TLS attempt's client
            };
            client.on('error', broken);
            client.on('end', broken);
            // pg keeps ParameterStatus to itself; the catalog reader needs server_version without a round trip.
            const wire = client.connection;
            wire?.on('parameterStatus', (m) => {
                if (m.parameterName === 'server_version')
                    session.serverVersion = m.parameterValue;
            });
            (0,_phases_js__WEBPACK_IMPORTED_MODULE_2__/* .countRoundTrips */ .sZ)(client);
        });
    }
    catch (err) {
        session.broken = true;
        lease.release();
        throw err;
    }
    finally {
        back();
    }
    return lease;
}
/**
 * Connects a client to `connection`'s direct connection string
 * ({@link directClientConfig}: TLS at once, without the SSLRequest), and when
 * that fails before the server answered as PostgreSQL, once more with the
 * SSLRequest ({@link fallBackFromDirectTls}).
 * @param prepare attaches the caller's listeners to each client before it connects
 * @returns the connected client
 * @throws the driver's error when the database cannot be reached (each failed client is ended)
 */
async function connectDirect(connection, applicationName, prepare = () => undefined) {
    for (;;) {
        const config = (0,_connection_js__WEBPACK_IMPORTED_MODULE_1__/* .directClientConfig */ .$P)(connection, applicationName);
        const client = new pg__WEBPACK_IMPORTED_MODULE_0__/* ["default"].Client */ .Ay.Client(config);
        prepare(client);
        try {
            await client.connect();
            return client;
        }
        catch (err) {
            await client.end().catch(() => undefined);
            if (!(0,_connection_js__WEBPACK_IMPORTED_MODULE_1__/* .fallBackFromDirectTls */ .zM)(config, err))
                throw err;
        }
    }
}
/**
 * Marks `session` lent until the lease is released; resets its state first
 * when the last user left it dirty.
 * @returns null when the reset failed (say, a transaction a failed user left
 *   aborted): the session is then marked broken and released.
 */
async function lend(session) {
    let free;
    session.leased = true;
    session.idle = new Promise((resolve) => (free = resolve));
    let released = false;
    const lease = {
        get client() {
            return session.client; // the lease reaches its user only once connected
        },
        release(dirty = false) {
            if (released)
                return;
            released = true;
            if (dirty)
                session.dirty = true;
            session.leased = false;
            free();
        },
        serverVersion: () => session.serverVersion
    };
    if (session.dirty) {
        try {
            await session.client.query('DISCARD ALL'); // dirty: a user had it, so it connected
            session.dirty = false;
        }
        catch {
            session.broken = true;
            lease.release();
            return null;
        }
    }
    return lease;
}
/**
 * Closes every session now (a user still holding one sees its connection
 * end). Never throws.
 */
async function endSessions() {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((s) => s.client?.end().catch(() => undefined)));
}


/***/ }),

/***/ 3204:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   uC: () => (/* binding */ CatalogSession)
/* harmony export */ });
/* unused harmony exports CATALOG_QUERIES, catalogTexts, readCatalog */
/* harmony import */ var _pgkit_schemainspect_dist_queries_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4654);
/* harmony import */ var _pg_sessions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8174);
/**
 * The catalog reads of the schema diff, apart from the inspector: the texts
 * of schemainspect's catalog queries (its `queries` module, a plain map of
 * SQL texts, without the inspector, the differ and the SQL grammar they pull
 * in), sent as one batch, and the session they are read over. This module
 * is part of the main bundle, so a snapshot's rows can be read before the
 * schema tools' chunk is loaded; inspect.ts builds them into a snapshot.
 */


/** The catalog queries schemainspect runs (`PostgreSQL#execute` names), in its order. */
const CATALOG_QUERIES = [
    'SCHEMAS_QUERY',
    'ENUMS_QUERY',
    'ALL_RELATIONS_QUERY',
    'INDEXES_QUERY',
    'SEQUENCES_QUERY',
    'CONSTRAINTS_QUERY',
    'EXTENSIONS_QUERY',
    'FUNCTIONS_QUERY',
    'PRIVILEGES_QUERY',
    'TRIGGERS_QUERY',
    'COLLATIONS_QUERY',
    'RLSPOLICIES_QUERY',
    'TYPES_QUERY',
    'DOMAINS_QUERY',
    'DEPS_QUERY'
];
/**
 * Queries not sent, answered with no rows: grants are neither counted
 * (changes.ts) nor rendered (render.ts applies no `privileges` group of
 * migra's), and nothing else of schemainspect's reads them. Saves the
 * server a scan of every object's ACL in each snapshot.
 */
const NOT_READ = new Set(['PRIVILEGES_QUERY']);
/** Each query's file in schemainspect's `queries` map. */
const FILES = {
    SCHEMAS_QUERY: 'schemas.sql',
    ENUMS_QUERY: 'enums.sql',
    ALL_RELATIONS_QUERY: 'relations.sql',
    INDEXES_QUERY: 'indexes.sql',
    SEQUENCES_QUERY: 'sequences.sql',
    CONSTRAINTS_QUERY: 'constraints.sql',
    EXTENSIONS_QUERY: 'extensions.sql',
    FUNCTIONS_QUERY: 'functions.sql',
    PRIVILEGES_QUERY: 'privileges.sql',
    TRIGGERS_QUERY: 'triggers.sql',
    COLLATIONS_QUERY: 'collations.sql',
    RLSPOLICIES_QUERY: 'rlspolicies.sql',
    TYPES_QUERY: 'types.sql',
    DOMAINS_QUERY: 'domains.sql',
    DEPS_QUERY: 'deps.sql'
};
/**
 * The texts schemainspect 0.6.1's `PostgreSQL` constructor makes for a
 * server version (without `include_internal`): its markers replaced as it
 * replaces them (`-- SKIP_INTERNAL`, `-- 11_AND_LATER` or `-- 10_AND_EARLIER`,
 * `-- 12_ONLY` or `-- PRE_12` in the relations query, `\:` → `:`), with its
 * two casts to text for node-postgres (enum labels, policy roles); before
 * PostgreSQL 10, its `9` variants and no policies query. A unit test checks
 * them against the constructor's, text for text.
 * @param serverVersion `server_version` ("17.2")
 * @returns the text of each query, absent where schemainspect runs none
 * @throws Error when the version does not start with a number
 */
function catalogTexts(serverVersion) {
    const major = Number.parseInt(serverVersion.split('.')[0], 10);
    if (Number.isNaN(major))
        throw new Error(`Unexpected server version: ${serverVersion}`);
    const processed = (q) => q
        .replaceAll('-- SKIP_INTERNAL', '')
        .replaceAll(major >= 11 ? '-- 11_AND_LATER' : '-- 10_AND_EARLIER', '')
        .replaceAll('\\:', ':');
    const texts = {};
    for (const name of CATALOG_QUERIES) {
        let file = FILES[name];
        if (major <= 9 && name === 'RLSPOLICIES_QUERY')
            continue;
        if (major <= 9 && (name === 'ALL_RELATIONS_QUERY' || name === 'COLLATIONS_QUERY'))
            file = file.replace('.sql', '9.sql');
        let text = _pgkit_schemainspect_dist_queries_js__WEBPACK_IMPORTED_MODULE_0__.queries[file];
        // schemainspect's own deviations for node-postgres, which parses neither enum arrays nor unknown types
        if (name === 'ENUMS_QUERY')
            text = text.replace('SELECT e.enumlabel', 'SELECT e.enumlabel::text');
        if (name === 'RLSPOLICIES_QUERY')
            text = text.replace('pg_get_userbyid(o)', 'pg_get_userbyid(o)::text');
        if (major > 9 && name === 'ALL_RELATIONS_QUERY')
            text = text.replaceAll(major >= 12 ? '-- 12_ONLY' : '-- PRE_12', '');
        texts[name] = processed(text);
    }
    return texts;
}
const VERSION_QUERY = "select current_setting('server_version') server_version";
/**
 * Reads the catalog rows of a whole snapshot over `client` in one batch (one
 * round trip); the queries in {@link NOT_READ} get no rows.
 * @param serverVersion `server_version` as the server reported it ("17.2"); read with a query when absent
 * @throws the driver's error when a catalog query fails
 */
async function readCatalog(client, serverVersion) {
    const version = serverVersion ?? String((await client.query(VERSION_QUERY)).rows[0]?.server_version);
    const texts = catalogTexts(version);
    const names = CATALOG_QUERIES.filter((name) => texts[name] !== undefined && !NOT_READ.has(name));
    const results = (await client.query(names.map((name) => texts[name]).join('\n;\n')));
    const list = Array.isArray(results) ? results : [results];
    if (list.length !== names.length)
        throw new Error(`schema inspection: ${names.length} catalog queries gave ${list.length} results`);
    const rows = new Map(names.map((name, i) => [name, list[i].rows]));
    for (const name of NOT_READ)
        if (texts[name] !== undefined)
            rows.set(name, []);
    return { serverVersion: version, rows };
}
/**
 * The catalog's view of the run's one PostgreSQL session (pg-sessions.ts, shared
 * with the seed loader: one handshake a run). Each use leases the
 * session and gives it back, so it holds no connection of its own; a session
 * the server ended (say, while `seed-command` ran) is replaced at the next lease.
 */
class CatalogSession {
    connection;
    constructor(connection) {
        this.connection = connection;
    }
    /** The catalog rows of the schema now, in one batch of catalog queries (inspect.ts builds the snapshot). @throws the driver's error */
    async read() {
        const lease = await (0,_pg_sessions_js__WEBPACK_IMPORTED_MODULE_1__/* .leaseSession */ .fY)(this.connection);
        try {
            return await readCatalog(lease.client, lease.serverVersion());
        }
        finally {
            lease.release();
        }
    }
    /**
     * Which of `tables` (quoted `"schema"."name"`) have at least one row now,
     * in one query. Used to flag `SET NOT NULL` on a table with rows as destructive.
     * @throws the driver's error
     */
    async tablesWithRows(tables) {
        const found = new Set();
        if (tables.length === 0)
            return found;
        const select = tables.map((t, i) => `EXISTS (SELECT 1 FROM ${t}) AS "${i}"`).join(', ');
        const lease = await (0,_pg_sessions_js__WEBPACK_IMPORTED_MODULE_1__/* .leaseSession */ .fY)(this.connection);
        try {
            const row = (await lease.client.query(`SELECT ${select}`)).rows[0] ?? {};
            tables.forEach((t, i) => {
                if (row[String(i)])
                    found.add(t);
            });
        }
        finally {
            lease.release();
        }
        return found;
    }
}


/***/ }),

/***/ 2687:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ parseSql),
/* harmony export */   q: () => (/* binding */ loadParser)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_module__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1376);
/* harmony import */ var node_module__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_module__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3136);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_url__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8877);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_4___default = /*#__PURE__*/__webpack_require__.n(node_v8__WEBPACK_IMPORTED_MODULE_4__);
/**
 * PostgreSQL's own SQL parser (libpg-query: the server's grammar, PostgreSQL
 * 17, compiled to WebAssembly), loaded once per process for whoever needs it:
 * the seed's statement kinds (seed/grammar.ts) and the schema diff's script
 * check (schema/render.ts). The library is imported only by
 * {@link loadParser}, so the bundle keeps it in a chunk of its own, read only
 * when a run parses SQL.
 *
 * Two things the library needs before it loads:
 * - its emscripten loader looks for `libpg-query.wasm` in `__dirname`, a
 *   CommonJS variable that the action's ES module bundle does not have (Node
 *   then throws "Cannot determine intended module format"): a global
 *   `__dirname` is set, while it loads, to the folder that holds the file (the
 *   bundle's own, dist/, where `npm run package` copies it, or from source the
 *   package's);
 * - V8 must not optimize WebAssembly with TurboFan (set before the module
 *   compiles; at run time Node 24 needs all three flags, `--liftoff-only` alone
 *   does not imply the others there): optimizing the parser's grammar function
 *   took about 500 MB of memory and a core for a second or two (peak RSS 640 MiB
 *   against 110 MiB with Liftoff alone, pagila, measured), and the action
 *   parses few statements.
 */





const WASM = 'libpg-query.wasm';
let loading;
let library;
/** Loads the parser (about 20 ms, once per process; later calls return the same promise). Call before {@link parseSql}. */
function loadParser() {
    loading ??= load();
    return loading;
}
async function load() {
    for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'])
        node_v8__WEBPACK_IMPORTED_MODULE_4___default().setFlagsFromString(flag);
    const g = globalThis;
    const set = g.__dirname === undefined;
    if (set) {
        const here = node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname((0,node_url__WEBPACK_IMPORTED_MODULE_3__.fileURLToPath)(import.meta.url)) + (node_path__WEBPACK_IMPORTED_MODULE_2___default().sep);
        g.__dirname = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.existsSync)(here + WASM) ? here : node_path__WEBPACK_IMPORTED_MODULE_2___default().dirname((0,node_module__WEBPACK_IMPORTED_MODULE_1__.createRequire)(import.meta.url).resolve('libpg-query'));
    }
    try {
        const lib = await __webpack_require__.e(/* import() */ 627).then(__webpack_require__.t.bind(__webpack_require__, 2627, 23));
        await lib.loadModule();
        library = lib;
    }
    finally {
        if (set)
            delete g.__dirname;
    }
}
/**
 * Parses `sql` (one or more statements) into libpg-query's tree: `{ stmts: [{ stmt }] }`.
 * @throws Error (the parser's message) when it does not parse, or when {@link loadParser} has not finished
 */
function parseSql(sql) {
    if (!library)
        throw new Error('The SQL parser is not loaded (call loadParser first).');
    return library.parseSync(sql);
}


/***/ })

};

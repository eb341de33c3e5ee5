export const id = 161;
export const ids = [161,535];
export const modules = {

/***/ 2161:
/***/ ((module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
__webpack_require__.r(__webpack_exports__);
/* harmony import */ var _v8_settings_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8535);
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1889);
/* harmony import */ var _cancel_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(833);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8422);
/* harmony import */ var _post_state_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8653);
/* harmony import */ var _phases_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(119);
/**
 * The main step: read and check the inputs (only what that needs is loaded
 * before it: a refused input fails in about the time Node takes to start),
 * then load the action's story (main.ts, a chunk of its own) and run it
 * under the cancel handler.
 */
 // first: V8's heap and compiler settings before anything allocates or compiles





_actions_core__WEBPACK_IMPORTED_MODULE_1__/* .saveState */ .LZ(_post_state_js__WEBPACK_IMPORTED_MODULE_4__/* .STATE */ .c4.isPost, 'true');
let settings;
(0,_phases_js__WEBPACK_IMPORTED_MODULE_5__/* .mark */ .Gy)('inputs');
try {
    settings = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_3__/* .readSettings */ .s)();
}
catch (err) {
    // as run() reports it: nothing was started, so there is nothing to undo or release
    _actions_core__WEBPACK_IMPORTED_MODULE_1__/* .setFailed */ .C1(err instanceof Error ? err.message : String(err));
}
if (settings) {
    const checked = settings;
    (0,_cancel_js__WEBPACK_IMPORTED_MODULE_2__/* .handleCancellation */ .qO)();
    (0,_phases_js__WEBPACK_IMPORTED_MODULE_5__/* .mark */ .Gy)('loading the code');
    const { run } = await Promise.all(/* import() */[__webpack_require__.e(324), __webpack_require__.e(716), __webpack_require__.e(359), __webpack_require__.e(825)]).then(__webpack_require__.bind(__webpack_require__, 1825));
    await (0,_cancel_js__WEBPACK_IMPORTED_MODULE_2__/* .runMainFlow */ .zw)(() => run(checked));
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 119:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gy: () => (/* binding */ mark),
/* harmony export */   RO: () => (/* binding */ overlapped),
/* harmony export */   pM: () => (/* binding */ phaseTrace),
/* harmony export */   sZ: () => (/* binding */ countRoundTrips),
/* harmony export */   yr: () => (/* binding */ phaseLog)
/* harmony export */ });
/* unused harmony export pgRoundTrip */
/* harmony import */ var node_diagnostics_channel__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3053);
/* harmony import */ var node_diagnostics_channel__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_diagnostics_channel__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(643);
/* harmony import */ var node_perf_hooks__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__);
/**
 * The run's phase trace: where the wall time of one run went, phase by phase,
 * with the round trips each phase spent. The run is one timeline: {@link mark}
 * ends the current phase and starts the next, so the phases add up to the
 * run's wall time from the process's start (`performance.timeOrigin`). A
 * phase entered more than once (the schema diff's two snapshots) adds up.
 * Work that overlaps the timeline (the seed's check pass, which runs while
 * the comment lock is taken) is recorded with {@link overlapped} and shown
 * beside it, not in the sum.
 *
 * Round trips: every HTTP request the process makes (undici's fetch, proxy-fetch.ts; its
 * `undici:request:create` diagnostics channel) counts one; PostgreSQL round
 * trips are counted on each session by {@link countRoundTrips}. Imports
 * nothing of the action's: any module may add an entry.
 */


const entries = new Map();
let current = 'process start';
let since = 0; // performance.now() is milliseconds since the process's start
function entry(phase) {
    let e = entries.get(phase);
    if (!e)
        entries.set(phase, (e = { phase, ms: 0, pgRoundTrips: 0, httpRequests: 0 }));
    return e;
}
/**
 * Ends the current phase and starts `phase` (milliseconds from
 * `performance.now()`).
 * @returns a function that goes back to the phase that was current before (for a phase nested in another, like connect)
 */
function mark(phase) {
    const previous = current;
    const now = node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now();
    entry(current).ms += now - since;
    current = phase;
    since = now;
    entry(phase);
    return () => {
        if (current === phase)
            mark(previous);
    };
}
/** Records work that ran beside the timeline (`ms` milliseconds of wall time). */
function overlapped(phase, ms) {
    const e = entry(phase);
    e.overlapped = true;
    e.ms += ms;
}
/** Counts one PostgreSQL round trip in the current phase. */
function pgRoundTrip() {
    entry(current).pgRoundTrips++;
}
node_diagnostics_channel__WEBPACK_IMPORTED_MODULE_0___default().channel('undici:request:create').subscribe(() => entry(current).httpRequests++);
/**
 * Counts the round trips of a node-postgres client, before it connects: one
 * for each answer the server sends after the client has sent something
 * since the last answer (PostgreSQL protocol: the client writes, then reads
 * the reply). The SSLRequest and the TLS 1.3 handshake after it count two;
 * direct TLS (no SSLRequest) one.
 * A client without the expected internals is not counted.
 */
function countRoundTrips(client) {
    const wire = client.connection;
    if (!wire || typeof wire._send !== 'function' || typeof wire.requestSsl !== 'function' || typeof wire.startup !== 'function')
        return;
    let sent = false;
    const send = wire._send.bind(wire);
    wire._send = (buffer) => {
        sent = true;
        return send(buffer);
    };
    // The SSLRequest and the StartupMessage are written to the socket without _send.
    const requestSsl = wire.requestSsl.bind(wire);
    wire.requestSsl = () => {
        sent = true;
        requestSsl();
    };
    const startup = wire.startup.bind(wire);
    wire.startup = (config) => {
        sent = true;
        startup(config);
    };
    wire.on('sslconnect', () => {
        // the TLS handshake, and before it the SSLRequest's one-byte answer unless TLS started at once; neither a protocol message
        pgRoundTrip();
        if (wire.sslNegotiation !== 'direct')
            pgRoundTrip();
        sent = false;
    });
    wire.on('message', () => {
        if (!sent)
            return;
        sent = false;
        pgRoundTrip();
    });
}
/**
 * The trace so far: the timeline's phases in the order first entered (the
 * current one up to now), then the overlapped ones.
 */
function phaseTrace() {
    const now = node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now();
    const all = [...entries.values()].map((e) => ({ ...e, ms: e.phase === current && !e.overlapped ? e.ms + now - since : e.ms }));
    return [...all.filter((e) => !e.overlapped), ...all.filter((e) => e.overlapped)];
}
/** One line per phase for the job log: "provisioning 412 ms, 0 PostgreSQL round trips, 2 HTTP requests". */
function phaseLog(trace = phaseTrace()) {
    return trace
        .map((p) => `${p.phase}${p.overlapped ? ' (overlapped)' : ''}: ${Math.round(p.ms)} ms, ${p.pgRoundTrips} PostgreSQL round trip(s), ${p.httpRequests} HTTP request(s)`)
        .join('\n');
}


/***/ }),

/***/ 8653:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Tu: () => (/* binding */ saveUnseeded),
/* harmony export */   c4: () => (/* reexport safe */ _step_state_js__WEBPACK_IMPORTED_MODULE_1__.c),
/* harmony export */   dP: () => (/* binding */ saveJobBranch),
/* harmony export */   nH: () => (/* binding */ clearUnseeded)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _step_state_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2649);
/**
 * What the main step tells the post step (`runs.post`), through
 * `core.saveState` (GITHUB_STATE: appended at once, so it survives a
 * SIGKILL; the post step reads it as `STATE_<name>`, the last value saved wins).
 * An empty value means "nothing left to undo".
 */



/** The branch this run holds under the unseeded name `branch.name`; the post step deletes it unless {@link clearUnseeded} ran (and only while it keeps that name). */
function saveUnseeded(branch) {
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(_step_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c.unseededBranch, JSON.stringify({ id: branch.id, name: branch.name }));
}
/** A branch for this job alone (a merge group's): the post step deletes it when the job ends. */
function saveJobBranch(branch) {
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(_step_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c.jobBranch, JSON.stringify({ id: branch.id, name: branch.name }));
}
/** The branch is seeded, or already deleted: nothing for the post step. */
function clearUnseeded() {
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(_step_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c.unseededBranch, '');
}


/***/ }),

/***/ 8535:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8877);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_v8__WEBPACK_IMPORTED_MODULE_0__);
/**
 * V8 settings for the action's process, set on import, before the work
 * they concern; V8 reads them while it runs, so they work without
 * command-line flags (which a JavaScript action cannot pass).
 *
 * The heap (peak RSS at most 128 MiB for any seed):
 * - `--semi-space-growth-factor=1`: the young generation stays at its
 *   initial size. A seed of many statements allocates fast, and V8 otherwise
 *   grows it to 64 MiB (twice: 125 MiB of RSS measured on a 9 MiB
 *   `--inserts` dump) for objects that die young anyway.
 * - `--heap-growing-percent=10`: the old generation is collected when it has
 *   grown by 10 %, not by V8's default factor (up to 4×), so statements
 *   promoted while a batch is built do not pile up.
 * - `--optimize-for-size`: "favor memory size over execution speed" (V8's
 *   flag text): the heap is treated as short of memory, so collections
 *   compact and give pages back more eagerly.
 * Measured on the 9 MiB `--inserts` dump (npm run bench:seed): the first two
 * took peak RSS from 265 to about 120 MiB, client CPU about +20 %. The third,
 * on the whole action (npm run bench:rss): `--inserts` dumps 126–131 → 113–118
 * MiB median, client CPU 5 to 10 % more on them; COPY dumps' CPU and the
 * other loads' times unchanged (docs/benchmarks.md, Peak RSS).
 */

/**
 * Compilation:
 * - `--no-sparkplug`: no baseline machine code. V8's Sparkplug compiles
 *   warm functions' bytecode on its worker threads, work a run of a second
 *   or less rarely earns back; hot code still goes to Maglev and TurboFan.
 *   Measured (the threads' CPU in /proc, a branch-mode
 *   run with its comment against the emulator, three rounds of seven
 *   runs): 6 % less CPU a run (V8's worker threads 20 to 30 ms less);
 *   `npm run bench:seed` (3 rounds) no slower: the 9 MiB `--inserts` dump's
 *   client CPU 1.47 s against 1.57 s, a 60 MiB COPY 0.32 against 0.36 s;
 *   peak RSS the same.
 */
const FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=10', '--optimize-for-size', '--no-sparkplug'];
for (const flag of FLAGS)
    node_v8__WEBPACK_IMPORTED_MODULE_0___default().setFlagsFromString(flag);


/***/ })

};

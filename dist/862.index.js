export const id = 862;
export const ids = [862];
export const modules = {

/***/ 5862:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   runPost: () => (/* binding */ runPost)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _post_state_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8653);
/**
 * The post step (`runs.post`, run by GitHub after the main step even when it
 * failed or was cancelled or killed): when the main step left an unseeded
 * branch (created, or taken out of reuse for a reset, under its unseeded
 * name) or still held the PR comment's provisioning lock, undoes that
 * (post-undo.ts, loaded only then: after a successful main, which clears
 * both, the step does nothing and loads nothing more). A branch made for
 * the job alone (a merge group's, run-source.ts) is deleted whatever main did.
 */


/** Runs the post step. Never fails the job for what it could not undo: it warns and says what to do by hand. */
async function runPost() {
    const branch = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(_post_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c4.unseededBranch);
    const lock = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(_post_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c4.lockComment);
    const job = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(_post_state_js__WEBPACK_IMPORTED_MODULE_1__/* .STATE */ .c4.jobBranch);
    if (!branch && !lock)
        return job ? await deleteJob(job) : undefined;
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e('The main step did not finish (it failed, or was cancelled or killed): undoing what it left half done.');
    const { deleteUnseeded, releaseLock } = await Promise.all(/* import() */[__webpack_require__.e(916), __webpack_require__.e(324), __webpack_require__.e(359), __webpack_require__.e(422), __webpack_require__.e(53)]).then(__webpack_require__.bind(__webpack_require__, 53));
    if (branch) {
        await deleteUnseeded(branch).catch((err) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not delete the unseeded branch ${branch}: ${err.message} Delete it by hand.`));
    }
    if (lock)
        await releaseLock(lock).catch((err) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not release the preview comment ${lock}: ${err.message}`));
    if (job)
        await deleteJob(job);
}
/** Deletes the branch made for this job alone (a merge group's): its `expires_at` removes it should this fail. */
async function deleteJob(job) {
    const { deleteJobBranch } = await Promise.all(/* import() */[__webpack_require__.e(916), __webpack_require__.e(324), __webpack_require__.e(359), __webpack_require__.e(422), __webpack_require__.e(53)]).then(__webpack_require__.bind(__webpack_require__, 53));
    await deleteJobBranch(job).catch((err) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(`Could not delete branch ${job}, made for this job alone: ${err.message} Its expiry (expires_at) removes it, or \`command: cleanup\` does.`));
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


/***/ })

};

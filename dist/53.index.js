export const id = 53;
export const ids = [53];
export const modules = {

/***/ 53:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   deleteJobBranch: () => (/* binding */ deleteJobBranch),
/* harmony export */   deleteUnseeded: () => (/* binding */ deleteUnseeded),
/* harmony export */   releaseLock: () => (/* binding */ releaseLock)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1889);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8422);
/* harmony import */ var _platform_branch_delete_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(723);
/* harmony import */ var _platform_branch_wait_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1441);
/* harmony import */ var _platform_preview_branch_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(5272);
/* harmony import */ var _platform_client_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(7442);
/* harmony import */ var _platform_annotations_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(2308);
/* harmony import */ var _platform_project_wait_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(9142);
/* harmony import */ var _publish_report_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(1016);
/* harmony import */ var _comment_comment_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(6924);
/* harmony import */ var _comment_lock_saved_js__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(7466);
/**
 * What the post step undoes (commands/post.ts loads this module only when
 * there is something to undo). When main created a branch it did not
 * finish seeding (created, or taken out of reuse for a reset) and that is
 * still under its unseeded name, the post step deletes it, waiting first for the branch's
 * own operations and retrying 423, which the SIGINT handler has no time for;
 * when main still held the PR comment's provisioning lock, it marks the
 * comment failed. After a successful main both are cleared, and it does nothing.
 */











/**
 * Deletes the unseeded branch named in the state, but only while it is still
 * as the main step left it: the same id under the unseeded name
 * `<name>~seeding` the state names. A branch renamed since (its seed
 * completed, or a reset's rename never happened) is in use or usable: kept.
 * A branch that another run deleted and made again has another id: kept.
 * @throws on a failed delete.
 */
async function deleteUnseeded(saved) {
    const { id, name } = JSON.parse(saved);
    const settings = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .readSettings */ .s)();
    const client = (0,_platform_client_js__WEBPACK_IMPORTED_MODULE_5__/* .neonClientOf */ .ZF)(settings);
    (0,_platform_project_wait_js__WEBPACK_IMPORTED_MODULE_7__/* .waitForBusyProject */ .vo)(client, settings);
    await _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .group */ .Os(`Delete branch "${name}", which the main step did not finish seeding`, async () => {
        const branch = await client.getBranch(id);
        if (!branch)
            return _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch "${name}" (${id}) is already gone.`);
        if (branch.name !== name || !name.endsWith(_platform_preview_branch_js__WEBPACK_IMPORTED_MODULE_4__/* .UNSEEDED_SUFFIX */ .Q2)) {
            return _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch ${id} is now named "${branch.name}", not "${name}" as the main step left it: it is seeded or in use, so it is kept.`);
        }
        await (0,_platform_branch_wait_js__WEBPACK_IMPORTED_MODULE_3__/* .waitForPendingOf */ .fS)(client, branch, settings);
        const ops = await (0,_platform_branch_delete_js__WEBPACK_IMPORTED_MODULE_2__/* .deleteBranchAndWait */ .C)(client, branch, settings);
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Deleted branch "${name}" (${id})${ops === null ? ': it was already gone' : ''}, so the next run starts clean.`);
    });
}
/**
 * Deletes the branch made for this job alone (a merge group's) that the state names, by its id:
 * its job is over. A branch of that id that is not ours (no annotations of this repository's
 * merge groups) is kept.
 * @throws on a failed delete.
 */
async function deleteJobBranch(saved) {
    const { id, name } = JSON.parse(saved);
    const settings = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .readSettings */ .s)();
    const client = (0,_platform_client_js__WEBPACK_IMPORTED_MODULE_5__/* .neonClientOf */ .ZF)(settings);
    (0,_platform_project_wait_js__WEBPACK_IMPORTED_MODULE_7__/* .waitForBusyProject */ .vo)(client, settings);
    await _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .group */ .Os(`Delete branch "${name}", made for this job alone`, async () => {
        const found = await client.branchWithAnnotations(id);
        if (!found)
            return _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch "${name}" (${id}) is already gone.`);
        if ((0,_platform_annotations_js__WEBPACK_IMPORTED_MODULE_6__/* .ownerOf */ .bf)(found.annotations)?.kind !== 'merge-group')
            return _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch ${id} is not a merge group's: kept.`);
        await (0,_platform_branch_wait_js__WEBPACK_IMPORTED_MODULE_3__/* .waitForPendingOf */ .fS)(client, found.branch, settings);
        const ops = await (0,_platform_branch_delete_js__WEBPACK_IMPORTED_MODULE_2__/* .deleteBranchAndWait */ .C)(client, found.branch, settings);
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Deleted branch "${found.branch.name}" (${id})${ops === null ? ': it was already gone' : ''}: the job that had it is over.`);
    });
}
/** Releases the PR's lock the main step still held (comment/lock/saved.ts), saying in the comment that the run failed. */
async function releaseLock(saved) {
    const settings = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .readSettings */ .s)();
    const pr = (0,_comment_comment_js__WEBPACK_IMPORTED_MODULE_9__/* .pullRequestOfEvent */ .My)();
    if (!pr || !settings.githubToken || !(0,_comment_lock_saved_js__WEBPACK_IMPORTED_MODULE_10__/* .savedLock */ .h3)(saved))
        return;
    const octokit = (0,_comment_comment_js__WEBPACK_IMPORTED_MODULE_9__/* .githubClient */ .$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
    const released = await (0,_comment_lock_saved_js__WEBPACK_IMPORTED_MODULE_10__/* .releaseSavedLock */ .an)(octokit, pr, saved, (0,_publish_report_js__WEBPACK_IMPORTED_MODULE_8__/* .renderReport */ .B1)({ mode: settings.mode, state: 'failed' }));
    if (released) {
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Released the PR comment lock (${released.comment ? `comment ${released.comment}` : `reaction ${released.reaction}`}): the main step ended before the database was ready.`);
    }
}


/***/ })

};

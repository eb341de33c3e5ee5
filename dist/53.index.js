export const id = 53;
export const ids = [53];
export const modules = {

/***/ 53:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   deleteUnseeded: () => (/* binding */ deleteUnseeded),
/* harmony export */   releaseLock: () => (/* binding */ releaseLock)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7264);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8422);
/* harmony import */ var _platform_lifecycle_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2863);
/* harmony import */ var _platform_lifecycle_client_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(2259);
/* harmony import */ var _platform_operations_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9085);
/* harmony import */ var _publish_report_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(4585);
/* harmony import */ var _publish_comment_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(1206);
/**
 * What the post step undoes (commands/post.ts loads this module only when
 * there is something to undo). When main created a branch it did not
 * finish seeding, the post step deletes it, waiting first for the branch's
 * own operations and retrying 423, which the SIGINT handler has no time for;
 * when main still held the PR comment's provisioning lock, it marks the
 * comment failed. After a successful main both are cleared, and it does nothing.
 */







/** Deletes the unseeded branch named in the state. @throws on a failed delete. */
async function deleteUnseeded(saved) {
    const { id, name } = JSON.parse(saved);
    const settings = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .readSettings */ .sb)();
    const client = (0,_platform_lifecycle_client_js__WEBPACK_IMPORTED_MODULE_3__/* .lifecycleClientOf */ .b)(settings);
    await _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .group */ .Os(`Delete branch "${name}", which the main step created but did not finish seeding`, async () => {
        const branch = await client.getBranch(id);
        if (!branch)
            return _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Branch "${name}" (${id}) is already gone.`);
        const since = new Date(Math.max(Date.parse(branch.created_at) || 0, Date.now() - 3600_000)).toISOString();
        const pending = await client.pendingOperationsOf(id, since);
        if (pending.length) {
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Waiting for ${pending.length} operation(s) still running on branch "${name}".`);
            await (0,_platform_operations_js__WEBPACK_IMPORTED_MODULE_4__/* .waitForOperations */ .ft)(pending, { ...settings, get: (op) => client.getOperation(op) });
        }
        const ops = await (0,_platform_lifecycle_js__WEBPACK_IMPORTED_MODULE_2__/* .deleteBranchAndWait */ .CR)(client, branch, settings);
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Deleted branch "${name}" (${id})${ops === null ? ': it was already gone' : ''}, so the next run starts clean.`);
    });
}
/**
 * Releases the comment lock the main step still held (publish/lock.ts): when
 * its claim comment still has `provisioningSince`, deletes it if the PR has
 * an earlier preview comment of ours, or else turns it into the PR's comment
 * saying the run failed. Other runs would treat the claim as stale 5 minutes
 * after its last heartbeat; this frees them at once.
 */
async function releaseLock(saved) {
    const settings = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .readSettings */ .sb)();
    const pr = (0,_publish_comment_js__WEBPACK_IMPORTED_MODULE_6__/* .pullRequestOfEvent */ .My)();
    if (!pr || !settings.githubToken)
        return;
    const octokit = (0,_publish_comment_js__WEBPACK_IMPORTED_MODULE_6__/* .githubClient */ .$f)(settings.githubToken, settings.requestTimeoutSeconds * 1000);
    const { owner, repo } = pr;
    const claim = await octokit.rest.issues.getComment({ owner, repo, comment_id: Number(saved) }).catch(() => null);
    const record = claim ? (0,_publish_comment_js__WEBPACK_IMPORTED_MODULE_6__/* .recordOf */ .zv)(claim.data.body ?? '') : null;
    if (!claim || !record?.provisioningSince)
        return;
    const ours = await (0,_publish_comment_js__WEBPACK_IMPORTED_MODULE_6__/* .listOurComments */ .F9)(octokit, pr, claim.data.user?.login ?? '');
    const home = ours.find((c) => c.id !== claim.data.id && !c.record.provisioningSince);
    if (home) {
        await octokit.rest.issues.deleteComment({ owner, repo, comment_id: claim.data.id });
    }
    else {
        const failed = { mode: settings.mode };
        const markdown = (0,_publish_report_js__WEBPACK_IMPORTED_MODULE_5__/* .renderReport */ .B1)({ mode: settings.mode, state: 'failed' });
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: claim.data.id, body: `${markdown}\n\n${(0,_publish_comment_js__WEBPACK_IMPORTED_MODULE_6__/* .markerOf */ .we)(failed)}` });
    }
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(`Released the PR comment lock (comment ${claim.data.id}): the main step ended before the database was ready.`);
}


/***/ })

};

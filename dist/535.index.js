export const id = 535;
export const ids = [535];
export const modules = {

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

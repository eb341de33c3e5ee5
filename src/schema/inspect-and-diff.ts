/**
 * The one entry that src/schema/track.ts loads on first use: the inspector
 * and the differ in a single bundle chunk (two dynamic imports made ncc put
 * the shared classifier into two chunks).
 */
export { buildSnapshot } from './inspect.js'
export { diffSchemas, warmUpDiffer } from './diff.js'

/**
 * The one entry that src/schema/track.ts loads on first use: the inspector
 * and the differ in a single bundle chunk (two dynamic imports made ncc put
 * the shared classifier into two chunks).
 */
export { CatalogSession, buildSnapshot } from './inspect.js'
export { diffSchemas } from './diff.js'

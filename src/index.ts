/**
 * Entry point of the bundled action (`dist/index.js`): the main step, or the
 * post step (`runs.post`) once main has saved `isPost`. It imports nothing
 * but the step state's names, so each step loads only its own code, a chunk
 * of the bundle: the post step after a main step that left nothing to undo
 * (every successful run) ends without loading any.
 */
import { STATE, savedState } from './step-state.js'

if (savedState(STATE.isPost) !== 'true') await import('./main-step.js')
else if (savedState(STATE.unseededBranch) || savedState(STATE.lockComment) || savedState(STATE.jobBranch)) {
  await import('./v8-settings.js')
  const { runPost } = await import('./commands/post.js')
  await runPost()
}

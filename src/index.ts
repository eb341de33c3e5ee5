/**
 * Entry point of the bundled action (`dist/index.js`): the main step, or the
 * post step (`runs.post`) when main saved `isPost`. Only what the input check
 * needs is loaded before it (cold start: a refused input fails in
 * about the time Node takes to start); each step's own code is a chunk of the
 * bundle loaded once it is known to be needed.
 */
import './v8-heap.js' // first: V8 heap settings before anything allocates
import * as core from '@actions/core'
import { handleCancellation, runMainFlow } from './cancel.js'
import { readSettings } from './inputs.js'
import type { Settings } from './settings.js'
import { runPost } from './commands/post.js'
import { STATE } from './post-state.js'

if (core.getState(STATE.isPost) === 'true') {
  await runPost()
} else {
  core.saveState(STATE.isPost, 'true')
  let settings: Settings | undefined
  try {
    settings = readSettings()
  } catch (err) {
    // as run() reports it: nothing was started, so there is nothing to undo or release
    core.setFailed(err instanceof Error ? err.message : String(err))
  }
  if (settings) {
    const checked = settings
    handleCancellation()
    const { run } = await import('./main.js')
    await runMainFlow(() => run(checked))
  }
}

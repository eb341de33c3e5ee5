/**
 * The main step: read and check the inputs (only what that needs is loaded
 * before it: a refused input fails in about the time Node takes to start),
 * then load the action's story (main.ts, a chunk of its own) and run it
 * under the cancel handler.
 */
import './v8-settings.js' // first: V8's heap and compiler settings before anything allocates or compiles
import * as core from '@actions/core'
import { handleCancellation, runMainFlow } from './cancel.js'
import { readSettings } from './inputs.js'
import type { Settings } from './settings.js'
import { STATE } from './post-state.js'
import { mark } from './phases.js'

core.saveState(STATE.isPost, 'true')
let settings: Settings | undefined
mark('inputs')
try {
  settings = readSettings()
} catch (err) {
  // as run() reports it: nothing was started, so there is nothing to undo or release
  core.setFailed(err instanceof Error ? err.message : String(err))
}
if (settings) {
  const checked = settings
  handleCancellation()
  mark('loading the code')
  const { run } = await import('./main.js')
  await runMainFlow(() => run(checked))
}

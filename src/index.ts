/** Entry point of the bundled action (`dist/index.js`): the main step, or the post step (`runs.post`) when main saved `isPost`. */
import * as core from '@actions/core'
import { handleCancellation, runMainFlow } from './cancel.js'
import { run } from './main.js'
import { runPost } from './commands/post.js'
import { STATE } from './post-state.js'

if (core.getState(STATE.isPost) === 'true') {
  await runPost()
} else {
  core.saveState(STATE.isPost, 'true')
  handleCancellation()
  await runMainFlow(run)
}

/** Entry point of the bundled action (`dist/index.js`). */
import { handleCancellation, runMainFlow } from './cancel.js'
import { run } from './main.js'

handleCancellation()
await runMainFlow(run)

/** Entry point of the bundled action (`dist/index.js`). */
import { run } from './main.js'

await run()

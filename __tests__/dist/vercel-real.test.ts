/**
 * The Vercel wiring against Vercel as its users meet it (fixtures/vercel-cases.ts),
 * in instant mode, through the bundled action.
 */
import { afterAll, beforeAll, describe } from '@jest/globals'
import { APP_TOKEN, type Emulator } from '../../emulator/index.js'
import { instantInputs, pullRequests, runAction, startTestEmulator } from '../fixtures/preview.js'
import { vercelCases } from '../fixtures/vercel-cases.js'

let emu: Emulator
let work: string

beforeAll(async () => {
  ;({ emu, work } = await startTestEmulator('vercel-real-test-', { 'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n' }))
})

afterAll(async () => {
  await emu?.stop()
})

describe('instant mode', () => {
  vercelCases({
    emu: () => emu,
    newPr: pullRequests(() => emu, 5100),
    run: (inputs, extra) =>
      runAction(emu, work, { ...instantInputs(emu), 'github-token': APP_TOKEN, seed: 'schema.sql', 'wait-timeout': '20', ...inputs }, extra)
  })
})

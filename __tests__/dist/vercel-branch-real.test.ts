/**
 * The Vercel wiring against Vercel as its users meet it (fixtures/vercel-cases.ts),
 * in branch mode, through the bundled action.
 */
import { describe } from '@jest/globals'
import { branchSuite } from '../fixtures/branch-suite.js'
import { vercelCases } from '../fixtures/vercel-cases.js'

const suite = branchSuite({
  prefix: 'vercel-branch-real-test-',
  firstPr: 5200,
  projectPerTest: true,
  files: { 'schema.sql': 'CREATE TABLE items (id int PRIMARY KEY);\n' }
})

describe('branch mode', () => {
  vercelCases({
    emu: () => suite.emu,
    newPr: () => suite.newPr(),
    run: (inputs, extra) => suite.run({ seed: 'schema.sql', ...inputs }, extra)
  })
})

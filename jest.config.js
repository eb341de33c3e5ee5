// ESM, with TypeScript stripped by swc (@swc/jest) file by file, without
// type-checking (`tsc --noEmit` checks types in CI; tsconfig's isolatedModules
// keeps every file transpilable alone). With an empty jest cache, as in a
// fresh clone, the unit files and two dist files took 42 s of CPU against
// 53 s with ts-jest (two alternating rounds each). Every test file starts its
// own emulator and PostgreSQL cluster (own ports and folders), so files run
// side by side in jest's workers; most of a file's time is waiting
// (operations, polls, process starts), so there are more workers than cores.
// docs/development.md, "The test suite", says how the suite is laid out and how long it takes.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }]
  },
  testMatch: ['**/__tests__/**/*.test.ts'],
  testSequencer: '<rootDir>/__tests__/sequencer.js',
  // One initdb per kind of cluster for the whole run, copied by every file (emulator/postgres/initdb-template.ts).
  globalSetup: '<rootDir>/__tests__/global-setup.js',
  globalTeardown: '<rootDir>/__tests__/global-teardown.js',
  maxWorkers: 6,
  testTimeout: 180000,
  verbose: true
}

// ESM + ts-jest, as in the actions/typescript-action template. tsconfig's
// isolatedModules makes ts-jest transpile each file without type-checking it
// (`tsc --noEmit` checks types in CI). Every test file starts its own
// emulator and PostgreSQL cluster (own ports and folders), so files run side
// by side in jest's workers; most of a file's time is waiting (operations,
// polls, process starts), so there are more workers than cores.
// docs/development.md, "The test suite", has the layout and the figures.
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['**/__tests__/**/*.test.ts'],
  testSequencer: '<rootDir>/__tests__/sequencer.js',
  // One initdb per kind of cluster for the whole run, copied by every file (emulator/postgres/initdb-template.ts).
  globalSetup: '<rootDir>/__tests__/global-setup.js',
  globalTeardown: '<rootDir>/__tests__/global-teardown.js',
  maxWorkers: 6,
  testTimeout: 180000,
  verbose: true
}

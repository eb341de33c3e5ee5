// ESM + ts-jest, as in the actions/typescript-action template. Integration
// tests start their own PostgreSQL, so files run one at a time (--runInBand).
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['**/__tests__/**/*.test.ts'],
  testTimeout: 180000,
  verbose: true
}

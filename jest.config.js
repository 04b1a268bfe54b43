/** Test kinds by suffix: *.unit.spec.ts (pure), *.int.spec.ts (real Postgres), *.e2e.spec.ts (HTTP). */
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

const shared = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: __dirname,
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/**/*.unit.spec.ts'] },
    { ...shared, displayName: 'int', testMatch: ['<rootDir>/**/*.int.spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/**/*.e2e.spec.ts'] },
  ],
};

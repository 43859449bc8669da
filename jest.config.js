/**
 * Four projects: unit tests beside the code; the same e2e suite run twice, against SQLite and MySQL; and the fault
 * suites (outages through a TCP relay, shutdown, crash, several instances, fuzzing), which run the built service as
 * child processes and take minutes, so they stay out of the fast e2e projects.
 * e2e tests boot the real AppModule against real MariaDB and RabbitMQ (see test/helpers).
 */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };
const common = { moduleFileExtensions: ['js', 'json', 'ts'], testEnvironment: 'node', transform };

const e2e = (database) => ({
  ...common,
  displayName: `e2e-${database}`,
  rootDir: 'test',
  testRegex: '.*\\.e2e-spec\\.ts$',
  setupFiles: [`<rootDir>/helpers/use-${database}.ts`],
});

module.exports = {
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    e2e('sqlite'),
    e2e('mysql'),
    {
      ...common,
      displayName: 'faults',
      rootDir: 'test',
      testRegex: 'faults/.*\\.fault-spec\\.ts$',
      globalSetup: '<rootDir>/faults/global-setup.ts',
    },
  ],
};

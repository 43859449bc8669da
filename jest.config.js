/**
 * Seven projects: unit tests beside the code; the same e2e suite run twice, against SQLite and MySQL; the suites that
 * run the built service as child processes (start-up, several instances); the browser test; and the fault suites
 * (outages through a TCP relay, shutdown, crash, fuzzing), which take minutes, so they stay out of the fast projects;
 * and the deployment files read and checked against the code.
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
  // Three workers on two cores: the suites that wait on outages and child processes leave a core to the others. Measured
  // on this machine's 2 cores: 951 s in band, 568-653 s on two workers, 494 s on three, 514 s on four.
  // Each worker has its own MySQL database and RabbitMQ vhost (made here), so suites on different workers never meet.
  maxWorkers: 3,
  globalSetup: '<rootDir>/test/helpers/broker-vhosts.ts',
  testSequencer: '<rootDir>/test/helpers/slow-first-sequencer.js',
  // No forced exit: every suite closes what it opens (`npx jest --detectOpenHandles` reports nothing), so jest ends by
  // itself once the last suite has reported. Should a handle be left open again, this names it and ends jest 30 s later.
  globalTeardown: '<rootDir>/test/helpers/report-open-handles.ts',
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    e2e('sqlite'),
    e2e('mysql'),
    {
      ...common,
      // Suites that run the built service (dist/main.js) as child processes: several instances, start-up.
      displayName: 'process',
      rootDir: 'test',
      testRegex: '(process/.*\\.process-spec|.*\\.multi-spec)\\.ts$',
      setupFiles: ['<rootDir>/helpers/use-mysql.ts'],
      globalSetup: '<rootDir>/helpers/build-service.ts',
    },
    // Swagger UI driven in Debian's chromium through playwright-core, against the service on an ephemeral port.
    {
      ...common,
      displayName: 'browser',
      rootDir: 'test',
      testRegex: '.*\\.browser-spec\\.ts$',
      setupFiles: ['<rootDir>/helpers/use-sqlite.ts'],
    },
    // The deployment's files (Kubernetes manifests, the compose file, the Dockerfile) read and checked against the code.
    {
      ...common,
      displayName: 'deploy',
      rootDir: 'test',
      testRegex: 'deploy/.*\\.deploy-spec\\.ts$',
      setupFiles: ['<rootDir>/helpers/use-sqlite.ts'],
    },
    {
      ...common,
      displayName: 'faults',
      rootDir: 'test',
      testRegex: 'faults/.*\\.fault-spec\\.ts$',
      globalSetup: '<rootDir>/helpers/build-service.ts',
    },
  ],
};

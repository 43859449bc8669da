import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Suites that run the service as a child process test the real artifact, dist/: built once per jest run, however
 * many projects ask (global setups run one after another in the same process).
 */
export default function buildService(): void {
  if (process.env.REGISTRY_DIST_BUILT) return;
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: join(__dirname, '..', '..'),
    stdio: 'inherit',
  });
  process.env.REGISTRY_DIST_BUILT = '1';
}

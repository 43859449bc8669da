import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Suites that run the service as a child process test the real artifact: dist/, built once per run. */
export default function buildService(): void {
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: join(__dirname, '..', '..'),
    stdio: 'inherit',
  });
}

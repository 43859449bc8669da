import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The fault suites run the built service (node dist/main.js) as child processes: build it once. */
export default function buildService(): void {
  execFileSync('npx', ['nest', 'build'], { cwd: join(__dirname, '..', '..'), stdio: 'inherit' });
}

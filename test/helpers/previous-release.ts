import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The release a rolling deploy to this one starts from; its dependencies are this checkout's. */
export const PREVIOUS_RELEASE = 'f5e796b';

/** The dist/ of a commit of this repository, built once per machine from `git archive` with this checkout's node_modules. */
export function builtRelease(commit: string): string {
  const directory = join(tmpdir(), `client-registry-release-${commit}`);
  const dist = join(directory, 'dist');
  if (existsSync(join(dist, 'main.js'))) return dist;
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory);
  const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', commit], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', directory], { input: archive });
  symlinkSync(join(ROOT, 'node_modules'), join(directory, 'node_modules'), 'dir');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], {
    cwd: directory,
    stdio: 'pipe',
  });
  return dist;
}

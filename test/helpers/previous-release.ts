import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The release a rolling deploy to this one starts from; its dependencies are this checkout's. */
export const PREVIOUS_RELEASE = 'f5e796b';

/** The dist/ of a commit of this repository, built once per machine from `git archive` with this checkout's node_modules. */
export function builtRelease(commit: string): string {
  const directory = join(tmpdir(), `client-registry-release-${commit}`);
  const dist = join(directory, 'dist');
  if (existsSync(join(dist, 'main.js'))) {
    linkDependencies(directory);
    return dist;
  }
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory);
  const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', commit], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', directory], { input: archive });
  linkDependencies(directory);
  execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], {
    cwd: directory,
    stdio: 'pipe',
  });
  return dist;
}

// A build kept from an earlier checkout links that checkout's node_modules, which may since have been deleted.
function linkDependencies(directory: string): void {
  const link = join(directory, 'node_modules');
  const target = join(ROOT, 'node_modules');
  if (existsSync(link) && readlinkSync(link) === target) return;
  // Renamed over the old link, so that a test file building beside this one never sees it missing.
  const fresh = `${link}.${process.pid}`;
  symlinkSync(target, fresh, 'dir');
  renameSync(fresh, link);
}

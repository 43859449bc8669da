import { ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, waitUntil } from '../helpers/service-process';

const ROOT = join(__dirname, '..', '..');

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a supervisor does to `npm start`: SIGTERM to the npm process only. The signal must reach node, which drains and
 * exits 0; no node may be left behind. Run in a copy of the project, since `npm start` rebuilds dist/, which the other
 * process suites are running at the same time.
 */
describe('SIGTERM to the process `npm start` created', () => {
  let copy: string;
  let npm: ChildProcess;
  const output: string[] = [];

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'registry-npm-start-'));
    for (const entry of ['package.json', 'nest-cli.json', 'tsconfig.json', 'tsconfig.build.json', 'src']) {
      cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  });
  afterAll(() => {
    if (npm?.exitCode === null) npm.kill('SIGKILL');
    rmSync(copy, { recursive: true, force: true });
  });

  it('should reach node, which drains, exits 0 and leaves no process behind', async () => {
    npm = spawn('npm', ['start'], {
      cwd: copy,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(copy, 'data'),
        SHUTDOWN_DELAY_MS: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n')));
    npm.stderr!.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n')));
    const npmExited = new Promise<number | null>((resolve) => npm.once('close', resolve));

    await waitUntil('the service listens', () => Promise.resolve(output.some((line) => line.includes('Listening on'))), 60_000);
    const listening = JSON.parse(output.find((line) => line.includes('Listening on'))!) as { pid: number };
    expect(listening.pid).not.toBe(npm.pid);

    npm.kill('SIGTERM');
    // Without the signal reaching node, npm's pipes stay open in the orphan and npm never closes.
    expect(await Promise.race([npmExited, sleep(15_000).then(() => 'npm still running after 15 s')])).toBe(0);
    await waitUntil('node is gone', () => Promise.resolve(!isRunning(listening.pid)), 5_000);
    await sleep(50);
    expect(output.some((line) => line.includes('SIGTERM received: draining'))).toBe(true);
  }, 90_000);
});

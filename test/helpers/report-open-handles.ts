import type { ChildProcess } from 'node:child_process';
import type { Server, Socket } from 'node:net';

// After the last suite: what is still open in jest's own process (tests run in it when jest runs them in band, as for one
// file; its workers it ends itself) is named, and the process ends 30 s later with jest's exit code instead of waiting
// for CI's bound (20 minutes) to stop it.
const GRACE_MS = 30_000;

function describe(handle: object): string {
  const kind = handle.constructor?.name ?? typeof handle;
  if (kind === 'Socket') {
    const socket = handle as Socket;
    return `Socket ${socket.localAddress}:${socket.localPort} -> ${socket.remoteAddress}:${socket.remotePort}`;
  }
  if (kind === 'Server') return `Server ${JSON.stringify((handle as Server).address())}`;
  if (kind === 'ChildProcess') return `ChildProcess ${(handle as ChildProcess).pid} ${(handle as ChildProcess).spawnargs.join(' ')}`;
  return kind;
}

export default async function reportOpenHandles(): Promise<void> {
  // Sockets closed by the last suite's afterAll are gone once their close events have run.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const standard: unknown[] = [process.stdin, process.stdout, process.stderr];
  const active = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
  const handles = active.filter((handle) => !standard.includes(handle));
  const resources = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap' && kind !== 'PipeWrap');
  if (handles.length === 0 && resources.length === 0) return;
  console.warn(`[open handles] left open after the last suite: ${JSON.stringify({ handles: handles.map(describe), resources })}`);
  setTimeout(() => {
    console.warn(`[open handles] still open ${GRACE_MS / 1000} s after the last suite: ending jest with its own exit code`);
    process.exit();
  }, GRACE_MS).unref();
}

import pino from 'pino';

export interface TurnBatchedDestination extends pino.DestinationStream {
  flushSync(): void;
}

const unwritten = new Set<TurnBatchedDestination>();
process.on('exit', () => unwritten.forEach((destination) => destination.flushSync()));

// One write(2) per event-loop turn: the alternatives measured slower on get-client (BENCHMARKS.md, What was tried).
export function turnBatchedDestination(options: { dest: number | string; mkdir?: boolean }): TurnBatchedDestination {
  const output = pino.destination({ ...options, sync: true });
  let pending: string[] = [];
  const flushSync = (): void => {
    unwritten.delete(destination);
    if (pending.length === 0) return;
    const lines = pending.join('');
    pending = [];
    output.write(lines);
  };
  const destination: TurnBatchedDestination = {
    write(line: string): void {
      if (pending.push(line) > 1) return;
      unwritten.add(destination);
      setImmediate(flushSync);
    },
    flushSync,
  };
  return destination;
}

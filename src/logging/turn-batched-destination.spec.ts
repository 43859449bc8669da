import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { turnBatchedDestination } from './turn-batched-destination';

describe('turnBatchedDestination', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  let file: string;
  const written = () => readFileSync(file, 'utf8');

  beforeEach(() => {
    file = join(mkdtempSync(join(tmpdir(), 'registry-batch-')), 'out.log');
  });

  it('should write the lines of one turn together when the turn ends, in order', async () => {
    const destination = turnBatchedDestination({ dest: file });
    destination.write('{"n":1}\n');
    destination.write('{"n":2}\n');
    expect(written()).toBe('');
    await nextTurn();
    expect(written()).toBe('{"n":1}\n{"n":2}\n');
    destination.write('{"n":3}\n');
    await nextTurn();
    expect(written()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('should write at once what is pending when asked to flush', () => {
    const destination = turnBatchedDestination({ dest: file });
    destination.write('{"fatal":true}\n');
    destination.flushSync();
    expect(written()).toBe('{"fatal":true}\n');
  });

  it('should write what is pending when the process exits', async () => {
    const destination = turnBatchedDestination({ dest: file });
    destination.write('{"last":true}\n');
    process.emit('exit', 0);
    expect(written()).toBe('{"last":true}\n');
    await nextTurn();
    expect(written()).toBe('{"last":true}\n');
  });
});

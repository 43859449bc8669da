import { sha256Hex } from '../auth/digest';
import { KeyUsageNotes } from './key-usage-notes';

describe('KeyUsageNotes', () => {
  it('should keep one entry per key, its latest use, however many times it is used', () => {
    const notes = new KeyUsageNotes();
    for (let use = 0; use < 1000; use++) notes.note('a'.repeat(64), 1000 + use);
    notes.note('b'.repeat(64), 5);
    expect(notes.size).toBe(2);
    expect(notes.take()).toEqual(
      new Map([
        ['a'.repeat(64), 1999],
        ['b'.repeat(64), 5],
      ]),
    );
  });

  it('should hold 200,000 distinct keys of one interval as one entry each, and nothing after they are taken', () => {
    const notes = new KeyUsageNotes();
    const digests = Array.from({ length: 200_000 }, (_, index) => sha256Hex(`sk_${index}`));
    for (let round = 0; round < 3; round++) for (const digest of digests) notes.note(digest);
    expect(notes.size).toBe(200_000);
    const taken = notes.take();
    expect(taken.size).toBe(200_000);
    expect(notes.size).toBe(0);
    expect(notes.take().size).toBe(0);
  });

  it('should put back what a flush could not write without replacing a later use noted meanwhile', () => {
    const notes = new KeyUsageNotes();
    notes.note('a', 100);
    notes.note('b', 100);
    const taken = notes.take();
    notes.note('a', 300);
    notes.putBack(new Map([...taken, ['c', 50]]));
    expect(notes.take()).toEqual(
      new Map([
        ['a', 300],
        ['b', 100],
        ['c', 50],
      ]),
    );
  });
});

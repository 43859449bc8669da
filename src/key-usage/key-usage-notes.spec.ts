import { sha256Hex } from '../auth/digest';
import { KeyUsageNotes } from './key-usage-notes';

describe('KeyUsageNotes', () => {
  it('should keep one entry per key, its latest use and the address of that use, however many times it is used', () => {
    const notes = new KeyUsageNotes();
    for (let use = 0; use < 1000; use++) notes.note('a'.repeat(64), 'root', `203.0.113.${use % 200}`, 1000 + use);
    notes.note('b'.repeat(64), 'root', '2001:db8::1', 5);
    expect(notes.size).toBe(2);
    expect(notes.take()).toEqual(
      new Map([
        ['a'.repeat(64), { shape: 'root', usedAt: 1999, ip: '203.0.113.199' }],
        ['b'.repeat(64), { shape: 'root', usedAt: 5, ip: '2001:db8::1' }],
      ]),
    );
  });

  it('should hold 200,000 distinct keys of one interval as one entry each, and nothing after they are taken', () => {
    const notes = new KeyUsageNotes();
    const digests = Array.from({ length: 200_000 }, (_, index) => sha256Hex(`sk_${index}`));
    for (let round = 0; round < 3; round++) for (const digest of digests) notes.note(digest, 'root', '203.0.113.7');
    expect(notes.size).toBe(200_000);
    const taken = notes.take();
    expect(taken.size).toBe(200_000);
    expect(notes.size).toBe(0);
    expect(notes.take().size).toBe(0);
  });

  it("should note a relayed use's time only: the address stays the last direct use's, or none when only relayed", () => {
    const notes = new KeyUsageNotes();
    notes.note('a', 'root', '203.0.113.1', 100);
    notes.noteRelayed('a', 'root', 200);
    notes.noteRelayed('b', 'root', 300);
    notes.noteRelayed('c', 'root', 100);
    notes.note('c', 'root', '203.0.113.3', 150);
    expect(notes.take()).toEqual(
      new Map([
        ['a', { shape: 'root', usedAt: 200, ip: '203.0.113.1' }],
        ['b', { shape: 'root', usedAt: 300, ip: undefined, relayed: true }],
        ['c', { shape: 'root', usedAt: 150, ip: '203.0.113.3' }],
      ]),
    );
  });

  it('should put back a direct use under a later relayed one as the address of both', () => {
    const notes = new KeyUsageNotes();
    notes.note('a', 'root', '203.0.113.1', 100);
    const taken = notes.take();
    notes.noteRelayed('a', 'root', 300);
    notes.putBack(taken);
    expect(notes.take()).toEqual(new Map([['a', { shape: 'root', usedAt: 300, ip: '203.0.113.1' }]]));
  });

  it('should put back what a flush could not write without replacing a later use noted meanwhile, nor its address', () => {
    const notes = new KeyUsageNotes();
    notes.note('a', 'root', '203.0.113.1', 100);
    notes.note('b', 'root', '203.0.113.2', 100);
    const taken = notes.take();
    notes.note('a', 'root', '203.0.113.3', 300);
    notes.putBack(new Map([...taken, ['c', { shape: 'root', usedAt: 50, ip: '203.0.113.4' }]]));
    expect(notes.take()).toEqual(
      new Map([
        ['a', { shape: 'root', usedAt: 300, ip: '203.0.113.3' }],
        ['b', { shape: 'root', usedAt: 100, ip: '203.0.113.2' }],
        ['c', { shape: 'root', usedAt: 50, ip: '203.0.113.4' }],
      ]),
    );
  });
});

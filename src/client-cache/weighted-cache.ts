import { FrequencySketch } from './frequency-sketch';

// Caffeine's defaults.
const WINDOW_SHARE = 0.01;
const PROTECTED_SHARE = 0.8;
// Responses weigh 1.4–3 KB as counted (2 bytes a character plus overhead): 1 KB errs on a wider sketch, never a crowded one.
const DEFAULT_MIN_AVERAGE_ENTRY_BYTES = 1024;

const WINDOW = 0;
const PROBATION = 1;
const PROTECTED = 2;
const DETACHED = 3;
type Segment = typeof WINDOW | typeof PROBATION | typeof PROTECTED | typeof DETACHED;

// Each list is circular around a sentinel node; its next is the least recent.
class CacheNode<K, V> {
  prev: CacheNode<K, V> = this;
  next: CacheNode<K, V> = this;
  segment: Segment = DETACHED;

  constructor(
    readonly key: K,
    public value: V,
    public weight: number,
    readonly hashA: number,
    readonly hashB: number,
  ) {}
}

function sentinel<K, V>(): CacheNode<K, V> {
  return new CacheNode<K, V>(undefined as unknown as K, undefined as unknown as V, 0, 0, 0);
}

function unlink<K, V>(node: CacheNode<K, V>): void {
  node.prev.next = node.next;
  node.next.prev = node.prev;
}

function append<K, V>(list: CacheNode<K, V>, node: CacheNode<K, V>): void {
  const last = list.prev;
  node.prev = last;
  node.next = list;
  last.next = node;
  list.prev = node;
}

export interface WeightedTinyLfuCacheOptions<K extends string, V> {
  maxBytes: number;
  // Called after the cache is consistent again, for the policy's evictions only; it must not throw.
  onEvict?: (key: K, value: V) => void;
  minAverageEntryBytes?: number;
}

export class WeightedTinyLfuCache<K extends string, V> {
  readonly maxBytes: number;
  private readonly windowMaxBytes: number;
  private readonly mainMaxBytes: number;
  private readonly protectedMaxBytes: number;
  private readonly entries = new Map<K, CacheNode<K, V>>();
  private readonly windowList = sentinel<K, V>();
  private readonly probationList = sentinel<K, V>();
  private readonly protectedList = sentinel<K, V>();
  private readonly candidates = sentinel<K, V>();
  private readonly evicted = sentinel<K, V>();
  private windowBytes = 0;
  private probationBytes = 0;
  private protectedBytes = 0;
  private readonly sketch: FrequencySketch;
  private readonly onEvict: ((key: K, value: V) => void) | undefined;

  constructor(options: WeightedTinyLfuCacheOptions<K, V>) {
    const { maxBytes, minAverageEntryBytes = DEFAULT_MIN_AVERAGE_ENTRY_BYTES } = options;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError(`maxBytes must be a positive integer: ${maxBytes}`);
    if (!(minAverageEntryBytes > 0)) throw new RangeError(`minAverageEntryBytes must be positive: ${minAverageEntryBytes}`);
    this.maxBytes = maxBytes;
    this.windowMaxBytes = Math.max(1, Math.floor(maxBytes * WINDOW_SHARE));
    this.mainMaxBytes = maxBytes - this.windowMaxBytes;
    this.protectedMaxBytes = Math.floor(this.mainMaxBytes * PROTECTED_SHARE);
    this.sketch = new FrequencySketch(Math.ceil(maxBytes / minAverageEntryBytes));
    this.onEvict = options.onEvict;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.windowBytes + this.probationBytes + this.protectedBytes;
  }

  get(key: K): V | undefined {
    const node = this.entries.get(key);
    if (node === undefined) {
      this.sketch.hash(key);
      this.sketch.increment(this.sketch.hashA, this.sketch.hashB);
      return undefined;
    }
    this.sketch.increment(node.hashA, node.hashB);
    switch (node.segment) {
      case WINDOW:
        this.touch(this.windowList, node);
        break;
      case PROBATION:
        unlink(node);
        this.probationBytes -= node.weight;
        this.addTo(PROTECTED, node);
        this.demoteProtectedOverflow();
        break;
      default:
        this.touch(this.protectedList, node);
    }
    return node.value;
  }

  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V, bytes: number): boolean {
    if (!Number.isSafeInteger(bytes) || bytes < 1) throw new RangeError(`bytes must be a positive integer: ${bytes}`);
    const existing = this.entries.get(key);
    if (bytes > this.mainMaxBytes) {
      if (existing !== undefined) this.remove(existing);
      return false;
    }
    let node: CacheNode<K, V>;
    if (existing !== undefined) {
      node = existing;
      node.value = value;
      this.reweigh(node, bytes);
    } else {
      this.sketch.hash(key);
      node = new CacheNode(key, value, bytes, this.sketch.hashA, this.sketch.hashB);
      this.entries.set(key, node);
      // Heavier than the whole window, it would flush the window: it competes for admission at once.
      if (bytes > this.windowMaxBytes) this.admitOrEvict(node);
      else this.addTo(WINDOW, node);
    }
    this.enforceBudget();
    const held = node.segment !== DETACHED;
    this.notifyEvictions();
    return held;
  }

  delete(key: K): boolean {
    const node = this.entries.get(key);
    if (node === undefined) return false;
    this.remove(node);
    return true;
  }

  // The frequencies are kept: they describe demand, not what was held.
  clear(): void {
    this.entries.clear();
    for (const list of [this.windowList, this.probationList, this.protectedList]) list.prev = list.next = list;
    this.windowBytes = this.probationBytes = this.protectedBytes = 0;
  }

  private addTo(segment: typeof WINDOW | typeof PROBATION | typeof PROTECTED, node: CacheNode<K, V>): void {
    node.segment = segment;
    if (segment === WINDOW) {
      append(this.windowList, node);
      this.windowBytes += node.weight;
    } else if (segment === PROBATION) {
      append(this.probationList, node);
      this.probationBytes += node.weight;
    } else {
      append(this.protectedList, node);
      this.protectedBytes += node.weight;
    }
  }

  private detach(node: CacheNode<K, V>): void {
    if (node.segment === DETACHED) return;
    unlink(node);
    if (node.segment === WINDOW) this.windowBytes -= node.weight;
    else if (node.segment === PROBATION) this.probationBytes -= node.weight;
    else this.protectedBytes -= node.weight;
    node.segment = DETACHED;
  }

  private remove(node: CacheNode<K, V>): void {
    this.detach(node);
    this.entries.delete(node.key);
  }

  private evict(node: CacheNode<K, V>): void {
    this.remove(node);
    if (this.onEvict !== undefined) append(this.evicted, node);
  }

  private notifyEvictions(): void {
    const onEvict = this.onEvict;
    if (onEvict === undefined) return;
    // Taken off the list before the call: a callback that sets or deletes (and so notifies) is not called twice.
    while (this.evicted.next !== this.evicted) {
      const node = this.evicted.next;
      unlink(node);
      onEvict(node.key, node.value);
    }
  }

  private touch(list: CacheNode<K, V>, node: CacheNode<K, V>): void {
    if (list.prev === node) return;
    unlink(node);
    append(list, node);
  }

  private reweigh(node: CacheNode<K, V>, bytes: number): void {
    const change = bytes - node.weight;
    node.weight = bytes;
    if (node.segment === WINDOW) this.windowBytes += change;
    else if (node.segment === PROBATION) this.probationBytes += change;
    else {
      this.protectedBytes += change;
      this.demoteProtectedOverflow();
    }
  }

  private demoteProtectedOverflow(): void {
    while (this.protectedBytes > this.protectedMaxBytes) {
      const oldest = this.protectedList.next;
      unlink(oldest);
      this.protectedBytes -= oldest.weight;
      this.addTo(PROBATION, oldest);
    }
  }

  private enforceBudget(): void {
    if (this.windowBytes > this.windowMaxBytes) {
      // All the overflow out first: each candidate then competes for the room it needs itself, not its followers'.
      while (this.windowBytes > this.windowMaxBytes) {
        const oldest = this.windowList.next;
        this.detach(oldest);
        append(this.candidates, oldest);
      }
      while (this.candidates.next !== this.candidates) {
        const candidate = this.candidates.next;
        unlink(candidate);
        this.admitOrEvict(candidate);
      }
    }
    // The main space may hold more than its share while the window is short: the window's oldest competes for it.
    while (this.bytes > this.maxBytes) {
      const oldest = this.windowList.next;
      if (oldest === this.windowList) {
        this.evict(this.leastRecentOfMain()!);
        continue;
      }
      this.detach(oldest);
      this.admitOrEvict(oldest);
    }
  }

  private admitOrEvict(candidate: CacheNode<K, V>): void {
    const excess = this.bytes + candidate.weight - this.maxBytes;
    if (excess > 0 && !this.outweighs(candidate, excess)) {
      this.evict(candidate);
      return;
    }
    let freed = 0;
    while (freed < excess) {
      const victim = this.leastRecentOfMain()!;
      freed += victim.weight;
      this.evict(victim);
    }
    this.addTo(PROBATION, candidate);
  }

  private outweighs(candidate: CacheNode<K, V>, excess: number): boolean {
    const candidateFrequency = this.sketch.frequency(candidate.hashA, candidate.hashB);
    let freed = 0;
    for (let victim = this.leastRecentOfMain(); freed < excess; victim = this.nextOfMain(victim)) {
      if (victim === undefined || this.sketch.frequency(victim.hashA, victim.hashB) >= candidateFrequency) return false;
      freed += victim.weight;
    }
    return true;
  }

  private leastRecentOfMain(): CacheNode<K, V> | undefined {
    if (this.probationList.next !== this.probationList) return this.probationList.next;
    return this.protectedList.next !== this.protectedList ? this.protectedList.next : undefined;
  }

  private nextOfMain(node: CacheNode<K, V>): CacheNode<K, V> | undefined {
    const next = node.next;
    if (next === this.probationList) return this.protectedList.next !== this.protectedList ? this.protectedList.next : undefined;
    return next === this.protectedList ? undefined : next;
  }
}

const COUNTERS_PER_ENTRY = 4;
const MIN_SKETCH_WIDTH = 256;
const MAX_SKETCH_WIDTH = 1 << 20;
const SAMPLE_PER_ENTRY = 10;
const MAX_COUNT = 15;
const HEX_DIGEST_LENGTH = 64;

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

// 28 bits keep every hash a small integer (no boxed number).
function hexBits(key: string, offset: number): number {
  let bits = 0;
  for (let i = offset; i < offset + 7; i++) {
    const digit = hexDigit(key.charCodeAt(i));
    if (digit < 0) return -1;
    bits = (bits << 4) | digit;
  }
  return bits;
}

// Murmur3's finaliser: spreads FNV's weak low bits, which the sketch's masks keep.
function mix(hash: number): number {
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 4;
}

// W-TinyLFU's count-min sketch: 4 rows of counters saturating at 15, all halved every 10 additions per expected entry.
export class FrequencySketch {
  // Set by hash(): two results without allocating.
  hashA = 0;
  hashB = 0;
  private readonly counters: Uint8Array;
  private readonly words: Uint32Array;
  private readonly width: number;
  private readonly mask: number;
  private readonly sampleSize: number;
  private additions = 0;

  constructor(expectedEntries: number) {
    const wanted = Math.max(MIN_SKETCH_WIDTH, COUNTERS_PER_ENTRY * expectedEntries);
    this.width = Math.min(MAX_SKETCH_WIDTH, 2 ** Math.ceil(Math.log2(wanted)));
    this.mask = this.width - 1;
    this.counters = new Uint8Array(4 * this.width);
    this.words = new Uint32Array(this.counters.buffer);
    this.sampleSize = SAMPLE_PER_ENTRY * Math.min(expectedEntries, this.width / COUNTERS_PER_ENTRY);
  }

  increment(a: number, b: number): void {
    const counters = this.counters;
    const i0 = a & this.mask;
    const i1 = ((a + b) & this.mask) + this.width;
    const i2 = ((a + 2 * b) & this.mask) + 2 * this.width;
    const i3 = ((a + 3 * b) & this.mask) + 3 * this.width;
    let added = false;
    if (counters[i0] < MAX_COUNT) {
      counters[i0]++;
      added = true;
    }
    if (counters[i1] < MAX_COUNT) {
      counters[i1]++;
      added = true;
    }
    if (counters[i2] < MAX_COUNT) {
      counters[i2]++;
      added = true;
    }
    if (counters[i3] < MAX_COUNT) {
      counters[i3]++;
      added = true;
    }
    if (added && ++this.additions >= this.sampleSize) this.age();
  }

  frequency(a: number, b: number): number {
    const counters = this.counters;
    return Math.min(
      counters[a & this.mask],
      counters[((a + b) & this.mask) + this.width],
      counters[((a + 2 * b) & this.mask) + 2 * this.width],
      counters[((a + 3 * b) & this.mask) + 3 * this.width],
    );
  }

  private age(): void {
    const words = this.words;
    for (let i = 0; i < words.length; i++) words[i] = (words[i] >>> 1) & 0x7f7f7f7f;
    this.additions >>>= 1;
  }

  // A SHA-256 digest in hex is spread already: its first 14 digits are the two numbers. Any other key goes through FNV-1a.
  hash(key: string): void {
    if (key.length === HEX_DIGEST_LENGTH) {
      const a = hexBits(key, 0);
      const b = a < 0 ? -1 : hexBits(key, 7);
      if (b >= 0) {
        this.hashA = a;
        this.hashB = b;
        return;
      }
    }
    let a = 0x811c9dc5;
    let b = 0x050c5d1f;
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995);
    }
    this.hashA = mix(a);
    this.hashB = mix(b);
  }
}

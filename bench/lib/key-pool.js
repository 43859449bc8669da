'use strict';
// The service refuses a client's 101st SMS configuration (409). The
// add-sms-config load therefore spreads its requests round-robin over many
// clients and hands each key out at most `usesPerKey` times. All targets share
// one pool because they write to the same database.
class KeyPool {
  constructor(usesPerKey) {
    this.usesPerKey = usesPerKey;
    this.keys = [];
    this.uses = [];
    this.available = []; // indexes of keys with uses left
    this.cursor = 0;
    this.overflow = 0; // requests sent with a key already used up
  }

  add(keys) {
    for (const key of keys) {
      this.available.push(this.keys.length);
      this.keys.push(key);
      this.uses.push(0);
    }
  }

  remaining() {
    return this.available.reduce((sum, i) => sum + this.usesPerKey - this.uses[i], 0);
  }

  next() {
    if (this.available.length === 0) {
      this.overflow++;
      return this.keys[this.overflow % this.keys.length];
    }
    this.cursor = (this.cursor + 1) % this.available.length;
    const index = this.available[this.cursor];
    if (++this.uses[index] >= this.usesPerKey) this.removeAvailableAt(this.cursor);
    return this.keys[index];
  }

  removeAvailableAt(position) {
    this.available[position] = this.available[this.available.length - 1];
    this.available.pop();
  }
}

module.exports = { KeyPool };

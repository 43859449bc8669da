'use strict';
// Which client each request of a fleet scenario asks for. Drawn once, before the load, into an array of client indexes
// that the load generator reads in turn: a request costs it one array read, not a random draw, on the 2 cores it shares
// with the targets. Seeded, so that two runs (before and after a change) ask for the same clients in the same order.

/** mulberry32: a small, fast PRNG with a 32-bit state; answers a function giving floats in [0, 1). */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 0 .. n-1 in a random order (Fisher-Yates). */
function shuffled(n, random) {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** Ranks 0 .. n-1 drawn with P(rank k) ∝ 1 / (k + 1)^s: the CDF once, then a binary search per draw. */
function zipfSampler(n, s, random) {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cdf[k] = total += 1 / Math.pow(k + 1, s);
  return () => {
    const u = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cdf[middle] < u) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/**
 * `count` client indexes out of `n`, by `law`: 'uniform', or 'zipf' (s = 1) with ranks given to clients in a random
 * order, so that the busiest clients are not the oldest rows (the first ids, the first pages of the tables).
 */
function drawIndexes({ n, law, count, seed }) {
  const random = seededRandom(seed);
  const draws = new Uint32Array(count);
  if (law === 'uniform') {
    for (let i = 0; i < count; i++) draws[i] = Math.floor(random() * n);
  } else if (law === 'zipf') {
    const clientOfRank = shuffled(n, random);
    const rank = zipfSampler(n, 1, random);
    for (let i = 0; i < count; i++) draws[i] = clientOfRank[rank()];
  } else {
    throw new Error(`unknown key law ${law}`);
  }
  return draws;
}

/** How many distinct clients the draws name, and the share of the busiest one: a check that the law is the one meant. */
function describeDraws(draws, n) {
  const counts = new Uint32Array(n);
  let distinct = 0;
  let busiest = 0;
  for (const index of draws) {
    if (counts[index]++ === 0) distinct++;
    if (counts[index] > busiest) busiest = counts[index];
  }
  return { distinct, busiestShare: busiest / draws.length };
}

module.exports = { drawIndexes, describeDraws, seededRandom, zipfSampler };

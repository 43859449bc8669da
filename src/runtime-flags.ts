import { setFlagsFromString } from 'node:v8';

// V8 moves an allocation site to the old space once its objects outlive a burst of writes, and get-client's objects then
// fill it: a mark-compact every 0.3 s and half the rate over 20,000 clients (BENCHMARKS.md, "What a hit costs over many keys").
setFlagsFromString('--no-allocation-site-pretenuring');

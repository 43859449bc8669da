const TestSequencer = require('@jest/test-sequencer').default;

// Suites that mostly wait (outages, child processes, a browser) first, the others after them in jest's own order: on a
// clean clone jest has no timings and orders by file size, and a short file that waits 40 s started last would end the run.
const FIRST = ['faults', 'process', 'browser'];

class SlowFirstSequencer extends TestSequencer {
  async sort(tests) {
    const rank = (test) => {
      const index = FIRST.indexOf(test.context.config.displayName?.name);
      return index === -1 ? FIRST.length : index;
    };
    return [...(await super.sort(tests))].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowFirstSequencer;

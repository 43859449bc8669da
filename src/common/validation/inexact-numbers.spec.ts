import { findInexactNumber } from './inexact-numbers';

describe('findInexactNumber', () => {
  it.each([
    ['{"balance":8589934592.000001}', 'balance', '8589934592.000001'], // arrives as 8589934592.000002
    ['{"balance":999999999999.999999}', 'balance', '999999999999.999999'], // arrives as 1000000000000
    ['{"a":{"b":[1,2,9007199254740993]}}', 'a.b[2]', '9007199254740993'],
    ['{"perSmsCost":1e-400}', 'perSmsCost', '1e-400'], // arrives as 0
    ['{"balance":1E400}', 'balance', '1E400'], // arrives as Infinity
    ['[0.5,123456789012.123456]', '[1]', '123456789012.123456'],
    ['12345678901234567', '', '12345678901234567'],
    // A repeated key (JSON.parse keeps the last value): found all the same, where is not said.
    ['{"n":1,"n":12345678901234567}', '', '12345678901234567'],
    ['{"s":"x","s":"9999999999999999999","n":-1e400}', '', '-1e400'],
  ])('should find the number JSON.parse would change in %s', (json, path, text) => {
    expect(findInexactNumber(json)).toEqual({ path, text });
  });

  it.each([
    '{"balance":999999.123456,"perSmsCost":0.000001}',
    '{"balance":1234567890.123456}', // 16 digits, and a double holds them exactly
    '{"balance":999999999999.99}',
    '{"balance":1.5e3,"cost":2E-6,"count":-0}',
    '{"username":"12345678901234567890","url":"https://x.example.com/1e400"}', // digits in strings are text
    '{"balance":100.000000000000000000}', // trailing zeros change nothing
    '{}',
    '{"s":"a","s":"b","t":"12345678901234567890\\" 1e400"}',
  ])('should find nothing in %s', (json) => {
    expect(findInexactNumber(json)).toBeUndefined();
  });
});

import { ExactAmount, amountOfText, exactJson } from './exact-amount';

describe('exact amounts in answers', () => {
  it('should keep an amount a double prints exactly as a number, and hold the others as their digits', () => {
    for (const text of ['12.5', '0', '0.000001', '1234567890.123456', '-0.7', '100000000000'])
      expect(amountOfText(text)).toBe(Number(text));
    // A double reads 99999999999.99999 as 99999999999.99998.
    expect(String(Number('99999999999.99999'))).toBe('99999999999.99998');
    expect(amountOfText('99999999999.99999')).toEqual(new ExactAmount('99999999999.99999'));
    expect(amountOfText('999999999999.999999')).toEqual(new ExactAmount('999999999999.999999'));
  });

  it('should write every amount as a JSON number with its digits, and anything else as JSON.stringify does', () => {
    const answer = {
      status: 200,
      results: { balance: amountOfText('99999999999.99999'), perSmsCost: 0.000001, list: [amountOfText('-1.000001')] },
    };
    expect(exactJson(answer)).toBe('{"status":200,"results":{"balance":99999999999.99999,"perSmsCost":0.000001,"list":[-1.000001]}}');
    const plain = { providerName: 'a "b" \\u0000', balance: 12.5, nested: [null, true] };
    expect(exactJson(plain)).toBe(JSON.stringify(plain));
  });

  it('should not let a caller’s text pass for an amount', () => {
    const marked = JSON.stringify(new ExactAmount('1')).slice(1, -1);
    // The mark holds a random part: a caller cannot write it without seeing it, and it never reaches an answer.
    expect(marked).toMatch(/^exact-amount-[0-9a-f]{24}:1$/);
    expect(exactJson({ providerName: 'exact-amount-000000000000000000000000:1' })).toBe(
      '{"providerName":"exact-amount-000000000000000000000000:1"}',
    );
    expect(() => new ExactAmount('1e5')).toThrow(TypeError);
    expect(() => new ExactAmount('1,"x":2')).toThrow(TypeError);
  });
});

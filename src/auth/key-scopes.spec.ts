import { isDispatchOnly, readScopes } from './key-scopes';

describe('readScopes', () => {
  it.each([
    [['client:read'], ['client:read']],
    [
      ['dispatch', 'client:read'],
      ['client:read', 'dispatch'],
    ],
    [
      ['dispatch', 'sms-config:write', 'client:read'],
      ['client:read', 'sms-config:write', 'dispatch'],
    ],
  ])('should take %j and answer it in the order of the scopes', (given, answered) => {
    expect(readScopes(given)).toEqual({ scopes: answered });
  });

  it.each([[[]], ['client:read'], [null], [{ scope: 'dispatch' }]])('should refuse %j', (value) => {
    expect(readScopes(value)).toEqual({ refusal: 'scopes must be a non-empty list of client:read, sms-config:write, dispatch' });
  });

  it.each([
    ['an unknown scope', ['client:read', 'client:write']],
    ['the root scope', ['client:read', 'root']],
    ['another case', ['client:read', 'Dispatch']],
    ['a number', ['client:read', 1]],
  ])('should refuse %s, naming the entry', (_case, value) => {
    expect(readScopes(value)).toEqual({ refusal: 'scopes[1] must be one of client:read, sms-config:write, dispatch' });
  });

  it('should refuse a scope given twice', () => {
    expect(readScopes(['dispatch', 'client:read', 'dispatch'])).toEqual({ refusal: 'scopes[2] repeats scopes[0] (dispatch)' });
  });
});

describe('isDispatchOnly', () => {
  it('should hold for dispatch alone, not beside another scope', () => {
    expect(isDispatchOnly(['dispatch'])).toBe(true);
    expect(isDispatchOnly(['client:read', 'dispatch'])).toBe(false);
    expect(isDispatchOnly(['client:read'])).toBe(false);
  });
});

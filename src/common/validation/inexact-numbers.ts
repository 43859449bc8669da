import { isLosslessNumber, isSafeNumber, parse } from 'lossless-json';

export interface InexactNumber {
  path: string;
  text: string;
}

// Up to 15 significant digits always survive the trip through a double; more, or an exponent, may not.
const MAY_BE_INEXACT = /[0-9.]{16}|[0-9.][eE][-+]?[0-9]/;

export function mayHoldInexactNumber(json: string): boolean {
  return MAY_BE_INEXACT.test(json);
}

// JSON.parse reads 8589934592.000001 as 8589934592.000002, and 1e-400 as 0.
export function findInexactNumber(json: string): InexactNumber | undefined {
  if (!mayHoldInexactNumber(json)) return undefined;
  let tree: unknown;
  try {
    tree = parse(json);
  } catch {
    // lossless-json refuses a key repeated with another value, which JSON.parse accepts (the last one wins).
    return findInTokens(json);
  }
  return findIn(tree, '');
}

const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/g;

function findInTokens(json: string): InexactNumber | undefined {
  for (const [token] of json.matchAll(STRING_OR_NUMBER)) {
    if (!token.startsWith('"') && !isSafeNumber(token)) return { path: '', text: token };
  }
  return undefined;
}

function findIn(value: unknown, path: string): InexactNumber | undefined {
  if (isLosslessNumber(value)) return isSafeNumber(value.value) ? undefined : { path, text: value.value };
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    const found = findIn(child, childPath);
    if (found) return found;
  }
  return undefined;
}

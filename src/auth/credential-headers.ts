import type { IncomingHttpHeaders } from 'node:http';

export const SECRET_KEY_HEADER = 'secretKey';
export const ADMIN_API_KEY_HEADER = 'x-api-key';

// Node lower-cases header names.
export const SECRET_KEY_FIELD = 'secretkey';
export const ADMIN_API_KEY_FIELD = 'x-api-key';

// Kept out of every log line.
export const CREDENTIAL_FIELDS = [SECRET_KEY_FIELD, ADMIN_API_KEY_FIELD, 'authorization'] as const;

// A repeated header arrives as an array: it counts as none sent.
export function singleHeader(headers: IncomingHttpHeaders, field: string): string | undefined {
  const value = headers[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

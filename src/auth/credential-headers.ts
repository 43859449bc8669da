import type { IncomingHttpHeaders } from 'node:http';

/** The headers that carry credentials, as the API documents them (Swagger shows these names). */
export const SECRET_KEY_HEADER = 'secretKey';
export const ADMIN_API_KEY_HEADER = 'x-api-key';

/** The same headers as Node hands them over: header names are case-insensitive, and arrive lower-cased. */
export const SECRET_KEY_FIELD = 'secretkey';
export const ADMIN_API_KEY_FIELD = 'x-api-key';

/** Every request header that can carry a credential: kept out of every log line. */
export const CREDENTIAL_FIELDS = [SECRET_KEY_FIELD, ADMIN_API_KEY_FIELD, 'authorization'] as const;

/** The header's value when it is sent once and is not empty (a repeated header arrives as an array). */
export function singleHeader(headers: IncomingHttpHeaders, field: string): string | undefined {
  const value = headers[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

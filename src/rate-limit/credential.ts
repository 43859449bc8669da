import { NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { sha256Hex } from '../common/crypto/secret-key';

/** The credential a request carries: a client's secretKey or an admin x-api-key. */
export function presentedCredential(headers: IncomingHttpHeaders): string | undefined {
  const secretKey = headers.secretkey;
  if (typeof secretKey === 'string' && secretKey.length > 0) return secretKey;
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.length > 0 ? apiKey : undefined;
}

/** Who a request counts against: its credential (a digest, so keys are not kept in memory), else its address. */
export function rateLimitTracker(request: { headers: IncomingHttpHeaders; ip: string }): string {
  const credential = presentedCredential(request.headers);
  return credential === undefined ? `ip:${request.ip}` : credentialTracker(sha256Hex(credential));
}

/** The tracker of a credential, from its SHA-256 (hex): the same digest the client cache is keyed by. */
export function credentialTracker(credentialDigest: string): string {
  return `credential:${credentialDigest}`;
}

/** get-client's 404 for a key no client has: a refused credential, like the guards' 401. */
export class UnknownSecretKeyException extends NotFoundException {}

/** Refused credentials count toward the per-address limit on failed checks (key guessing). */
export function isRefusedCredential(exception: unknown): boolean {
  return exception instanceof UnauthorizedException || exception instanceof UnknownSecretKeyException;
}

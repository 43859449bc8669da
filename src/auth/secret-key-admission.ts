import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { KeyUsageNotes } from '../key-usage/key-usage-notes';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { SECRET_KEY_FIELD, singleHeader } from './credential-headers';
import { isWellFormedSecretKey } from './secret-key';

/** Why a request's secretKey is not admitted before its client is looked up; SecretKeyGuard says how each is refused. */
export enum KeyNotAdmitted {
  /** The address is blocked for its refused credentials, whatever key it sends. */
  AddressBlocked = 1,
  /** No `secretKey` header, an empty one, or a repeated one. */
  Missing,
  /** A key that cannot be one we issued: it is not looked up. */
  Malformed,
}

/**
 * The admission of a client's secretKey, one for get-client answered at the edge (client/get-client-at-edge.ts) and for
 * every secretKey route's guard (SecretKeyGuard), in this order: the address is not blocked, the key is there and well
 * formed (presentedKey); then the caller finds the key's client, and once it is known and enabled, its use is noted and
 * it is counted against its limit (admit). Noted before it is counted: a key over its limit was still used.
 */
@Injectable()
export class SecretKeyAdmission {
  constructor(
    private readonly addresses: AddressAllowance,
    private readonly rateLimit: CredentialRateLimit,
    private readonly keyUsage: KeyUsageNotes,
  ) {}

  /** The well-formed key the request presents, or why it is not admitted. Counts nothing. */
  presentedKey(ip: string, headers: IncomingHttpHeaders): string | KeyNotAdmitted {
    if (this.addresses.blockedFor(ip) > 0) return KeyNotAdmitted.AddressBlocked;
    const secretKey = singleHeader(headers, SECRET_KEY_FIELD);
    if (secretKey === undefined) return KeyNotAdmitted.Missing;
    return isWellFormedSecretKey(secretKey) ? secretKey : KeyNotAdmitted.Malformed;
  }

  /** A key whose client is known and enabled: its use noted, and counted; the seconds to wait once over its limit, else 0. */
  admit(secretKeyDigest: string): number {
    this.keyUsage.note(secretKeyDigest);
    return this.rateLimit.acquire(secretKeyDigest);
  }
}

import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { KeyUsageNotes } from '../key-usage/key-usage-notes';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { SECRET_KEY_FIELD, singleHeader } from './credential-headers';
import { KeyShape } from './scoped-key';
import { isWellFormedSecretKey } from './secret-key';

export enum KeyNotAdmitted {
  AddressBlocked = 1,
  Missing,
  // It cannot be a key we issued, so it is not looked up.
  Malformed,
}

// Noted before it is counted: a key over its limit was still used.
@Injectable()
export class SecretKeyAdmission {
  constructor(
    private readonly addresses: AddressAllowance,
    private readonly rateLimit: CredentialRateLimit,
    private readonly keyUsage: KeyUsageNotes,
  ) {}

  presentedKey(ip: string, headers: IncomingHttpHeaders): string | KeyNotAdmitted {
    if (this.addresses.blockedFor(ip) > 0) return KeyNotAdmitted.AddressBlocked;
    const secretKey = singleHeader(headers, SECRET_KEY_FIELD);
    if (secretKey === undefined) return KeyNotAdmitted.Missing;
    return isWellFormedSecretKey(secretKey) ? secretKey : KeyNotAdmitted.Malformed;
  }

  // The seconds to wait once over its limit, else 0. `ip`: where it was used from, noted with the use.
  admit(secretKeyDigest: string, shape: KeyShape, ip: string | undefined): number {
    this.keyUsage.note(secretKeyDigest, shape, ip);
    return this.rateLimit.acquire(secretKeyDigest);
  }

  // A key the dispatcher relays (route): when it was used, not from where (the address is the dispatcher's).
  admitRelayed(secretKeyDigest: string, shape: KeyShape): number {
    this.keyUsage.noteRelayed(secretKeyDigest, shape);
    return this.rateLimit.acquire(secretKeyDigest);
  }
}

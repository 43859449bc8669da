import { ForbiddenException, NotFoundException, UnauthorizedException } from '@nestjs/common';

/** No credential in the header that needs one. */
export function missingCredential(header: string): UnauthorizedException {
  return new UnauthorizedException(`${header} header is required`);
}

/** A credential that is not one of ours. */
export function invalidCredential(header: string): UnauthorizedException {
  return new UnauthorizedException(`${header} is not valid`);
}

/** get-client's answer to a key no client has: 404, as the interface promises, where the other routes answer 401. */
export class UnknownSecretKeyException extends NotFoundException {
  constructor() {
    super('No client matches the secretKey');
  }
}

/** A disabled client's keys are known, and refused on every route they open. */
export class ClientDisabledException extends ForbiddenException {
  constructor() {
    super('Client is disabled');
  }
}

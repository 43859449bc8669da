import { ForbiddenException, NotFoundException, UnauthorizedException } from '@nestjs/common';

export function missingCredential(header: string): UnauthorizedException {
  return new UnauthorizedException(`${header} header is required`);
}

export function invalidCredential(header: string): UnauthorizedException {
  return new UnauthorizedException(`${header} is not valid`);
}

// 404 for get-client, as the interface promises, where the other routes answer 401.
export class UnknownSecretKeyException extends NotFoundException {
  constructor() {
    super('No client matches the secretKey');
  }
}

export class ClientDisabledException extends ForbiddenException {
  constructor() {
    super('Client is disabled');
  }
}

import { ExecutionContext, UnauthorizedException, createParamDecorator } from '@nestjs/common';
import { FastifyRequest } from 'fastify';

/** Header names are case-insensitive; Node hands them to us lower-cased. */
export const SECRET_KEY_HEADER = 'secretkey';

export function readSecretKeyHeader(request: FastifyRequest): string {
  const value = request.headers[SECRET_KEY_HEADER];
  if (typeof value !== 'string' || value.length === 0) throw new UnauthorizedException('secretKey header is required');
  return value;
}

/** The `secretKey` header of the request; 401 when it is missing. */
export const SecretKeyHeader = createParamDecorator((_: unknown, context: ExecutionContext) =>
  readSecretKeyHeader(context.switchToHttp().getRequest<FastifyRequest>()),
);

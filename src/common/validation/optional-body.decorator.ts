import { Body, Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';

/**
 * `@Body()` of an operation whose DTO accepts `{}`: RequestValidationPipe takes no body as `{}`, so openapi.json says the
 * body may be absent, and a validator in front of the service lets such a request through.
 */
export function OptionalBody(): ParameterDecorator {
  return (target, method, index) => {
    Body()(target, method, index);
    if (method === undefined) throw new Error('OptionalBody() decorates a parameter of a handler');
    const type = (Reflect.getMetadata('design:paramtypes', target, method) as Type[])[index];
    const handler = Object.getOwnPropertyDescriptor(target, method)!;
    ApiBody({ type, required: false, description: 'May be absent: no body is taken as {}' })(target, method, handler);
  };
}

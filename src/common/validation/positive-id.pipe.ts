import { ArgumentMetadata, BadRequestException, Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

/** The largest id an INT column holds: path, query and body ids above it are refused, not looked up. */
export const MAX_ID = 2_147_483_647;

const ID_SPELLING = `A positive integer up to ${MAX_ID}, in plain decimal digits (no sign, exponent, leading zero or spaces)`;

@Injectable()
export class PositiveIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_ID)) throw new BadRequestException(`${metadata.data ?? 'id'} must be a positive integer`);
    return id;
  }
}

/** A path id: PositiveIdPipe takes it, and openapi.json says what it takes (an integer from 1 to MAX_ID). */
export function IdParam(name: string): ParameterDecorator {
  return (target, method, index) => {
    Param(name, PositiveIdPipe)(target, method, index);
    if (method === undefined) throw new Error('IdParam() decorates a parameter of a handler');
    const handler = Object.getOwnPropertyDescriptor(target, method)!;
    ApiParam({ name, schema: { type: 'integer', minimum: 1, maximum: MAX_ID }, description: ID_SPELLING })(target, method, handler);
  };
}

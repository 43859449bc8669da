import { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';

const SHOWN_FIRST = Symbol('shownFirst');

/** The answer shows these fields first, in this order, then the others in the order its document lists them. */
export function ShownFirst(...fields: string[]): ClassDecorator {
  return (dto) => Reflect.defineMetadata(SHOWN_FIRST, fields, dto);
}

/**
 * The fields an answer of this DTO shows, in the order it shows them: the properties it documents, its own after those
 * it inherits (as the OpenAPI document lists them), the ones named by `@ShownFirst` first (a subclass inherits it).
 */
export function answerFieldsOf<T>(dto: Type<T>): Array<keyof T & string> {
  const prototype = dto.prototype as object;
  const documented = ((Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ?? []) as string[]).map((key) =>
    key.replace(/^:/, ''),
  );
  const first = (Reflect.getMetadata(SHOWN_FIRST, dto) ?? []) as string[];
  const undocumented = first.filter((field) => !documented.includes(field));
  if (undocumented.length > 0) throw new Error(`${dto.name} shows first ${undocumented.join(', ')}, which it does not document`);
  return [...first, ...documented.filter((field) => !first.includes(field))] as Array<keyof T & string>;
}

export function inFieldOrder<F extends string, V extends Record<F, unknown>>(fields: readonly F[], values: V): Pick<V, F> {
  const shown = {} as Pick<V, F>;
  for (const field of fields) shown[field] = values[field];
  return shown;
}

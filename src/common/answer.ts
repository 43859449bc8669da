import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** Every answer but a refusal: the refusal's envelope is `{status, error}` (ErrorResponseDto). */
export interface Answer<T> {
  status: 200;
  results: T;
}

export interface AnswerType<T> extends Type<Answer<T>> {
  /** The answer a handler returns, its results checked against the type the document shows. */
  of(results: T): Answer<T>;
}

/**
 * The answer of a results type, named by the class that extends it, which is the name the document gives its schema:
 * `export class AddSmsConfigResponseDto extends AnswerOf(VerifyApiKeyDto) {}`, then `AddSmsConfigResponseDto.of(results)`.
 */
export function AnswerOf<T>(results: Type<T>, description?: string): AnswerType<T>;
export function AnswerOf<T>(results: [Type<T>], description?: string): AnswerType<T[]>;
export function AnswerOf(results: Type<unknown> | [Type<unknown>], description?: string): AnswerType<unknown> {
  class Envelope {
    @ApiProperty({ example: 200 })
    status: 200;

    @ApiProperty(description === undefined ? { type: results } : { type: results, description })
    results: unknown;

    static of(results: unknown): Answer<unknown> {
      return { status: 200, results };
    }
  }
  return Envelope;
}

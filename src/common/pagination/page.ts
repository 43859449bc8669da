import { BadRequestException, applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

const INVALID_CURSOR = 'cursor is not valid';

const PLAIN_DIGITS = 'In plain decimal digits (a sign, an exponent or spaces are refused)';

// Plain digits only: Number() would also read `0x10`, `1e2`, `+5` and ` 5`.
export function IsOptionalQueryInteger(
  minimum: number,
  maximum: number,
  message: string,
  docs: ApiPropertyOptions = {},
): PropertyDecorator {
  const rule = { message };
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum,
      maximum,
      ...docs,
      description: [docs.description, PLAIN_DIGITS].filter(Boolean).join('. '),
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value)),
    IsInt(rule),
    Min(minimum, rule),
    Max(maximum, rule),
  );
}

export class PageQueryDto {
  @IsOptionalQueryInteger(1, MAX_PAGE_LIMIT, `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`, { default: DEFAULT_PAGE_LIMIT })
  limit?: number;

  @ApiPropertyOptional({ minLength: 1, description: 'nextCursor of the previous page, exactly as it was given: any other text is refused' })
  @IsOptional()
  @IsString({ message: INVALID_CURSOR })
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const CURSOR_PREFIX = 'after:';

// Only the exact spelling cursorAfter() gives: base64url decoding and Number() also accept padding, `010` or `+5`.
export function cursorPosition(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = Number(text.slice(CURSOR_PREFIX.length));
  if (!Number.isSafeInteger(position) || position < 0 || cursorAfter(position) !== cursor) {
    throw new BadRequestException(INVALID_CURSOR);
  }
  return position;
}

export function cursorAfter(position: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${position}`).toString('base64url');
}

// The caller reads limit + 1 rows: the extra one only says there is a next page.
export function pageOf<T>(rows: T[], limit: number, positionOf: (item: T) => number): Page<T> {
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items, nextCursor: more ? cursorAfter(positionOf(items[items.length - 1])) : null };
}

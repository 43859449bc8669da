import { BadRequestException, applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

const INVALID_CURSOR = 'cursor is not valid';

/**
 * An optional integer of the query string from `minimum` to `maximum`, taken only as plain decimal digits (Number()
 * would also read `0x10`, `1e2`, `+5` and ` 5`); every refusal, a repeated parameter too, answers the one `message`.
 */
export function IsOptionalQueryInteger(
  minimum: number,
  maximum: number,
  message: string,
  docs: ApiPropertyOptions = {},
): PropertyDecorator {
  const rule = { message };
  return applyDecorators(
    ApiPropertyOptional({ type: Number, minimum, maximum, ...docs }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value)),
    IsInt(rule),
    Min(minimum, rule),
    Max(maximum, rule),
  );
}

/** `?limit=&cursor=` of every list: keyset pagination, so a page never repeats or skips a row when others are inserted. */
export class PageQueryDto {
  @IsOptionalQueryInteger(1, MAX_PAGE_LIMIT, `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`, { default: DEFAULT_PAGE_LIMIT })
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page, as it was given' })
  @IsOptional()
  @IsString({ message: INVALID_CURSOR })
  cursor?: string;
}

/** A page of a list: its items, and the cursor of the next page (null on the last one). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const CURSOR_PREFIX = 'after:';

/**
 * The row id a page starts after; the cursor is opaque to callers, so its form may change. Only the spelling
 * cursorAfter() gives is accepted: the base64url decoder also reads padding, `+`, `/` and unused trailing bits, and
 * Number() reads `010` and `+5`, so other spellings of a position would pass as if the service had issued them.
 */
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

/** A page from up to `limit + 1` rows read in order: the extra row only tells that there is a next page. */
export function pageOf<T>(rows: T[], limit: number, positionOf: (item: T) => number): Page<T> {
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items, nextCursor: more ? cursorAfter(positionOf(items[items.length - 1])) : null };
}

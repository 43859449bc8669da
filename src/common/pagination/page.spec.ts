import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { RequestValidationPipe } from '../validation/request-validation.pipe';
import { PageQueryDto, cursorAfter, cursorPosition } from './page';

/** `after:<text>` as a cursor, in canonical base64url: what a caller who read the format could write. */
const cursorOf = (text: string): string => Buffer.from(`after:${text}`).toString('base64url');

describe('cursorPosition', () => {
  it.each([0, 3, 42, Number.MAX_SAFE_INTEGER])('should read back the position %s from the cursor cursorAfter() gave', (position) => {
    expect(cursorPosition(cursorAfter(position))).toBe(position);
  });

  it('should read no position from no cursor', () => {
    expect(cursorPosition(undefined)).toBeUndefined();
  });

  // 'YWZ0ZXI6Mw' is after:3; every spelling below decodes to the same bytes, or to a number Number() reads as 3.
  it.each([
    ['with base64 padding', 'YWZ0ZXI6Mw=='],
    ['with a trailing extra character', 'YWZ0ZXI6MwA'],
    ['with other unused trailing bits', 'YWZ0ZXI6Mx'],
    ['with + for the last character', 'YWZ0ZXI6M+'],
    ['with / for the last character', 'YWZ0ZXI6M/'],
    ['with - for the last character', 'YWZ0ZXI6M-'],
    ['after:03', cursorOf('03')],
    ['after:+3', cursorOf('+3')],
    ['after: 3', cursorOf(' 3')],
    ['after:3.0', cursorOf('3.0')],
    ['after:0x3', cursorOf('0x3')],
    ['after:-0', cursorOf('-0')],
    ['after:-1', cursorOf('-1')],
    ['after:', cursorOf('')],
    ['after:9007199254740992 (past the safe integers)', cursorOf('9007199254740992')],
    ['another prefix', Buffer.from('before:3').toString('base64url')],
    ['an empty cursor', ''],
  ])('should refuse a cursor %s: %s', (_case, cursor) => {
    expect(() => cursorPosition(cursor)).toThrow(new BadRequestException('cursor is not valid'));
  });
});

describe('PageQueryDto through the validation pipe', () => {
  const pipe = new RequestValidationPipe();
  const query: ArgumentMetadata = { type: 'query', metatype: PageQueryDto, data: '' };

  it.each([
    ['1', 1],
    ['200', 200],
    ['50', 50],
    ['007', 7],
  ])('should read the limit %s as %s', async (limit, expected) => {
    expect(await pipe.transform({ limit }, query)).toEqual({ limit: expected });
  });

  it.each([['0'], ['201'], ['0x10'], ['1e2'], ['+5'], [' 5'], ['5 '], ['1.5'], ['-1'], ['abc'], [''], ['٥'], [['1', '2']]])(
    'should refuse the limit %j with one message',
    async (limit) => {
      await expect(pipe.transform({ limit }, query)).rejects.toThrow(new BadRequestException('limit must be an integer from 1 to 200'));
    },
  );

  it('should refuse a cursor given twice as not valid', async () => {
    await expect(pipe.transform({ cursor: [cursorAfter(1), cursorAfter(2)] }, query)).rejects.toThrow(
      new BadRequestException('cursor is not valid'),
    );
  });
});

import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import {
  IsHttpUrl,
  IsNullableIntegerFrom,
  IsOptionalProviderUrl,
  IsOptionalSecret,
  IsOptionalText,
  IsProviderUrl,
  IsText,
  NullClears,
} from './decorators';
import { RequestValidationPipe } from './request-validation.pipe';

class SampleDto {
  @IsText(1, 5)
  name: string;

  @IsOptionalText(3)
  note?: string;

  @IsOptionalSecret(4)
  password?: string;

  @IsHttpUrl()
  appUrl: string;

  @IsProviderUrl()
  smsApi: string;

  @IsOptionalProviderUrl()
  balanceUrl?: string;
}

const metadata: ArgumentMetadata = { type: 'body', metatype: SampleDto, data: '' };
const VALID = { name: 'n', appUrl: 'https://app.example.com', smsApi: 'https://sms.example.com' };
const AMBIGUOUS = 'must not contain a backslash, a control character or whitespace';
const PRIVATE_HOST = 'must not name a private, loopback or link-local host (set ALLOW_PRIVATE_PROVIDER_HOSTS=true to allow)';

async function errorOf(pipe: RequestValidationPipe, body: Record<string, unknown>): Promise<string | undefined> {
  try {
    await pipe.transform({ ...VALID, ...body }, metadata);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
}

describe('The validation decorators, through RequestValidationPipe', () => {
  const pipe = new RequestValidationPipe();

  it.each<[string, Record<string, unknown>, string]>([
    ['a name of 6 emoji', { name: '😀'.repeat(6) }, 'name must be shorter than or equal to 5 characters'],
    [
      'a name of 3 hearts with variation selectors (6 characters)',
      { name: '\u2764\uFE0F'.repeat(3) },
      'name must be shorter than or equal to 5 characters',
    ],
    ['an empty name', { name: '' }, 'name must be longer than or equal to 1 characters'],
    ['a lone surrogate', { name: 'a\ud800' }, 'name must be valid Unicode (it holds an unpaired surrogate)'],
    [
      'a note of 2 letters with combining accents (4 characters)',
      { note: 'e\u0301e\u0301' },
      'note must be shorter than or equal to 3 characters',
    ],
    ['a null password', { password: null }, 'password must be a string'],
    ['a password of 5 characters', { password: '😀😀😀😀😀' }, 'password must be shorter than or equal to 4 characters'],
    ['a password with a lone surrogate', { password: '\udc00' }, 'password must be valid Unicode (it holds an unpaired surrogate)'],
    [
      'an appUrl with a user and password',
      { appUrl: 'https://user:pass@app.example.com' },
      'appUrl must not contain a user name or password',
    ],
    ['an smsApi with a user', { smsApi: 'https://user@sms.example.com' }, 'smsApi must not contain a user name or password'],
    ['a private smsApi', { smsApi: 'http://10.0.0.1/send' }, `smsApi ${PRIVATE_HOST}`],
    ['a loopback balanceUrl in hexadecimal', { balanceUrl: 'http://0x7f000001/' }, `balanceUrl ${PRIVATE_HOST}`],
    ['an smsApi that is no URL', { smsApi: 'sms.example.com/send' }, 'smsApi must be an absolute http(s) URL'],
    ['an smsApi with a backslash before an @', { smsApi: 'http://sms.example.com\\@169.254.169.254/' }, `smsApi ${AMBIGUOUS}`],
    // The URL check also refuses a space, but without saying why: this rule is checked first.
    ['a balanceUrl with a space', { balanceUrl: 'https://sms.example.com/a b' }, `balanceUrl ${AMBIGUOUS}`],
  ])('should refuse %s, naming the field', async (_case, body, message) => {
    expect(await errorOf(pipe, body)).toBe(message);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a name of 5 emoji', { name: '😀'.repeat(5) }],
    ['a null note (not given)', { note: null }],
    ['an empty password', { password: '' }],
    ['a private appUrl (the service never calls it)', { appUrl: 'http://localhost:8080/app' }],
    ['a public IPv6 smsApi', { smsApi: 'http://[2001:4860:4860::8888]/send' }],
    ['a null balanceUrl', { balanceUrl: null }],
    ['a backslash in an appUrl (the service never calls it)', { appUrl: 'https://app.example.com/a\\b' }],
  ])('should accept %s', async (_case, body) => {
    expect(await errorOf(pipe, body)).toBeUndefined();
  });

  it('should name every failing field in one message', async () => {
    expect(await errorOf(pipe, { smsApi: 'http://127.0.0.1/', balanceUrl: 'http://[::1]/', password: null })).toBe(
      `password must be a string; smsApi ${PRIVATE_HOST}; balanceUrl ${PRIVATE_HOST}`,
    );
  });

  describe('with allowPrivateHosts (ALLOW_PRIVATE_PROVIDER_HOSTS=true)', () => {
    const permissive = new RequestValidationPipe({ allowPrivateHosts: true });

    it.each(['http://10.0.0.1/send', 'http://localhost:8080/send', 'http://[::1]/', 'http://169.254.169.254/'])(
      'should accept the provider URL %s',
      async (smsApi) => {
        expect(await errorOf(permissive, { smsApi, balanceUrl: smsApi })).toBeUndefined();
      },
    );

    it('should still refuse a user name and password, and every other rule', async () => {
      expect(await errorOf(permissive, { smsApi: 'http://user:pass@10.0.0.1/' })).toBe('smsApi must not contain a user name or password');
      expect(await errorOf(permissive, { smsApi: 'http://10.0.0.1\\@10.0.0.2/' })).toBe(`smsApi ${AMBIGUOUS}`);
      expect(await errorOf(permissive, { name: '😀'.repeat(6), password: null })).toBe(
        'name must be shorter than or equal to 5 characters; password must be a string',
      );
    });
  });
});

describe('IsNullableIntegerFrom, through RequestValidationPipe', () => {
  class AddDto {
    @IsNullableIntegerFrom(1, 10)
    priority?: number | null;
  }

  @NullClears()
  class ChangeDto {
    @IsNullableIntegerFrom(1, 10)
    priority?: number | null;
  }

  const pipe = new RequestValidationPipe();
  const through = (metatype: ArgumentMetadata['metatype'], body: object) => pipe.transform(body, { type: 'body', metatype, data: '' });

  it('should pass null on to the service on a @NullClears() body, and take it as not given on any other', async () => {
    expect(await through(ChangeDto, { priority: null })).toEqual({ priority: null });
    expect(await through(AddDto, { priority: null })).toEqual({});
  });

  it.each([{}, { priority: 1 }, { priority: 10 }])('should accept %p on either body', async (body) => {
    expect(await through(AddDto, body)).toEqual(body);
    expect(await through(ChangeDto, body)).toEqual(body);
  });

  it.each([0, 11, 1.5, '5', true, {}])('should refuse %p, naming the range', async (priority) => {
    for (const metatype of [AddDto, ChangeDto]) {
      await expect(through(metatype, { priority })).rejects.toThrow(new BadRequestException('priority must be an integer from 1 to 10'));
    }
  });

  it('should document the field as an optional, nullable integer of the range', () => {
    expect(Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, ChangeDto.prototype, 'priority')).toMatchObject({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: 10,
      required: false,
    });
  });
});

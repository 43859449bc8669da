import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { IsBoolean, IsInt, IsOptional, IsString, MinLength, ValidationError } from 'class-validator';
import { NullClears } from './decorators';
import { EmptyBodyDto } from './empty-body.dto';
import { RequestValidationPipe, describeValidationErrors } from './request-validation.pipe';

class SampleDto {
  // class-validator runs the decorator nearest the property first, so with stopAtFirstError the type is checked first.
  @MinLength(3)
  @IsString()
  name: string;

  @IsOptional()
  @IsBoolean()
  isActive?: boolean;

  @IsOptional()
  @IsInt()
  count?: number;
}

const bodyMetadata: ArgumentMetadata = { type: 'body', metatype: SampleDto, data: '' };

describe('RequestValidationPipe', () => {
  const pipe = new RequestValidationPipe();

  async function badRequestMessage(value: unknown, metadata: ArgumentMetadata = bodyMetadata): Promise<string> {
    const error = await pipe.transform(value, metadata).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BadRequestException);
    expect((error as BadRequestException).getStatus()).toBe(400);
    return (error as BadRequestException).message;
  }

  it('should return an instance of the DTO for a valid body', async () => {
    const result = await pipe.transform({ name: 'Alice', isActive: false, count: 2 }, bodyMetadata);
    expect(result).toBeInstanceOf(SampleDto);
    expect(result).toEqual({ name: 'Alice', isActive: false, count: 2 });
  });

  it('should validate an undefined body as an empty object', async () => {
    expect(await badRequestMessage(undefined)).toBe('name must be a string');
  });

  it('should accept an undefined body for a DTO without required fields', async () => {
    class NoRequiredFieldsDto {
      @IsOptional()
      @IsString()
      note?: string;
    }
    const result = await pipe.transform(undefined, { type: 'body', metatype: NoRequiredFieldsDto, data: '' });
    expect(result).toBeInstanceOf(NoRequiredFieldsDto);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [{ name: 'Alice' }]],
    ['an empty array', []],
    ['a string', '{"name":"Alice"}'],
    ['a number', 42],
    ['a boolean', true],
  ])('should refuse %s as the body', async (_label, value) => {
    expect(await badRequestMessage(value)).toBe('request body must be a JSON object');
  });

  it('should refuse an unknown property', async () => {
    expect(await badRequestMessage({ name: 'Alice', foo: 1 })).toContain('property foo should not exist');
  });

  it('should refuse the string "true" for a boolean field', async () => {
    expect(await badRequestMessage({ name: 'Alice', isActive: 'true' })).toBe('isActive must be a boolean value');
  });

  it('should refuse a numeric string for an integer field', async () => {
    expect(await badRequestMessage({ name: 'Alice', count: '3' })).toBe('count must be an integer number');
  });

  it('should join the messages of several fields with "; ", one per field', async () => {
    const message = await badRequestMessage({ name: 5, isActive: 'yes', count: 1.5 });
    expect(message.split('; ')).toEqual(['name must be a string', 'isActive must be a boolean value', 'count must be an integer number']);
  });

  it('should report the first failing rule of a field only', async () => {
    expect(await badRequestMessage({ name: 'Al' })).toBe('name must be longer than or equal to 3 characters');
  });

  it('should drop an optional field sent as null: it is not given', async () => {
    const result = await pipe.transform({ name: 'Alice', isActive: null, count: null }, bodyMetadata);
    expect(result).toBeInstanceOf(SampleDto);
    expect(Object.keys(result as object)).toEqual(['name']);
  });

  it('should keep null for a PATCH body (NullClears), where it clears the field', async () => {
    @NullClears()
    class ClearingDto {
      @IsOptional()
      @IsString()
      note?: string | null;
    }
    const result = await pipe.transform({ note: null }, { type: 'body', metatype: ClearingDto, data: '' });
    expect(result).toEqual({ note: null });
    expect(Object.keys(result as object)).toEqual(['note']);
  });

  it('should still refuse null for a required field, naming it', async () => {
    expect(await badRequestMessage({ name: null })).toBe('name must be a string');
  });

  it('should name at most 10 unknown fields, then how many more', async () => {
    const body = Object.fromEntries(Array.from({ length: 3500 }, (_, index) => [`f${index}`, 0]));
    const message = await badRequestMessage({ name: 'Alice', ...body });
    const named = Array.from({ length: 10 }, (_, index) => `property f${index} should not exist`);
    expect(message).toBe(`${named.join('; ')}; and 3490 more`);
  });

  it('should quote an unknown field name printable and at most 64 characters long', async () => {
    const message = await badRequestMessage({ name: 'Alice', ['x'.repeat(200)]: 1, 'a\u0000b\r\nc\u202e': 2 });
    expect(message).toBe(`property ${'x'.repeat(63)}… should not exist; property a?b??c? should not exist`);
  });

  it('should bound the fields named for a body that takes no field too', async () => {
    const body = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [index === 0 ? 'y'.repeat(100) : `g${index}`, 0]));
    const message = await badRequestMessage(body, { type: 'body', metatype: EmptyBodyDto, data: '' });
    const named = [
      `property ${'y'.repeat(63)}… should not exist`,
      ...Array.from({ length: 9 }, (_, index) => `property g${index + 1} should not exist`),
    ];
    expect(message).toBe(`${named.join('; ')}; and 2 more`);
  });

  it('should leave non-body arguments to the standard pipe', async () => {
    await expect(pipe.transform('abc', { type: 'param', metatype: String, data: 'id' })).resolves.toBe('abc');
    await expect(pipe.transform(undefined, { type: 'query', metatype: String, data: 'q' })).resolves.toBeUndefined();
  });
});

describe('describeValidationErrors', () => {
  function error(property: string, constraints?: Record<string, string>, children: ValidationError[] = []): ValidationError {
    return Object.assign(new ValidationError(), { property, constraints, children });
  }

  it('should return an empty string for no errors', () => {
    expect(describeValidationErrors([])).toBe('');
  });

  it('should join every constraint message of every field with "; "', () => {
    const message = describeValidationErrors([
      error('name', { isString: 'name must be a string', minLength: 'name is too short' }),
      error('count', { isInt: 'count must be an integer number' }),
    ]);
    expect(message).toBe('name must be a string; name is too short; count must be an integer number');
  });

  it('should include the messages of nested errors', () => {
    const message = describeValidationErrors([
      error('address', undefined, [error('city', { isString: 'city must be a string' })]),
      error('name', { isString: 'name must be a string' }),
    ]);
    expect(message).toContain('city must be a string');
    expect(message).toContain('name must be a string');
    expect(message.split('; ')).toHaveLength(2);
  });

  it('should name 10 failing fields as before, with nothing added', () => {
    const fields = Array.from({ length: 10 }, (_, index) => error(`f${index}`, { isString: `f${index} must be a string` }));
    expect(describeValidationErrors(fields)).toBe(fields.map((field) => `${field.property} must be a string`).join('; '));
  });

  it('should name the first 10 of 11 failing fields, then "and 1 more"', () => {
    const fields = Array.from({ length: 11 }, (_, index) => error(`f${index}`, { isString: `f${index} must be a string` }));
    const named = fields.slice(0, 10).map((field) => `${field.property} must be a string`);
    expect(describeValidationErrors(fields)).toBe(`${named.join('; ')}; and 1 more`);
  });

  it('should count nested fields, each once, and a field with two messages once', () => {
    const message = describeValidationErrors([
      error('name', { isString: 'name must be a string', minLength: 'name is too short' }),
      error(
        'items',
        undefined,
        Array.from({ length: 12 }, (_, index) => error(`${index}`, { isInt: `${index} must be an integer number` })),
      ),
    ]);
    const named = Array.from({ length: 9 }, (_, index) => `${index} must be an integer number`);
    expect(message).toBe(`name must be a string; name is too short; ${named.join('; ')}; and 3 more`);
  });

  it('should write the name in a message printable and cut, wherever the message has it', () => {
    const name = `${'n'.repeat(70)}\u0007`;
    expect(describeValidationErrors([error(name, { whitelistValidation: `property ${name} should not exist` })])).toBe(
      `property ${'n'.repeat(63)}… should not exist`,
    );
    expect(describeValidationErrors([error('a\tb', { isString: 'a\tb must be a string' })])).toBe('a?b must be a string');
  });

  it('should keep an empty name as it is', () => {
    expect(describeValidationErrors([error('', { whitelistValidation: 'property  should not exist' })])).toBe('property  should not exist');
  });
});

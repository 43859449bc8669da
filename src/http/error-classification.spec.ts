import { BadRequestException, ConflictException, HttpException, HttpStatus, InternalServerErrorException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { ServiceUnavailableError, isUnavailableError } from '../common/errors/unavailable';
import { classifyError } from './error-classification';

const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, retry later';

function errorWithCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyError', () => {
  describe('HttpException', () => {
    it('should keep the status and a string message', () => {
      expect(classifyError(new ConflictException('clientId already exists'))).toEqual({
        status: 409,
        message: 'clientId already exists',
      });
    });

    it('should join an array message with "; "', () => {
      const result = classifyError(new BadRequestException(['name must be a string', 'count must be an integer number']));
      expect(result.status).toBe(400);
      expect(result.message).toBe('name must be a string; count must be an integer number');
    });

    it('should keep a plain string response', () => {
      expect(classifyError(new HttpException('I am a teapot', 418))).toEqual({ status: 418, message: 'I am a teapot' });
    });

    it('should keep a response object message', () => {
      const result = classifyError(new HttpException({ message: 'custom', extra: 1 }, HttpStatus.FORBIDDEN));
      expect(result).toEqual({ status: 403, message: 'custom' });
    });

    it('should keep the status and message of a 5xx HttpException', () => {
      expect(classifyError(new InternalServerErrorException('boom'))).toEqual({ status: 500, message: 'boom' });
    });
  });

  describe('unavailable dependencies', () => {
    it('should answer 503 with a generic message for ECONNREFUSED', () => {
      const result = classifyError(errorWithCode('connect ECONNREFUSED 127.0.0.1:3306', 'ECONNREFUSED'));
      expect(result).toEqual({ status: 503, message: UNAVAILABLE_MESSAGE });
      expect(result.message).not.toContain('ECONNREFUSED');
      expect(result.message).not.toContain('3306');
    });

    it.each(['ETIMEDOUT', 'ECONNRESET', 'ENOTFOUND', 'ER_LOCK_DEADLOCK', 'SQLITE_BUSY', 'SQLITE_IOERR_WRITE'])(
      'should answer 503 for the code %s',
      (code) => {
        expect(classifyError(errorWithCode('failed', code)).status).toBe(503);
      },
    );

    it('should answer 503 for a QueryFailedError wrapping PROTOCOL_CONNECTION_LOST', () => {
      const driverError = errorWithCode('Connection lost: The server closed the connection.', 'PROTOCOL_CONNECTION_LOST');
      const error = new QueryFailedError('SELECT * FROM client WHERE id = ?', [1], driverError);
      const result = classifyError(error);
      expect(result).toEqual({ status: 503, message: UNAVAILABLE_MESSAGE });
      expect(result.message).not.toContain('SELECT');
    });

    it('should answer 500 for a QueryFailedError wrapping a constraint violation', () => {
      const driverError = errorWithCode("Duplicate entry 'x' for key 'client.secret'", 'ER_DUP_ENTRY');
      const result = classifyError(new QueryFailedError('INSERT INTO client', [], driverError));
      expect(result).toEqual({ status: 500, message: 'Internal server error' });
      expect(result.message).not.toContain('Duplicate');
    });

    it('should answer 503 for a ServiceUnavailableError', () => {
      expect(classifyError(new ServiceUnavailableError('broker channel closed'))).toEqual({
        status: 503,
        message: UNAVAILABLE_MESSAGE,
      });
    });

    it('should answer 503 for a pool error described only in its message', () => {
      expect(classifyError(new Error('Pool is closed.')).status).toBe(503);
    });
  });

  describe('Fastify request errors', () => {
    it('should answer 415 with its own message for FST_ERR_CTP_INVALID_MEDIA_TYPE', () => {
      expect(
        classifyError({ statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: 'Unsupported Media Type: text/plain' }),
      ).toEqual({
        status: 415,
        message: 'Content-Type must be application/json',
      });
    });

    it('should answer 413 for FST_ERR_CTP_BODY_TOO_LARGE', () => {
      expect(classifyError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })).toEqual({
        status: 413,
        message: 'Request body must not exceed 32 KiB',
      });
    });

    it('should answer 400 with its own message for invalid JSON, not the parser message', () => {
      const error = Object.assign(new SyntaxError('Unexpected token } in JSON at position 9'), {
        statusCode: 400,
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      });
      expect(classifyError(error)).toEqual({ status: 400, message: 'Request body is not valid JSON' });
    });

    it('should answer 400, not 503, for a request body the caller cut off (Node calls it ECONNRESET too)', () => {
      const error = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
      expect(classifyError(error)).toEqual({ status: 400, message: 'Request body was not received whole' });
    });

    it('should answer a generic message for an unknown 4xx code', () => {
      expect(classifyError({ statusCode: 400, code: 'FST_ERR_SOMETHING_NEW', message: 'internal detail' })).toEqual({
        status: 400,
        message: 'Bad request',
      });
    });

    it('should not trust a 5xx statusCode on a foreign error', () => {
      expect(classifyError({ statusCode: 502, message: 'upstream detail' })).toEqual({
        status: 500,
        message: 'Internal server error',
      });
    });
  });

  describe('anything else', () => {
    it('should answer 500 for a programming error that merely mentions a connection', () => {
      for (const error of [
        new TypeError("Cannot read properties of undefined (reading 'connection')"),
        new Error('Invalid connection string'),
      ]) {
        expect(classifyError(error)).toEqual({ status: 500, message: 'Internal server error' });
      }
    });

    it('should answer 500 without leaking the message of a plain Error', () => {
      const result = classifyError(new Error('SELECT * FROM secret'));
      expect(result).toEqual({ status: 500, message: 'Internal server error' });
      expect(result.message).not.toContain('secret');
    });

    it.each<[string, unknown]>([
      ['a string', 'oops'],
      ['null', null],
      ['undefined', undefined],
      ['a number', 42],
    ])('should answer 500 for %s', (_label, thrown) => {
      expect(classifyError(thrown)).toEqual({ status: 500, message: 'Internal server error' });
    });
  });
});

describe('isUnavailableError', () => {
  it('should be false for values that are not errors', () => {
    expect(isUnavailableError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isUnavailableError(null)).toBe(false);
  });

  it('should be false for an error with an unrelated code', () => {
    expect(isUnavailableError(errorWithCode('duplicate', 'ER_DUP_ENTRY'))).toBe(false);
  });
});

import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS, buildPinoOptions } from './logger-options';

function logged(write: (logger: pino.Logger) => void): string {
  let output = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  write(logger);
  return output;
}

describe('REDACTED_PATHS', () => {
  it('should hide the credential headers of a request', () => {
    const output = logged((logger) =>
      logger.info({ req: { headers: { secretkey: 'sk_header_value', 'x-api-key': 'admin_header_value', authorization: 'Bearer t' } } }),
    );
    expect(output).not.toMatch(/sk_header_value|admin_header_value|Bearer t/);
  });

  it('should hide password, apiKey and secretKey at any depth an error log puts them', () => {
    const output = logged((logger) => {
      logger.info({ password: 'p0', apiKey: 'k0', secretKey: 's0' });
      logger.error({ err: { password: 'p1', apiKey: 'k1' }, body: { secretKey: 's1' } }, 'Unexpected error');
      logger.error({ err: { driverError: { password: 'p2' }, request: { body: { apiKey: 'k2' } } } });
    });
    expect(output).not.toMatch(/"(p0|k0|s0|p1|k1|s1|p2|k2)"/);
    expect(output).toContain('[redacted]');
  });

  it('should hide the parameters and SQL of a failed query', () => {
    const output = logged((logger) =>
      logger.error({
        err: { message: 'Duplicate', parameters: ['sealed-value'], sql: "INSERT ... 'inline-value'", driverError: { sql: 'inline-2' } },
      }),
    );
    expect(output).not.toMatch(/sealed-value|inline-value|inline-2/);
    expect(output).toContain('Duplicate');
  });
});

describe('buildPinoOptions', () => {
  const httpOptions = (pretty: boolean) =>
    buildPinoOptions({ level: 'info', pretty }) as { transport?: { target: string }; redact?: unknown };

  it('should write plain JSON lines unless pretty output is asked for', () => {
    expect(httpOptions(false).transport).toBeUndefined();
    expect(httpOptions(true).transport?.target).toBe('pino-pretty');
  });

  it('should redact in both formats', () => {
    expect(httpOptions(false).redact).toEqual({ paths: REDACTED_PATHS, censor: '[redacted]' });
    expect(httpOptions(true).redact).toEqual({ paths: REDACTED_PATHS, censor: '[redacted]' });
  });
});

import { Writable } from 'node:stream';
import pino from 'pino';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REDACTED_PATHS, buildPinoOptions, createLoggers } from './logger-options';

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

describe('createLoggers', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const SECRET_KEY = `sk_${'q'.repeat(43)}`;

  function loggersWritingTo(secrets: string[] = []) {
    const file = join(mkdtempSync(join(tmpdir(), 'registry-loggers-')), 'out.log');
    return { file, ...createLoggers({ level: 'trace', pretty: false, file, secrets }) };
  }
  const linesOf = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('should write both loggers’ lines as JSON to one destination', async () => {
    const { file, root, access } = loggersWritingTo();
    root.info('from Nest');
    access.info({ statusCode: 200 }, 'request completed');
    await nextTurn();
    expect(linesOf(file).map((line) => line.msg)).toEqual(['from Nest', 'request completed']);
  });

  it('should scrub credentials and configured secrets from every root line, at every level, messages and errors alike', async () => {
    const { file, root } = loggersWritingTo(['the-admin-key-0123']);
    root.trace(`trace with ${SECRET_KEY}`);
    root.warn({ context: 'Bus' }, 'warn with the-admin-key-0123');
    root.error({ err: new Error(`failed for ${SECRET_KEY}`) }, 'Unexpected error');
    root.fatal(new Error('fatal with the-admin-key-0123'));
    await nextTurn();
    const written = readFileSync(file, 'utf8');
    expect(linesOf(file)).toHaveLength(4);
    expect(written).not.toContain(SECRET_KEY);
    expect(written).not.toContain('the-admin-key-0123');
    expect(written).toContain('failed for [redacted]');
  });
});

describe('buildPinoOptions', () => {
  it('should redact the credential paths', () => {
    expect(buildPinoOptions({ level: 'info', pretty: false }).redact).toEqual({ paths: REDACTED_PATHS, censor: '[redacted]' });
  });
});

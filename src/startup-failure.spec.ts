import { AppConfig } from './config/app-config';
import { ConfigurationError } from './config/environment';
import { describeStartupFailure } from './startup-failure';

const MYSQL = {
  host: '0.0.0.0',
  port: 3000,
  database: { type: 'mysql', url: 'mysql://app:s3cret@db.internal:3306/registry', poolSize: 10 },
} as AppConfig;

describe('describeStartupFailure', () => {
  it('should name the variable of a bad configuration', () => {
    const error = new ConfigurationError('Invalid configuration: PORT must be an integer number');
    expect(describeStartupFailure(error)).toBe('Invalid configuration: PORT must be an integer number');
  });

  it('should name the database it could not reach, without its credentials', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:3306'), { code: 'ECONNREFUSED' });
    const described = describeStartupFailure(error, MYSQL);
    expect(described).toBe('Cannot start: the database at db.internal:3306/registry is unreachable (connect ECONNREFUSED 10.0.0.5:3306)');
    expect(described).not.toContain('s3cret');
  });

  it('should name the address it could not listen on', () => {
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use 0.0.0.0:3000'), { code: 'EADDRINUSE' });
    expect(describeStartupFailure(error, MYSQL)).toBe('Cannot start: cannot listen on 0.0.0.0:3000 (EADDRINUSE)');
  });

  it('should say what else failed in its own words', () => {
    expect(describeStartupFailure(new Error('Migration SmsConfigLimit1 failed'), MYSQL)).toBe(
      'Cannot start: Migration SmsConfigLimit1 failed',
    );
  });
});

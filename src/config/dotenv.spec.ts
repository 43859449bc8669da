import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDotEnv } from './dotenv';

function directoryWithDotEnv(content: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'dotenv-'));
  writeFileSync(join(directory, '.env'), content);
  return directory;
}

describe('loadDotEnv', () => {
  it('should read .env of the directory into the environment and name the file', () => {
    const directory = directoryWithDotEnv('# a comment\nPORT=4000\nexport LOG_LEVEL="warn"\nDOCS_ENABLED=\n');
    const env: NodeJS.ProcessEnv = {};

    expect(loadDotEnv(directory, env)).toBe(join(directory, '.env'));
    expect(env).toEqual({ PORT: '4000', LOG_LEVEL: 'warn', DOCS_ENABLED: '' });
  });

  it('should leave a variable of the real environment as it is, even one set to an empty string', () => {
    const env: NodeJS.ProcessEnv = { PORT: '5000', LOG_LEVEL: '' };

    loadDotEnv(directoryWithDotEnv('PORT=4000\nLOG_LEVEL=warn\nHOST=127.0.0.1\n'), env);

    expect(env).toEqual({ PORT: '5000', LOG_LEVEL: '', HOST: '127.0.0.1' });
  });

  it('should change nothing and answer undefined when the directory has no .env', () => {
    const env: NodeJS.ProcessEnv = { PORT: '5000' };

    expect(loadDotEnv(mkdtempSync(join(tmpdir(), 'dotenv-')), env)).toBeUndefined();
    expect(env).toEqual({ PORT: '5000' });
  });

  it('should load into process.env by default', () => {
    const directory = directoryWithDotEnv('DOTENV_SPEC_DEFAULT_TARGET=from-file\n');
    try {
      loadDotEnv(directory);
      expect(process.env.DOTENV_SPEC_DEFAULT_TARGET).toBe('from-file');
    } finally {
      delete process.env.DOTENV_SPEC_DEFAULT_TARGET;
    }
  });
});

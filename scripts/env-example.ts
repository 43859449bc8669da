/**
 * Writes .env.example and the README's table of variables from VARIABLES (src/config/environment.ts), the one list of
 * the service's variables. `--check` writes nothing and fails when either committed file differs from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as prettier from 'prettier';
import { renderEnvExample, renderVariablesTable, replaceVariablesTable } from '../src/config/variables-documentation';
import { readFileIfPresent, runScript } from './script-io';

const ENV_EXAMPLE = resolve(__dirname, '../.env.example');
const README = resolve(__dirname, '../README.md');

async function main(): Promise<void> {
  const readme = readFileSync(README, 'utf8');
  const wanted = new Map([
    [ENV_EXAMPLE, renderEnvExample()],
    // Formatted as `npm run lint` expects the README to be; renderVariablesTable() already lays the table out this way.
    [README, await formatMarkdown(replaceVariablesTable(readme, renderVariablesTable()), README)],
  ]);

  if (process.argv.includes('--check')) {
    const stale = [...wanted].filter(([file, text]) => readFileIfPresent(file) !== text).map(([file]) => file);
    if (stale.length > 0) {
      const verb = stale.length === 1 ? 'differs' : 'differ';
      console.error(`${stale.join(' and ')} ${verb} from src/config/environment.ts: run \`npm run env:example\` and commit the result`);
      process.exit(1);
    }
    console.log('.env.example and the README table match src/config/environment.ts');
    return;
  }
  for (const [file, text] of wanted) {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}

async function formatMarkdown(text: string, file: string): Promise<string> {
  const options = await prettier.resolveConfig(file);
  return prettier.format(text, { ...options, filepath: file, parser: 'markdown' });
}

runScript(main);

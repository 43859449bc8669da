import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { environmentVariableNames, VARIABLES } from './environment';
import {
  readVariablesTable,
  README_TABLE_END,
  README_TABLE_START,
  renderEnvExample,
  renderVariablesTable,
  replaceVariablesTable,
} from './variables-documentation';

const ROOT = join(__dirname, '..', '..');
const STALE = 'differs from src/config/environment.ts: run `npm run env:example` and commit the result';

/** A table row's cells, split on the pipes that are not escaped. */
function cellsOf(row: string): string[] {
  return row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

describe('.env.example', () => {
  const committed = readFileSync(join(ROOT, '.env.example'), 'utf8');

  it('should be what `npm run env:example` writes from VARIABLES', () => {
    expect({ file: committed, note: STALE }).toEqual({ file: renderEnvExample(), note: STALE });
  });

  it('should describe every variable the service reads, each on a commented-out `# NAME=` line after its meaning and default', () => {
    const lines = committed.split('\n');
    for (const name of environmentVariableNames()) {
      const index = lines.indexOf(`# ${name}=`);
      expect({ name, index: index > 0 }).toEqual({ name, index: true });
      expect(lines[index - 1]).toMatch(/^# .+ \(default: .+\)$/);
    }
    expect(lines.filter((line) => /^# [A-Z_]+=$/.test(line))).toHaveLength(environmentVariableNames().length);
  });

  it('should set nothing when copied to .env as it is', () => {
    expect(parseEnv(committed)).toEqual({});
    expect(committed.split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual([]);
  });
});

describe("README's Configuration table", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('should be what `npm run env:example` writes from VARIABLES', () => {
    expect({ table: readVariablesTable(readme), note: STALE }).toEqual({ table: renderVariablesTable(), note: STALE });
  });

  it('should have one row per variable, in the order of VARIABLES, with its default and meaning', () => {
    const [header, delimiter, ...rows] = readVariablesTable(readme).trimEnd().split('\n');

    expect(cellsOf(header)).toEqual(['variable', 'default', 'meaning']);
    expect(cellsOf(delimiter).every((cell) => /^-{3,}$/.test(cell))).toBe(true);
    expect(rows.map(cellsOf)).toEqual(
      Object.entries(VARIABLES).map(([name, { default: value, meaning }]) => [
        `\`${name}\``,
        /[\s`]/.test(value) ? value : `\`${value}\``,
        meaning,
      ]),
    );
  });
});

describe('renderVariablesTable', () => {
  it('should pad every column to its widest cell, as Prettier lays a table out, quote single values and escape pipes', () => {
    const table = renderVariablesTable({
      PORT: { default: '3000', meaning: 'port' },
      LOG_FILE: { default: 'unset: stdout', meaning: 'a | b' },
    });

    expect(table).toBe(
      [
        '| variable   | default       | meaning |',
        '| ---------- | ------------- | ------- |',
        '| `PORT`     | `3000`        | port    |',
        '| `LOG_FILE` | unset: stdout | a \\| b  |',
        '',
      ].join('\n'),
    );
  });
});

describe('replaceVariablesTable', () => {
  it('should replace only the text between the markers', () => {
    const readme = `# Title\n\n${README_TABLE_START}\n\nold table\n\n${README_TABLE_END}\n\nAfter.\n`;

    expect(replaceVariablesTable(readme, '| new |\n')).toBe(
      `# Title\n\n${README_TABLE_START}\n\n| new |\n\n${README_TABLE_END}\n\nAfter.\n`,
    );
  });

  it('should refuse a README without the markers', () => {
    expect(() => replaceVariablesTable('# Title\n', '| new |\n')).toThrow('README.md has no');
  });
});

describe('renderEnvExample', () => {
  it('should write a variable as its meaning and default without code marks, then its commented-out name', () => {
    expect(renderEnvExample({ DATA_DIR: { default: './data', meaning: 'SQLite file in `DATA_DIR`' } })).toMatch(
      /\n\n# SQLite file in DATA_DIR \(default: \.\/data\)\n# DATA_DIR=\n$/,
    );
  });
});

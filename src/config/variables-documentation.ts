import { VARIABLES, VariableDescription } from './environment';

export const README_TABLE_START = '<!-- variables:start: written from src/config/environment.ts by `npm run env:example` -->';
export const README_TABLE_END = '<!-- variables:end -->';

type Variables = Record<string, VariableDescription>;

export function renderEnvExample(variables: Variables = VARIABLES): string {
  const header = [
    '# Every variable the service reads, written from src/config/environment.ts by `npm run env:example`: do not edit.',
    '# Copy it to .env in the directory the service starts from and uncomment what you set. A variable of the real',
    '# environment wins over .env. As it is, every line commented out, it changes nothing.',
  ];
  const entries = Object.entries(variables).map(
    ([name, { default: defaultValue, meaning }]) => `# ${plain(meaning)} (default: ${plain(defaultValue)})\n# ${name}=\n`,
  );
  return `${header.join('\n')}\n\n${entries.join('\n')}`;
}

// Padded as Prettier pads a table, so that the README passes prettier --check.
export function renderVariablesTable(variables: Variables = VARIABLES): string {
  const rows = variablesTableRows(variables).map((row) => row.map(escapeCell));
  const header = ['variable', 'default', 'meaning'];
  const widths = header.map((title, column) => Math.max(3, title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n') + '\n';
}

export function variablesTableRows(variables: Variables = VARIABLES): string[][] {
  return Object.entries(variables).map(([name, description]) => [`\`${name}\``, defaultCell(description.default), description.meaning]);
}

export function replaceVariablesTable(readme: string, table: string): string {
  const { start, end } = tableBounds(readme);
  return `${readme.slice(0, start)}\n\n${table}\n${readme.slice(end)}`;
}

export function readVariablesTable(readme: string): string {
  const { start, end } = tableBounds(readme);
  return `${readme.slice(start, end).trim()}\n`;
}

function tableBounds(readme: string): { start: number; end: number } {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no "${README_TABLE_START}" ... "${README_TABLE_END}" block`);
  return { start: start + README_TABLE_START.length, end };
}

function defaultCell(value: string): string {
  return /[\s`]/.test(value) ? value : `\`${value}\``;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

// Markdown's code marks mean nothing in a shell file.
function plain(text: string): string {
  return text.replace(/`/g, '');
}

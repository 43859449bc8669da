import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const CRUISER = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Cruise {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string; coreModule: boolean; couldNotResolve: boolean }> }>;
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string; cycle?: Array<{ name: string }> }> };
}

/** dependency-cruiser over `src/` of `cwd`, with the project's rules (.dependency-cruiser.cjs). */
function cruise(cwd: string): Cruise {
  const output = execFileSync(process.execPath, [CRUISER, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd, encoding: 'utf8' });
  return JSON.parse(output) as Cruise;
}

function describeViolations(result: Cruise): string[] {
  return result.summary.violations.map(
    (violation) =>
      `${violation.rule.name}: ${violation.from} -> ${violation.to}` +
      (violation.cycle ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' -> ')})` : ''),
  );
}

/** The top-level folder of src/ a file is in ('.' for the files at the top: main.ts, app.module.ts...). */
function folderOf(source: string): string {
  const [first, second] = source.split('/');
  return second === undefined || !source.slice(first.length + 1).includes('/') ? '.' : second;
}

/** Which folders each folder imports (tests left out: they may reach anywhere). */
function folderImports(result: Cruise): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const module of result.modules) {
    if (!module.source.startsWith('src/') || module.source.endsWith('.spec.ts')) continue;
    const from = folderOf(module.source);
    for (const dependency of module.dependencies) {
      if (dependency.coreModule || !dependency.resolved.startsWith('src/')) continue;
      const to = folderOf(dependency.resolved);
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

/** A cycle of folders, if the folders' imports have one. */
function folderCycle(result: Cruise): string[] | undefined {
  const edges = folderImports(result);
  const done = new Set<string>();
  const visit = (folder: string, path: string[]): string[] | undefined => {
    if (path.includes(folder)) return [...path.slice(path.indexOf(folder)), folder];
    if (done.has(folder)) return undefined;
    for (const next of edges.get(folder) ?? []) {
      const cycle = visit(next, [...path, folder]);
      if (cycle) return cycle;
    }
    done.add(folder);
    return undefined;
  };
  for (const folder of edges.keys()) {
    const cycle = visit(folder, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The .ts files under src/, relative to the root (src/...), specs included. */
function sourceFiles(): string[] {
  return (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .map((path) => relative(ROOT, join(ROOT, 'src', path)))
    .filter((path) => path.endsWith('.ts'));
}

/** The classes a text declares extending an error class: `Error` itself, `TypeError`, or any of its own `...Error`. */
function errorClassesIn(text: string): string[] {
  return [...text.matchAll(/\bclass\s+(\w+)(?:\s*<[^>{]*>)?\s+extends\s+(?:\w+\.)*\w*Error\b/g)].map(([, name]) => name);
}

/** The longest chain of imports between files of src/, specs and the composition root (which imports every module) left out. */
function deepestImportChain(result: Cruise): string[] {
  const root = new Set(['src/main.ts', 'src/create-app.ts', 'src/app.module.ts', 'src/migrate.ts', 'src/reseal.ts']);
  const inScope = (source: string) => source.startsWith('src/') && !source.endsWith('.spec.ts') && !root.has(source);
  const imports = new Map(
    result.modules
      .filter((module) => inScope(module.source))
      .map((module) => [module.source, module.dependencies.filter((d) => !d.coreModule && inScope(d.resolved)).map((d) => d.resolved)]),
  );
  const longest = new Map<string, string[]>();
  const chainFrom = (file: string): string[] => {
    const known = longest.get(file);
    if (known) return known;
    longest.set(file, [file]);
    const chain = [file, ...(imports.get(file) ?? []).map(chainFrom).reduce<string[]>((a, b) => (b.length > a.length ? b : a), [])];
    longest.set(file, chain);
    return chain;
  };
  return [...imports.keys()].map(chainFrom).reduce<string[]>((a, b) => (b.length > a.length ? b : a), []);
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe('Architecture', () => {
  let result: Cruise;

  beforeAll(() => {
    result = cruise(ROOT);
  });

  it('should have no import cycle, and common/ should import nothing of the service', () => {
    expect(result.modules.length).toBeGreaterThan(50);
    expect(describeViolations(result)).toEqual([]);
  });

  it('should have folders whose imports point one way (no folder imports one that imports it back)', () => {
    expect(folderCycle(result)).toBeUndefined();
  });

  it('should catch a file cycle, a folder cycle and common/ importing a feature (the checks above can fail)', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'architecture-spec-'));
    try {
      writeFiles(fixture, {
        'tsconfig.json': '{"compilerOptions": {"module": "commonjs"}}',
        'src/common/helper.ts': "import { feature } from '../feature/feature';\nexport const helper = feature;\n",
        'src/feature/feature.ts': "import { other } from '../other/other';\nexport const feature = other;\n",
        'src/other/other.ts': "import { back } from '../feature/back';\nexport const other = back;\n",
        'src/feature/back.ts': 'export const back = 1;\n',
        'src/cycle/a.ts': "import { b } from './b';\nexport const a = b;\n",
        'src/cycle/b.ts': "import { a } from './a';\nexport const b = a;\n",
      });
      const planted = cruise(fixture);
      const rules = describeViolations(planted).map((line) => line.split(':')[0]);
      expect(rules).toEqual(expect.arrayContaining(['no-circular', 'common-is-a-leaf']));
      expect(folderCycle(planted)).toEqual(expect.arrayContaining(['feature', 'other']));
    } finally {
      rmSync(fixture, { recursive: true, force: true });
    }
  });

  it('should draw in docs/architecture.md exactly the imports between folders there are', () => {
    const drawn = new Set(
      [...readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8').matchAll(/^ {2}([a-z-]+) --> ([a-z-]+)$/gm)].map(
        ([, from, to]) => `${from} -> ${to}`,
      ),
    );
    // The top-level files, config/ and common/ are left out of the drawing, as its legend says.
    const actual = [...folderImports(result)]
      .filter(([from]) => from !== '.')
      .flatMap(([from, targets]) => [...targets].filter((to) => !['config', 'common'].includes(to)).map((to) => `${from} -> ${to}`));
    expect([...drawn].sort()).toEqual([...actual].sort());
  });

  it('should keep every SQL string in a repository, a migration or the database module', () => {
    const SQL =
      /\b(SELECT\s+(\$\{|[A-Za-z0-9*(])|INSERT\s+INTO|UPDATE\s+([a-z_]+|\$\{[^}]+\})\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|TRIGGER|INDEX|PROCEDURE)|ALTER\s+TABLE|DROP\s+(TABLE|TRIGGER|PROCEDURE))/;
    const allowed = (path: string) => path.endsWith('.repository.ts') || path.startsWith('src/database/') || path.endsWith('.spec.ts');
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    const offending = files.filter((path) => !allowed(path) && SQL.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(offending).toEqual([]);
    // The pattern does recognise the repositories' SQL, names put in from SqlNames (`SELECT ${...}`) included: the statements TypeORM's query builder cannot write, or writes
    // slower on a hot path (docs/architecture.md lists them); the other repositories have none.
    expect(files.filter((path) => path.endsWith('.repository.ts') && SQL.test(readFileSync(join(ROOT, path), 'utf8')))).toEqual([
      'src/audit/audit.repository.ts',
      'src/client/client.repository.ts',
      'src/dispatch/dispatch.repository.ts',
      'src/key-usage/key-usage.repository.ts',
      'src/reseal/sealed-column.repository.ts',
      'src/sms-config/destination-price.repository.ts',
      'src/sms-config/sms-config-budget.repository.ts',
      'src/sms-config/sms-config.repository.ts',
    ]);
  });

  it('should refuse through Nest’s HTTP exceptions: no class of src/ extends Error except the few that refuse no request', () => {
    const NOT_REFUSALS: Record<string, string> = {
      ConfigurationError: 'a wrong environment variable: the start stops',
      PendingMigrationsError: 'migrations left to run by their own step: the start stops',
      ServiceUnavailableError: 'a dependency did not answer: a 503 with a generic message, whatever the request',
      UnsealError: 'a sealed value that does not open: caught where it is opened, which answers its own refusal',
    };
    const sources = sourceFiles().filter((path) => !path.endsWith('.spec.ts'));
    const declared = sources.flatMap((path) => errorClassesIn(readFileSync(join(ROOT, path), 'utf8')));
    expect(declared.sort()).toEqual(Object.keys(NOT_REFUSALS).sort());
    expect(sources.filter((path) => readFileSync(join(ROOT, path), 'utf8').includes('DomainError'))).toEqual([]);
    // The pattern does recognise a refusal of its own, written in any of these ways.
    expect(
      errorClassesIn(
        'export class DomainError extends Error {}\nclass Refused<T>\n  extends RangeError {}\nclass LimitReached extends DomainError {}\n' +
          'class Fine extends ConflictException {}',
      ),
    ).toEqual(['DomainError', 'Refused', 'LimitReached']);
  });

  it("should patch no method of a TypeORM or driver object: TypeORM's hooks, options and factories instead", () => {
    const PATCH =
      /(\.|\[['"])(query|execute|prepare|obtainMasterConnection|obtainSlaveConnection|createQueryRunner|connect|release|getConnection|startTransaction|commitTransaction|rollbackTransaction|createPool)(['"]\])?\s*=(?!=)|\.prototype\.[\w$]+\s*=(?!=)/;
    const files = sourceFiles().filter((path) => !path.endsWith('.spec.ts'));
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((path) => PATCH.test(readFileSync(join(ROOT, path), 'utf8')))).toEqual([]);
    // The pattern does recognise the patches it replaced: each runner's query, and the MySQL driver's wait for a connection.
    expect(PATCH.test("runner.query = sent as QueryRunner['query'];")).toBe(true);
    expect(PATCH.test('driver.obtainMasterConnection = () => {')).toBe(true);
    expect(PATCH.test('const same = runner.query === sent;')).toBe(false);
  });

  it('should keep every import chain below the composition root within 10 hops', () => {
    // At most 11 files in a row; a longer chain fails showing itself.
    const chain = deepestImportChain(result);
    expect(chain.slice(0, 11)).toEqual(chain);
    // The measure does follow a chain through every file: 11 files in a row are 10 hops.
    const planted = {
      modules: Array.from({ length: 11 }, (_, i) => ({
        source: `src/f${i}.ts`,
        dependencies: i === 10 ? [] : [{ resolved: `src/f${i + 1}.ts`, coreModule: false, couldNotResolve: false }],
      })),
      summary: { violations: [] },
    };
    expect(deepestImportChain(planted)).toHaveLength(11);
  });
});

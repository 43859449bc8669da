import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');

function sourceFiles(): string[] {
  return (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .map((path) => relative(ROOT, join(ROOT, 'src', path)))
    .filter((path) => path.endsWith('.ts'));
}

const MAX_FILE_LINES = 300;
// Generated from the entities, then reviewed: their length is the schema's, not a design's.
const GENERATED = /^src\/database\/migrations\/(mysql|sqlite)\//;

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files longer than MAX_FILE_LINES lines, with their length, the generated migrations aside. */
function filesOverTheBound(files: Array<{ path: string; text: string }>): string[] {
  return files
    .filter(({ path, text }) => !GENERATED.test(path) && lineCount(text) > MAX_FILE_LINES)
    .map(({ path, text }) => `${path} (${lineCount(text)} lines)`);
}

/** The classes a text declares extending an error class: `Error` itself, `TypeError`, or any of its own `...Error`. */
function errorClassesIn(text: string): string[] {
  return [...text.matchAll(/\bclass\s+(\w+)(?:\s*<[^>{]*>)?\s+extends\s+(?:\w+\.)*\w*Error\b/g)].map(([, name]) => name);
}

/** The .ts files of src/ and scripts/ and ormconfig.ts, relative to the root, specs included. */
function typescriptFiles(): string[] {
  const scripts = readdirSync(join(ROOT, 'scripts'))
    .filter((path) => path.endsWith('.ts'))
    .map((path) => `scripts/${path}`);
  return [...sourceFiles(), ...scripts, 'ormconfig.ts'];
}

/** What a text imports of TypeORM past its root (`typeorm/...`): `import`, `export ... from`, `require()` or `import()`. */
function typeormDeepImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)['"](typeorm\/[^'"]*)['"]/g)].map(([, path]) => path);
}

/** The classes a text declares extending a class it takes from TypeORM, by name or through its namespace. */
function typeormSubclassesIn(text: string): string[] {
  const named = [...text.matchAll(/\bimport\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]typeorm(?:\/[^'"]*)?['"]/g)].flatMap(([, names]) =>
    names.split(',').map((name) =>
      name
        .trim()
        .split(/\s+as\s+/)
        .pop()!,
    ),
  );
  const namespaces = [...text.matchAll(/\bimport\s*\*\s*as\s+(\w+)\s+from\s*['"]typeorm['"]/g)].map(([, namespace]) => `${namespace}.`);
  const fromTypeorm = (base: string) => named.includes(base) || namespaces.some((namespace) => base.startsWith(namespace));
  return [...text.matchAll(/\bclass\s+(\w+)(?:\s*<[^>{]*>)?\s+extends\s+([\w.]+)/g)]
    .filter(([, , base]) => fromTypeorm(base))
    .map(([, name]) => name);
}

describe('Code rules', () => {
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
      'src/client/get-client.repository.ts',
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

  it('should use TypeORM through its root only, and extend none of its classes but a logger', () => {
    // Its other modules are its internals, which any minor release may change; the gaps it leaves are database/typeorm-gaps.ts.
    const TYPEORM_SUBCLASSES: Record<string, string> = {
      NoSlowStatementLogger: 'a logger: TypeORM makes its loggers to be extended, and this one overrides a public method',
    };
    // This file is left out for the texts it plants below.
    const files = typescriptFiles().filter((path) => path !== 'src/code-rules.spec.ts');
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((path) => typeormDeepImports(readFileSync(join(ROOT, path), 'utf8')).length > 0)).toEqual([]);
    const subclasses = files
      .filter((path) => !path.endsWith('.spec.ts'))
      .flatMap((path) => typeormSubclassesIn(readFileSync(join(ROOT, path), 'utf8')));
    expect(subclasses.sort()).toEqual(Object.keys(TYPEORM_SUBCLASSES).sort());
    // The patterns do recognise the deep imports and the subclass that were here, and leave the root's imports alone.
    expect(
      typeormDeepImports(
        "import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';\n" +
          "import type { Query } from 'typeorm/driver/Query';\nconst { MysqlDriver } = require('typeorm/driver/mysql/MysqlDriver');\n" +
          "import { DataSource } from 'typeorm';\n",
      ),
    ).toEqual(['typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner', 'typeorm/driver/Query', 'typeorm/driver/mysql/MysqlDriver']);
    expect(
      typeormSubclassesIn(
        "import { DataSource as Source, QueryRunner } from 'typeorm';\nimport * as orm from 'typeorm';\n" +
          'export class RegistryDataSource extends Source {\n  protected override async buildMetadatas(): Promise<void> {}\n}\n' +
          "import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';\n" +
          'class Runner<T> extends orm.AbstractLogger {}\nclass TurnTaking extends BetterSqlite3QueryRunner {}\nclass Fine extends ConfigService {}\n',
      ),
    ).toEqual(['RegistryDataSource', 'Runner', 'TurnTaking']);
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

  it(`should keep every file of src/ within ${MAX_FILE_LINES} lines, the generated migrations aside`, () => {
    const files = sourceFiles().map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(filesOverTheBound(files)).toEqual([]);
    // The check does count lines as wc -l does, and does leave out the generated migrations only.
    const lines = (count: number) => 'x\n'.repeat(count);
    expect(
      filesOverTheBound([
        { path: 'src/feature/at-the-bound.ts', text: lines(MAX_FILE_LINES) },
        { path: 'src/feature/one-over.ts', text: lines(MAX_FILE_LINES) + 'x' },
        { path: 'src/feature/one-over.spec.ts', text: lines(MAX_FILE_LINES + 1) },
        { path: 'src/database/migrations/mysql/1-Generated.ts', text: lines(1000) },
        { path: 'src/database/migrations/sqlite/1-Generated.ts', text: lines(1000) },
        { path: 'src/database/migrations/by-hand.ts', text: lines(MAX_FILE_LINES + 1) },
      ]),
    ).toEqual([
      'src/feature/one-over.ts (301 lines)',
      'src/feature/one-over.spec.ts (301 lines)',
      'src/database/migrations/by-hand.ts (301 lines)',
    ]);
  });
});

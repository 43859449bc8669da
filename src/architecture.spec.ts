import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Cruise,
  MAX_FILE_LINES,
  ROOT,
  cruise,
  deepestImportChain,
  describeViolations,
  errorClassesIn,
  filesOverTheBound,
  folderCycle,
  folderImports,
  sourceFiles,
  typeormDeepImports,
  typeormSubclassesIn,
  typescriptFiles,
  writeFiles,
} from '../test/helpers/source-tree';

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
    // A migrations' index.ts, the list the generator writes, is no hop: the same chain through one is still 11 files.
    const index = 'src/database/migrations/mysql/index.ts';
    const throughIndex = {
      ...planted,
      modules: [
        ...planted.modules.map((module, i) =>
          i === 5 ? { ...module, dependencies: [{ ...module.dependencies[0], resolved: index }] } : module,
        ),
        { source: index, dependencies: [{ resolved: 'src/f6.ts', coreModule: false, couldNotResolve: false }] },
      ],
    };
    expect(deepestImportChain(throughIndex)).toEqual(planted.modules.map(({ source }) => source));
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
      'src/client/get-client.repository.ts',
      'src/client-cache/change-sequence.repository.ts',
      'src/delivery-signals/delivery-signals.repository.ts',
      'src/dispatch/dispatch.repository.ts',
      'src/dispatch/route.repository.ts',
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

  it('should use TypeORM through its root only, and extend none of its classes but a logger and the SQLite DataSource', () => {
    // Its other modules are its internals, which any minor release may change; the gaps it leaves are database/typeorm-gaps.ts.
    const TYPEORM_SUBCLASSES: Record<string, string> = {
      NoSlowStatementLogger: 'a logger: TypeORM makes its loggers to be extended, and this one overrides a public method',
      SqliteDataSource: 'initialize() is public: the subclass calls it, then reads the metadata it built as SQLite declares the tables',
    };
    // This file is left out for the texts it plants below.
    const files = typescriptFiles().filter((path) => path !== 'src/architecture.spec.ts');
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

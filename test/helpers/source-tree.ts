import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// What src/architecture.spec.ts reads the source tree with: its imports (dependency-cruiser) and its files' text.
export const ROOT = join(__dirname, '..', '..');
const CRUISER = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

export interface Cruise {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string; coreModule: boolean; couldNotResolve: boolean }> }>;
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string; cycle?: Array<{ name: string }> }> };
}

/** dependency-cruiser over `src/` of `cwd`, with the project's rules (.dependency-cruiser.cjs). */
export function cruise(cwd: string): Cruise {
  // Its JSON passed the default 1 MiB buffer as src/ grew.
  const output = execFileSync(process.execPath, [CRUISER, 'src', '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(output) as Cruise;
}

export function describeViolations(result: Cruise): string[] {
  return result.summary.violations.map(
    (violation) =>
      `${violation.rule.name}: ${violation.from} -> ${violation.to}` +
      (violation.cycle ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' -> ')})` : ''),
  );
}

/** The top-level folder of src/ a file is in ('.' for the files at the top: main.ts, app.module.ts...). */
export function folderOf(source: string): string {
  const [first, second] = source.split('/');
  return second === undefined || !source.slice(first.length + 1).includes('/') ? '.' : second;
}

/** Which folders each folder imports (tests left out: they may reach anywhere). */
export function folderImports(result: Cruise): Map<string, Set<string>> {
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
export function folderCycle(result: Cruise): string[] | undefined {
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
/** The longest chain of imports between files of src/, specs and the composition root (which imports every module) left out. */
export function deepestImportChain(result: Cruise): string[] {
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
    const below = (imports.get(file) ?? []).map(chainFrom).reduce<string[]>((a, b) => (b.length > a.length ? b : a), []);
    // A migrations' index.ts is a list the generator writes, not a step of the design: it is no hop.
    const chain = MIGRATION_INDEX.test(file) ? below : [file, ...below];
    longest.set(file, chain);
    return chain;
  };
  return [...imports.keys()].map(chainFrom).reduce<string[]>((a, b) => (b.length > a.length ? b : a), []);
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export function sourceFiles(): string[] {
  return (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .map((path) => relative(ROOT, join(ROOT, 'src', path)))
    .filter((path) => path.endsWith('.ts'));
}

export const MAX_FILE_LINES = 300;
// Generated from the entities, then reviewed: their length is the schema's, not a design's.
export const GENERATED = /^src\/database\/migrations\/(mysql|sqlite)\//;
const MIGRATION_INDEX = /^src\/database\/migrations\/(mysql|sqlite)\/index\.ts$/;

export function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files longer than MAX_FILE_LINES lines, with their length, the generated migrations aside. */
export function filesOverTheBound(files: Array<{ path: string; text: string }>): string[] {
  return files
    .filter(({ path, text }) => !GENERATED.test(path) && lineCount(text) > MAX_FILE_LINES)
    .map(({ path, text }) => `${path} (${lineCount(text)} lines)`);
}

/** The classes a text declares extending an error class: `Error` itself, `TypeError`, or any of its own `...Error`. */
export function errorClassesIn(text: string): string[] {
  return [...text.matchAll(/\bclass\s+(\w+)(?:\s*<[^>{]*>)?\s+extends\s+(?:\w+\.)*\w*Error\b/g)].map(([, name]) => name);
}

/** The .ts files of src/ and scripts/ and ormconfig.ts, relative to the root, specs included. */
export function typescriptFiles(): string[] {
  const scripts = readdirSync(join(ROOT, 'scripts'))
    .filter((path) => path.endsWith('.ts'))
    .map((path) => `scripts/${path}`);
  return [...sourceFiles(), ...scripts, 'ormconfig.ts'];
}

/** What a text imports of TypeORM past its root (`typeorm/...`): `import`, `export ... from`, `require()` or `import()`. */
export function typeormDeepImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)['"](typeorm\/[^'"]*)['"]/g)].map(([, path]) => path);
}

/** The classes a text declares extending a class it takes from TypeORM, by name or through its namespace. */
export function typeormSubclassesIn(text: string): string[] {
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

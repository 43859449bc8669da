import { readFileSync } from 'node:fs';

/** The file's text, or undefined when there is none yet: what a `--check` compares the generated text with. */
export function readFileIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Runs a script's main(): exit 0 when it ends, 1 with the error printed when it throws. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The checkout's root, where the docs say to run their scripts from. */
export const ROOT = join(__dirname, '..', '..');

/** Unset, as on a fresh clone where nobody configured anything: development secrets are generated. */
export const UNCONFIGURED = { ADMIN_API_KEYS: undefined, ENCRYPTION_KEYS: undefined, DATABASE_URL: undefined, NODE_ENV: undefined };

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `bash <script>` from the checkout, as the docs say to run it; a variable given as undefined is left out. */
export function runScript(script: string, env: Record<string, string | undefined>): Promise<ScriptRun> {
  return runCommand('bash', [script], env);
}

/** A command from the checkout (`node scripts/...`), as the docs say to run it; a variable given as undefined is left out. */
export function runCommand(command: string, args: string[], env: Record<string, string | undefined>): Promise<ScriptRun> {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  const childEnv = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A script's output as its steps: each `== what it does` line with the answer printed under it. */
export function stepsOf(stdout: string): { step: string; answer: any }[] {
  const lines = stdout.trimEnd().split('\n');
  const steps: { step: string; answer: any }[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].startsWith('== ')) steps.push({ step: lines[index].slice(3), answer: JSON.parse(lines[index + 1]) });
  }
  return steps;
}

/** The admin key a service generated in its DATA_DIR (what `npm run keys` prints). */
export function developmentAdminKey(dataDir: string): string {
  return (JSON.parse(readFileSync(join(dataDir, 'development-secrets.json'), 'utf8')) as { adminApiKey: string }).adminApiKey;
}

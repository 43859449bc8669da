import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, createConnection } from 'mysql2/promise';
import { waitUntil } from './service-process';
import { freePort } from './free-port';

/**
 * A MariaDB server of the test's own, as a managed MySQL is configured: binary logging on, and users holding only
 * `ALL PRIVILEGES ON <db>.*` (so no SUPER, and log_bin_trust_function_creators off). Installed into a temporary
 * directory with the machine's mariadb-install-db and mariadbd, on a free port; removed by stop().
 */
export class PrivateMariaDb {
  private constructor(
    private readonly directory: string,
    private readonly server: ChildProcess,
    readonly port: number,
  ) {}

  static async start(): Promise<PrivateMariaDb> {
    const directory = mkdtempSync(join(tmpdir(), 'private-mariadb-'));
    const data = join(directory, 'data');
    execFileSync(
      'mariadb-install-db',
      ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db'],
      {
        stdio: 'ignore',
      },
    );
    const port = await freePort();
    const server = spawn(
      '/usr/sbin/mariadbd',
      [
        '--no-defaults',
        `--datadir=${data}`,
        '--user=root',
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(directory, 'mariadb.sock')}`,
        `--pid-file=${join(directory, 'mariadb.pid')}`,
        `--log-bin=${join(directory, 'binlog')}`,
        '--server-id=1',
        '--skip-name-resolve',
        // A throwaway server: nothing it writes need reach the disk (the binlog migration test alone: 88 s with syncs, 65 without).
        '--innodb-flush-log-at-trx-commit=0',
        '--innodb-flush-method=nosync',
        '--skip-innodb-doublewrite',
        '--skip-sync-frm',
      ],
      { stdio: 'ignore' },
    );
    const database = new PrivateMariaDb(directory, server, port);
    await waitUntil('the private mariadbd answers', () => database.asRoot((root) => root.query('SELECT 1')).then(() => true), 30_000, 200);
    return database;
  }

  /** A new, empty database and a user holding all privileges on it and nothing else; answers its DATABASE_URL. */
  async createDatabaseWithUser(database: string): Promise<string> {
    const user = `app_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    await this.asRoot(async (root) => {
      await root.query(`CREATE DATABASE \`${database}\``);
      await root.query(`CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`);
      await root.query(`GRANT ALL PRIVILEGES ON \`${database}\`.* TO '${user}'@'%'`);
    });
    return `mysql://${user}:${password}@127.0.0.1:${this.port}/${database}`;
  }

  async asRoot<T>(work: (root: Connection) => Promise<T>): Promise<T> {
    const root = await createConnection({ host: '127.0.0.1', port: this.port, user: 'root' });
    try {
      return await work(root);
    } finally {
      await root.end();
    }
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.server.once('close', resolve));
    this.server.kill('SIGTERM');
    await exited;
    rmSync(this.directory, { recursive: true, force: true });
  }
}

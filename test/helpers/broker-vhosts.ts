import { execFileSync } from 'node:child_process';
import type { Config } from '@jest/types';
import { workerVhost } from './test-app';

/**
 * Suites run on several jest workers at once; each worker has its own RabbitMQ vhost, so one worker's events and cache
 * invalidations never reach another's apps (the exchanges' names are fixed). Made once with rabbitmqctl, on the machine
 * the broker runs on; with TEST_AMQP_URL the broker is someone else's, and its vhost is used as it is.
 */
export default function createBrokerVhosts(globalConfig: Config.GlobalConfig): void {
  if (process.env.TEST_AMQP_URL) return;
  const present = new Set(rabbitmqctl('list_vhosts', '--quiet', '--no-table-headers').split('\n'));
  for (let worker = 1; worker <= Math.max(1, globalConfig.maxWorkers); worker++) {
    const vhost = workerVhost(String(worker));
    if (present.has(vhost)) continue;
    rabbitmqctl('add_vhost', vhost);
    rabbitmqctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
  }
}

function rabbitmqctl(...args: string[]): string {
  try {
    return execFileSync('rabbitmqctl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(
      `rabbitmqctl ${args.join(' ')} failed (is RabbitMQ running here? set TEST_AMQP_URL for another broker): ${String(error)}`,
    );
  }
}

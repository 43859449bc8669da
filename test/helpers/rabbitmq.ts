import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import { AMQP_URL } from './test-app';

export interface ExchangeOnBroker {
  name: string;
  type: string;
  durable: boolean;
  auto_delete: boolean;
  internal: boolean;
}

/** Reads the exchange as the broker itself reports it (rabbitmqctl), not as the service says it declared it. */
export async function inspectExchange(name: string): Promise<ExchangeOnBroker | undefined> {
  const { stdout } = await promisify(execFile)('rabbitmqctl', [
    'list_exchanges',
    '-p',
    decodeURIComponent(new URL(AMQP_URL).pathname.slice(1)) || '/',
    'name',
    'type',
    'durable',
    'auto_delete',
    'internal',
    '--formatter',
    'json',
    '-q',
  ]);
  return (JSON.parse(stdout) as ExchangeOnBroker[]).find((exchange) => exchange.name === name);
}

export function uniqueExchangeName(label: string): string {
  return `e2e.${label}.${randomBytes(4).toString('hex')}`;
}

/** Declares an exchange directly on the broker, behind the service's back. */
export async function declareDirectly(name: string, type: string): Promise<void> {
  const connection = await connect(AMQP_URL);
  try {
    const channel = await connection.createChannel();
    await channel.assertExchange(name, type, { durable: true });
    await channel.close();
  } finally {
    await connection.close();
  }
}

export async function deleteExchanges(names: string[]): Promise<void> {
  const connection = await connect(AMQP_URL);
  try {
    const channel = await connection.createChannel();
    for (const name of names) await channel.deleteExchange(name);
    await channel.close();
  } finally {
    await connection.close();
  }
}

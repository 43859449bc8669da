import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { ConflictException, Injectable } from '@nestjs/common';
import type { Channel } from 'amqplib';
import { AuditLog } from '../audit/audit.repository';
import { BrokerConnection } from '../broker-connection/broker-connection';
import { ChangeOrigin } from '../auth/actor';
import { Transactions } from '../database/transactions';
import { ServiceUnavailableError, withTimeout } from '../common/errors/unavailable';
import { ExchangeType } from './dto/create-exchange.dto';

// Under the 5 s within which the API promises its 503.
export const BROKER_TIMEOUT_MS = 4000;
const PRECONDITION_FAILED = 406;

@Injectable()
export class BrokerService {
  constructor(
    private readonly amqp: AmqpConnection,
    private readonly broker: BrokerConnection,
    private readonly auditLog: AuditLog,
    private readonly transactions: Transactions,
  ) {}

  // Entry first, committed once the broker has the exchange: no database, no declaration (docs/interface.md).
  async declareExchange(name: string, type: ExchangeType, origin: ChangeOrigin): Promise<void> {
    await this.transactions.run(async () => {
      await this.auditLog.record({ action: 'exchange.declared', origin, clientId: null, changed: ['name', 'type'] });
      await this.declare(name, type);
    });
  }

  private async declare(name: string, type: ExchangeType): Promise<void> {
    const connection = this.broker.isConnected ? this.amqp.managedConnection.connection : undefined;
    if (!connection) throw new ServiceUnavailableError('broker is not connected');
    const channel = await withTimeout(connection.createChannel(), BROKER_TIMEOUT_MS, 'broker');
    // A refused declaration also emits an error on the channel; the rejected promise below reports it.
    channel.on('error', () => undefined);
    try {
      await withTimeout(
        channel.assertExchange(name, type, { durable: true, autoDelete: false, internal: false }),
        BROKER_TIMEOUT_MS,
        'broker',
      );
    } catch (error) {
      if ((error as { code?: number }).code === PRECONDITION_FAILED) throw exchangeConflict(name, error as Error);
      throw error;
    } finally {
      await closeQuietly(channel);
    }
  }
}

function exchangeConflict(name: string, error: Error): ConflictException {
  const existingType = /current is '(\w+)'/.exec(error.message)?.[1];
  return new ConflictException(
    existingType ? `Exchange ${name} already exists with type ${existingType}` : `Exchange ${name} already exists with other properties`,
  );
}

async function closeQuietly(channel: Channel): Promise<void> {
  try {
    await channel.close();
  } catch {
    // Already closed by the broker after a refused declaration.
  }
}

import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { ConflictException, Injectable } from '@nestjs/common';
import type { Channel } from 'amqplib';
import { AuditLog } from '../audit/audit.repository';
import { BrokerConnection } from '../broker-connection/broker-connection';
import { ChangeOrigin } from '../auth/actor';
import { Transactions } from '../database/transactions';
import { ServiceUnavailableError } from '../common/errors/unavailable';
import { withTimeout } from '../common/timeout';
import { ExchangeType } from './dto/create-exchange.dto';

/** A broker that does not answer within this time is treated as down (the API promises 503 within 5 s). */
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

  /**
   * Declares a durable exchange; idempotent for the same type, 409 for an existing one of another type. The audit entry
   * is written first, in a transaction committed only once the broker has the exchange: without the database nothing
   * is declared (503), and a refused declaration leaves no entry. Should the commit itself fail, the exchange exists
   * without its entry and the caller gets 503: declaring it again is harmless.
   */
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
    // A refused declaration closes the channel with an error; it is answered through the rejected promise below.
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

/** Each declaration has a short-lived channel of its own; the broker may already have closed it. */
async function closeQuietly(channel: Channel): Promise<void> {
  try {
    await channel.close();
  } catch {
    // Already closed by the broker after a refused declaration: nothing left to release.
  }
}

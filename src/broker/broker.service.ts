import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { ConflictException, Injectable } from '@nestjs/common';
import type { Channel } from 'amqplib';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
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
    private readonly auditLog: AuditLog,
  ) {}

  get isConnected(): boolean {
    // Before the first connection attempt the managed connection does not exist yet.
    return this.amqp.managedConnection?.isConnected() ?? false;
  }

  /**
   * Declares a durable exchange; idempotent for the same type, 409 for an existing one of another type. Recorded in the
   * audit log once the broker has it (the broker takes no part in a database transaction; declaring again is harmless).
   */
  async declareExchange(name: string, type: ExchangeType, origin: ChangeOrigin): Promise<void> {
    await this.declare(name, type);
    await this.auditLog.record({ action: 'exchange.declared', origin, clientId: null, changed: ['name', 'type'] });
  }

  private async declare(name: string, type: ExchangeType): Promise<void> {
    const connection = this.isConnected ? this.amqp.managedConnection.connection : undefined;
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

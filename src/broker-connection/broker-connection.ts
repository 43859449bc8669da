import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Injectable } from '@nestjs/common';

/** The state of the one RabbitMQ connection, for those that only ask about it (health, metrics, exchange creation). */
@Injectable()
export class BrokerConnection {
  constructor(private readonly amqp: AmqpConnection) {}

  get isConnected(): boolean {
    // Before the first connection attempt the managed connection does not exist yet.
    return this.amqp.managedConnection?.isConnected() ?? false;
  }
}

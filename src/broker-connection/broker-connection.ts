import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Injectable } from '@nestjs/common';

@Injectable()
export class BrokerConnection {
  constructor(private readonly amqp: AmqpConnection) {}

  get isConnected(): boolean {
    // Before the first connection attempt the managed connection does not exist yet.
    return this.amqp.managedConnection?.isConnected() ?? false;
  }
}

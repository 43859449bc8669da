import { RabbitMQModule } from '@golevelup/nestjs-rabbitmq';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { BrokerController } from './broker.controller';
import { BrokerService } from './broker.service';

@Module({
  imports: [
    RabbitMQModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        uri: config.get('amqpUrl', { infer: true }),
        // Start and serve without the broker; it is connected in the background whenever it appears.
        connectionInitOptions: { wait: false },
        connectionManagerOptions: {
          reconnectTimeInSeconds: 1,
          heartbeatIntervalInSeconds: 5,
          connectionOptions: { timeout: 3000 },
        },
      }),
    }),
  ],
  controllers: [BrokerController],
  providers: [BrokerService],
  // The connection is shared: the client cache's invalidation bus publishes and consumes on it.
  exports: [BrokerService, RabbitMQModule],
})
export class BrokerModule {}

import { RabbitMQModule } from '@golevelup/nestjs-rabbitmq';
import { Logger, LoggerService, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditModule } from '../audit/audit.module';
import { AppConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { BrokerConnectionWatch } from './broker-connection.watch';
import { BrokerController } from './broker.controller';
import { BrokerService } from './broker.service';
import { FIRST_RETRY_SECONDS } from './reconnect-backoff';

/** golevelup's progress lines at debug (one says "Successfully connected" before any connection exists); BrokerConnectionWatch logs the states. */
function libraryLogger(): LoggerService {
  const logger = new Logger('RabbitMQ');
  return {
    log: (message: unknown, ...rest: unknown[]) => logger.debug(message, ...rest),
    verbose: (message: unknown, ...rest: unknown[]) => logger.verbose(message, ...rest),
    debug: (message: unknown, ...rest: unknown[]) => logger.debug(message, ...rest),
    warn: (message: unknown, ...rest: unknown[]) => logger.warn(message, ...rest),
    error: (message: unknown, ...rest: unknown[]) => logger.error(message, ...rest),
  };
}

@Module({
  imports: [
    AuditModule,
    DatabaseModule,
    RabbitMQModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        uri: config.get('amqpUrl', { infer: true }),
        logger: libraryLogger(),
        // Start and serve without the broker; it is connected in the background whenever it appears. Each failed
        // attempt is BrokerConnectionWatch's to log (once per change of state), not golevelup's.
        connectionInitOptions: { wait: false, skipConnectionFailedLogging: true, skipDisconnectFailedLogging: true },
        connectionManagerOptions: {
          reconnectTimeInSeconds: FIRST_RETRY_SECONDS,
          heartbeatIntervalInSeconds: 5,
          connectionOptions: { timeout: 3000 },
        },
      }),
    }),
  ],
  controllers: [BrokerController],
  providers: [BrokerService, BrokerConnectionWatch],
  // The connection is shared: the client cache's invalidation bus publishes and consumes on it.
  exports: [BrokerService, RabbitMQModule],
})
export class BrokerModule {}

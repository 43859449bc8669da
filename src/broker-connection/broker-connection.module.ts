import { RabbitMQModule } from '@golevelup/nestjs-rabbitmq';
import { Logger, LoggerService, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { BrokerConnection } from './broker-connection';
import { BrokerConnectionWatch } from './broker-connection.watch';
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

/**
 * The one RabbitMQ connection of the instance, infrastructure apart from any feature: the client cache's invalidation
 * bus, the domain events' publisher and the exchange creation (BrokerModule) use it; health and metrics ask its state.
 */
@Module({
  imports: [
    RabbitMQModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        uri: config.get('amqpUrl', { infer: true }),
        // golevelup keeps connections by name in one registry per process, which an app's shutdown closes: under the
        // default name a second app in the process (tests run two) replaced the first's, which then never closed.
        name: `registry-${randomUUID()}`,
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
  providers: [BrokerConnection, BrokerConnectionWatch],
  exports: [BrokerConnection, RabbitMQModule],
})
export class BrokerConnectionModule {}

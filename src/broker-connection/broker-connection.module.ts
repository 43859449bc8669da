import { RabbitMQModule } from '@golevelup/nestjs-rabbitmq';
import { Logger, LoggerService, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { BrokerConnection } from './broker-connection';
import { BrokerConnectionWatch } from './broker-connection.watch';
import { FIRST_RETRY_SECONDS } from './reconnect-backoff';

// golevelup says "Successfully connected" before any connection exists: its progress goes to debug.
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
    RabbitMQModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        uri: config.get('amqpUrl', { infer: true }),
        // golevelup keeps connections by name in one registry per process, which an app's shutdown closes: under the
        // default name a second app in the process (tests run two) replaced the first's, which then never closed.
        name: `registry-${randomUUID()}`,
        logger: libraryLogger(),
        // Serve without the broker and connect in the background; BrokerConnectionWatch logs the changes of state.
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

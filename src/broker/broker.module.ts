import { Module } from '@nestjs/common';
import { BrokerConnectionModule } from '../broker-connection/broker-connection.module';
import { DatabaseModule } from '../database/database.module';
import { BrokerController } from './broker.controller';
import { BrokerService } from './broker.service';

@Module({
  imports: [BrokerConnectionModule, DatabaseModule],
  controllers: [BrokerController],
  providers: [BrokerService],
})
export class BrokerModule {}

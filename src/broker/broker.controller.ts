import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { Origin } from '../auth/auth.decorators';
import { AdminRoute } from '../routes/route.decorators';
import { BrokerService } from './broker.service';
import { CreateExchangeDto, CreateExchangeResponseDto } from './dto/create-exchange.dto';

@ApiTags('broker')
@Controller('api/v1/rabbitmq')
export class BrokerController {
  constructor(private readonly broker: BrokerService) {}

  @Post('exchanges')
  @HttpCode(HttpStatus.OK)
  @AdminRoute({
    badRequest: 'Invalid request, for example the name is missing',
    conflict: 'The exchange exists with a different type',
  })
  @ApiOperation({
    summary: 'Create exchange',
    description: 'Declares a durable RabbitMQ exchange; declaring it again with the same type succeeds.',
  })
  @ApiOkResponse({ type: CreateExchangeResponseDto })
  async create(@Body() request: CreateExchangeDto, @Origin() origin: ChangeOrigin): Promise<CreateExchangeResponseDto> {
    await this.broker.declareExchange(request.name, request.type, origin);
    return {
      status: 200,
      message: `Exchange ${request.name} declared`,
      exchangeDetails: { name: request.name, type: request.type },
    };
  }
}

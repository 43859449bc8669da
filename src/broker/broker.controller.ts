import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { AdminOnly, Origin } from '../auth/auth.decorators';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { BrokerService } from './broker.service';
import { CreateExchangeDto, CreateExchangeResponseDto } from './dto/create-exchange.dto';

@ApiTags('broker')
@ApiCommonErrors()
@Controller('api/v1/rabbitmq')
export class BrokerController {
  constructor(private readonly broker: BrokerService) {}

  @Post('exchanges')
  @HttpCode(HttpStatus.OK)
  @AdminOnly()
  @ApiOperation({
    summary: 'Create exchange',
    description: 'Declares a durable RabbitMQ exchange; declaring it again with the same type succeeds.',
  })
  @ApiOkResponse({ type: CreateExchangeResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid request, for example the name is missing' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The exchange exists with a different type' })
  async create(@Body() request: CreateExchangeDto, @Origin() origin: ChangeOrigin): Promise<CreateExchangeResponseDto> {
    await this.broker.declareExchange(request.name, request.type, origin);
    return {
      status: 200,
      message: `Exchange ${request.name} declared`,
      exchangeDetails: { name: request.name, type: request.type },
    };
  }
}

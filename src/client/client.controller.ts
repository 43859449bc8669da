import { Body, Controller, Header, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AdminOnly, SECRET_KEY_SCHEME } from '../common/decorators/auth.decorators';
import { ApiCommonErrors } from '../common/decorators/api-errors.decorator';
import { SecretKeyHeader } from '../common/decorators/secret-key.decorator';
import { ErrorResponseDto } from '../common/filters/error-response.dto';
import { EmptyBodyDto } from '../common/validation/empty-body.dto';
import { UnknownSecretKeyException } from '../rate-limit/credential';
import { ClientService } from './client.service';
import { AddClientDto } from './dto/add-client.dto';
import { ClientResponseDto } from './dto/client-response.dto';

@ApiTags('clients')
@ApiCommonErrors()
@Controller('api/client')
export class ClientController {
  constructor(private readonly clients: ClientService) {}

  @Post('add')
  @HttpCode(HttpStatus.OK)
  @AdminOnly()
  @ApiOperation({ summary: 'Add client', description: 'Registers a client application and issues its secret key.' })
  @ApiOkResponse({ type: ClientResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid request; the message names every failing field' })
  async add(@Body() request: AddClientDto): Promise<ClientResponseDto> {
    return { status: 200, results: await this.clients.create(request) };
  }

  @Post('get/secretKey')
  @HttpCode(HttpStatus.OK)
  // The answer comes serialized from the cache (see ClientService.getAnswer), so it is sent as it is.
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: 'Get client by secret key', description: 'The client owning the key, with its SMS configurations.' })
  @ApiSecurity(SECRET_KEY_SCHEME)
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'secretKey header is missing' })
  @ApiOkResponse({ type: ClientResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A body other than none or {}' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No client has this secretKey' })
  async getBySecretKey(@SecretKeyHeader() secretKey: string, @Body() _body: EmptyBodyDto): Promise<string> {
    const answer = await this.clients.getAnswer(secretKey);
    if (answer === null) throw new UnknownSecretKeyException('No client matches the secretKey');
    return answer;
  }
}

import { Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeOrigin } from '../auth/actor';
import { Origin } from '../auth/auth.decorators';
import { IdParam } from '../common/validation/positive-id.pipe';
import { AdminRoute } from '../routes/route.decorators';
import { PumpingRangePageResponseDto, PumpingRangeQueryDto, PumpingRangeResponseDto } from './dto/pumping-range.dto';
import { PumpingRangeService } from './pumping-range.service';

@ApiTags('pumping ranges')
@Controller('api/v1/pumping-ranges')
export class PumpingRangeController {
  constructor(private readonly pumpingRanges: PumpingRangeService) {}

  @Get()
  @AdminRoute({ badRequest: 'A query parameter that is not valid (limit, cursor, clientId, standing)' })
  @ApiOperation({
    summary: 'List suspicions of SMS pumping',
    description:
      "Each suspicion of a client's range, newest first: a new one after a lift or an expiry. Its counts are the window's when " +
      'it began. standing=true: until in the future and not lifted; false: the others.',
  })
  @ApiOkResponse({ type: PumpingRangePageResponseDto })
  async list(@Query() query: PumpingRangeQueryDto) {
    return PumpingRangePageResponseDto.of(await this.pumpingRanges.list(query));
  }

  @Post(':pumpingRangeId/lift')
  @HttpCode(HttpStatus.OK)
  @AdminRoute({ notFound: 'No such pumping range', conflict: 'The suspicion is not standing: lifted already, or past its until' })
  @ApiOperation({
    summary: 'Lift a suspicion of SMS pumping',
    description:
      "Ends a standing suspicion (liftedAt now, until unchanged) and deletes the range's counts: route sends to the range again " +
      'on every instance within 1 s, and a new signal starts a new suspicion. Audited and published as client.pumping-lifted.',
  })
  @ApiOkResponse({ type: PumpingRangeResponseDto })
  async lift(@IdParam('pumpingRangeId') pumpingRangeId: number, @Origin() origin: ChangeOrigin) {
    return PumpingRangeResponseDto.of(await this.pumpingRanges.lift(pumpingRangeId, origin));
  }
}

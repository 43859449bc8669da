import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { ChangeOrigin } from '../auth/actor';
import { Clock } from '../common/clock';
import { DEFAULT_PAGE_LIMIT, Page, cursorPosition } from '../common/pagination/page';
import { Transactions } from '../database/transactions';
import { PumpingRangeDto, PumpingRangeQueryDto } from './dto/pumping-range.dto';
import { PumpingRange } from './pumping-range.entity';
import { PumpingRangeRepository } from './pumping-range.repository';

@Injectable()
export class PumpingRangeService {
  constructor(
    private readonly repository: PumpingRangeRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  async list(query: PumpingRangeQueryDto): Promise<Page<PumpingRangeDto>> {
    const standing = query.standing === undefined ? undefined : { now: new Date(this.clock.now()), standing: query.standing === 'true' };
    const page = await this.repository.list(
      { clientId: query.clientId, standing },
      query.limit ?? DEFAULT_PAGE_LIMIT,
      cursorPosition(query.cursor),
    );
    return { items: page.items.map(toPumpingRangeDto), nextCursor: page.nextCursor };
  }

  // liftedAt now, until unchanged, and the range's counts deleted, so that its window starts again from nothing.
  async lift(pumpingRangeId: number, origin: ChangeOrigin): Promise<PumpingRangeDto> {
    return this.transactions.run(async () => {
      const range = await this.repository.findById(pumpingRangeId);
      if (range === null || !(await this.repository.lockClient(range.clientId))) throw new NotFoundException('Pumping range not found');
      const now = new Date(this.clock.now());
      if (!(await this.repository.lift(range, now, origin))) throw new ConflictException('pumping range is not suspected');
      return toPumpingRangeDto({ ...range, liftedAt: now });
    });
  }
}

function toPumpingRangeDto(row: PumpingRange): PumpingRangeDto {
  return {
    pumpingRangeId: row.id,
    clientId: row.clientId,
    range: row.range,
    signals: row.signals,
    sent: Number(row.sent),
    codesSent: Number(row.codesSent),
    verified: Number(row.verified),
    suspectedAt: row.suspectedAt.toISOString(),
    until: row.until.toISOString(),
    liftedAt: row.liftedAt?.toISOString() ?? null,
  };
}

import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ChangeOrigin } from '../auth/actor';
import { ClientCacheInvalidation } from '../client-cache/client-cache-invalidator';
import { DEFAULT_PAGE_LIMIT, Page, PageQueryDto, cursorPosition, pageOf } from '../common/pagination/page';
import { providerHostForm } from '../common/validation/provider-host';
import { AppConfig } from '../config/app-config';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { Transactions } from '../database/transactions';
import { ApproveProviderHostDto, DeletedProviderHostDto, ProviderHostDto } from './dto/provider-host.dto';
import { ProviderHostApproval } from './provider-host-approval';
import { ProviderHost } from './provider-host.entity';
import { ProviderHostRepository } from './provider-host.repository';

@Injectable()
export class ProviderHostService {
  private readonly allowPrivateHosts: boolean;

  constructor(
    private readonly repository: ProviderHostRepository,
    private readonly approval: ProviderHostApproval,
    private readonly invalidation: ClientCacheInvalidation,
    private readonly transactions: Transactions,
    config: ConfigService<AppConfig, true>,
  ) {
    this.allowPrivateHosts = config.get('allowPrivateProviderHosts', { infer: true });
  }

  async list(query: PageQueryDto): Promise<Page<ProviderHostDto>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const page = pageOf(await this.repository.list(cursorPosition(query.cursor) ?? 0, limit), limit, (row) => row.id);
    return { items: page.items.map(toProviderHostDto), nextCursor: page.nextCursor };
  }

  async approve(request: ApproveProviderHostDto, origin: ChangeOrigin): Promise<ProviderHostDto> {
    const form = providerHostForm(request.host, this.allowPrivateHosts);
    if (typeof form === 'string') throw new BadRequestException(form);
    let approved: ProviderHost;
    try {
      approved = await this.transactions.run(async () => {
        const row = await this.repository.approve(form.host, request.note ?? null, origin);
        await this.invalidation.changed({ providerHosts: true });
        return row;
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new ConflictException(`host ${form.host} is already approved`);
      throw error;
    }
    await this.applied();
    return toProviderHostDto(approved);
  }

  async remove(providerHostId: number, origin: ChangeOrigin): Promise<DeletedProviderHostDto> {
    const removed = await this.transactions.run(async () => {
      if (!(await this.repository.remove(providerHostId, origin))) return false;
      await this.invalidation.changed({ providerHosts: true });
      return true;
    });
    if (!removed) throw new NotFoundException('Provider host not found');
    await this.applied();
    return { providerHostId, deleted: true };
  }

  // Read again before returning, so this instance applies the change at once.
  private async applied(): Promise<void> {
    this.approval.changed();
    await this.approval.current();
  }
}

function toProviderHostDto(row: ProviderHost): ProviderHostDto {
  return { providerHostId: row.id, host: row.host, note: row.note, createdAt: row.createdAt.toISOString() };
}

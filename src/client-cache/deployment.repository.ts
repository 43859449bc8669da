import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions';
import { Deployment } from './deployment.entity';

@Injectable()
export class DeploymentRepository {
  constructor(private readonly transactions: Transactions) {}

  // null only if someone deleted the row its migration made.
  async identity(): Promise<string | null> {
    const row = await this.transactions.manager.getRepository(Deployment).find({ select: { id: true }, take: 1 });
    return row[0]?.id ?? null;
  }
}

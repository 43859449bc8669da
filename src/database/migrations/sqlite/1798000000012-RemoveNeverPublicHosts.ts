import { MigrationInterface, QueryRunner } from 'typeorm';
import { removeNeverPublicHosts } from '../remove-never-public-hosts';

/** By hand, a data step only (no schema change): approved hosts that can never be public are removed, each audited by system. */
export class RemoveNeverPublicHosts1798000000012 implements MigrationInterface {
  name = 'RemoveNeverPublicHosts1798000000012';

  async up(queryRunner: QueryRunner): Promise<void> {
    await removeNeverPublicHosts(queryRunner);
  }

  async down(): Promise<void> {
    // The removed entries are not restored: they approved nothing once this release ran.
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';
import { removeNeverPublicHosts } from '../remove-never-public-hosts';

/** By hand, a data step only: approved hosts on the names added to the never-public list since 1798000000012 are removed, as it removed the others. */
export class RemoveAddedNeverPublicHosts1798000000014 implements MigrationInterface {
  name = 'RemoveAddedNeverPublicHosts1798000000014';

  async up(queryRunner: QueryRunner): Promise<void> {
    await removeNeverPublicHosts(queryRunner);
  }

  async down(): Promise<void> {
    // The removed entries are not restored: they approved nothing once this release ran.
  }
}

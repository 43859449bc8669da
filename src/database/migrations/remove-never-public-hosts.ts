import { randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { isNeverPublicName } from '../../common/validation/never-public-names';
import { WILDCARD_PREFIX } from '../../common/validation/provider-host';
import { sqlTimestamp } from '../timestamps';

/**
 * Approved provider hosts that can never be public (an exact name or a wildcard over one, such as `sms.internal` or
 * `*.nip.io`) approve nothing since the list of such names; the upgrade removes them, each with its
 * `provider-host.removed` entry by `system`, unpublished for the relay to publish. A run that stopped half-way removes
 * what is left. It reads the list as the code has it, so an upgrade that adds names runs it again in a migration of its own.
 */
export async function removeNeverPublicHosts(queryRunner: QueryRunner): Promise<void> {
  const listed = (await queryRunner.query('SELECT id, host FROM provider_host ORDER BY id')) as Array<{ id: number; host: string }>;
  for (const { id, host } of listed) {
    const name = host.startsWith(WILDCARD_PREFIX) ? host.slice(WILDCARD_PREFIX.length) : host;
    if (!isNeverPublicName(name)) continue;
    await queryRunner.query('DELETE FROM provider_host WHERE id = ?', [id]);
    await queryRunner.query(
      `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed, details, unpublished)
        VALUES (?, ?, 'provider-host.removed', 'system', NULL, NULL, NULL, ?, ?, 1)`,
      [randomUUID(), sqlTimestamp(new Date()), JSON.stringify(['host']), JSON.stringify({ host })],
    );
  }
}

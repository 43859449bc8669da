import { randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { approvalHostOf, providerHostForm } from '../../common/validation/provider-host';
import { sqlTimestamp } from '../timestamps';

export const PRESENT_AT_UPGRADE = 'present at upgrade';

/**
 * The upgrade that brings approved provider hosts changes no honest route: every host the stored configurations send to
 * (smsApi, providerUrl, balanceUrl) is approved, if an admin could approve it (public hosts only) and its URL is one
 * every parser reads alike. Each with its `provider-host.approved` entry by `system`, unpublished for the relay to
 * publish. Hosts already listed (a run that stopped half-way) are left as they are.
 */
export async function approvePresentHosts(queryRunner: QueryRunner): Promise<void> {
  const urls = (await queryRunner.query(
    `SELECT sms_api AS url FROM sms_config
      UNION SELECT provider_url FROM sms_config WHERE provider_url IS NOT NULL
      UNION SELECT balance_url FROM sms_config WHERE balance_url IS NOT NULL`,
  )) as Array<{ url: string }>;
  const hosts = new Set<string>();
  for (const { url } of urls) {
    const host = approvalHostOf(url);
    const form = host === null ? null : providerHostForm(host, false);
    if (form !== null && typeof form !== 'string') hosts.add(form.host);
  }
  const listed = new Set(((await queryRunner.query('SELECT host FROM provider_host')) as Array<{ host: string }>).map((row) => row.host));
  for (const host of [...hosts].sort()) {
    if (listed.has(host)) continue;
    const now = sqlTimestamp(new Date());
    await queryRunner.query('INSERT INTO provider_host (host, note, created_at) VALUES (?, ?, ?)', [host, PRESENT_AT_UPGRADE, now]);
    await queryRunner.query(
      `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed, unpublished)
        VALUES (?, ?, 'provider-host.approved', 'system', NULL, NULL, NULL, ?, 1)`,
      [randomUUID(), now, JSON.stringify(['host', 'note'])],
    );
  }
}

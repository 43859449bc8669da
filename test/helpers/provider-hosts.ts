import { ADMIN_API_KEY } from './test-app';

/** An instance in this process (TestApp) or in a child one (ServiceProcess). */
interface Poster {
  post(url: string, options: { headers: Record<string, string>; body: unknown }): Promise<{ status: number; raw?: string; body?: unknown }>;
}

/**
 * The hosts the fixtures and the tests' configurations send to (test/fixtures/sms-config.json, *.example.com): approved,
 * so that route offers them and resolve answers them as before approval existed. Already approved is fine.
 */
export const TEST_PROVIDER_HOSTS = ['twilio.com', '*.twilio.com', '*.example.com'];

export async function approveProviderHosts(app: Poster, hosts: readonly string[] = TEST_PROVIDER_HOSTS): Promise<void> {
  for (const host of hosts) {
    const answer = await app.post('/api/v1/provider-hosts', { headers: { 'x-api-key': ADMIN_API_KEY }, body: { host } });
    if (answer.status !== 200 && answer.status !== 409) throw new Error(`approving ${host} failed: ${JSON.stringify(answer.body)}`);
  }
}

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrowserContext, Page, chromium } from 'playwright-core';
import { OPERATIONS } from '../helpers/interface';
import { ADMIN_API_KEY, TestApp, startTestApp } from '../helpers/test-app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = resolve(__dirname, '../../test-results/swagger-add-client.png');

describe('Swagger UI in a real browser', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Fails, never skips: CI installs chromium (.ci/run), so a missing browser is a broken environment.
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install it (apt-get install -y chromium)`);
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'registry-chromium-')), {
      viewport: { width: 1280, height: 1000 },
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    // A step that cannot happen fails on its own, well inside jest's timeout.
    page.setDefaultTimeout(10_000);
    // A Content-Security-Policy that blocks the UI shows up as a violation event or a console error.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.reset();
    await t?.close();
  });

  it('should list the five operations, authorize with the admin key and run Add client', async () => {
    await page.goto(`${baseUrl}/docs`);
    for (const [path, summary] of OPERATIONS) {
      const operation = page.locator('.opblock', { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      await operation.waitFor();
      await expect(operation.locator('.opblock-summary-description').textContent()).resolves.toBe(summary);
    }

    await page.locator('.auth-wrapper button.authorize').click();
    const adminScheme = page.locator('.auth-container', { hasText: 'adminApiKey' });
    await adminScheme.locator('input').fill(ADMIN_API_KEY);
    await adminScheme.locator('button.authorize').click();
    // Authorized: the scheme now offers Logout and shows the key masked.
    await adminScheme.locator('button', { hasText: 'Logout' }).waitFor();
    await page.locator('.dialog-ux button.close-modal').click();

    const addClient = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/api/client/add"]') });
    await addClient.locator('.opblock-summary').click();
    await addClient.locator('button.try-out__btn').click();
    await addClient.locator('button.execute').click();
    const liveResponse = addClient.locator('.live-responses-table .response');
    await liveResponse.waitFor();
    await expect(liveResponse.locator('.response-col_status').textContent()).resolves.toContain('200');
    const body = (await liveResponse.locator('.response-col_description .microlight').first().textContent()) ?? '';
    expect(body).toMatch(/"secretKey": "sk_[A-Za-z0-9_-]{43}"/);

    mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
    await liveResponse.scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOT });
    console.log(`Swagger UI screenshot: ${SCREENSHOT}`);
    expect(pageErrors).toEqual([]);
  });
});

import { Clock } from '../src/common/clock';
import { approveProviderHosts } from './helpers/provider-hosts';
import { ADMIN_API_KEY, DISPATCHER_API_KEY, TestApp, startTestApp, testDatabaseUrl, validSmsConfig } from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PRICE = 0.04;
// Monday 08:00 UTC; the week before it teaches both clients' baselines.
const START = Date.UTC(2026, 10, 23, 8, 0, 0);
const PUMPED_RANGE_NUMBER = (line: number) => `+44740012${String(line).padStart(4, '0')}`;
// The same numbers as a national dialler writes them after +44, with the trunk 0: the same range, in another spelling.
const WITH_TRUNK_ZERO = (number: string) => `+440${number.slice(3)}`;
// The honest users' numbers: UK mobiles over 500 ranges.
const honestNumber = (seq: number) => `+447${String(100 + (seq % 500)).padStart(3, '0')}${String(100000 + ((seq * 7919) % 900000))}`;

interface Sender {
  secretKey: string;
  clientId: number;
  smsConfigId: number;
}

/**
 * A replay of SMS pumping with the default variables, minute by minute on a clock the test moves: a client in block
 * whose sign-up form is abused (a ramp to one range, 1 more message each minute up to 15 a minute, no code entered)
 * beside an honest client sending one-time codes to the same country, 70 % of them entered two minutes later. The
 * dispatcher asks route before each message and reports each minute. `REPLAY_REPORT=1` prints the figures.
 */
describe('Pumping replay: a ramp to one range beside honest traffic', () => {
  let app: TestApp;
  let now = START;

  beforeAll(async () => {
    app = await startTestApp({ DATABASE_URL: await testDatabaseUrl() });
    await approveProviderHosts(app);
    jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => now);
  });
  afterAll(() => app.close());

  async function newSender(name: string): Promise<Sender> {
    const appName = `replay-${name}-${Math.random().toString(36).slice(2)}`;
    const secretKey = await app.addClient({ appName });
    const clientId = (await app.get(`/api/v1/clients?appName=${appName}`, ADMIN)).body.results.items[0].clientId as number;
    const patched = await app.send('PATCH', `/api/v1/clients/${clientId}`, {
      headers: ADMIN,
      body: { pumpingGuard: 'block', dailySmsLimit: 20000 },
    });
    expect(patched.status).toBe(200);
    await app.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig({ balance: 1_000_000, perSmsCost: PRICE }) });
    const smsConfigId = (await app.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })).body.results[0]
      .smsConfigId as number;
    return { secretKey, clientId, smsConfigId };
  }

  /** Routes each message, then reports those routed, per range: what a dispatcher does in a minute. */
  async function sendMinute(
    sender: Sender,
    numbers: string[],
    verifiedLater: Map<string, number>,
    refusedWith = 403,
  ): Promise<{ sent: number; refused: number }> {
    const routed: string[] = [];
    for (const destination of numbers) {
      const answer = await app.post('/api/v1/dispatch/route', {
        headers: { ...DISPATCHER, secretKey: sender.secretKey },
        body: { destination },
      });
      if (answer.status === 200) routed.push(destination);
      // 403: refused for the client's range or number; 400: a spelling of a number route refuses outright.
      else expect(answer.status).toBe(refusedWith);
    }
    for (const destination of routed) {
      const entered = verifiedLater.get(destination) ?? 0;
      const body = { smsConfigId: sender.smsConfigId, sent: 1, failed: 0, codesSent: 1, verified: entered, destination };
      expect((await app.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body })).status).toBe(200);
    }
    return { sent: routed.length, refused: numbers.length - routed.length };
  }

  /** The honest users of a client: `perMinute` codes a minute, 70 % entered in the minute two later (reported then). */
  function honestTraffic(perMinute: number) {
    let seq = 0;
    const entries: Array<{ minute: number; destination: string }> = [];
    return (minute: number) => {
      const numbers = Array.from({ length: perMinute }, () => honestNumber(seq++));
      numbers.forEach((destination, index) => index % 10 < 7 && entries.push({ minute: minute + 2, destination }));
      const due = new Map<string, number>();
      for (const entry of entries.filter((each) => each.minute === minute)) due.set(entry.destination, 1);
      return { numbers, verifiedLater: due };
    };
  }

  const suspicionsOf = async (clientId: number) =>
    (await app.get(`/api/v1/pumping-ranges?clientId=${clientId}`, ADMIN)).body.results.items as Array<{
      range: string;
      signals: string[];
      suspectedAt: string;
    }>;

  it('should block the pumped range within 21 messages, and never suspect the honest client', async () => {
    const honest = await newSender('honest');
    const abused = await newSender('abused');
    // The week before: a busy spell each day, 2 codes a minute, teaches B (the highest hour of any range: a few messages).
    for (let day = 7; day >= 1; day--) {
      const honestUsers = honestTraffic(2);
      const abusedUsers = honestTraffic(2);
      for (let minute = 0; minute < 6; minute++) {
        now = START - day * DAY + minute * MINUTE;
        const [h, u] = [honestUsers(minute), abusedUsers(minute)];
        await sendMinute(honest, h.numbers, h.verifiedLater);
        await sendMinute(abused, u.numbers, u.verifiedLater);
      }
    }
    const honestUsers = honestTraffic(2);
    const abusedUsers = honestTraffic(2);
    let pumpedSent = 0;
    let pumpedRefused = 0;
    let firstPumpedAt: number | null = null;
    let blockedAt: number | null = null;
    let pumpedBeforeBlock = 0;
    let line = 0;
    for (let minute = 0; minute < 30; minute++) {
      now = START + minute * MINUTE;
      const pumpedNumbers = Array.from({ length: Math.min(minute + 1, 15) }, () => PUMPED_RANGE_NUMBER(line++ % 10000));
      const [h, u] = [honestUsers(minute), abusedUsers(minute)];
      await sendMinute(honest, h.numbers, h.verifiedLater);
      await sendMinute(abused, u.numbers, u.verifiedLater);
      const pumped = await sendMinute(abused, pumpedNumbers, new Map());
      if (pumped.sent > 0) firstPumpedAt ??= now;
      pumpedSent += pumped.sent;
      pumpedRefused += pumped.refused;
      if (blockedAt === null && (await suspicionsOf(abused.clientId)).length > 0) {
        blockedAt = now;
        pumpedBeforeBlock = pumpedSent;
      }
    }
    const [blocked] = await suspicionsOf(abused.clientId);
    expect(blocked).toMatchObject({ range: '+44740012xxxx', signals: ['velocity'] });
    expect(await suspicionsOf(honest.clientId)).toEqual([]);
    expect(pumpedBeforeBlock).toBeLessThanOrEqual(21);
    // The pump goes on with a trunk 0 after +44: route refuses every one, and a report of one counts in the blocked range.
    let respelledSent = 0;
    for (let minute = 30; minute < 33; minute++) {
      now = START + minute * MINUTE;
      const respelled = Array.from({ length: 15 }, () => WITH_TRUNK_ZERO(PUMPED_RANGE_NUMBER(line++ % 10000)));
      respelledSent += (await sendMinute(abused, respelled, new Map(), 400)).sent;
    }
    expect(respelledSent).toBe(0);
    const pumpedCount = async () =>
      Number(
        (
          await app.dataSource.query('SELECT SUM(sent) AS sent FROM pumping_count WHERE client_id = ? AND destination_range = ?', [
            abused.clientId,
            '+44740012xxxx',
          ])
        )[0].sent,
      );
    const countedBefore = await pumpedCount();
    const late = { smsConfigId: abused.smsConfigId, sent: 1, failed: 0, destination: WITH_TRUNK_ZERO(PUMPED_RANGE_NUMBER(1)) };
    expect((await app.post('/api/v1/dispatch/outcomes', { headers: DISPATCHER, body: late })).status).toBe(200);
    expect(await pumpedCount()).toBe(countedBefore + 1);
    if (process.env.REPLAY_REPORT) {
      const figures = {
        firstPumpedMessage: new Date(firstPumpedAt!).toISOString(),
        blockedAt: blocked.suspectedAt,
        minutesToBlock: (Date.parse(blocked.suspectedAt) - firstPumpedAt!) / MINUTE,
        pumpedMessagesBeforeBlock: pumpedBeforeBlock,
        costBeforeBlock: +(pumpedBeforeBlock * PRICE).toFixed(2),
        pumpedMessagesInHalfAnHour: pumpedSent,
        refusedByRouteInHalfAnHour: pumpedRefused,
        honestSuspicions: 0,
      };
      process.stdout.write(`pumping replay, caught: ${JSON.stringify(figures)}\n`);
    }
  });

  it('should not catch a pump spread under the floor on many ranges: only the daily limits bound it', async () => {
    const abused = await newSender('spread');
    let sent = 0;
    // 15 a minute, 19 numbers of each range in the window: no range passes PUMPING_MIN_SENT, and no code is ever entered.
    for (let minute = 0; minute < 30; minute++) {
      now = START + DAY + minute * MINUTE;
      const numbers = Array.from({ length: 15 }, (_, index) => {
        const seq = minute * 15 + index;
        return `+4474${String(100 + Math.floor(seq / 19)).padStart(3, '0')}${String(1000 + (seq % 19)).padStart(5, '0')}`;
      });
      sent += (await sendMinute(abused, numbers, new Map())).sent;
    }
    expect(sent).toBe(450);
    expect(await suspicionsOf(abused.clientId)).toEqual([]);
    if (process.env.REPLAY_REPORT) {
      const figures = {
        pumpedMessagesInHalfAnHour: sent,
        cost: +(sent * PRICE).toFixed(2),
        suspicions: 0,
        dailySmsLimitBoundsTheDayAt: 20000,
      };
      process.stdout.write(`pumping replay, missed: ${JSON.stringify(figures)}\n`);
    }
  });
});

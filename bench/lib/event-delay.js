'use strict';
// Event delay, as users see it: from the moment a caller has read the 200 of a change to the moment a consumer of the
// domain events receives that change's event. The consumer binds its own exclusive queue to the events' exchange with
// '#', as any subscriber would; each measured write carries a unique x-request-id, and its event is recognised by
// body.callerRequestId (the service's own requestId is a new UUID). One process (this one) takes both times on one
// clock (performance.now()), so the delay needs no clock sync; it is kept as measured, negative when the event arrived
// before the caller had read its answer.
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const mysql = require('mysql2/promise');

const { ADMIN_API_KEY, SMS_CONFIG_BODY, clientBody } = require('./seed');

const EVENTS_EXCHANGE = 'client-registry.events';
/** A sampled write whose event has not arrived this long after its answer counts as missing. */
const MISSING_AFTER_MS = 15000;
const WRITES = {
  'add-client': { path: '/api/client/add', action: 'client.created' },
  'add-sms-config': { path: '/api/sms-config/add', action: 'sms-config.created' },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The consumer: an exclusive, server-named queue bound with '#' to the exchange, no acks. It keeps the receipt time of
 * the first copy of every event whose callerRequestId starts with `prefix` (other processes may publish on the same broker).
 */
async function openConsumer(amqpUrl, prefix) {
  const amqp = require('amqplib');
  const connection = await amqp.connect(amqpUrl);
  connection.on('error', () => undefined); // a lost connection shows up as missing events, reported as such
  const received = new Map(); // callerRequestId -> { at, action, routingKey, eventId, messageId, copies }
  let eventsSeen = 0;
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined); // the rejected call below says what went wrong
    try {
      await channel.checkExchange(EVENTS_EXCHANGE);
    } catch {
      throw new Error(
        `exchange ${EVENTS_EXCHANGE} not found on ${amqpUrl.replace(/\/\/[^@]*@/, '//')}: does this build publish domain ` +
          'events? (BENCH_EVENT_DELAY=0 skips the event delay)',
      );
    }
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    await channel.bindQueue(queue, EVENTS_EXCHANGE, '#');
    const marker = Buffer.from(`"callerRequestId":"${prefix}`);
    await channel.consume(
      queue,
      (message) => {
        const at = performance.now();
        if (!message) return; // the broker cancelled the consumer: the missing events will say so
        eventsSeen++;
        if (!message.content.includes(marker)) return; // not one of ours: no need to parse it
        const body = JSON.parse(message.content.toString('utf8'));
        const seen = received.get(body.callerRequestId);
        if (seen) {
          seen.copies++;
          return;
        }
        received.set(body.callerRequestId, {
          at,
          action: body.action,
          routingKey: message.fields.routingKey,
          eventId: body.eventId,
          messageId: message.properties.messageId,
          copies: 1,
        });
      },
      { noAck: true },
    );
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  return {
    received,
    eventsSeen: () => eventsSeen,
    close: () => connection.close().catch(() => undefined),
  };
}

/**
 * Sends tagged writes: each a unique x-request-id, an add-client with the admin key or an add-sms-config with the next
 * key of the pool. Resolves with what was sent and when its answer was read (the body included), or how it failed.
 */
function createWriter({ baseUrl, prefix, nextClientNumber, nextSecretKey }) {
  let sequence = 0;
  return async function send(kind) {
    const requestId = `${prefix}${sequence++}`;
    const write = WRITES[kind];
    const headers = { 'content-type': 'application/json', 'x-request-id': requestId };
    let body;
    if (kind === 'add-client') {
      headers['x-api-key'] = ADMIN_API_KEY;
      body = JSON.stringify(clientBody(nextClientNumber()));
    } else {
      headers.secretKey = nextSecretKey();
      body = JSON.stringify(SMS_CONFIG_BODY);
    }
    const record = { requestId, kind, sentAt: performance.now(), answeredAt: undefined, status: undefined, error: undefined };
    try {
      const response = await fetch(baseUrl + write.path, { method: 'POST', headers, body, signal: AbortSignal.timeout(10000) });
      const text = await response.text();
      record.answeredAt = performance.now();
      record.status = response.status;
      if (response.status < 200 || response.status > 299) record.error = `${response.status}: ${text.slice(0, 200)}`;
    } catch (error) {
      record.error = error.message;
    }
    return record;
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** Waits until every answered write's event is in, or MISSING_AFTER_MS after the last answer. */
async function awaitEvents(consumer, records) {
  const answered = records.filter((record) => !record.error);
  const lastAnswer = Math.max(0, ...answered.map((record) => record.answeredAt));
  while (answered.some((record) => !consumer.received.has(record.requestId)) && performance.now() < lastAnswer + MISSING_AFTER_MS) {
    await sleep(50);
  }
}

/** One group of writes reduced to the numbers reported: counts, delay percentiles, the writes' own latency. */
function summarize(consumer, records) {
  const failed = records.filter((record) => record.error);
  const answered = records.filter((record) => !record.error);
  const delays = [];
  const missing = [];
  let duplicates = 0;
  const mismatched = [];
  for (const record of answered) {
    const event = consumer.received.get(record.requestId);
    if (!event) {
      missing.push(record.requestId);
      continue;
    }
    delays.push(event.at - record.answeredAt);
    duplicates += event.copies - 1;
    const action = WRITES[record.kind].action;
    if (event.action !== action || event.routingKey !== action || event.messageId !== event.eventId) {
      mismatched.push(`${record.requestId}: action ${event.action}, routing key ${event.routingKey}, message-id ${event.messageId}`);
    }
  }
  delays.sort((a, b) => a - b);
  const latencies = answered.map((record) => record.answeredAt - record.sentAt).sort((a, b) => a - b);
  return {
    sent: records.length,
    answered: answered.length,
    failedWrites: failed.length,
    failures: failed.slice(0, 5).map((record) => `${record.requestId}: ${record.error}`),
    matched: delays.length,
    missing: missing.length,
    missingRequestIds: missing.slice(0, 10),
    duplicates,
    mismatched: mismatched.slice(0, 5),
    delayMs: {
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? NaN,
      min: delays[0] ?? NaN,
      mean: delays.length ? delays.reduce((sum, delay) => sum + delay, 0) / delays.length : NaN,
    },
    negative: delays.filter((delay) => delay < 0).length,
    answerMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
  };
}

/** Writes of each kind summarized apart, and all together. */
function summarizeByKind(consumer, records) {
  const kinds = [...new Set(records.map((record) => record.kind))];
  return {
    all: summarize(consumer, records),
    byKind: Object.fromEntries(
      kinds.map((kind) => [
        kind,
        summarize(
          consumer,
          records.filter((record) => record.kind === kind),
        ),
      ]),
    ),
  };
}

/** `count` writes from `callers` callers, each sending its next write once it has read the answer to the last. */
async function measureIdle({ consumer, send, count, callers, kinds }) {
  const records = [];
  let next = 0;
  async function caller() {
    while (next < count) {
      const i = next++;
      records.push(await send(kinds[i % kinds.length]));
    }
  }
  await Promise.all(Array.from({ length: Math.min(callers, count) }, caller));
  await awaitEvents(consumer, records);
  return summarizeByKind(consumer, records);
}

/**
 * While `startLoad()` runs (it resolves with the load's summary), a write of `kind` every `intervalMs`, whatever the
 * answers to the earlier ones (open loop), from 0.5 s after the load starts until 0.5 s before it should end.
 */
async function measureUnderLoad({ consumer, send, kind, startLoad, seconds, intervalMs, backlog }) {
  const load = startLoad();
  load.catch(() => undefined); // awaited below: a failed load is reported there, not as an unhandled rejection first
  const pending = [];
  await sleep(500);
  const start = performance.now();
  const stopAt = start + Math.max(intervalMs, seconds * 1000 - 1000);
  for (let i = 0; performance.now() < stopAt; i++) {
    pending.push(send(kind));
    await sleep(Math.max(0, start + (i + 1) * intervalMs - performance.now()));
  }
  const records = await Promise.all(pending);
  const loadResult = await load;
  const backlogAtEnd = await backlog();
  await awaitEvents(consumer, records);
  return { ...summarizeByKind(consumer, records), intervalMs, load: loadResult, backlogAtLoadEnd: backlogAtEnd };
}

/** Unpublished entries in the service's outbox; undefined when the database has none (a build without the outbox). */
function outboxBacklog(databaseUrl) {
  return async () => {
    const connection = await mysql.createConnection({ uri: databaseUrl });
    try {
      const [rows] = await connection.query('SELECT COUNT(*) AS waiting FROM audit_event WHERE unpublished = 1');
      return Number(rows[0].waiting);
    } catch {
      return undefined;
    } finally {
      await connection.end();
    }
  };
}

/** Waits (up to timeoutMs) for the outbox to be empty, so that a phase does not start behind the last one's backlog. */
async function awaitEmptyOutbox(backlog, timeoutMs = 60000) {
  const start = performance.now();
  let waiting = await backlog();
  while (waiting > 0 && performance.now() - start < timeoutMs) {
    await sleep(100);
    waiting = await backlog();
  }
  return { waiting, waitedMs: performance.now() - start };
}

/** A prefix no other run (or process on the same broker) uses, short enough for the service to keep the id as given. */
function requestIdPrefix() {
  return `evd-${process.pid}-${crypto.randomBytes(3).toString('hex')}-`;
}

/** Everything missing or failed, as lines to print; empty when every sampled write got its event. */
function problemsOf({ error, phases = {} }) {
  const lines = error ? [`not measured: ${error}`] : [];
  for (const [name, phase] of Object.entries(phases)) {
    const { all } = phase;
    if (all.failedWrites > 0) lines.push(`${name}: ${all.failedWrites} of ${all.sent} writes failed, e.g. ${all.failures.join('; ')}`);
    if (all.missing > 0) {
      lines.push(
        `${name}: ${all.missing} of ${all.answered} events missing ${MISSING_AFTER_MS / 1000} s after their answer, ` +
          `e.g. x-request-id ${all.missingRequestIds.join(', ')}`,
      );
    }
    if (all.mismatched.length > 0) lines.push(`${name}: events not as the contract says: ${all.mismatched.join('; ')}`);
  }
  return lines;
}

const fixed = (value) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

/** The "Event delay" table: a row for each kind of write in each phase. */
function toMarkdown(eventDelay) {
  if (eventDelay.error) return `Event delay: ERROR: not measured: ${eventDelay.error}`;
  const header = [
    'phase',
    'write',
    'events / writes',
    'delay p50 ms',
    'p99 ms',
    'max ms',
    'min ms',
    'negative',
    'answer p50 ms',
    'load req/s',
  ];
  const rows = [];
  for (const phase of Object.values(eventDelay.phases)) {
    for (const [kind, s] of Object.entries(phase.byKind)) {
      rows.push([
        phase.label,
        kind,
        `${s.matched} / ${s.sent}`,
        fixed(s.delayMs.p50),
        fixed(s.delayMs.p99),
        fixed(s.delayMs.max),
        fixed(s.delayMs.min),
        s.negative,
        fixed(s.answerMs.p50),
        phase.load ? Math.round(phase.load.rps) : '-',
      ]);
    }
  }
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const backlogs = Object.values(eventDelay.phases)
    .filter((phase) => phase.backlogAtLoadEnd !== undefined)
    .map((phase) => `${phase.label}: ${phase.backlogAtLoadEnd}`);
  const problems = problemsOf(eventDelay);
  return [
    'Event delay: from the caller reading a write\'s 200 to a consumer receiving its event (its own queue bound with "#" to ' +
      `${EVENTS_EXCHANGE}), matched by x-request-id; both times taken by the bench on one clock, a negative delay kept as ` +
      'measured. The load column is the autocannon load running beside the sampled writes (not part of the scenarios above):',
    '',
    line(header),
    line(header.map((_, i) => (i < 2 ? '---' : '---:'))),
    ...rows.map(line),
    ...(backlogs.length ? ['', `Unpublished outbox entries when the load ended: ${backlogs.join('; ')}.`] : []),
    ...(problems.length ? ['', ...problems.map((problem) => `ERROR: ${problem}`)] : []),
  ].join('\n');
}

module.exports = {
  EVENTS_EXCHANGE,
  MISSING_AFTER_MS,
  openConsumer,
  createWriter,
  measureIdle,
  measureUnderLoad,
  outboxBacklog,
  awaitEmptyOutbox,
  requestIdPrefix,
  problemsOf,
  toMarkdown,
};

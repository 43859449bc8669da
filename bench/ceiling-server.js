'use strict';
// Ceiling "C": bare Fastify answering from memory with bytes serialized once at
// start. Nothing real can be faster on this machine, so it bounds the service.
//   CEILING_SECRET_KEY      the only key answered with 200 (else 404)
//   CEILING_RESPONSE_FILE   the exact get-client body to send (the service's own
//                           answer, so both send identical bytes); a sample is
//                           built when it is not given
//   CEILING_OPERATIONS      1: "D", the same ceiling plus what the service owes every
//                           answer, done by the service's own code (see withOperations)
//   CEILING_SERVICE_DIR     that code's build (the directory of the measured main.js; dist/ by default), so that D
//                           runs the code of the build measured, and a rebuild of dist/ meanwhile cannot break it
// The fleet's keys are answered too, once the bench has posted them to /bench/answers (lib/fleet.js): each key's
// answer is the service's answer for a client of its shape with the key written in, as bytes made once.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const Fastify = require('fastify');

const SAMPLE_SECRET_KEY = 'sk_ceiling-sample-key';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The fixture's configuration as a client's answer shows it: no password or apiKey. */
function sampleSmsConfig() {
  const { password: _password, apiKey: _apiKey, ...shown } = require('../test/fixtures/sms-config.json');
  return shown;
}

function sampleClientAnswer(secretKey, smsConfig) {
  return {
    status: 200,
    results: {
      appDescription: 'bench client 0',
      appUrl: 'https://app-0.example.com',
      secretKey,
      preferredSmsGateway: 'twilio',
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: false,
      smsConfig,
    },
  };
}

function loadGetClientBody(secretKey, responseFile) {
  if (responseFile) return fs.readFileSync(responseFile);
  return Buffer.from(JSON.stringify(sampleClientAnswer(secretKey, [sampleSmsConfig(), sampleSmsConfig()])));
}

/**
 * The per-answer work the service owes every caller, nothing else, each done by the service's own code: a request id,
 * the security headers, the edge's access-log hook on the service's access logger at the default level (info: no line for
 * an answered request, as in the service), the request-duration histogram (the edge's timing hook), and the key's SHA-256
 * noted as used and counted in the service's fixed-window rate-limit storage. Needs the built service (CEILING_SERVICE_DIR,
 * dist/ by default). bench/hit-operations.js measures each of them.
 */
function withOperations(app, serviceDir = path.join(__dirname, '..', 'dist')) {
  const service = (file) => require(path.join(serviceDir, file));
  const { addAnswerHeaders, timeAnswer } = service('http/edge');
  const { logAnswer } = service('http/access-log');
  const { createLoggers } = service('logging/logger-options');
  const { REQUEST_DURATION } = service('metrics/http-metrics');
  const { FixedWindowThrottlerStorage } = service('rate-limit/fixed-window.storage');
  const { credentialTracker } = service('rate-limit/credential');
  const { KeyUsageNotes } = service('key-usage/key-usage-notes');
  const { sha256Hex } = service('auth/digest');
  const { Histogram } = require('prom-client');
  const rateLimit = new FixedWindowThrottlerStorage();
  const keyUsage = new KeyUsageNotes();

  app.addHook('onRequest', addAnswerHeaders);
  app.addHook(
    'onResponse',
    // As the service's edge does: an answered get-client is written at debug (older builds ignore the third argument).
    logAnswer(createLoggers({ level: 'info', pretty: false }).access, () => false, ['/api/client/get/secretKey']),
  );
  app.addHook('onResponse', timeAnswer(new Histogram(REQUEST_DURATION)));
  return (secretKey) => {
    const digest = sha256Hex(secretKey);
    keyUsage.note(digest, 'root');
    const key = FixedWindowThrottlerStorage.keyOf('default', credentialTracker(digest));
    return !rateLimit.hit(key, 60_000, 5_000_000, 60_000).isBlocked;
  };
}

function buildCeilingServer({ secretKey = SAMPLE_SECRET_KEY, responseFile, operations = false, serviceDir } = {}) {
  const getClientBody = loadGetClientBody(secretKey, responseFile);
  const addClientBody = Buffer.from(JSON.stringify(sampleClientAnswer(secretKey, null)));
  const notFoundBody = Buffer.from(JSON.stringify({ status: 404, error: 'Client not found' }));

  const app = Fastify(operations ? { logger: false, genReqId: () => crypto.randomUUID() } : { logger: false });
  const withinRateLimit = operations ? withOperations(app, serviceDir) : () => true;

  const answers = new Map([[secretKey, getClientBody]]);

  app.post('/api/client/get/secretKey', (request, reply) => {
    const presented = request.headers.secretkey;
    const answer = answers.get(presented);
    const known = answer !== undefined && withinRateLimit(presented);
    reply
      .code(known ? 200 : 404)
      .type(JSON_TYPE)
      .send(known ? answer : notFoundBody);
  });

  // { template: an answer of the service, templateKey: the key it carries, keys: more keys answered alike }
  app.post('/bench/answers', { bodyLimit: 64 * 2 ** 20 }, (request, reply) => {
    const { template, templateKey, keys } = request.body;
    const [before, after] = template.split(templateKey);
    for (const key of keys) answers.set(key, Buffer.from(before + key + after));
    reply.send({ answers: answers.size });
  });

  app.post('/api/client/add', (_request, reply) => {
    reply.type(JSON_TYPE).send(addClientBody);
  });

  return app;
}

async function main() {
  const app = buildCeilingServer({
    secretKey: process.env.CEILING_SECRET_KEY || SAMPLE_SECRET_KEY,
    responseFile: process.env.CEILING_RESPONSE_FILE,
    operations: process.env.CEILING_OPERATIONS === '1',
    serviceDir: process.env.CEILING_SERVICE_DIR || undefined,
  });
  const port = Number(process.env.PORT || 3102);
  await app.listen({ port, host: process.env.HOST || '127.0.0.1' });
  console.log(`ceiling listening on ${port}`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { buildCeilingServer, SAMPLE_SECRET_KEY };

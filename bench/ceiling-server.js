'use strict';
// Ceiling "C": bare Fastify answering from memory with bytes serialized once at
// start. Nothing real can be faster on this machine, so it bounds the service.
//   CEILING_SECRET_KEY      the only key answered with 200 (else 404)
//   CEILING_RESPONSE_FILE   the exact get-client body to send (the service's own
//                           answer, so both send identical bytes); a sample is
//                           built when it is not given
const fs = require('node:fs');
const Fastify = require('fastify');

const SAMPLE_SECRET_KEY = 'sk_ceiling-sample-key';
const JSON_TYPE = 'application/json; charset=utf-8';

function sampleSmsConfig() {
  return {
    providerName: 'twilio',
    providerUrl: 'https://twilio.com',
    username: 'u',
    senderId: 'SENDER',
    smsType: 'Transactional',
    smsApi: 'https://api.twilio.com/send',
    balanceUrl: 'https://api.twilio.com/balance',
    balance: 12.5,
    perSmsCost: 0.0125,
    isActive: true,
  };
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

function buildCeilingServer({ secretKey = SAMPLE_SECRET_KEY, responseFile } = {}) {
  const getClientBody = loadGetClientBody(secretKey, responseFile);
  const addClientBody = Buffer.from(JSON.stringify(sampleClientAnswer(secretKey, null)));
  const notFoundBody = Buffer.from(JSON.stringify({ status: 404, error: 'Client not found' }));

  const app = Fastify({ logger: false });

  app.post('/api/client/get/secretKey', (request, reply) => {
    const known = request.headers.secretkey === secretKey;
    reply
      .code(known ? 200 : 404)
      .type(JSON_TYPE)
      .send(known ? getClientBody : notFoundBody);
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

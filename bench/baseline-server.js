'use strict';
// Baseline "B": the same three endpoints written the plain way with bare Fastify
// and a mysql2 pool, no cache. It reads and writes the schema the service's
// migrations create and never creates tables itself.
const crypto = require('node:crypto');
const Fastify = require('fastify');
const mysql = require('mysql2/promise');

const DEFAULT_DATABASE_URL = 'mysql://root@127.0.0.1:3306/registry_bench';

const CLIENT_COLUMNS = `id, app_description, app_url, preferred_sms_gateway,
  preferred_email_gateway, preferred_push_notification_gateway, is_host`;

const SMS_CONFIG_COLUMNS = `provider_name, provider_url, username, sender_id, sms_type,
  sms_api, balance_url, balance, per_sms_cost, is_active`;

const addClientSchema = {
  body: {
    type: 'object',
    required: ['appName', 'appUrl', 'isHost'],
    properties: {
      appName: { type: 'string', minLength: 1, maxLength: 100 },
      appUrl: { type: 'string', minLength: 1, maxLength: 2048 },
      appDescription: { type: 'string', maxLength: 1000 },
      preferredSmsGateway: { type: 'string', maxLength: 100 },
      isHost: { type: 'boolean' },
    },
  },
};

const addSmsConfigSchema = {
  body: {
    type: 'object',
    required: ['providerName', 'smsApi'],
    properties: {
      providerName: { type: 'string', minLength: 1, maxLength: 100 },
      smsApi: { type: 'string', minLength: 1, maxLength: 2048 },
      providerUrl: { type: 'string', maxLength: 2048 },
      username: { type: 'string', maxLength: 255 },
      password: { type: 'string' },
      apiKey: { type: 'string' },
      senderId: { type: 'string', maxLength: 20 },
      smsType: { type: 'string', maxLength: 50 },
      balanceUrl: { type: 'string', maxLength: 2048 },
      balance: { type: 'number' },
      perSmsCost: { type: 'number' },
      isActive: { type: 'boolean' },
    },
  },
};

function sha256Hex(text) {
  return crypto.createHash('sha256').update(text).digest('hex');
}

function newSecretKey() {
  return 'sk_' + crypto.randomBytes(32).toString('base64url');
}

function failure(reply, status, error) {
  return reply.code(status).send({ status, error });
}

function toSmsConfig(row) {
  return {
    providerName: row.provider_name,
    providerUrl: row.provider_url,
    username: row.username,
    senderId: row.sender_id,
    smsType: row.sms_type,
    smsApi: row.sms_api,
    balanceUrl: row.balance_url,
    balance: Number(row.balance), // mysql2 returns DECIMAL as a string
    perSmsCost: Number(row.per_sms_cost),
    isActive: Boolean(row.is_active),
  };
}

function toClientAnswer(client, secretKey, smsConfigRows) {
  return {
    appDescription: client.app_description,
    appUrl: client.app_url,
    secretKey,
    preferredSmsGateway: client.preferred_sms_gateway,
    preferredEmailGateway: client.preferred_email_gateway,
    preferredPushNotificationGateway: client.preferred_push_notification_gateway,
    isHost: Boolean(client.is_host),
    smsConfig: smsConfigRows.length === 0 ? null : smsConfigRows.map(toSmsConfig),
  };
}

async function findClientBySecretKey(pool, secretKey) {
  const [rows] = await pool.execute(`SELECT ${CLIENT_COLUMNS} FROM client WHERE secret_key_digest = ?`, [sha256Hex(secretKey)]);
  return rows[0];
}

function buildBaselineServer({ databaseUrl = DEFAULT_DATABASE_URL } = {}) {
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 10 });
  const app = Fastify({ logger: false });
  app.addHook('onClose', () => pool.end());

  app.setErrorHandler((error, _request, reply) => {
    const status = error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) console.error(error);
    return failure(reply, status, status === 500 ? 'Internal Server Error' : error.message);
  });

  app.post('/api/client/add', { schema: addClientSchema }, async (request) => {
    const body = request.body;
    const secretKey = newSecretKey();
    await pool.execute(
      `INSERT INTO client (app_name, app_description, app_url, secret_key_digest,
         preferred_sms_gateway, is_host) VALUES (?, ?, ?, ?, ?, ?)`,
      [body.appName, body.appDescription ?? null, body.appUrl, sha256Hex(secretKey), body.preferredSmsGateway ?? null, body.isHost ? 1 : 0],
    );
    return {
      status: 200,
      results: {
        appDescription: body.appDescription ?? null,
        appUrl: body.appUrl,
        secretKey,
        preferredSmsGateway: body.preferredSmsGateway ?? null,
        preferredEmailGateway: null,
        preferredPushNotificationGateway: null,
        isHost: body.isHost,
        smsConfig: null,
      },
    };
  });

  app.post('/api/client/get/secretKey', async (request, reply) => {
    const secretKey = request.headers.secretkey;
    if (!secretKey) return failure(reply, 401, 'secretKey header is required');
    const client = await findClientBySecretKey(pool, secretKey);
    if (!client) return failure(reply, 404, 'Client not found');
    const [smsConfigRows] = await pool.execute(`SELECT ${SMS_CONFIG_COLUMNS} FROM sms_config WHERE client_id = ? ORDER BY id`, [client.id]);
    return { status: 200, results: toClientAnswer(client, secretKey, smsConfigRows) };
  });

  app.post('/api/sms-config/add', { schema: addSmsConfigSchema }, async (request, reply) => {
    const secretKey = request.headers.secretkey;
    if (!secretKey) return failure(reply, 401, 'secretKey header is required');
    const client = await findClientBySecretKey(pool, secretKey);
    if (!client) return failure(reply, 404, 'Client not found');
    const body = request.body;
    // A baseline: secrets go into the *_sealed columns unsealed.
    await pool.execute(
      `INSERT INTO sms_config (client_id, provider_name, provider_url, username,
         password_sealed, api_key_sealed, sender_id, sms_type, sms_api, balance_url,
         balance, per_sms_cost, is_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        client.id,
        body.providerName,
        body.providerUrl ?? null,
        body.username ?? null,
        body.password ?? null,
        body.apiKey ?? null,
        body.senderId ?? null,
        body.smsType ?? null,
        body.smsApi,
        body.balanceUrl ?? null,
        body.balance ?? 0,
        body.perSmsCost ?? 0,
        body.isActive === false ? 0 : 1,
      ],
    );
    return { status: 200, results: { verifyApiKey: 'x'.repeat(64) } };
  });

  return app;
}

async function main() {
  const app = buildBaselineServer({ databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL });
  const port = Number(process.env.PORT || 3101);
  await app.listen({ port, host: process.env.HOST || '127.0.0.1' });
  console.log(`baseline listening on ${port}`);
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

module.exports = { buildBaselineServer };

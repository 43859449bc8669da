'use strict';
// Baseline "B": the same three endpoints written the plain way with bare Fastify
// and a mysql2 pool, no cache. It reads and writes the schema the service's
// migrations create and never creates tables itself. It keeps the limit of 100
// SMS configurations per client the plain way: a transaction that counts the
// configuration under the client's row lock, then inserts it.
//   ENCRYPTION_KEY  base64 of 32 bytes: the provider secrets are sealed as the
//                   service seals them (docs/interface.md), not stored in plaintext
//   ADMIN_API_KEY   the x-api-key add-client requires, as the service does
// Requests are checked as docs/interface.md says, the plain way (Fastify's JSON
// schemas): unknown fields and non-boolean booleans refused, URLs absolute http(s).
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
    additionalProperties: false,
    properties: {
      appName: { type: 'string', minLength: 1, maxLength: 100 },
      appUrl: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
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
    additionalProperties: false,
    properties: {
      providerName: { type: 'string', minLength: 1, maxLength: 100 },
      smsApi: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
      providerUrl: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
      username: { type: 'string', maxLength: 255 },
      password: { type: 'string', maxLength: 1024 },
      apiKey: { type: 'string', maxLength: 4096 },
      senderId: { type: 'string', maxLength: 20 },
      smsType: { type: 'string', maxLength: 50 },
      balanceUrl: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
      balance: { type: 'number', minimum: 0, exclusiveMaximum: 1e12 },
      perSmsCost: { type: 'number', minimum: 0, exclusiveMaximum: 1e12 },
      isActive: { type: 'boolean' },
      clientId: { type: 'integer', minimum: 1 },
    },
  },
};

function sha256Hex(text) {
  return crypto.createHash('sha256').update(text).digest('hex');
}

function newSecretKey() {
  return 'sk_' + crypto.randomBytes(32).toString('base64url');
}

/** AES-256-GCM with a fresh IV, `<keyId>:<base64url(iv|tag|ciphertext)>`: what the service stores. */
function seal(key, plaintext) {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `k1:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** The verifyApiKey token: the new id, the client's id and an HMAC of the apiKey, sealed. */
function verifyApiKey(key, smsConfigId, clientId, apiKey) {
  const fingerprint = crypto.createHmac('sha256', key).update(apiKey).digest('base64url');
  return seal(key, JSON.stringify([smsConfigId, clientId, fingerprint]));
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

function buildBaselineServer({
  databaseUrl = DEFAULT_DATABASE_URL,
  encryptionKey = crypto.randomBytes(32),
  adminApiKey = 'bench-admin-key',
} = {}) {
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 10 });
  // Fastify's defaults would coerce "true" into true and drop unknown fields silently.
  const app = Fastify({ logger: false, ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } } });
  const adminDigest = crypto.createHash('sha256').update(adminApiKey).digest();
  const isAdmin = (key) => typeof key === 'string' && crypto.timingSafeEqual(crypto.createHash('sha256').update(key).digest(), adminDigest);
  app.addHook('onClose', () => pool.end());

  app.setErrorHandler((error, _request, reply) => {
    const status = error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) console.error(error);
    return failure(reply, status, status === 500 ? 'Internal Server Error' : error.message);
  });

  app.post('/api/client/add', { schema: addClientSchema }, async (request, reply) => {
    if (!isAdmin(request.headers['x-api-key'])) return failure(reply, 401, 'x-api-key is missing or wrong');
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
    const connection = await pool.getConnection();
    let result;
    try {
      await connection.beginTransaction();
      const [counted] = await connection.execute(
        'UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = ? AND sms_config_count < 100',
        [client.id],
      );
      if (counted.affectedRows === 0) {
        await connection.rollback();
        return failure(reply, 409, 'A client can have at most 100 SMS configurations');
      }
      [result] = await connection.execute(
        `INSERT INTO sms_config (client_id, provider_name, provider_url, username,
           password_sealed, api_key_sealed, sender_id, sms_type, sms_api, balance_url,
           balance, per_sms_cost, is_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          client.id,
          body.providerName,
          body.providerUrl ?? null,
          body.username ?? null,
          body.password === undefined ? null : seal(encryptionKey, body.password),
          body.apiKey === undefined ? null : seal(encryptionKey, body.apiKey),
          body.senderId ?? null,
          body.smsType ?? null,
          body.smsApi,
          body.balanceUrl ?? null,
          body.balance ?? 0,
          body.perSmsCost ?? 0,
          body.isActive === false ? 0 : 1,
        ],
      );
      await connection.commit();
    } catch (error) {
      await connection.rollback().catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
    return { status: 200, results: { verifyApiKey: verifyApiKey(encryptionKey, result.insertId, client.id, body.apiKey ?? '') } };
  });

  return app;
}

async function main() {
  const app = buildBaselineServer({
    databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    encryptionKey: process.env.ENCRYPTION_KEY ? Buffer.from(process.env.ENCRYPTION_KEY, 'base64') : undefined,
    adminApiKey: process.env.ADMIN_API_KEY,
  });
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

'use strict';
// Baseline "B": the same four endpoints written the plain way with bare Fastify
// and a mysql2 pool, no cache. It reads and writes the schema the service's
// migrations create and never creates tables itself. It keeps the limit of 100
// SMS configurations per client the plain way: a transaction that counts the
// configuration under the client's row lock, then inserts it.
//   ENCRYPTION_KEY  base64 of 32 bytes: the provider secrets are sealed as the
//                   service seals them (docs/interface.md), not stored in plaintext
//   ADMIN_API_KEY   the x-api-key add-client requires, as the service does
//   DISPATCHER_API_KEY  the x-api-key resolve requires (the service's DISPATCHER_API_KEYS)
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

// Qualified: client has an is_active column too.
const RESOLVE_COLUMNS = `s.id, s.client_id, c.is_active AS client_is_active, s.provider_name, s.provider_url,
  s.username, s.sender_id, s.sms_type, s.sms_api, s.balance_url, s.balance, s.per_sms_cost, s.is_active,
  s.password_sealed, s.api_key_sealed`;

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

const resolveSchema = {
  body: {
    type: 'object',
    required: ['verifyApiKey'],
    additionalProperties: false,
    properties: { verifyApiKey: { type: 'string', minLength: 1 } },
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

/** The inverse of seal(); throws for anything seal() did not write with this key. */
function open(key, sealed) {
  if (!sealed.startsWith('k1:')) throw new Error('sealed with an unknown key');
  const bytes = Buffer.from(sealed.slice('k1:'.length), 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

function fingerprint(key, apiKey) {
  return crypto.createHmac('sha256', key).update(apiKey).digest('base64url');
}

/** The verifyApiKey token: the new id, the client's id and an HMAC of the apiKey, sealed. */
function verifyApiKey(key, smsConfigId, clientId, apiKey) {
  return seal(key, JSON.stringify([smsConfigId, clientId, fingerprint(key, apiKey)]));
}

/** [smsConfigId, clientId, fingerprint] of a token verifyApiKey() issued; undefined for anything else. */
function openVerifyApiKey(key, token) {
  try {
    const claims = JSON.parse(open(key, token));
    return Array.isArray(claims) ? claims : undefined;
  } catch {
    return undefined;
  }
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

function toResolvedSmsConfig(row, password, apiKey) {
  return {
    smsConfigId: row.id,
    clientId: row.client_id,
    providerName: row.provider_name,
    providerUrl: row.provider_url,
    smsApi: row.sms_api,
    balanceUrl: row.balance_url,
    username: row.username,
    password,
    apiKey,
    senderId: row.sender_id,
    smsType: row.sms_type,
    balance: Number(row.balance),
    perSmsCost: Number(row.per_sms_cost),
    isActive: Boolean(row.is_active),
  };
}

/** Whether key is the one configured: constant time over the SHA-256 digests. */
function keyChecker(configuredKey) {
  const digest = crypto.createHash('sha256').update(configuredKey).digest();
  return (key) => typeof key === 'string' && crypto.timingSafeEqual(crypto.createHash('sha256').update(key).digest(), digest);
}

function buildBaselineServer({
  databaseUrl = DEFAULT_DATABASE_URL,
  encryptionKey = crypto.randomBytes(32),
  adminApiKey = 'bench-admin-key',
  dispatcherApiKey = 'bench-dispatcher-key',
} = {}) {
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 10 });
  // Fastify's defaults would coerce "true" into true and drop unknown fields silently.
  const app = Fastify({ logger: false, ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } } });
  const isAdmin = keyChecker(adminApiKey);
  const isDispatcher = keyChecker(dispatcherApiKey);
  // Audit entries name the dispatcher as the service does: by the first 8 hex digits of its key's SHA-256.
  const dispatcherActor = `dispatcher:${sha256Hex(dispatcherApiKey).slice(0, 8)}`;
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

  app.post('/api/v1/sms-configs/resolve', { schema: resolveSchema }, async (request, reply) => {
    if (!isDispatcher(request.headers['x-api-key'])) return failure(reply, 401, 'x-api-key is missing or wrong');
    const claims = openVerifyApiKey(encryptionKey, request.body.verifyApiKey);
    if (!claims) return failure(reply, 400, 'verifyApiKey is not valid');
    const [smsConfigId, clientId, apiKeyFingerprint] = claims;
    const [rows] = await pool.execute(
      `SELECT ${RESOLVE_COLUMNS} FROM sms_config s JOIN client c ON c.id = s.client_id WHERE s.id = ? AND s.client_id = ?`,
      [smsConfigId, clientId],
    );
    const row = rows[0];
    if (!row) return failure(reply, 404, 'SMS configuration not found');
    if (!row.client_is_active) return failure(reply, 403, 'Client is disabled');
    const apiKey = row.api_key_sealed === null ? null : open(encryptionKey, row.api_key_sealed);
    if (fingerprint(encryptionKey, apiKey ?? '') !== apiKeyFingerprint) return failure(reply, 409, 'verifyApiKey is stale');
    const password = row.password_sealed === null ? null : open(encryptionKey, row.password_sealed);
    await pool.execute(
      `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        crypto.randomUUID(),
        new Date().toISOString().slice(0, 23).replace('T', ' '),
        'sms-config.credentials-resolved',
        dispatcherActor,
        clientId,
        smsConfigId,
        request.id,
        '[]',
      ],
    );
    reply.header('cache-control', 'no-store');
    return { status: 200, results: toResolvedSmsConfig(row, password, apiKey) };
  });

  return app;
}

async function main() {
  const app = buildBaselineServer({
    databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    encryptionKey: process.env.ENCRYPTION_KEY ? Buffer.from(process.env.ENCRYPTION_KEY, 'base64') : undefined,
    adminApiKey: process.env.ADMIN_API_KEY,
    dispatcherApiKey: process.env.DISPATCHER_API_KEY,
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

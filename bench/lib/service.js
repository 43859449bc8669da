'use strict';
// The service as the bench runs it: production settings, logging at info to a file, the Dockerfile's V8 limits.
const { ADMIN_API_KEY, DISPATCHER_API_KEY } = require('./seed');

// The service runs with the V8 heap limits its Dockerfile sets (ENV NODE_OPTIONS), as in production.
const SERVICE_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=192';
// The local RabbitMQ: the service's broker, and the one the bench's event consumer reads from.
const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

/** The environment of one service process; `encryptionKey` is base64 of 32 bytes, `dataDir` its own directory. */
function serviceEnv({ port, encryptionKey, dataDir, ...extra }) {
  return {
    NODE_OPTIONS: SERVICE_NODE_OPTIONS,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_API_KEYS: ADMIN_API_KEY,
    DISPATCHER_API_KEYS: DISPATCHER_API_KEY,
    ENCRYPTION_KEYS: `k1:${encryptionKey}`,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    AMQP_URL,
    DATA_DIR: dataDir,
    ...extra,
  };
}

/** 'A=1 B=2' (or comma-separated) in the variable `name` as { A: '1', B: '2' }: settings a run gives the service. */
function envListOf(name, text = process.env[name] || '') {
  const env = {};
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(item);
    if (!match) throw new Error(`${name}: expected NAME=value, got ${item}`);
    env[match[1]] = match[2];
  }
  return env;
}

module.exports = { AMQP_URL, SERVICE_NODE_OPTIONS, envListOf, serviceEnv };

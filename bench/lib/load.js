'use strict';
// What each scenario sends, and one autocannon run reduced to the numbers we keep.
const { ADMIN_API_KEY, DISPATCHER_API_KEY, SMS_CONFIG_BODY, clientBody } = require('./seed');

const SCENARIOS = [
  { name: 'get-client', path: '/api/client/get/secretKey', targets: ['service', 'baseline', 'ceiling', 'operationsCeiling'] },
  { name: 'add-client', path: '/api/client/add', targets: ['service', 'baseline', 'ceiling'] },
  { name: 'add-sms-config', path: '/api/sms-config/add', targets: ['service', 'baseline'] },
  { name: 'resolve', path: '/api/v1/sms-configs/resolve', targets: ['service', 'baseline'] },
];

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * autocannon options (besides url, connections, duration) for one scenario. resolveTokens: the verifyApiKey tokens the
 * target issued itself (no target opens another's).
 */
function requestOptions(scenarioName, { getClientKey, keyPool, resolveTokens }) {
  switch (scenarioName) {
    case 'get-client':
      return { method: 'POST', headers: { secretKey: getClientKey } };
    case 'add-client':
      return {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'x-api-key': ADMIN_API_KEY },
        // [<id>] makes every app name different, as real sign-ups would be (only
        // the name: the id may hold '_', which a URL validator may refuse in a host)
        body: JSON.stringify({ ...clientBody('load'), appName: 'bench-[<id>]' }),
        idReplacement: true,
      };
    case 'add-sms-config':
      return {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify(SMS_CONFIG_BODY),
        requests: [
          {
            setupRequest(request) {
              request.headers.secretKey = keyPool.next();
              return request;
            },
          },
        ],
      };
    case 'resolve': {
      // As the dispatcher calls: each request for the next configuration of the pool, many clients in turn.
      const bodies = resolveTokens.map((verifyApiKey) => Buffer.from(JSON.stringify({ verifyApiKey })));
      let next = 0;
      return {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'x-api-key': DISPATCHER_API_KEY },
        requests: [
          {
            setupRequest(request) {
              request.body = bodies[next++ % bodies.length];
              return request;
            },
          },
        ],
      };
    }
    default:
      throw new Error(`unknown scenario ${scenarioName}`);
  }
}

function summarize(result) {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    completed: result.requests.total,
    errors: result.errors, // connection errors, timeouts included
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    failed: result.errors + result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/** onResponse(client, statusCode, bytes, ms), if given: autocannon's per-answer event (lib/fleet.js tells kinds apart). */
async function runLoad(autocannon, { url, connections, seconds, options, onResponse }) {
  const tracker = autocannon({ url, connections, pipelining: 1, duration: seconds, ...options });
  if (onResponse) tracker.on('response', onResponse);
  return summarize(await tracker);
}

module.exports = { SCENARIOS, requestOptions, runLoad };

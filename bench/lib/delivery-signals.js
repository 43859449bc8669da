'use strict';
// What the dispatch benches send with a destination: numbers spread over ranges of two countries, and the receipts and
// codes a build takes on outcome reports (DECISIONS 24), when it takes them.
const mysql = require('mysql2/promise');
const seed = require('./seed');

// 997 numbers (a prime: in turns against 500 clients or 1,500 configurations, every pair comes up), half British mobiles
// +447400rrnnnn, half French +33612rrnnnn: 200 ranges (the number without its last 4 digits), none of them hot.
const DESTINATION_COUNT = 997;
const DESTINATIONS_LABEL = '+447400…/+33612… (200 ranges)';
const DESTINATIONS = Array.from({ length: DESTINATION_COUNT }, (_, j) => {
  const range = String(Math.floor(j / 2) % 100).padStart(2, '0');
  const subscriber = String(j).padStart(4, '0');
  return j % 2 === 0 ? `+447400${range}${subscriber}` : `+33612${range}${subscriber}`;
});

// Per report of `sent` messages: 90 % delivered (no demotion under the default 0.8), every message a code, 80 % entered.
function receiptsOf(sent) {
  const delivered = Math.round(sent * 0.9);
  return { delivered, undelivered: sent - delivered, codesSent: sent, verified: Math.round(sent * 0.8) };
}

/**
 * Whether the build takes receipts and codes: one report carrying `delivered` (no destination, so it feeds no signal).
 * The build before them refuses the unknown field with 400.
 */
async function takesReceipts(url, smsConfigId) {
  const answer = await seed.post(`${url}/api/v1/dispatch/outcomes`, {
    headers: { 'x-api-key': seed.DISPATCHER_API_KEY },
    body: { smsConfigId, sent: 0, failed: 0, delivered: 1 },
  });
  if (answer.status === 400) return false;
  seed.expect2xx('outcomes with delivered', answer);
  return true;
}

/**
 * Gives every client a learned baseline B (yesterday's highest window, written straight into pumping_baseline), so that
 * velocity does not fire: the run measures the pumping guard as it runs once B has learned each client's traffic, not
 * the first days after the upgrade, when every busy range of a client in monitor is suspected once.
 */
async function seedLearnedBaselines(databaseUrl) {
  const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const connection = await mysql.createConnection({ uri: databaseUrl });
  try {
    await connection.query('INSERT INTO pumping_baseline (client_id, day, highest_sent) SELECT id, ?, 1000000000 FROM client', [yesterday]);
  } finally {
    await connection.end();
  }
}

module.exports = { DESTINATIONS, DESTINATIONS_LABEL, receiptsOf, takesReceipts, seedLearnedBaselines };

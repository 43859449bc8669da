'use strict';
const mysql = require('mysql2/promise');

/** DROP + CREATE the database: the service's migrations create the schema when it starts on it. */
async function recreateDatabase({ serverUrl, database }) {
  const connection = await mysql.createConnection({ uri: serverUrl });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4`);
  } finally {
    await connection.end();
  }
}

module.exports = { recreateDatabase };

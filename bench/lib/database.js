'use strict';
const fs = require('node:fs');
const path = require('node:path');
const mysql = require('mysql2/promise');

const SCHEMA_FILE = path.join(__dirname, '..', 'schema.mysql.sql');

/** DROP + CREATE the database; the dev-only schema file is applied only when asked. */
async function recreateDatabase({ serverUrl, database, createSchema }) {
  const connection = await mysql.createConnection({ uri: serverUrl, multipleStatements: true });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4`);
    if (createSchema) {
      await connection.query(`USE \`${database}\``);
      await connection.query(fs.readFileSync(SCHEMA_FILE, 'utf8'));
    }
  } finally {
    await connection.end();
  }
}

module.exports = { recreateDatabase };

/**
 * Prints the development admin key (`npm run --silent keys`), so a new user can call the API without reading a file:
 * `ADMIN=$(npm run --silent keys)`. The key comes from DATA_DIR/development-secrets.json, which the first `npm start`
 * writes (and this does, if it runs first); it is never logged. In production the admin keys are ADMIN_API_KEYS.
 * DATA_DIR is read as the service reads it: from the environment, else from ./.env.
 */
import { resolve } from 'node:path';
import { loadDevelopmentSecrets } from '../src/config/development-secrets';
import { loadDotEnv } from '../src/config/dotenv';

loadDotEnv();
const dataDir = resolve(process.env.DATA_DIR || './data');
process.stdout.write(`${loadDevelopmentSecrets(dataDir).secrets.adminApiKey}\n`);

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SQLite tables written again as TypeORM writes them, with the same columns, types, defaults, keys, indexes and rows:
 * TypeORM reads a table's auto-increment column, unique and foreign key names from its CREATE TABLE text, and only in its
 * own spelling (quoted names), so it misread the hand-written tables and could neither check them against the entities
 * nor generate migrations for them. Each table is copied into its new definition and renamed back, in the migrations'
 * transaction, with foreign keys off (TypeORM turns them off around migrations), so dropping `client` deletes no
 * configuration; a table already written so is left alone.
 */
export class TablesAsTypeormWritesThem1798000000000 implements MigrationInterface {
  name = 'TablesAsTypeormWritesThem1798000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      const [current] = (await queryRunner.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [
        table.name,
      ])) as Array<{
        sql: string;
      }>;
      if (current.sql.startsWith(`CREATE TABLE "${table.name}"`)) continue;
      const columns = table.columns.map((column) => `"${column}"`).join(', ');
      await queryRunner.query(table.create.replace(`CREATE TABLE "${table.name}"`, `CREATE TABLE "temporary_${table.name}"`));
      await queryRunner.query(`INSERT INTO "temporary_${table.name}" (${columns}) SELECT ${columns} FROM "${table.name}"`);
      await queryRunner.query(`DROP TABLE "${table.name}"`);
      await queryRunner.query(`ALTER TABLE "temporary_${table.name}" RENAME TO "${table.name}"`);
      for (const index of table.indexes) await queryRunner.query(index);
    }
    const broken = (await queryRunner.query('PRAGMA foreign_key_check')) as unknown[];
    if (broken.length > 0) throw new Error(`foreign keys broken after rewriting the tables: ${JSON.stringify(broken)}`);
  }

  /** The tables stay as TypeORM writes them: the earlier spelling meant the same. */
  async down(): Promise<void> {}
}

interface TableDefinition {
  name: string;
  columns: string[];
  create: string;
  indexes: string[];
}

const TABLES: TableDefinition[] = [
  {
    name: 'client',
    columns: [
      'id',
      'app_name',
      'app_description',
      'app_url',
      'secret_key_digest',
      'preferred_sms_gateway',
      'preferred_email_gateway',
      'preferred_push_notification_gateway',
      'is_host',
      'created_at',
      'sms_config_count',
      'is_active',
      'updated_at',
      'secret_key_rotated_at',
      'previous_secret_key_digest',
      'previous_key_expires_at',
    ],
    create:
      'CREATE TABLE "client" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "app_name" varchar(100) NOT NULL, ' +
      '"app_description" varchar(1000), "app_url" varchar(2048) NOT NULL, "secret_key_digest" char(64) NOT NULL, ' +
      '"preferred_sms_gateway" varchar(100), "preferred_email_gateway" varchar(100), ' +
      '"preferred_push_notification_gateway" varchar(100), "is_host" boolean NOT NULL, ' +
      `"created_at" datetime NOT NULL DEFAULT (datetime('now')), "sms_config_count" integer NOT NULL DEFAULT (0), ` +
      '"is_active" boolean NOT NULL DEFAULT (1), "updated_at" datetime, "secret_key_rotated_at" datetime, ' +
      '"previous_secret_key_digest" char(64), "previous_key_expires_at" datetime, ' +
      'CONSTRAINT "UQ_client_secret_key_digest" UNIQUE ("secret_key_digest"))',
    indexes: ['CREATE UNIQUE INDEX "UQ_client_previous_secret_key_digest" ON "client" ("previous_secret_key_digest")'],
  },
  {
    name: 'sms_config',
    columns: [
      'id',
      'client_id',
      'provider_name',
      'provider_url',
      'username',
      'password_sealed',
      'api_key_sealed',
      'sender_id',
      'sms_type',
      'sms_api',
      'balance_url',
      'balance',
      'per_sms_cost',
      'is_active',
      'created_at',
      'updated_at',
    ],
    create:
      'CREATE TABLE "sms_config" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "client_id" integer NOT NULL, ' +
      '"provider_name" varchar(100) NOT NULL, "provider_url" varchar(2048), "username" varchar(255), ' +
      '"password_sealed" text, "api_key_sealed" text, "sender_id" varchar(20), "sms_type" varchar(50), ' +
      '"sms_api" varchar(2048) NOT NULL, "balance_url" varchar(2048), "balance" decimal(18,6) NOT NULL DEFAULT (0), ' +
      '"per_sms_cost" decimal(18,6) NOT NULL DEFAULT (0), "is_active" boolean NOT NULL DEFAULT (1), ' +
      `"created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime, ` +
      'CONSTRAINT "FK_sms_config_client" FOREIGN KEY ("client_id") REFERENCES "client" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
    indexes: ['CREATE INDEX "IDX_sms_config_client_id" ON "sms_config" ("client_id", "id")'],
  },
  {
    name: 'audit_event',
    columns: [
      'id',
      'event_id',
      'occurred_at',
      'action',
      'actor',
      'client_id',
      'sms_config_id',
      'request_id',
      'changed',
      'unpublished',
      'published_at',
    ],
    create:
      'CREATE TABLE "audit_event" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "event_id" char(36) NOT NULL, ' +
      '"occurred_at" datetime NOT NULL, "action" varchar(64) NOT NULL, "actor" varchar(64) NOT NULL, "client_id" integer, ' +
      '"sms_config_id" integer, "request_id" varchar(128), "changed" varchar(1024) NOT NULL, ' +
      '"unpublished" boolean NOT NULL DEFAULT (0), "published_at" datetime, ' +
      'CONSTRAINT "UQ_audit_event_event_id" UNIQUE ("event_id"))',
    indexes: [
      'CREATE INDEX "IDX_audit_event_unpublished" ON "audit_event" ("id") WHERE unpublished = 1',
      'CREATE INDEX "IDX_audit_event_action" ON "audit_event" ("action", "id")',
      'CREATE INDEX "IDX_audit_event_client" ON "audit_event" ("client_id", "id")',
    ],
  },
  {
    name: 'idempotent_request',
    columns: ['scope', 'idempotency_key', 'request_digest', 'claim', 'claimed_until', 'status_code', 'answer_sealed', 'expires_at'],
    create:
      'CREATE TABLE "idempotent_request" ("scope" varchar(80) NOT NULL, "idempotency_key" varchar(255) NOT NULL, ' +
      '"request_digest" char(64) NOT NULL, "claim" char(36) NOT NULL, "claimed_until" datetime NOT NULL, ' +
      '"status_code" smallint, "answer_sealed" text, "expires_at" datetime NOT NULL, ' +
      'PRIMARY KEY ("scope", "idempotency_key"))',
    indexes: ['CREATE INDEX "IDX_idempotent_request_expires_at" ON "idempotent_request" ("expires_at")'],
  },
];

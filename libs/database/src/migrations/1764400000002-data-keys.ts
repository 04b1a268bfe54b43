import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, PROJECTOR_ROLE } from '../roles';

/**
 * One data key per (workspace, user), AES-256, stored wrapped (encrypted) by the master key:
 * `wrapped_key` is iv (12 bytes) ‖ GCM tag (16) ‖ encrypted key (32), authenticated with the owner
 * so a wrapped key cannot be moved to another user. `key_version` identifies the master key that
 * wrapped it (a 31-bit fingerprint), so a key wrapped by another master key is reported as such and a
 * rotation can be re-run. Erasure destroys a key (crypto-shredding): `destroyed_at` is set and
 * `wrapped_key` nulled; the row stays as a tombstone, so no new key is ever created for that owner.
 *
 * Not a read model, so no per-user row-level security: no query runs here under a user's identity.
 * The table is only reached through the key store (libs/crypto) inside the processes, which need
 * every owner's key to write and read their events (the API and the process managers as engram_app,
 * which creates and destroys keys; projections and rebuilds as engram_projector, which only reads);
 * and a key is useless without the master key, which never enters the database. Row-level security
 * is still enabled and forced, with policies giving those two roles every row, so that the table
 * follows the rule of every table with owners (no other role, the table owner included, sees a key)
 * and the row-level-security test keeps checking it. Master-key rotation therefore runs as engram_app.
 */
export class DataKeys1764400000002 implements MigrationInterface {
  name = 'DataKeys1764400000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE data_keys (
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      wrapped_key bytea,
      key_version int NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      destroyed_at timestamptz,
      PRIMARY KEY (workspace_id, user_id),
      CONSTRAINT data_keys_live_or_destroyed
        CHECK ((wrapped_key IS NULL) = (destroyed_at IS NOT NULL))
    )`);
    await runner.query('ALTER TABLE data_keys ENABLE ROW LEVEL SECURITY');
    await runner.query('ALTER TABLE data_keys FORCE ROW LEVEL SECURITY');
    await runner.query(`CREATE POLICY data_keys_processes ON data_keys FOR ALL TO ${APP_ROLE}
      USING (true) WITH CHECK (true)`);
    await runner.query(`CREATE POLICY data_keys_projector ON data_keys FOR SELECT TO ${PROJECTOR_ROLE}
      USING (true)`);
    // No DELETE: a destroyed key stays as a tombstone.
    await runner.query(`GRANT SELECT, INSERT, UPDATE ON data_keys TO ${APP_ROLE}`);
    await runner.query(`GRANT SELECT ON data_keys TO ${PROJECTOR_ROLE}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE data_keys');
  }
}

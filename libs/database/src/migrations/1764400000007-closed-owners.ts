import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APPEND_BATCH_FUNCTION, CLOSED_OWNERS_SCHEMA } from '@engram/event-store';
import { APP_ROLE } from '../roles';

/**
 * An erasure closes its user (see schema.ts): the append function refuses new streams of a closed
 * owner from now on, so work in flight during the erasure cannot start a history after it.
 */
export class ClosedOwners1764400000007 implements MigrationInterface {
  name = 'ClosedOwners1764400000007';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of CLOSED_OWNERS_SCHEMA) await runner.query(statement);
    await runner.query(APPEND_BATCH_FUNCTION);
    // Under RLS like every table with user rows; the store's own bookkeeping, read by the append
    // function for whichever user an append names (as data_keys).
    await runner.query('ALTER TABLE closed_owners ENABLE ROW LEVEL SECURITY');
    await runner.query('ALTER TABLE closed_owners FORCE ROW LEVEL SECURITY');
    await runner.query(`CREATE POLICY closed_owners_store ON closed_owners FOR ALL TO ${APP_ROLE}
      USING (true) WITH CHECK (true)`);
    await runner.query(`GRANT SELECT, INSERT ON closed_owners TO ${APP_ROLE}`);
  }

  async down(): Promise<void> {
    // The append function checks the table: dropping it would break every append.
    throw new Error('ClosedOwners1764400000007 cannot be reverted');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APPEND_BATCH_FUNCTION, DELETED_STREAMS_SCHEMA } from '@engram/event-store';
import { APP_ROLE } from '../roles';

/**
 * Deleted streams keep a nameless tombstone instead of their row (see schema.ts): an erased user's
 * stream names leave `event_streams`. The append function checks the tombstones from now on.
 */
export class DeletedStreamDigests1764400000006 implements MigrationInterface {
  name = 'DeletedStreamDigests1764400000006';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of DELETED_STREAMS_SCHEMA) await runner.query(statement);
    await runner.query(APPEND_BATCH_FUNCTION);
    // Deleting a stream removes its row; its tombstone is written, never removed.
    await runner.query(`GRANT DELETE ON event_streams TO ${APP_ROLE}`);
    await runner.query(`GRANT SELECT, INSERT ON deleted_streams TO ${APP_ROLE}`);
  }

  async down(): Promise<void> {
    // The names of deleted streams are gone: there is nothing to restore them from.
    throw new Error('DeletedStreamDigests1764400000006 cannot be reverted');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APPEND_BATCH_FUNCTION } from '@engram/event-store';
import { APP_ROLE } from '../roles';

/** Group commits become one call of a server-side function (see append-function.ts). */
export class AppendBatchFunction1764400000004 implements MigrationInterface {
  name = 'AppendBatchFunction1764400000004';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(APPEND_BATCH_FUNCTION);
    await runner.query('REVOKE EXECUTE ON FUNCTION engram_append_batch FROM PUBLIC');
    await runner.query(`GRANT EXECUTE ON FUNCTION engram_append_batch TO ${APP_ROLE}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP FUNCTION engram_append_batch');
  }
}

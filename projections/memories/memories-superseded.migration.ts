import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contradictions supersede (issue 20): a memory replaced by a newer approved one keeps its row with the
 * status `superseded` and the id of the newer one; a detection records the memory it replaces.
 */
export class MemoriesSuperseded1764400020700 implements MigrationInterface {
  name = 'MemoriesSuperseded1764400020700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories DROP CONSTRAINT memories_status_check');
    await runner.query(`ALTER TABLE memories ADD CONSTRAINT memories_status_check CHECK (status IN
      ('pending', 'approved', 'rejected', 'expired', 'evicted', 'deleted', 'superseded'))`);
    await runner.query('ALTER TABLE memories ADD COLUMN supersedes text');
    await runner.query('ALTER TABLE memories ADD COLUMN superseded_by text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories DROP COLUMN superseded_by');
    await runner.query('ALTER TABLE memories DROP COLUMN supersedes');
    await runner.query(`DELETE FROM memories WHERE status = 'superseded'`);
    await runner.query('ALTER TABLE memories DROP CONSTRAINT memories_status_check');
    await runner.query(`ALTER TABLE memories ADD CONSTRAINT memories_status_check CHECK (status IN
      ('pending', 'approved', 'rejected', 'expired', 'evicted', 'deleted'))`);
  }
}

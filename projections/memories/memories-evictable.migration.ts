import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `evictable`: whether the per-user cap may evict the memory (`isEvictableByCap`, written by the
 * projection), so that the cap's query reads the rule's answer instead of restating it.
 */
export class MemoriesEvictable1764400005010 implements MigrationInterface {
  name = 'MemoriesEvictable1764400005010';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories ADD COLUMN evictable boolean NOT NULL DEFAULT false');
    // Rows projected before the column: the rule as it reads in this version (approved facts whose
    // approval was not an admin's); every row projected from now on takes it from the projection.
    await runner.query(`UPDATE memories SET evictable = true
      WHERE status = 'approved' AND kind = 'fact'
        AND NOT (decided_by @> '{"kind": "person", "role": "admin"}'::jsonb)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE memories DROP COLUMN evictable');
  }
}

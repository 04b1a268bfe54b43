import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each worker records the roles it runs (ENGRAM_WORKER_ROLE: projections, process managers, or
 * both), so that the fair share of each role's partitions counts only the workers that run that
 * role. A worker of an earlier version, which records no roles, runs both (the default).
 */
export class WorkerRoles1764400000008 implements MigrationInterface {
  name = 'WorkerRoles1764400000008';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE worker_instances
      ADD COLUMN roles text[] NOT NULL DEFAULT '{projections,process-managers}'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE worker_instances DROP COLUMN roles');
  }
}

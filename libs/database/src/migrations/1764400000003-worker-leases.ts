import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, PROJECTOR_ROLE } from '../roles';

/**
 * Background work is split into partitions (one per projection, process manager and scheduler);
 * a worker runs a partition only while it holds its lease. Times are the database's, so workers'
 * clocks never have to agree.
 */
export class WorkerLeases1764400000003 implements MigrationInterface {
  name = 'WorkerLeases1764400000003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE worker_leases (
      name text PRIMARY KEY,
      holder text,
      expires_at timestamptz NOT NULL DEFAULT '-infinity',
      generation bigint NOT NULL DEFAULT 0,
      acquired_at timestamptz
    )`);
    await runner.query(`CREATE TABLE worker_instances (
      id text PRIMARY KEY,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now()
    )`);
    for (const table of ['worker_leases', 'worker_instances']) {
      await runner.query(`GRANT SELECT ON ${table} TO ${APP_ROLE}`);
      await runner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${PROJECTOR_ROLE}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE worker_instances');
    await runner.query('DROP TABLE worker_leases');
  }
}

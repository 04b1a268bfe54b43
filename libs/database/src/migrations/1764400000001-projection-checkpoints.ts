import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, PROJECTOR_ROLE } from '../roles';

export class ProjectionCheckpoints1764400000001 implements MigrationInterface {
  name = 'ProjectionCheckpoints1764400000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      position bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`GRANT SELECT ON projection_checkpoints TO ${APP_ROLE}`);
    await runner.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON projection_checkpoints TO ${PROJECTOR_ROLE}`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE projection_checkpoints');
  }
}

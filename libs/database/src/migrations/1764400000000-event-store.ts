import type { MigrationInterface, QueryRunner } from 'typeorm';
import { EVENT_STORE_SCHEMA } from '@engram/event-store';
import { APP_ROLE, PROJECTOR_ROLE } from '../roles';

export class EventStore1764400000000 implements MigrationInterface {
  name = 'EventStore1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of EVENT_STORE_SCHEMA) await runner.query(statement);
    // Append-only for the API: no UPDATE on events; DELETE only serves stream deletion (erasure).
    await runner.query(`GRANT SELECT, INSERT, DELETE ON events TO ${APP_ROLE}`);
    await runner.query(`GRANT SELECT, INSERT, UPDATE ON event_streams TO ${APP_ROLE}`);
    await runner.query(`GRANT SELECT, UPDATE ON event_store_head TO ${APP_ROLE}`);
    await runner.query(
      `GRANT SELECT ON events, event_streams, event_store_head TO ${PROJECTOR_ROLE}`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE events, event_streams, event_store_head');
  }
}

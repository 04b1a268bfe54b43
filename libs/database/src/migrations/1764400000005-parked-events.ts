import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, PROJECTOR_ROLE } from '../roles';

/**
 * Events a background consumer could not apply after its retries, one row per (consumer, owner):
 * that owner's later events wait behind it while every other owner flows. `engram_settings` holds
 * what every process must agree on, such as the number of partitions the work is cut into.
 * The API role sees only counts (health, metrics), through a function: the rows name owners.
 */
export class ParkedEvents1764400000005 implements MigrationInterface {
  name = 'ParkedEvents1764400000005';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE parked_events (
      consumer text NOT NULL,
      workspace_id text NOT NULL,
      user_id text NOT NULL,
      partition text NOT NULL,
      position bigint NOT NULL,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      error text NOT NULL,
      attempts integer NOT NULL,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, workspace_id, user_id)
    )`);
    await runner.query(`CREATE INDEX parked_events_partition ON parked_events (partition)`);
    await runner.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON parked_events TO ${PROJECTOR_ROLE}`,
    );
    // Like every table with user rows: under row-level security. The workers see all of it, the
    // owner too (its counting function is what the API calls), the API role has no grant at all.
    await runner.query('ALTER TABLE parked_events ENABLE ROW LEVEL SECURITY');
    await runner.query('ALTER TABLE parked_events FORCE ROW LEVEL SECURITY');
    await runner.query(`CREATE POLICY parked_events_projector ON parked_events FOR ALL
      TO ${PROJECTOR_ROLE} USING (true) WITH CHECK (true)`);
    // The owner (migrations that replay a read model forget its parked events, as a rebuild does).
    await runner.query(`CREATE POLICY parked_events_owner ON parked_events FOR ALL
      TO CURRENT_USER USING (true) WITH CHECK (true)`);
    await runner.query(`CREATE FUNCTION engram_parked_counts()
      RETURNS TABLE (consumer text, parked bigint)
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
      AS $$ SELECT consumer, count(*) FROM parked_events GROUP BY consumer $$`);
    await runner.query(`REVOKE ALL ON FUNCTION engram_parked_counts() FROM PUBLIC`);
    await runner.query(
      `GRANT EXECUTE ON FUNCTION engram_parked_counts() TO ${APP_ROLE}, ${PROJECTOR_ROLE}`,
    );
    await runner.query(`CREATE TABLE engram_settings (
      key text PRIMARY KEY,
      value text NOT NULL
    )`);
    await runner.query(`GRANT SELECT ON engram_settings TO ${APP_ROLE}`);
    await runner.query(`GRANT SELECT, INSERT ON engram_settings TO ${PROJECTOR_ROLE}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE engram_settings');
    await runner.query('DROP FUNCTION engram_parked_counts()');
    await runner.query('DROP TABLE parked_events');
  }
}

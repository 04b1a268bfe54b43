import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The feed kept one English line per event (summary, title); it now keeps what the line was made of
 * (`details`), which the API writes in the reader's language. Rows written before have no details,
 * so the feed is emptied and its checkpoints set back to 0: the workers replay it from the log, as
 * `engram rebuild` would. TRUNCATE, because row-level security (forced on the table) would hide
 * every row from a DELETE run by an owner that is not a superuser. What the feed had parked is
 * forgotten, as a rebuild does: the replay meets it again and parks it again if it still fails.
 */
export class ActivityDetails1764400016200 implements MigrationInterface {
  name = 'ActivityDetails1764400016200';

  async up(runner: QueryRunner): Promise<void> {
    await this.replayFromTheStart(runner);
    await runner.query(
      `ALTER TABLE activity_events
         DROP COLUMN summary, DROP COLUMN title, ADD COLUMN details jsonb NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await this.replayFromTheStart(runner);
    await runner.query(
      `ALTER TABLE activity_events
         DROP COLUMN details, ADD COLUMN summary text NOT NULL, ADD COLUMN title text NOT NULL`,
    );
  }

  private async replayFromTheStart(runner: QueryRunner): Promise<void> {
    await runner.query('TRUNCATE activity_events');
    await runner.query(
      `UPDATE projection_checkpoints SET position = 0, updated_at = now()
        WHERE name = 'activity_events' OR starts_with(name, 'activity_events#')`,
    );
    await runner.query(`DELETE FROM parked_events WHERE consumer = 'activity_events'`);
  }
}

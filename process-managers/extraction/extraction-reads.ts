import { preparedQuery } from '@engram/database';
import { isoInstantSql as iso, type IsoInstant, type MemoryRecord } from '@engram/projections';
import type { EntityManager } from 'typeorm';

/** What the extraction reads of one user at each of their messages. */
export type ExtractionReads = Readonly<{
  /** Null when the user never changed anything: memory on, not paused, generation 0. */
  settings: Readonly<{
    enabled: boolean;
    pausedUntil: IsoInstant | null;
    generation: number;
  }> | null;
  /** The session's last messages, oldest first. */
  window: readonly Readonly<{
    messageId: string;
    role: string;
    text: string;
    occurredAt: IsoInstant;
  }>[];
  /** The memories the extractor may restate or supersede: pending and approved, oldest first. */
  memories: readonly Readonly<{
    memoryId: string;
    kind: MemoryRecord['kind'];
    content: string | null;
  }>[];
}>;

/**
 * The memory settings, the live window and the active memories in one prepared statement: one
 * round trip per message instead of three (each was a statement for PostgreSQL to execute and a
 * socket write and wake-up for the worker, which runs on the cores the appends need). Rows come
 * back as JSON holding only what the extraction uses, ordered as `findMemorySettings`,
 * `findLiveWindow` and `findMemories` order them (the integration test compares them).
 */
const EXTRACTION_READS_SQL = `
SELECT
  (SELECT json_build_object('enabled', s.enabled, 'pausedUntil', ${iso('s.paused_until')},
     'generation', s.generation)
    FROM memory_settings s WHERE s.workspace_id = $1 AND s.user_id = $2) AS settings,
  (SELECT coalesce(json_agg(json_build_object(
     'messageId', w.message_id, 'role', w.role, 'text', w.text,
     'occurredAt', ${iso('w.occurred_at')}) ORDER BY w.position), '[]') FROM (
     SELECT * FROM session_messages m
      WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.session_id = $3
      ORDER BY m.position DESC LIMIT $4
   ) w) AS "window",
  (SELECT coalesce(json_agg(json_build_object(
     'memoryId', m.memory_id, 'kind', m.kind, 'content', m.content)
     ORDER BY m.created_at, m.memory_id), '[]') FROM memories m
    WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.status IN ('pending', 'approved')) AS memories`;

export async function readExtractionInputs(
  manager: EntityManager,
  owner: Readonly<{ workspaceId: string; userId: string }>,
  sessionId: string,
  windowLength: number,
): Promise<ExtractionReads> {
  const [row] = await preparedQuery<ExtractionReads>(manager, EXTRACTION_READS_SQL, [
    owner.workspaceId,
    owner.userId,
    sessionId,
    windowLength,
  ]);
  return row!;
}

import type { Pool } from 'pg';

/**
 * The reads of GET …/context as plain SQL, statement by statement in one transaction under the
 * user's identity (row-level security), as a hand-written client of the same tables would do them.
 */
export async function readContextRaw(
  pool: Pool,
  workspaceId: string,
  userId: string,
  sessionId: string,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `SELECT set_config('engram.workspace_id', $1, true), set_config('engram.user_id', $2, true),
              set_config('engram.roles', 'agent', true)`,
      [workspaceId, userId],
    );
    const owner = [workspaceId, userId];
    await client.query('SELECT * FROM workspace_policies WHERE workspace_id = $1', [workspaceId]);
    await client.query(
      'SELECT * FROM memory_settings WHERE workspace_id = $1 AND user_id = $2',
      owner,
    );
    await client.query(
      'SELECT * FROM sessions WHERE workspace_id = $1 AND user_id = $2 AND session_id = $3',
      [...owner, sessionId],
    );
    await client.query(
      `SELECT * FROM session_messages WHERE workspace_id = $1 AND user_id = $2 AND session_id = $3
        ORDER BY position DESC LIMIT 20`,
      [...owner, sessionId],
    );
    await client.query(
      `SELECT * FROM memories WHERE workspace_id = $1 AND user_id = $2 AND status = 'approved'
        ORDER BY created_at, memory_id`,
      owner,
    );
    await client.query(
      'SELECT * FROM identity_cards WHERE workspace_id = $1 AND user_id = $2',
      owner,
    );
    await client.query(
      `SELECT * FROM actions WHERE workspace_id = $1 AND user_id = $2
        ORDER BY created_at DESC, action_id DESC LIMIT 50`,
      owner,
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

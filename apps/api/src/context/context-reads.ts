import { DEFAULT_MEMORY_POLICY, type MemoryPolicy } from '@engram/domain';
import {
  ActionRecord,
  IdentityCard,
  MemoryRecord,
  MemorySettings,
  Session,
  SessionMessage,
  WorkspacePolicy,
  toMemoryPolicy,
} from '@engram/projections';
import { RECENT_ACTIONS_DEFAULTS } from '@engram/prompt-blocks';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { fromJsonRow } from './json-rows';

export type ContextRows = Readonly<{
  policy: MemoryPolicy;
  settings: MemorySettings | null;
  /** False when an admin switched memory off for the agent that asked. */
  agentEnabled: boolean;
  session: Session | null;
  /** The live window, oldest first. */
  window: SessionMessage[];
  /** Approved memories, oldest first. */
  memories: MemoryRecord[];
  card: IdentityCard | null;
  /** The newest actions, newest first: as many as the recent-actions block may show. */
  actions: ActionRecord[];
}>;

/**
 * Everything a context reads, in one statement (one round trip instead of eight): each read model is
 * a scalar subquery on its primary key or index, rows come back as JSON. The live window's length
 * comes from the workspace policy inside the same statement.
 */
const CONTEXT_READS_SQL = `
SELECT
  (SELECT row_to_json(p) FROM workspace_policies p WHERE p.workspace_id = $1) AS policy,
  (SELECT row_to_json(s) FROM memory_settings s
    WHERE s.workspace_id = $1 AND s.user_id = $2) AS settings,
  (SELECT a.memory_enabled FROM agent_settings a
    WHERE a.workspace_id = $1 AND a.agent_id = $4) AS agent_enabled,
  (SELECT row_to_json(x) FROM sessions x
    WHERE x.workspace_id = $1 AND x.user_id = $2 AND x.session_id = $3) AS session,
  (SELECT coalesce(json_agg(w ORDER BY w.position), '[]') FROM (
     SELECT * FROM session_messages m
      WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.session_id = $3
      ORDER BY m.position DESC
      LIMIT coalesce((SELECT live_window FROM workspace_policies WHERE workspace_id = $1), $5)
   ) w) AS live_window,
  (SELECT coalesce(json_agg(m ORDER BY m.created_at, m.memory_id), '[]') FROM memories m
    WHERE m.workspace_id = $1 AND m.user_id = $2 AND m.status = 'approved') AS memories,
  (SELECT row_to_json(c) FROM identity_cards c
    WHERE c.workspace_id = $1 AND c.user_id = $2) AS card,
  (SELECT coalesce(json_agg(r ORDER BY r.created_at DESC, r.action_id DESC), '[]') FROM (
     SELECT * FROM actions t WHERE t.workspace_id = $1 AND t.user_id = $2
      ORDER BY t.created_at DESC, t.action_id DESC LIMIT $6
   ) r) AS actions`;

type Json = Record<string, unknown>;
type RawContextRows = {
  policy: Json | null;
  settings: Json | null;
  agent_enabled: boolean | null;
  session: Json | null;
  live_window: Json[];
  memories: Json[];
  card: Json | null;
  actions: Json[];
};

export async function readContextRows(
  manager: EntityManager,
  owner: Readonly<{ workspaceId: string; userId: string }>,
  query: Readonly<{ sessionId?: string | undefined; agentId?: string | undefined }>,
): Promise<ContextRows> {
  const [raw] = await manager.query<RawContextRows[]>(CONTEXT_READS_SQL, [
    owner.workspaceId,
    owner.userId,
    query.sessionId ?? null,
    query.agentId ?? null,
    DEFAULT_MEMORY_POLICY.liveWindow,
    RECENT_ACTIONS_DEFAULTS.maxLines,
  ]);
  const one = <Row extends ObjectLiteral>(entity: new () => Row, json: Json | null) =>
    json === null ? null : fromJsonRow(manager, entity, json);
  const all = <Row extends ObjectLiteral>(entity: new () => Row, json: Json[]) =>
    json.map((row) => fromJsonRow(manager, entity, row));
  return {
    policy: toMemoryPolicy(one(WorkspacePolicy, raw!.policy)),
    settings: one(MemorySettings, raw!.settings),
    agentEnabled: raw!.agent_enabled ?? true,
    session: one(Session, raw!.session),
    window: all(SessionMessage, raw!.live_window),
    memories: all(MemoryRecord, raw!.memories),
    card: one(IdentityCard, raw!.card),
    actions: all(ActionRecord, raw!.actions),
  };
}

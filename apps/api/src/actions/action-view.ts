import type { ActionRecord } from '@engram/projections';
import type { ActionView } from '@engram/prompt-blocks';

/** The Action shape of API.md, also what the prompt blocks render. */
export function toActionView(row: ActionRecord): ActionView {
  return {
    actionId: row.actionId,
    traceId: row.traceId,
    tool: row.tool,
    target: row.target,
    summary: row.summary,
    status: row.status,
    requestedVia: row.requestedVia,
    steps: row.steps,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

import type { ActionRecord } from '@engram/projections';
import type { ActionView } from '@engram/prompt-blocks';

/**
 * What the Action view reads of an action row, its instants as the read gave them: `Date` from an
 * entity TypeORM loaded, or the ISO strings the context read renders in SQL (kept as they are).
 */
export type ActionRow<Instant extends Date | string = Date | string> = Pick<
  ActionRecord,
  'actionId' | 'traceId' | 'tool' | 'target' | 'summary' | 'status' | 'requestedVia' | 'steps'
> &
  Readonly<{ createdAt: Instant; expiresAt: Instant | null }>;

const iso = (at: Date | string): string => (typeof at === 'string' ? at : at.toISOString());

/** The Action shape of API.md, also what the prompt blocks render. */
export function toActionView(row: ActionRow): ActionView {
  return {
    actionId: row.actionId,
    traceId: row.traceId,
    tool: row.tool,
    target: row.target,
    summary: row.summary,
    status: row.status,
    requestedVia: row.requestedVia,
    steps: row.steps,
    createdAt: iso(row.createdAt),
    expiresAt: row.expiresAt === null ? null : iso(row.expiresAt),
  };
}

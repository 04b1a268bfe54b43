import { randomUUID } from 'node:crypto';
import {
  DomainNotFoundError,
  auditAccessDecider,
  auditStream,
  type AuditAccessKind,
  type Clock,
} from '@engram/domain';
import { handleCommand, type EventCodec, type EventStore } from '@engram/event-store';

export type AuditAccess = Readonly<{
  workspaceId: string;
  /** The audited user: the event goes to their own history. */
  userId: string;
  access: AuditAccessKind;
  auditorId: string;
  asOf?: string | undefined;
  correlationId?: string | undefined;
}>;

export type AuditDependencies = Readonly<{ store: EventStore; codec: EventCodec; clock: Clock }>;

/**
 * Records that an auditor accessed a user's history, before the access itself (an export that fails
 * halfway is still on record), through the one write path: the audit decider on the user's daily
 * audit stream, appended without reading it (a log). Returns its global position.
 *
 * A user with no event at all never existed: the access is refused (404) and nothing is written,
 * since an audit record would create a history, and a stream, for any name an auditor types. An
 * erased user keeps their events (the erasure record among them), so their access is recorded.
 */
export async function recordAuditAccess(
  deps: AuditDependencies,
  access: AuditAccess,
): Promise<bigint> {
  const first = await deps.store.readUserEvents(access.workspaceId, access.userId, {
    after: 'start',
    maxCount: 1,
  });
  if (first.length === 0) {
    throw new DomainNotFoundError(
      `User ${access.userId} has no history in workspace ${access.workspaceId}`,
    );
  }
  const now = deps.clock.now().toUTC();
  const correlationId = access.correlationId ?? randomUUID();
  const result = await handleCommand(
    deps,
    auditStream(access.workspaceId, access.userId, now.toISODate()!),
    auditAccessDecider,
    {
      type: 'RecordAuditAccess',
      access: access.access,
      auditorId: access.auditorId,
      asOf: access.asOf,
    },
    {
      metadata: {
        workspaceId: access.workspaceId,
        userId: access.userId,
        causationId: correlationId,
        correlationId,
        occurredAt: now.toISO()!,
      },
      appendOnly: true,
    },
  );
  return result.position;
}

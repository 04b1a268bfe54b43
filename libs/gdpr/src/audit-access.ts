import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  if (!(await hasHistory(deps.store, access.workspaceId, access.userId))) {
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

/**
 * Whether the user has any event. On a store whose per-user read trails the appends (EventStoreDB),
 * an empty answer may be a user whose first events are not indexed yet: it is asked again, with
 * backoff, until the store's lag bound has passed, before the user is said to have no history. An
 * auditor's typo costs that bound (5 s by default) before its 404; a real user is found at once.
 */
async function hasHistory(
  store: EventStore,
  workspaceId: string,
  userId: string,
): Promise<boolean> {
  const deadline = Date.now() + (store.userIndexLagBoundMs ?? 0);
  for (let delay = 10; ; delay = Math.min(delay * 2, 500)) {
    const first = await store.readUserEvents(workspaceId, userId, { after: 'start', maxCount: 1 });
    if (first.length > 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
  }
}

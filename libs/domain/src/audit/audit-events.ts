import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';
import { userStream } from '../streams';

export const AUDIT_ACCESS_KINDS = ['export', 'as_of', 'erasure'] as const;
export type AuditAccessKind = (typeof AUDIT_ACCESS_KINDS)[number];

/**
 * An auditor looked at (or erased) a user's history: auditors are audited too. Appended to the
 * audited user's own daily audit stream, so it is part of that user's history and of their export.
 * A plain fact (no decision): no personal data, only who looked, how, and the instant asked for.
 */
export type AuditAccessRecorded = Event<
  'AuditAccessRecorded',
  { access: AuditAccessKind; auditorId: string; asOf?: string }
>;

export type AuditEvent = AuditAccessRecorded;

export const AUDIT_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'AuditAccessRecorded', version: 1, personalFields: [] },
];

/** `{ws}/{user}/audit/{yyyy-mm-dd}`: one stream per audited user and day, so none grows without bound. */
export function auditStream(workspaceId: string, userId: string, day: string): string {
  return userStream(workspaceId, userId, 'audit', day);
}

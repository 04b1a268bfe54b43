import type { ActionStatus } from '@engram/domain';
import { DateTime } from 'luxon';

/**
 * What the prompt blocks need to know about one action, as a read model hands it over. Dates are
 * ISO 8601 strings; one without an offset is read as UTC, so the output never depends on the
 * machine's zone.
 */
export type ActionView = Readonly<{
  actionId: string;
  /** The cross-channel trace the action belongs to, when known. Carried along, never rendered. */
  traceId?: string | null;
  tool: string;
  target: string | null;
  summary: string;
  status: ActionStatus;
  /** The channel the action was asked on (telegram, web, email...). */
  requestedVia: string;
  /** What became of the action, in any order: confirmed, executed... with the channel and when. */
  steps: readonly Readonly<{ status: string; channel: string | null; at: string }>[];
  createdAt: string;
  expiresAt: string | null;
}>;

/** `Date.prototype.toISOString`'s form: the one the reads render every instant in. */
const ISO_UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The instant an ISO string names, or null when it names none. Offset-less strings are UTC. */
export function parseInstant(iso: string | null | undefined): DateTime | null {
  if (!iso) return null;
  // The form the reads render is read by Date, several times faster than luxon's ISO parser (a
  // context parses dozens); only when Date writes it back the same, so an impossible date
  // (02-30T…, T24:00…) still goes to luxon, which says it is not one.
  if (ISO_UTC_MILLIS.test(iso)) {
    const millis = Date.parse(iso);
    if (!Number.isNaN(millis) && new Date(millis).toISOString() === iso) {
      return DateTime.fromMillis(millis, { zone: 'utc' });
    }
  }
  const parsed = DateTime.fromISO(iso, { zone: 'utc' });
  return parsed.isValid ? parsed : null;
}

/**
 * When the action reached its current status: the latest step with that status, else the latest
 * step of any status, else (for an expired action) its expiry; null when none of these is known.
 */
export function statusReachedAt(action: ActionView): DateTime | null {
  const latest = (steps: readonly { at: string }[]): DateTime | null =>
    steps.reduce<DateTime | null>((best, step) => {
      const at = parseInstant(step.at);
      return at && (!best || at > best) ? at : best;
    }, null);
  const matching = latest(action.steps.filter((step) => step.status === action.status));
  if (matching) return matching;
  const any = latest(action.steps);
  if (any) return any;
  return action.status === 'expired' ? parseInstant(action.expiresAt) : null;
}

/** The last time anything happened to the action (asked or any step), in epoch milliseconds. */
export function lastActivityMillis(action: ActionView): number {
  return [action.createdAt, ...action.steps.map((step) => step.at)].reduce((best, iso) => {
    const at = parseInstant(iso);
    return at ? Math.max(best, at.toMillis()) : best;
  }, Number.NEGATIVE_INFINITY);
}

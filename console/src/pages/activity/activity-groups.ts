import type { ActivityGroup } from '../../api/types';

const ACTION_STATUS: Record<string, string> = {
  ActionProposed: 'pending',
  ActionConfirmed: 'confirmed',
  ActionExecuted: 'executed',
  ActionAborted: 'aborted',
  ActionFailed: 'failed',
  ActionExpired: 'expired',
};

/** Where the group's action stands: its latest action event, if it has one. */
export function groupStatus(group: ActivityGroup): string | null {
  const last = group.events.findLast((event) => event.type in ACTION_STATUS);
  return last ? ACTION_STATUS[last.type]! : null;
}

/** Stable across refreshes: the trace, or the single event of an untraced group. */
export function groupKey(group: ActivityGroup): string {
  return group.traceId ?? `event:${group.firstAt}:${group.events[0]?.type ?? ''}:${group.title}`;
}

/** An older page after what is loaded (a group seen in a refresh meanwhile is not repeated). */
export function appendPage(
  loaded: readonly ActivityGroup[],
  page: readonly ActivityGroup[],
): ActivityGroup[] {
  const loadedKeys = new Set(loaded.map(groupKey));
  return [...loaded, ...page.filter((group) => !loadedKeys.has(groupKey(group)))];
}

/**
 * Puts a fresh first page on top of what is loaded. Groups never move (they are ordered by their
 * first event), so a fresh page is the newest groups, some of them already shown and maybe updated.
 * When the fresh page shares nothing with what is loaded, more arrived than a page holds: start over.
 */
export function mergeFreshPage(
  loaded: readonly ActivityGroup[],
  fresh: readonly ActivityGroup[],
): { groups: ActivityGroup[]; added: number; restarted: boolean } {
  const loadedKeys = new Set(loaded.map(groupKey));
  const freshKeys = new Set(fresh.map(groupKey));
  const added = fresh.filter((group) => !loadedKeys.has(groupKey(group))).length;
  if (loaded.length > 0 && added === fresh.length && fresh.length > 0) {
    return { groups: [...fresh], added, restarted: true };
  }
  return {
    groups: [...fresh, ...loaded.filter((group) => !freshKeys.has(groupKey(group)))],
    added,
    restarted: false,
  };
}

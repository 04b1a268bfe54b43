import type { Locale } from '@engram/domain';
import type { ActionView } from '../action-view';
import { recalledActionLine, type RecalledActionsOptions } from '../recall-actions';

const NONE_PENDING: Readonly<Record<Locale, string>> = {
  fr: 'Aucune action en attente de confirmation.',
  en: 'No action is waiting for confirmation.',
};

/**
 * What `list_pending_actions` answers a model: one recall line per action with the id that
 * `update_action` takes (a model that reads only this text, as MCP clients give it, can then confirm
 * what it listed), or that none waits.
 */
export function renderPendingActions(
  actions: readonly ActionView[],
  options: RecalledActionsOptions,
): string {
  if (actions.length === 0) return NONE_PENDING[options.locale];
  return actions
    .map((action) => `${recalledActionLine(action, options)} [actionId: ${action.actionId}]`)
    .join('\n');
}

import type { Locale } from '@engram/domain';
import type { DateTime } from 'luxon';
import { parseInstant, statusReachedAt, type ActionView } from './action-view';
import { assertTimeZone, formatNumeric } from './dates';
import { MAX_LENGTH, RECALL_STATUS_LABELS, toolLabel } from './labels';
import { quotedSummary, targetForRecall } from './target';

const NO_MATCH: Readonly<Record<Locale, string>> = {
  fr: 'Aucune action trouvée.',
  en: 'No matching action.',
};

export type RecalledActionsOptions = Readonly<{ timeZone: string; locale: Locale }>;

/**
 * The text the recall_actions tool answers with: one line per action, in the order given (the
 * query decides it), dates in figures in the user's zone:
 * `gmail_send → delphine@acme.fr « Relance facture Q2 » : exécutée : proposée le 02/06/2026 14:10, exécutée le 02/06/2026 14:12`
 * `gmail_send → delphine@acme.fr "Relance facture Q2": executed: proposed 2026-06-02 14:10, executed 2026-06-02 14:12`
 * A pending action ends with its expiry ("expire le …" / "expires …") instead. Text from the agent
 * or the user is sanitised and quoted as in the recent-actions block.
 */
export function renderRecalledActions(
  actions: readonly ActionView[],
  options: RecalledActionsOptions,
): string {
  assertTimeZone(options.timeZone);
  if (actions.length === 0) return NO_MATCH[options.locale];
  return actions.map((action) => recalledActionLine(action, options)).join('\n');
}

/**
 * What an action was, on one line: `gmail_send → delphine@acme.fr « Relance facture Q2 »` (the
 * tool, its target, its summary quoted), as recall lines and the activity feed's titles show it.
 */
export function actionSubject(
  action: Readonly<{ tool: string; target: string | null; summary: string }>,
  locale: Locale,
): string {
  const tool = toolLabel(action.tool, locale);
  const target = targetForRecall(action.target, locale, action.tool);
  const summary = quotedSummary(action.summary, locale, MAX_LENGTH.summary);
  return [tool, ...(target ? [`→ ${target}`] : []), ...(summary ? [summary] : [])].join(' ');
}

export function recalledActionLine(action: ActionView, options: RecalledActionsOptions): string {
  const { locale, timeZone } = options;
  const fr = locale === 'fr';
  const inZone = (at: DateTime | null): string | null =>
    at ? formatNumeric(at.setZone(timeZone), locale) : null;

  const subject = actionSubject(action, locale);
  const status = RECALL_STATUS_LABELS[locale][action.status];

  const history: string[] = [];
  const proposed = inZone(parseInstant(action.createdAt));
  if (proposed) history.push(fr ? `proposée le ${proposed}` : `proposed ${proposed}`);
  if (action.status === 'pending') {
    const expires = inZone(parseInstant(action.expiresAt));
    if (expires) history.push(fr ? `expire le ${expires}` : `expires ${expires}`);
  } else {
    const reached = inZone(statusReachedAt(action));
    if (reached) history.push(fr ? `${status} le ${reached}` : `${status} ${reached}`);
  }

  const separator = fr ? ' : ' : ': ';
  return [subject, status, ...(history.length > 0 ? [history.join(', ')] : [])].join(separator);
}

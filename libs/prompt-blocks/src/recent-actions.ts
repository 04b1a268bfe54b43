import { inZone, type Locale } from '@engram/domain';
import type { DateTime } from 'luxon';
import { lastActivityMillis, parseInstant, statusReachedAt, type ActionView } from './action-view';
import { assertTimeZone, formatDayTime, timeLeft } from './dates';
import { MAX_LENGTH, RECENT_STATUS_LABELS, channelLabel, toolLabel } from './labels';
import { quotedSummary, targetForRecentBlock } from './target';

export const RECENT_ACTIONS_HEADINGS: Readonly<Record<Locale, string>> = {
  fr: '[Ce que tu as fait recemment]',
  en: '[What you did recently]',
};

/**
 * The product's instruction that goes with the block, under its heading (seed 000: "Gilbert le
 * consulte d'abord avant de répondre au statut d'une action"). The lines alone only list actions: a
 * model asked "tu as envoyé mon mail ?" could answer from the conversation, or guess, instead of
 * reading them, and would not know that older actions are one tool call away. Our own wording,
 * never user text.
 */
export const RECENT_ACTIONS_GUIDANCE: Readonly<Record<Locale, string>> = {
  fr: "Avant de répondre sur le statut d'une action, consulte d'abord ce bloc ; pour une action qui n'y figure pas, appelle l'outil recall_actions.",
  en: 'Before answering about the status of an action, check this block first; for an action not listed here, call the recall_actions tool.',
};

const NO_RECENT_ACTION: Readonly<Record<Locale, string>> = {
  fr: '- (aucune action récente)',
  en: '- (no recent actions)',
};

export const RECENT_ACTIONS_DEFAULTS = { limit: 10, withinHours: 48, maxLines: 50 } as const;

export type RecentActionsSelection = Readonly<{
  now: DateTime;
  /** At least this many actions are shown when there are that many (default 10). */
  limit?: number;
  /** Every action with activity in this many hours before `now` is shown (default 48). */
  withinHours?: number;
  /** Hard cap on the lines, whatever the two rules above give (default 50). */
  maxLines?: number;
}>;

export type RecentActionsOptions = RecentActionsSelection &
  Readonly<{
    /** The user's IANA zone (Europe/Paris): every date is shown in it. */
    timeZone: string;
    locale: Locale;
  }>;

/** `text` is the heading, the guidance line, then one line per action. */
export type RecentActionsBlock = {
  heading: string;
  guidance: string;
  lines: string[];
  text: string;
};

/**
 * The actions the block shows, newest first: those with activity (asked, or any step) in the last
 * `withinHours` hours, or the last `limit` actions, whichever is more, never more than `maxLines`.
 * So a quiet user still sees their last ten actions from last week, and a busy day is shown whole.
 * An action asked three days ago and executed an hour ago counts as an hour old. Ties are broken
 * by the time asked, then by actionId, so the order never depends on the input's.
 */
export function selectRecentActions(
  actions: readonly ActionView[],
  selection: RecentActionsSelection,
): ActionView[] {
  const limit = wholeOrDefault(selection.limit, RECENT_ACTIONS_DEFAULTS.limit);
  const withinHours = Math.max(0, selection.withinHours ?? RECENT_ACTIONS_DEFAULTS.withinHours);
  const maxLines = wholeOrDefault(selection.maxLines, RECENT_ACTIONS_DEFAULTS.maxLines);
  const since = selection.now.toMillis() - withinHours * 3_600_000;
  const sorted = actions
    .map((action) => ({
      action,
      activity: lastActivityMillis(action),
      asked: parseInstant(action.createdAt)?.toMillis() ?? Number.NEGATIVE_INFINITY,
    }))
    .sort(
      (a, b) =>
        compareDescending(a.activity, b.activity) ||
        compareDescending(a.asked, b.asked) ||
        (a.action.actionId < b.action.actionId
          ? -1
          : a.action.actionId > b.action.actionId
            ? 1
            : 0),
    );
  const withinWindow = sorted.filter((entry) => entry.activity >= since).length;
  const count = Math.min(Math.max(withinWindow, limit), maxLines);
  return sorted.slice(0, count).map((entry) => entry.action);
}

/**
 * The "[Ce que tu as fait recemment]" block of the system prompt: what the assistant proposed and
 * did for the user, on any channel, one line per action, dates in the user's zone. Pure: the same
 * actions and `now` always give the same text. See `selectRecentActions` for which actions. Every
 * piece of text an agent supplied (tool, target, summary, channel) is flattened to one line with
 * its brackets neutralised, and quoted unless it is an identifier or an address (`toolLabel`,
 * `targetForRecentBlock`, `channelLabel`), so it cannot add words of its own to the line.
 */
export function renderRecentActions(
  actions: readonly ActionView[],
  options: RecentActionsOptions,
): RecentActionsBlock {
  assertTimeZone(options.timeZone);
  const heading = RECENT_ACTIONS_HEADINGS[options.locale];
  const guidance = RECENT_ACTIONS_GUIDANCE[options.locale];
  const selected = selectRecentActions(actions, options);
  const lines =
    selected.length > 0
      ? selected.map((action) => recentActionLine(action, options))
      : [NO_RECENT_ACTION[options.locale]];
  return { heading, guidance, lines, text: [heading, guidance, ...lines].join('\n') };
}

/**
 * One line: `- tool target : status (demandé le … via …)`. With no target the summary is shown as
 * a title instead, so the line still says what the action was about.
 */
export function recentActionLine(action: ActionView, options: RecentActionsOptions): string {
  const { locale, timeZone } = options;
  const now = inZone(options.now, timeZone);
  const dayTime = (at: DateTime | null): string | null =>
    at ? formatDayTime(inZone(at, timeZone), locale, now.year) : null;

  const tool = toolLabel(action.tool, locale);
  const about =
    targetForRecentBlock(action.target, locale, action.tool) ??
    quotedSummary(action.summary, locale, MAX_LENGTH.title);
  const subject = about ? `${tool} ${about}` : tool;

  let status = RECENT_STATUS_LABELS[locale][action.status];
  if (action.status === 'pending') {
    const expiresAt = parseInstant(action.expiresAt);
    if (expiresAt) {
      const left = timeLeft(now, expiresAt);
      status +=
        locale === 'fr'
          ? left
            ? ` (expire dans ${left})`
            : ' (expirée)'
          : left
            ? ` (expires in ${left})`
            : ' (expired)';
    }
  } else {
    const when = dayTime(statusReachedAt(action));
    if (when) status += locale === 'fr' ? ` le ${when}` : ` ${when}`;
  }

  const asked = dayTime(parseInstant(action.createdAt));
  const via = channelLabel(action.requestedVia, locale);
  const origin = [
    locale === 'fr' ? 'demandé' : 'asked',
    ...(asked ? [locale === 'fr' ? `le ${asked}` : asked] : []),
    ...(via ? [`via ${via}`] : []),
  ];
  const provenance = origin.length > 1 ? ` (${origin.join(' ')})` : '';

  return `- ${subject}${locale === 'fr' ? ' : ' : ': '}${status}${provenance}`;
}

function compareDescending(a: number, b: number): number {
  return a === b ? 0 : a > b ? -1 : 1;
}

function wholeOrDefault(value: number | undefined, fallback: number): number {
  return value === undefined || Number.isNaN(value) ? fallback : Math.max(0, Math.floor(value));
}

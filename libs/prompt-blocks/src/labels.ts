import type { ActionStatus, Locale } from '@engram/domain';
import { identifierOrQuote } from './sanitize';

/** Longest shown length, in characters, of each piece of text that comes from outside. */
export const MAX_LENGTH = {
  tool: 48,
  channel: 32,
  /** A target containing "@": an email address or a handle. */
  address: 64,
  /** A target that looks like an identifier: enough to tell two apart, not to be read out. */
  identifier: 8,
  /** A target that reads as a title, or the summary shown when there is no target. */
  title: 40,
  /** The summary in a recall line. */
  summary: 80,
} as const;

/** The status after an action in the recent-actions block ("gmail_send … : exécuté le …"). */
export const RECENT_STATUS_LABELS: Readonly<
  Record<Locale, Readonly<Record<ActionStatus, string>>>
> = {
  fr: {
    pending: 'en attente de ta confirmation',
    confirmed: 'confirmé',
    executed: 'exécuté',
    aborted: 'annulé',
    failed: 'échoué',
    expired: 'expiré',
  },
  en: {
    pending: 'waiting for your confirmation',
    confirmed: 'confirmed',
    executed: 'executed',
    aborted: 'aborted',
    failed: 'failed',
    expired: 'expired',
  },
};

/** The status in a recall line; French agrees with "l'action" (feminine). */
export const RECALL_STATUS_LABELS: Readonly<
  Record<Locale, Readonly<Record<ActionStatus, string>>>
> = {
  fr: {
    pending: 'en attente',
    confirmed: 'confirmée',
    executed: 'exécutée',
    aborted: 'annulée',
    failed: 'échouée',
    expired: 'expirée',
  },
  en: {
    pending: 'pending',
    confirmed: 'confirmed',
    executed: 'executed',
    aborted: 'aborted',
    failed: 'failed',
    expired: 'expired',
  },
};

const CHANNEL_LABELS: Readonly<Record<Locale, Readonly<Record<string, string>>>> = {
  fr: { telegram: 'Telegram', web: 'le chat web', email: 'email' },
  en: { telegram: 'Telegram', web: 'the web chat', email: 'email' },
};

/**
 * How a channel reads after "via": telegram, web and email (any case) get a human label; any other
 * is shown bare when it is an identifier ("sms"), quoted otherwise (see `identifierOrQuote`), and
 * '' when blank.
 */
export function channelLabel(channel: string, locale: Locale): string {
  const known = CHANNEL_LABELS[locale][channel.trim().toLowerCase()];
  return known ?? identifierOrQuote(channel, locale, MAX_LENGTH.channel);
}

/** A tool name as it opens an action's line: bare when an identifier, quoted otherwise; "?" if blank. */
export function toolLabel(tool: string, locale: Locale): string {
  return identifierOrQuote(tool, locale, MAX_LENGTH.tool) || '?';
}

/** A kind of thing an identifier target can name, and how to tell it. */
type IdentifierKind = Readonly<{
  /** A tool of this family acts on this kind of thing (`calendar_respond`, `calendar_update`…). */
  tools: RegExp;
  /** Ids of this kind look like this (`evt_92ab…`). */
  ids: RegExp;
  label: Readonly<Record<Locale, string>>;
}>;

/**
 * The seed names what an id target is, `calendar_respond (invit evt_92ab…)`, rather than showing a
 * bare id: the model (and the user it answers) reads "the invitation", not a hash. The kind is
 * known from the tool's family or from the id's prefix; any other id is shown alone, since a label
 * would be a guess.
 */
const IDENTIFIER_KINDS: readonly IdentifierKind[] = [
  { tools: /^calendar_/i, ids: /^evt_/i, label: { fr: 'invit', en: 'invite' } },
];

/** The human label in front of an identifier target (`invit`), or null when its kind is unknown. */
export function identifierLabel(tool: string, id: string, locale: Locale): string | null {
  const kind = IDENTIFIER_KINDS.find(
    (candidate) => candidate.tools.test(tool.trim()) || candidate.ids.test(id),
  );
  return kind ? kind.label[locale] : null;
}

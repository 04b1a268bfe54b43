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

/**
 * The seed's human label in front of an identifier target, by tool:
 * `calendar_respond (invit evt_92ab…)`. Other tools show the identifier alone.
 */
export const IDENTIFIER_TARGET_LABELS: Readonly<Record<Locale, Readonly<Record<string, string>>>> =
  {
    fr: { calendar_respond: 'invit' },
    en: { calendar_respond: 'invite' },
  };

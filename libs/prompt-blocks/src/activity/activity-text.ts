import type { Locale, MemoryKind } from '@engram/domain';
import { parseInstant } from '../action-view';
import { assertTimeZone, formatNumeric } from '../dates';
import { channelLabel } from '../labels';
import { actionSubject } from '../recall-actions';
import { quote, sanitizeInline, shorten } from '../sanitize';
import type { ActivityAction, ActivityEntry, FactOnlyType } from './activity-entry';

/** The longest line the feed shows (a summary or a group's title). */
export const ACTIVITY_LINE_MAX = 160;

export type ActivityTextOptions = Readonly<{
  locale: Locale;
  /** The user's IANA zone: the dates inside a line (a pause's end) are shown in it. */
  timeZone: string;
}>;

const MEMORY_KIND_LABELS: Readonly<Record<Locale, Readonly<Record<MemoryKind, string>>>> = {
  fr: {
    identity: 'identité',
    preference: 'préférence',
    ongoing: 'en cours',
    commitment: 'engagement',
    fact: 'fait',
    context: 'contexte',
  },
  en: {
    identity: 'identity',
    preference: 'preference',
    ongoing: 'ongoing',
    commitment: 'commitment',
    fact: 'fact',
    context: 'context',
  },
};

/** The lines that take no field, by event type. */
const FACT_LINES: Readonly<Record<Locale, Readonly<Record<FactOnlyType, string>>>> = {
  fr: {
    MemoryReinforced: 'Souvenir confirmé à nouveau',
    MemoryApproved: 'Souvenir approuvé',
    MemoryRejected: 'Souvenir rejeté',
    MemoryExpired: 'Souvenir en attente expiré (rejeté automatiquement)',
    MemoryEvicted: 'Souvenir retiré (limite atteinte)',
    MemorySuperseded: 'Souvenir remplacé par un plus récent',
    MemoryDeleted: 'Souvenir supprimé',
    MemoriesWiped: 'Souvenirs effacés',
    IdentityCardRegenerated: "Fiche d'identité mise à jour",
    ActionConfirmed: 'Action confirmée',
    ActionExecuted: 'Action exécutée',
    ActionExpired: 'Action expirée',
  },
  en: {
    MemoryReinforced: 'Memory reinforced',
    MemoryApproved: 'Memory approved',
    MemoryRejected: 'Memory rejected',
    MemoryExpired: 'Pending memory expired (rejected automatically)',
    MemoryEvicted: 'Memory evicted (cap reached)',
    MemorySuperseded: 'Memory superseded by a newer one',
    MemoryDeleted: 'Memory deleted',
    MemoriesWiped: 'Memories wiped',
    IdentityCardRegenerated: 'Identity card updated',
    ActionConfirmed: 'Action confirmed',
    ActionExecuted: 'Action executed',
    ActionExpired: 'Action expired',
  },
};

/** The words of the lines that take fields; `{n}` and `{at}` are filled in. */
const PHRASES = {
  fr: {
    userMessage: "Message de l'utilisateur",
    assistantReply: "Réponse de l'assistant",
    extractionFailed: "Échec de l'extraction des souvenirs",
    summaryExtended: 'Résumé de la conversation prolongé ({n})',
    summaryFailed: 'Échec du résumé de la conversation',
    candidate: 'Souvenir proposé',
    memoryOff: 'Mémoire désactivée',
    memoryPaused: "Mémoire en pause jusqu'au {at}",
    memoryOn: 'Mémoire activée',
    proposed: 'Action proposée',
    aborted: 'Action annulée',
    failed: "Échec de l'action",
    exported: "Historique exporté par l'auditeur",
    viewedAsOf: "Souvenirs consultés au {at} par l'auditeur",
    erasure: "Effacement demandé par l'auditeur",
    analysisDeferred: "Analyse du message suspendue jusqu'au {at} (quota quotidien atteint)",
    summaryDeferred: "Résumé de la conversation suspendu jusqu'au {at} (quota quotidien atteint)",
    unknown: 'Événement',
    colon: ' : ',
  },
  en: {
    userMessage: 'Message from the user',
    assistantReply: 'Assistant replied',
    extractionFailed: 'Memory extraction failed',
    summaryExtended: 'Rolling summary extended ({n})',
    summaryFailed: 'Rolling summary failed',
    candidate: 'Memory candidate',
    memoryOff: 'Memory turned off',
    memoryPaused: 'Memory paused until {at}',
    memoryOn: 'Memory turned on',
    proposed: 'Action proposed',
    aborted: 'Action aborted',
    failed: 'Action failed',
    exported: 'History exported by auditor',
    viewedAsOf: 'Memories viewed as of {at} by auditor',
    erasure: 'Erasure requested by auditor',
    analysisDeferred: 'Message analysis paused until {at} (daily quota reached)',
    summaryDeferred: 'Rolling summary paused until {at} (daily quota reached)',
    unknown: 'Event',
    colon: ': ',
  },
} as const satisfies Record<Locale, Record<string, string>>;

/** Events whose channel is part of what happened (a message, a step of an action): "… via Telegram". */
const SAID_ON_A_CHANNEL: ReadonlySet<string> = new Set([
  'MessageRecorded',
  'ActionProposed',
  'ActionConfirmed',
  'ActionExecuted',
  'ActionAborted',
]);

/**
 * One line saying what an event was, in the reader's language, from the structured fields the
 * activity read model keeps: "Message de l'utilisateur via Telegram : « Relance Delphine »" /
 * "Message from the user via Telegram: "Relance Delphine"". Pure: the same entry, channel and
 * options always give the same line; at most ACTIVITY_LINE_MAX characters.
 */
export function activitySummary(
  entry: ActivityEntry,
  channel: string | null,
  options: ActivityTextOptions,
): string {
  assertTimeZone(options.timeZone);
  const label =
    channel !== null && SAID_ON_A_CHANNEL.has(entry.type)
      ? channelLabel(channel, options.locale)
      : '';
  const { head, detail } = describe(entry, options);
  const line = `${head}${label ? ` via ${label}` : ''}${detail ? `${PHRASES[options.locale].colon}${detail}` : ''}`;
  return shorten(line, ACTIVITY_LINE_MAX);
}

/** A group's title when it is about an action: `gmail_send → delphine@acme.fr « Relance facture Q2 »`. */
export function activityActionTitle(action: ActivityAction, locale: Locale): string {
  return shorten(actionSubject(action, locale), ACTIVITY_LINE_MAX);
}

/** What names a group of the feed: the action it is about, else its first event. */
export type ActivityTitleSource = Readonly<{
  action: ActivityAction | null;
  entry: ActivityEntry;
  channel: string | null;
}>;

/** A group's title: its action (`activityActionTitle`), else the line of its event. */
export function activityTitle(source: ActivityTitleSource, options: ActivityTextOptions): string {
  return source.action
    ? activityActionTitle(source.action, options.locale)
    : activitySummary(source.entry, source.channel, options);
}

/** What happened (`head`) and, after a colon, the text it is about (`detail`, '' for none). */
function describe(
  entry: ActivityEntry,
  { locale, timeZone }: ActivityTextOptions,
): { head: string; detail: string } {
  const words = PHRASES[locale];
  const only = (head: string) => ({ head, detail: '' });
  const instant = (iso: string | null): string | null => {
    const at = parseInstant(iso);
    return at ? formatNumeric(at.setZone(timeZone), locale) : null;
  };
  switch (entry.type) {
    case 'MessageRecorded':
      return entry.role === 'assistant'
        ? only(words.assistantReply)
        : { head: words.userMessage, detail: entry.excerpt ? quote(entry.excerpt, locale) : '' };
    case 'MemoryExtractionFailed':
      return only(`${words.extractionFailed}${inBrackets(entry.reason)}`);
    case 'RollingSummaryExtended': {
      const n = `${entry.messageCount} message${entry.messageCount === 1 ? '' : 's'}`;
      return only(words.summaryExtended.replace('{n}', n));
    }
    case 'RollingSummaryFailed':
      return only(`${words.summaryFailed}${inBrackets(entry.reason)}`);
    case 'MemoryCandidateDetected': {
      const kind = MEMORY_KIND_LABELS[locale][entry.memoryKind] ?? sanitizeInline(entry.memoryKind);
      return { head: `${words.candidate} (${kind})`, detail: quote(entry.excerpt, locale) };
    }
    case 'MemorySettingsChanged': {
      if (!entry.enabled) return only(words.memoryOff);
      const until = instant(entry.pausedUntil);
      return only(until ? words.memoryPaused.replace('{at}', until) : words.memoryOn);
    }
    case 'ActionProposed':
      return { head: words.proposed, detail: actionSubject(entry, locale) };
    case 'ActionAborted':
      return { head: words.aborted, detail: quotedText(entry.reason, locale) };
    case 'ActionFailed':
      return { head: words.failed, detail: quotedText(entry.error, locale) };
    case 'LlmCallDeferred': {
      const phrase = entry.purpose === 'summary' ? words.summaryDeferred : words.analysisDeferred;
      return only(phrase.replace('{at}', instant(entry.until) ?? '?'));
    }
    case 'AuditAccessRecorded': {
      const by = sanitizeInline(entry.auditorId);
      if (entry.access === 'export') return only(`${words.exported} ${by}`);
      if (entry.access === 'erasure') return only(`${words.erasure} ${by}`);
      return only(`${words.viewedAsOf.replace('{at}', instant(entry.asOf) ?? '?')} ${by}`);
    }
    default: {
      // Also a type written by a newer version, which this union does not know.
      const line = (FACT_LINES[locale] as Readonly<Record<string, string | undefined>>)[entry.type];
      return only(line ?? `${words.unknown} ${sanitizeInline(entry.type)}`);
    }
  }
}

/** A reason code in brackets: " (timeout)"; '' when there is none. */
function inBrackets(reason: string): string {
  const clean = sanitizeInline(reason);
  return clean ? ` (${clean})` : '';
}

/** A text from outside, quoted: « Plus besoin »; '' when there is none. */
function quotedText(text: string | null, locale: Locale): string {
  const clean = sanitizeInline(text ?? '');
  return clean ? quote(clean, locale) : '';
}

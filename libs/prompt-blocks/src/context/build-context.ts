import { inZone, type Locale, type MemoryKind } from '@engram/domain';
import type { DateTime } from 'luxon';
import { parseInstant, type ActionView } from '../action-view';
import { assertTimeZone, formatDayTime } from '../dates';
import { channelLabel } from '../labels';
import { RECENT_ACTIONS_GUIDANCE, recentActionLine, selectRecentActions } from '../recent-actions';
import { sanitizeInline } from '../sanitize';
import {
  CONTEXT_HEADINGS,
  CONTEXT_MEMORY_LABELS,
  CONTEXT_MEMORY_ORDER,
  CONTEXT_PREAMBLE,
  CONTEXT_ROLE_LABELS,
  MEMORY_DISABLED_NOTES,
  type MemoryDisabledReason,
} from './headings';
import { quoteLine, quoteSanitized, quoteVerbatim } from './quote';
import { countTokens, tokenizerForModel, type TokenizerName } from './tokenizer';

/** One message of the live window, as the read model hands it over. */
export type LiveWindowMessage = Readonly<{
  messageId: string;
  role: 'user' | 'assistant';
  text: string;
  /** ISO 8601; without an offset it is read as UTC. */
  occurredAt: string;
  channel: string;
}>;

/** One approved memory, with what the trimming needs to know about its use. */
export type ContextMemory = Readonly<{
  memoryId: string;
  kind: MemoryKind;
  content: string;
  dueAt: string | null;
  lastUsedAt: string | null;
  lastSeenAt: string;
  seenCount: number;
}>;

export type ContextInput = Readonly<{
  locale: Locale;
  /** The user's IANA zone (Europe/Paris): every date in the prompt is shown in it. */
  timeZone: string;
  now: DateTime;
  /** The last messages of the session, oldest first. */
  liveWindow: readonly LiveWindowMessage[];
  rollingSummary: string;
  /** Approved memories only; empty when memory is off (and ignored then anyway). */
  memories: readonly ContextMemory[];
  /** Set when memory is off for this conversation: a note replaces the memories. */
  memoryDisabled?: MemoryDisabledReason | undefined;
  recentActions: readonly ActionView[];
  /** Markdown. */
  identityCard: string;
  /** The most tokens the system prompt may take; no limit when absent. */
  maxTokens?: number | undefined;
  /** Picks the tokenizer, see `tokenizerForModel`. */
  model?: string | undefined;
}>;

export type ContextMemoryView = { memoryId: string; content: string; dueAt: string | null };

export type ContextTrimmed = {
  /** Live-window messages left out, oldest first. */
  liveWindowMessages: number;
  /** Memories left out, least used first. */
  memories: number;
  /** True when the rolling summary was shortened or left out. */
  rollingSummary: boolean;
  /** Recent actions left out for the budget (not counting those the block never shows). */
  recentActions: number;
  /** True when the identity card was shortened or left out. */
  identityCard: boolean;
};

export type AgentContext = Readonly<{
  /** The messages kept, oldest first, as given. */
  liveWindow: LiveWindowMessage[];
  /** As given, or as shortened ("…" marks the cut); '' when left out. */
  rollingSummary: string;
  /** The memories in the prompt, by kind, in prompt order; content as given (raw). */
  memories: { byType: Partial<Record<MemoryKind, ContextMemoryView[]>> };
  /** As given, or as shortened ("…" marks the cut); '' when left out or memory is off. */
  identityCard: string;
  /** The actions in the prompt, newest first. */
  recentActions: ActionView[];
  systemPrompt: string;
  tokens: { used: number; budget: number | null; tokenizer: TokenizerName };
  trimmed: ContextTrimmed;
  /** The memories shown in the prompt, in prompt order: they count as used. */
  usedMemoryIds: string[];
}>;

/**
 * The context an agent is given for its next turn, and the system prompt that carries it. Pure
 * and deterministic: no I/O, time comes from `now`, the same input always gives the same output.
 * Throws only a RangeError for a time zone luxon does not know.
 *
 * The system prompt is, in this order, blocks separated by a blank line, each under its heading
 * (`CONTEXT_HEADINGS`) on a line of its own:
 *
 * 0. one line saying that lines starting with ">" are quoted data, never instructions
 *    (`CONTEXT_PREAMBLE`);
 * 1. what the agent knows about the user: the memories grouped by kind, in the order of
 *    `CONTEXT_MEMORY_ORDER` under a label line each ("Préférences :"), one "> - content" line per
 *    memory, commitments soonest first with their due date in the user's zone ("avant le 12 juin
 *    à 09:00"). When memory is off, one note line (`MEMORY_DISABLED_NOTES`) and nothing else: no
 *    memory, and no identity card either, since it is the digest of the memories;
 * 2. the rolling summary, quoted;
 * 3. the live window, oldest first: a line "Utilisateur (9 juin à 10:58 via Telegram) :" then
 *    the message quoted word for word (see `quoteVerbatim`);
 * 4. the recent actions: the line saying to read them before answering about an action and to
 *    call recall_actions for older ones (`RECENT_ACTIONS_GUIDANCE`), then the actions as
 *    `recentActionLine` writes them (already one line each, text from outside sanitised and
 *    quoted), newest first, chosen by `selectRecentActions`;
 * 5. the identity card, quoted, at the bottom.
 *
 * A block with nothing to show (no memory, empty summary...) is left out, heading included; the
 * memories block is kept with its note when memory is off. Text from outside can never make a
 * line of its own, pose as a heading or close a block: each of its lines starts with "> " (the
 * live window is otherwise verbatim but for bracketed headings, see `quoteVerbatim`; in memories,
 * summary and card square brackets all become ⟦ ⟧, see `quoteSanitized`), and the bits of it in
 * recent-action lines and message head lines (tools, targets, titles, channels) are flattened to
 * one line, brackets neutralised, cut short, and quoted unless they are identifiers or addresses.
 *
 * Tokens: the prompt is counted with the model's tokenizer (`tokenizerForModel`). When
 * `maxTokens` is set and exceeded, content goes in this order until the prompt fits:
 * 1. live-window messages, oldest first, always keeping the last one;
 * 2. memories, least used first (oldest of lastUsedAt/lastSeenAt, then lowest seenCount, then
 *    memoryId), commitments still due in the future only after all the others;
 * 3. the rolling summary, word by word from its start ("…" marks the cut), then whole;
 * 4. recent actions that are not pending, oldest first;
 * 5. last, the identity card, word by word from its end, then whole; then pending actions,
 *    oldest first.
 * Each candidate prompt is rendered and counted exactly; a binary search over that sequence of
 * cuts finds the fewest cuts that fit with O(log n) counts instead of one per cut, and the prompt
 * returned is always one that was counted. `tokens.used` is the count of the returned prompt.
 * When even the minimum (preamble, memory note, last message) does not fit, the minimum is
 * returned with `tokens.used > tokens.budget`; nothing throws. A budget that is not a finite
 * number means no budget.
 */
export function buildAgentContext(input: ContextInput): AgentContext {
  assertTimeZone(input.timeZone);
  const { locale, timeZone } = input;
  const now = input.now.setZone(timeZone);
  const tokenizer = tokenizerForModel(input.model);
  const budget = normaliseBudget(input.maxTokens);
  const memoryOff = input.memoryDisabled !== undefined;

  const messages = input.liveWindow.map((message) => ({
    message,
    lines: messageLines(message, locale, now),
  }));
  const memories = (memoryOff ? [] : input.memories).filter(
    (memory) => sanitizeInline(memory.content) !== '',
  );
  const memoryRemoval = memoryRemovalOrder(memories, now);
  const summary = wordCuts(input.rollingSummary);
  const card = wordCuts(memoryOff ? '' : input.identityCard);
  const shownActions = selectRecentActions(input.recentActions, { now });
  // Positions in `shownActions` (newest first), oldest first.
  const oldestFirst = shownActions.map((_, index) => index).reverse();
  const nonPendingRemoval = oldestFirst.filter((i) => shownActions[i]?.status !== 'pending');
  const pendingRemoval = oldestFirst.filter((i) => shownActions[i]?.status === 'pending');

  const phases = [
    Math.max(0, messages.length - 1),
    memoryRemoval.length,
    summary.words,
    nonPendingRemoval.length,
    card.words,
    pendingRemoval.length,
  ] as const;
  const totalCuts = phases.reduce((sum, length) => sum + length, 0);

  /** The content left after the first `k` cuts of the trimming order. */
  const cutsAt = (k: number): Cuts => {
    let left = k;
    const take = (length: number): number => {
      const taken = Math.min(left, length);
      left -= taken;
      return taken;
    };
    const [messageCuts, memoryCuts, summaryCuts, nonPendingCuts, cardCuts, pendingCuts] =
      phases.map(take) as [number, number, number, number, number, number];
    return { messageCuts, memoryCuts, summaryCuts, nonPendingCuts, cardCuts, pendingCuts };
  };

  const render = (cuts: Cuts): Rendered => {
    const keptMessages = messages.slice(cuts.messageCuts);
    const removedMemories = new Set(memoryRemoval.slice(0, cuts.memoryCuts));
    const keptMemories = orderForPrompt(memories.filter((_, i) => !removedMemories.has(i)));
    const removedActions = new Set([
      ...nonPendingRemoval.slice(0, cuts.nonPendingCuts),
      ...pendingRemoval.slice(0, cuts.pendingCuts),
    ]);
    const keptActions = shownActions.filter((_, i) => !removedActions.has(i));
    const rollingSummary = summary.fromStart(cuts.summaryCuts) ?? input.rollingSummary;
    const identityCard = card.fromEnd(cuts.cardCuts) ?? (memoryOff ? '' : input.identityCard);

    const headings = CONTEXT_HEADINGS[locale];
    const blocks: string[][] = [[CONTEXT_PREAMBLE[locale]]];
    if (input.memoryDisabled !== undefined) {
      blocks.push([headings.memories, MEMORY_DISABLED_NOTES[locale][input.memoryDisabled]]);
    } else if (keptMemories.length > 0) {
      blocks.push([headings.memories, ...memoryLines(keptMemories, locale, now)]);
    }
    const summaryLines = quoteSanitized(rollingSummary);
    if (summaryLines.length > 0) blocks.push([headings.rollingSummary, ...summaryLines]);
    if (keptMessages.length > 0) {
      blocks.push([headings.liveWindow, ...keptMessages.flatMap((entry) => entry.lines)]);
    }
    if (keptActions.length > 0) {
      blocks.push([
        headings.recentActions,
        RECENT_ACTIONS_GUIDANCE[locale],
        ...keptActions.map((action) => recentActionLine(action, { now, timeZone, locale })),
      ]);
    }
    const cardLines = quoteSanitized(identityCard);
    if (cardLines.length > 0) blocks.push([headings.identityCard, ...cardLines]);

    return {
      systemPrompt: blocks.map((lines) => lines.join('\n')).join('\n\n'),
      liveWindow: keptMessages.map((entry) => entry.message),
      memories: keptMemories,
      rollingSummary: summaryLines.length > 0 ? rollingSummary : '',
      identityCard: cardLines.length > 0 ? identityCard : '',
      recentActions: keptActions,
      cuts,
    };
  };

  let chosen = render(cutsAt(0));
  let used = countTokens(chosen.systemPrompt, tokenizer);
  if (budget !== null && used > budget && totalCuts > 0) {
    const minimum = render(cutsAt(totalCuts));
    const minimumUsed = countTokens(minimum.systemPrompt, tokenizer);
    if (minimumUsed > budget) {
      chosen = minimum;
      used = minimumUsed;
    } else {
      // Invariant: the prompt after `tooFew` cuts was counted over budget, after `enough` within.
      let tooFew = 0;
      let enough = totalCuts;
      chosen = minimum;
      used = minimumUsed;
      while (enough - tooFew > 1) {
        const middle = Math.floor((tooFew + enough) / 2);
        const candidate = render(cutsAt(middle));
        const candidateUsed = countTokens(candidate.systemPrompt, tokenizer);
        if (candidateUsed <= budget) {
          enough = middle;
          chosen = candidate;
          used = candidateUsed;
        } else {
          tooFew = middle;
        }
      }
    }
  }

  const byType: Partial<Record<MemoryKind, ContextMemoryView[]>> = {};
  for (const memory of chosen.memories) {
    (byType[memory.kind] ??= []).push({
      memoryId: memory.memoryId,
      content: memory.content,
      dueAt: memory.dueAt,
    });
  }
  const { cuts } = chosen;
  return {
    liveWindow: chosen.liveWindow,
    rollingSummary: chosen.rollingSummary,
    memories: { byType },
    identityCard: chosen.identityCard,
    recentActions: chosen.recentActions,
    systemPrompt: chosen.systemPrompt,
    tokens: { used, budget, tokenizer },
    trimmed: {
      liveWindowMessages: cuts.messageCuts,
      memories: cuts.memoryCuts,
      rollingSummary: cuts.summaryCuts > 0,
      recentActions: cuts.nonPendingCuts + cuts.pendingCuts,
      identityCard: cuts.cardCuts > 0,
    },
    usedMemoryIds: chosen.memories.map((memory) => memory.memoryId),
  };
}

type Cuts = {
  messageCuts: number;
  memoryCuts: number;
  /** Words cut from the start of the summary; all of them means no summary. */
  summaryCuts: number;
  nonPendingCuts: number;
  /** Words cut from the end of the identity card; all of them means no card. */
  cardCuts: number;
  pendingCuts: number;
};

type Rendered = {
  systemPrompt: string;
  liveWindow: LiveWindowMessage[];
  memories: ContextMemory[];
  rollingSummary: string;
  identityCard: string;
  recentActions: ActionView[];
  cuts: Cuts;
};

function normaliseBudget(maxTokens: number | undefined): number | null {
  if (maxTokens === undefined || !Number.isFinite(maxTokens)) return null;
  return Math.max(0, Math.floor(maxTokens));
}

/**
 * A message of the live window: "Utilisateur (9 juin à 10:58 via Telegram) :" then its text,
 * quoted word for word. The channel reads like in the recent-actions block (`channelLabel`).
 */
function messageLines(message: LiveWindowMessage, locale: Locale, now: DateTime): string[] {
  const at = parseInstant(message.occurredAt);
  const when = at ? formatDayTime(inZone(at, now.zoneName!), locale, now.year) : null;
  const channel = channelLabel(message.channel, locale);
  const details = [...(when ? [when] : []), ...(channel ? [`via ${channel}`] : [])].join(' ');
  const speaker = CONTEXT_ROLE_LABELS[locale][message.role];
  const head = details ? `${speaker} (${details})` : speaker;
  const text = quoteVerbatim(message.text);
  return [`${head}${locale === 'fr' ? ' :' : ':'}`, ...(text.length > 0 ? text : [quoteLine('')])];
}

/** The memories block's lines: a label per kind, then one quoted line per memory. */
function memoryLines(memories: readonly ContextMemory[], locale: Locale, now: DateTime): string[] {
  return CONTEXT_MEMORY_ORDER.flatMap((kind) => {
    const ofKind = memories.filter((memory) => memory.kind === kind);
    if (ofKind.length === 0) return [];
    return [
      CONTEXT_MEMORY_LABELS[locale][kind],
      ...ofKind.map((memory) => quoteLine(`- ${withDue(sanitizeInline(memory.content), memory)}`)),
    ];
  });

  /** "… le vendredi 12 juin (avant le 12 juin à 09:00)." : the date goes before a final period. */
  function withDue(content: string, memory: ContextMemory): string {
    const suffix = due(memory);
    if (!suffix) return content;
    return content.endsWith('.') ? `${content.slice(0, -1)}${suffix}.` : `${content}${suffix}`;
  }

  function due(memory: ContextMemory): string {
    const at = memory.kind === 'commitment' ? parseInstant(memory.dueAt) : null;
    if (!at) return '';
    const when = formatDayTime(inZone(at, now.zoneName!), locale, now.year);
    if (at > now) return locale === 'fr' ? ` (avant le ${when})` : ` (by ${when})`;
    return locale === 'fr' ? ` (échéance passée : ${when})` : ` (was due ${when})`;
  }
}

/** Kind order of the prompt; within a kind the given order, commitments soonest due first. */
function orderForPrompt(memories: readonly ContextMemory[]): ContextMemory[] {
  return CONTEXT_MEMORY_ORDER.flatMap((kind) => {
    const ofKind = memories.filter((memory) => memory.kind === kind);
    if (kind !== 'commitment') return ofKind;
    const dueMillis = (memory: ContextMemory): number =>
      parseInstant(memory.dueAt)?.toMillis() ?? Number.POSITIVE_INFINITY;
    return ofKind
      .map((memory, index) => ({ memory, index, due: dueMillis(memory) }))
      .sort((a, b) => (a.due === b.due ? a.index - b.index : a.due < b.due ? -1 : 1))
      .map((entry) => entry.memory);
  });
}

/**
 * Which memories go first when the budget is short (their positions in `memories`): least recently used or seen first (the later
 * of lastUsedAt and lastSeenAt), then least often seen, then by memoryId so the order never
 * depends on the input's. Commitments still due after `now` come after all the others.
 */
function memoryRemovalOrder(memories: readonly ContextMemory[], now: DateTime): number[] {
  const keyed = memories.map((memory, index) => {
    const due = memory.kind === 'commitment' ? parseInstant(memory.dueAt) : null;
    const lastUsed = parseInstant(memory.lastUsedAt)?.toMillis() ?? Number.NEGATIVE_INFINITY;
    const lastSeen = parseInstant(memory.lastSeenAt)?.toMillis() ?? Number.NEGATIVE_INFINITY;
    return {
      memory,
      index,
      protected: due !== null && due > now ? 1 : 0,
      recency: Math.max(lastUsed, lastSeen),
      seen: Number.isFinite(memory.seenCount) ? memory.seenCount : 0,
    };
  });
  keyed.sort(
    (a, b) =>
      a.protected - b.protected ||
      compare(a.recency, b.recency) ||
      compare(a.seen, b.seen) ||
      compare(a.memory.memoryId, b.memory.memoryId) ||
      a.index - b.index,
  );
  return keyed.map((entry) => entry.index);
}

function compare<T extends number | string>(a: T, b: T): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * A text that can lose words: `fromStart(n)` is the text without its first n words, "…" marking
 * the cut; `fromEnd(n)` without its last n words, "…" marking the cut. Either gives '' once every
 * word is cut, and null for no cut (the text as given).
 */
function wordCuts(text: string): {
  words: number;
  fromStart: (cut: number) => string | null;
  fromEnd: (cut: number) => string | null;
} {
  const spans = [...text.matchAll(/\S+/g)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  const words = spans.length;
  return {
    words,
    fromStart: (cut) => {
      if (cut <= 0) return null;
      const first = spans[cut];
      return first ? `…${text.slice(first.start).trimEnd()}` : '';
    },
    fromEnd: (cut) => {
      if (cut <= 0) return null;
      const last = spans[words - 1 - cut];
      return last ? `${text.slice(0, last.end).trimStart()}…` : '';
    },
  };
}

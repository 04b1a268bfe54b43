import type {
  ActionAborted,
  ActionProposed,
  AgentMemoryToggled,
  MemoryCandidateDetected,
  MemoryExtractionFailed,
  MemorySettingsChanged,
  MessageRecorded,
  RollingSummaryExtended,
  RollingSummaryFailed,
  ActionFailed,
  AuditAccessRecorded,
} from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';

/** The longest summary or title the feed stores. */
export const MAX_SUMMARY_LENGTH = 160;
/** How much of a user's message (or a memory's content) a summary quotes. */
export const EXCERPT_LENGTH = 60;
const REASON_LENGTH = 80;

/** `text` on one line, cut to `max` characters (code points) with an ellipsis when longer. */
export function excerpt(text: string, max: number): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  const characters = Array.from(line);
  if (characters.length <= max) return line;
  return `${characters
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** The channel an event happened on: its own (data.channel), else the request's (metadata.channel). */
export function eventChannel(event: DecodedEvent): string | null {
  const { channel } = event.event.data as { channel?: unknown };
  return typeof channel === 'string' ? channel : (event.metadata.channel ?? null);
}

/** How the feed names an action: "gmail_send → delphine@acme.fr «Relance facture Q2»". */
export function actionTitle(
  action: Readonly<{ tool: string; target?: string | null | undefined; summary: string }>,
): string {
  const target = action.target ? ` → ${excerpt(action.target, REASON_LENGTH)}` : '';
  return excerpt(
    `${action.tool}${target} «${excerpt(action.summary, REASON_LENGTH)}»`,
    MAX_SUMMARY_LENGTH,
  );
}

const via = (channel: string | null) => (channel === null ? '' : ` (${channel})`);
const because = (reason: string | undefined) =>
  reason === undefined || reason.trim() === '' ? '' : `: ${excerpt(reason, REASON_LENGTH)}`;
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function describe(event: DecodedEvent): string {
  const channel = eventChannel(event);
  switch (event.event.type) {
    case 'MessageRecorded': {
      const { data } = event.event as MessageRecorded;
      return data.role === 'user'
        ? `Message from the user${via(channel)}: «${excerpt(data.text, EXCERPT_LENGTH)}»`
        : `Assistant replied${via(channel)}`;
    }
    case 'MemoryExtractionFailed': {
      const { data } = event.event as MemoryExtractionFailed;
      return `Memory extraction failed (${excerpt(data.reason, REASON_LENGTH)})`;
    }
    case 'RollingSummaryExtended': {
      const { data } = event.event as RollingSummaryExtended;
      return `Rolling summary extended (${plural(data.messageCount, 'message')})`;
    }
    case 'RollingSummaryFailed': {
      const { data } = event.event as RollingSummaryFailed;
      return `Rolling summary failed (${excerpt(data.reason, REASON_LENGTH)})`;
    }
    case 'MemoryCandidateDetected': {
      const { data } = event.event as MemoryCandidateDetected;
      return `Memory candidate: ${data.kind} «${excerpt(data.content, EXCERPT_LENGTH)}»`;
    }
    case 'MemoryReinforced':
      return 'Memory reinforced';
    case 'MemoryApproved':
      return 'Memory approved';
    case 'MemoryRejected':
      return 'Memory rejected';
    case 'MemoryExpired':
      return 'Memory expired';
    case 'MemoryEvicted':
      return 'Memory evicted (cap reached)';
    case 'MemoryDeleted':
      return 'Memory deleted';
    case 'MemorySettingsChanged': {
      const { data } = event.event as MemorySettingsChanged;
      if (!data.enabled) return 'Memory settings changed (memory off)';
      if (data.pausedUntil !== null) {
        return `Memory settings changed (paused until ${data.pausedUntil})`;
      }
      return 'Memory settings changed (memory on)';
    }
    case 'MemoriesWiped':
      return 'Memories wiped';
    case 'IdentityCardRegenerated':
      return 'Identity card updated';
    case 'MemoryPolicyChanged':
      return 'Memory policy changed';
    case 'AgentMemoryToggled': {
      const { data } = event.event as AgentMemoryToggled;
      return `Agent memory turned ${data.enabled ? 'on' : 'off'} (${data.agentId})`;
    }
    case 'ActionProposed':
      return `Action proposed: ${actionTitle((event.event as ActionProposed).data)}`;
    case 'ActionConfirmed':
      return `Action confirmed${via(channel)}`;
    case 'ActionExecuted':
      return `Action executed${via(channel)}`;
    case 'ActionAborted':
      return `Action aborted${via(channel)}${because((event.event as ActionAborted).data.reason)}`;
    case 'ActionFailed':
      return `Action failed${because((event.event as ActionFailed).data.error)}`;
    case 'ActionExpired':
      return 'Action expired';
    case 'AuditAccessRecorded': {
      const { data } = event.event as AuditAccessRecorded;
      const by = `by auditor ${excerpt(data.auditorId, REASON_LENGTH)}`;
      if (data.access === 'export') return `History exported ${by}`;
      if (data.access === 'as_of') return `Memories viewed as of ${data.asOf ?? '?'} ${by}`;
      return `Erasure requested ${by}`;
    }
    default:
      return `Event ${event.event.type}`;
  }
}

/**
 * One line (at most MAX_SUMMARY_LENGTH characters, in English) saying what an event was, quoting at
 * most the beginning of the user's text. Pure: the same event always gives the same summary.
 */
export function summarizeEvent(event: DecodedEvent): string {
  return excerpt(describe(event), MAX_SUMMARY_LENGTH);
}
